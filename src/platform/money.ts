/**
 * The largest amount accepted anywhere, in cents: a unit price, a line total (price × quantity),
 * a checkout or link total, a refund, a subscription charge (999,999.99 in a two-decimal
 * currency). Every amount column holds it; sums that could exceed it are refused at the edge.
 */
export const MAX_AMOUNT = 99_999_999;

/** One formatter per currency (building an Intl.NumberFormat costs far more than using one). */
const formatters = new Map<string, { format: (n: number) => string; digits: number }>();

/** `1999, 'usd'` → `$19.99` (for messages people read; amounts in data stay integer cents). */
export function formatAmount(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  let formatter = formatters.get(code);
  if (!formatter) {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    formatter = { format: (n) => intl.format(n), digits: intl.resolvedOptions().maximumFractionDigits ?? 2 };
    if (formatters.size < 512) formatters.set(code, formatter);
  }
  return formatter.format(cents / 10 ** formatter.digits);
}
