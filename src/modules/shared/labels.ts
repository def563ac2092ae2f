/** A card as receipts and emails name it: kind, brand and last 4 digits, never more. */
export function cardLabel(p: { paymentMethod: string; brand: string | null; last4: string | null }): string {
  return `${p.paymentMethod === 'hsa_fsa_card' ? 'HSA/FSA card' : 'Card'} ${p.brand ?? ''} •••• ${p.last4 ?? '????'}`.replace(
    /\s+/g,
    ' ',
  );
}

/** An amount as receipts and emails show it: `20.00 USD`. */
export const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
