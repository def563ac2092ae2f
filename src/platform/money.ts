/**
 * The largest amount accepted anywhere, in cents: a unit price, a line total (price × quantity),
 * a checkout or link total, a refund, a subscription charge (999,999.99 in a two-decimal
 * currency). Every amount column holds it; sums that could exceed it are refused at the edge.
 */
export const MAX_AMOUNT = 99_999_999;

/** `1999, 'usd'` → `$19.99` (for messages people read; amounts in data stay integer cents). */
export function formatAmount(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(cents / 10 ** digits);
}
