/**
 * An amount split between the HSA/FSA card and the regular card, in integer cents: what a
 * checkout asks for and what its order (or a subscription's renewal order) records.
 * `hsa_amount + regular_amount = total = subtotal + shipping + tax - discount`.
 */
export interface SplitAmounts {
  subtotal: number;
  hsa_amount: number;
  regular_amount: number;
  shipping: number;
  tax: number;
  discount: number;
  total: number;
}
