/** `1999, 'usd'` → `$19.99` (for messages people read; amounts in data stay integer cents). */
export function formatAmount(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(cents / 10 ** digits);
}
