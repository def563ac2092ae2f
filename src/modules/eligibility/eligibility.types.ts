/** Shared types for the HSA/FSA eligibility data and engine. */

export type EligibilityStatus = 'eligible' | 'requires_lmn' | 'not_eligible';

export interface EligibilityCategory {
  id: string;
  label: string;
  status: EligibilityStatus;
  /**
   * Whole-word phrases, matched after the same normalisation as product names (lowercase, punctuation
   * dropped, simple plurals folded). "a + b" means both phrases must appear anywhere in the name.
   */
  keywords: readonly string[];
  /** Phrases that rule this category out even when one of its keywords matched. */
  negative_keywords?: readonly string[];
  /** Short basis for the decision, shown to the user. */
  rationale: string;
  /** Sunscreen only: a name stating an SPF below this value is not eligible. */
  min_spf?: number;
}

export interface UpcEntry {
  gtin: string;
  name: string;
  category_id: string;
}
