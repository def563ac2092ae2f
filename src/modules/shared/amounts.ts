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

/**
 * The HSA/FSA amount by IIAS category (cents), as card processors take it: prescription (`rx`),
 * `vision`, `clinic`, `dental`, and `otc` (the rest). The five add up to `hsa_amount` exactly.
 */
export interface HealthcareBreakdown {
  rx: number;
  vision: number;
  clinic: number;
  dental: number;
  otc: number;
}

/** A checkout's amounts: the split and, for the HSA/FSA card, its IIAS breakdown (absent on sessions stored before it existed). */
export interface CheckoutAmounts extends SplitAmounts {
  healthcare?: HealthcareBreakdown;
}
