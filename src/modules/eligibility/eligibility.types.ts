/** Shared types for the HSA/FSA eligibility data and engine. */

/**
 * `requires_review`: the name alone cannot decide (a cosmetic that states an SPF, a product whose medical grade or
 * Drug Facts panel the name does not show); a person checks the label. Never payable by HSA/FSA card until then.
 */
export type EligibilityStatus = 'eligible' | 'requires_lmn' | 'not_eligible' | 'requires_review';

export const ELIGIBILITY_STATUSES = [
  'eligible',
  'requires_lmn',
  'not_eligible',
  'requires_review',
] as const satisfies readonly EligibilityStatus[];

/** The public sources a category's rule cites; every rationale starts with one of them. */
export const RULE_SOURCES = [
  'IRS Pub. 502',
  'CARES Act 2020',
  'IRS Ann. 2021-7',
  'IRS Ann. 2011-14',
  "Plan administrators' eligibility lists",
] as const;

/** Two plan administrators' lists whose item pages decide many categories; a rationale citing one starts with it. */
export const HSA_STORE = "Plan administrators' eligibility lists (HSA Store)";
export const FSA_STORE = "Plan administrators' eligibility lists (FSA Store)";

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
  /** The rule behind the decision, shown to the user: starts with its source (one of RULE_SOURCES), e.g. "IRS Pub. 502: …". */
  rationale: string;
  /** Sunscreen only: a name stating an SPF below this value is not eligible. */
  min_spf?: number;
  /**
   * An eligible category whose keywords also fit non-medical products: the name must also state one of
   * `phrases` (a medical grade, a drug form), or the answer is `requires_review` under `review_category`
   * (a category of that status), saying the name does not state `missing`.
   */
  confirm?: { phrases: readonly string[]; missing: string; review_category: string };
  /** A match decides whatever else matched (CBD, pet products): no other category's phrase can outweigh it. */
  decisive?: boolean;
  /**
   * A broad category from the public lists' category trees: it decides a name no specific category of its status
   * matched; when one did, that specific category (its label and rule) is the one cited.
   */
  broad?: boolean;
  /**
   * A brand table: consulted only when no product-type category matched (a name that is a brand and a line name
   * alone), before the `fallback` ones. Only brands whose products nearly all take this category's decision.
   */
  brand?: boolean;
  /**
   * Consulted only when no other category matched: a form or unit of sale ("softgels", "mcg") that says what kind
   * of product an otherwise unrecognised name is.
   */
  fallback?: boolean;
}

export interface UpcEntry {
  gtin: string;
  name: string;
  category_id: string;
}
