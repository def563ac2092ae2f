import {
  PREFIX,
  storedStatus,
  type EligibilityResult,
  type EligibilityStatus,
} from '../eligibility/eligibility.engine.js';

/**
 * A product's HSA/FSA decision: the engine's answer, unless the merchant set its own (the
 * merchant's list is authoritative; the engine's opinion stays beside it as `suggested`). Pure
 * rules, one place each: what the product's eligibility columns hold, which IIAS category its
 * eligible amount counts under, and when a change is worth a `product.eligibility_changed` event.
 */

/** What a merchant can decide: it knows its products, so it never answers `requires_review` (only the engine does). */
export const OVERRIDE_STATUSES = [
  'eligible',
  'requires_lmn',
  'not_eligible',
] as const satisfies readonly EligibilityStatus[];
export type OverrideStatus = (typeof OVERRIDE_STATUSES)[number];

/** The IIAS categories card processors take the healthcare amount in (Visa/Mastercard IIAS: prescription, vision, clinic, dental; the rest is OTC). */
export const IIAS_CATEGORIES = ['rx', 'vision', 'clinic', 'dental', 'otc'] as const;
export type IiasCategory = (typeof IIAS_CATEGORIES)[number];

/** Where a product's decision came from: the engine's sources, or the merchant. */
export type EligibilitySource = EligibilityResult['source'] | 'merchant';

/** The merchant's own decision, as stored (`set_by`: `api_key:<key id>`, `import` or `eligibility_list`). */
export interface EligibilityOverride {
  status: OverrideStatus;
  category: IiasCategory | null;
  set_by: string;
  set_at: string;
}

/** The engine's opinion of a product, kept whatever decides. */
export interface SuggestedEligibility {
  status: EligibilityStatus;
  category: string | null;
  source: EligibilityResult['source'];
  message: string;
}

/** What a product's eligibility columns hold (the effective decision first). */
export interface EligibilityColumns {
  hsaFsaEligible: boolean;
  requiresLmn: boolean;
  eligibilityCategory: string | null;
  eligibilitySource: EligibilitySource;
  eligibilityMessage: string;
  eligibilityCheckedAt: Date;
  eligibilityOverride: EligibilityOverride | null;
  eligibilitySuggested: SuggestedEligibility;
}

/** Engine category ids whose IIAS category is not OTC (the engine knows no prescription or clinic items). */
export const ENGINE_IIAS: Readonly<Record<string, IiasCategory>> = {
  eyeglasses: 'vision',
  'contact-lenses-care': 'vision',
  'denture-care': 'dental',
};

/** The IIAS category of an engine category: vision and dental items by name, every other eligible item OTC. */
export function iiasCategoryOfEngine(category: string | null): IiasCategory {
  return (category && ENGINE_IIAS[category]) || 'otc';
}

/** A stored suggestion back in the engine's result shape (so a product not re-checked keeps it). */
export function engineResultOf(s: SuggestedEligibility): EligibilityResult {
  return {
    hsa_fsa_eligible: s.status === 'eligible' || s.status === 'requires_lmn',
    requires_lmn: s.status === 'requires_lmn',
    status: s.status,
    category: s.category,
    source: s.source,
    message: s.message,
  };
}

export function suggestionOf(engine: EligibilityResult): SuggestedEligibility {
  return { status: engine.status, category: engine.category, source: engine.source, message: engine.message };
}

/** The columns of a decision: the override when there is one, else the engine's result. */
export function decideEligibility(
  engine: EligibilityResult,
  override: EligibilityOverride | null,
  at: Date,
): EligibilityColumns {
  const suggested = suggestionOf(engine);
  if (!override) {
    return {
      hsaFsaEligible: engine.hsa_fsa_eligible,
      requiresLmn: engine.requires_lmn,
      eligibilityCategory: engine.category,
      eligibilitySource: engine.source,
      eligibilityMessage: engine.message,
      eligibilityCheckedAt: at,
      eligibilityOverride: null,
      eligibilitySuggested: suggested,
    };
  }
  const category = override.category ? ` (IIAS category '${override.category}')` : '';
  const agrees =
    engine.status === override.status
      ? 'agrees'
      : engine.status === 'requires_review'
        ? 'asks for a review against the product label'
        : `suggests ${PREFIX[engine.status].toLowerCase()}`;
  return {
    hsaFsaEligible: override.status !== 'not_eligible',
    requiresLmn: override.status === 'requires_lmn',
    eligibilityCategory: null,
    eligibilitySource: 'merchant',
    eligibilityMessage: `${PREFIX[override.status]}${category}: set by the merchant (${override.set_by}), which is authoritative. Our own check ${agrees} (see suggested).`,
    eligibilityCheckedAt: at,
    eligibilityOverride: override,
    eligibilitySuggested: suggested,
  };
}

/**
 * The status of a stored decision, by the engine's one rule (`storedStatus`: the flags, and a review
 * category for `requires_review`). A merchant's decision stores no engine category, so it reads back
 * as the `eligible` / `requires_lmn` / `not_eligible` it was set to.
 */
export function statusOf(product: {
  hsaFsaEligible: boolean;
  requiresLmn: boolean;
  eligibilityCategory: string | null;
}): EligibilityStatus {
  return storedStatus(product.hsaFsaEligible, product.requiresLmn, product.eligibilityCategory);
}

/**
 * The IIAS category a product's eligible amount counts under: the merchant's category first, else
 * the engine's category mapped (an eligible item with neither is OTC, the IIAS remainder); null
 * when the product is not eligible.
 */
export function iiasCategoryOf(product: {
  hsaFsaEligible: boolean;
  eligibilityOverride: EligibilityOverride | null;
  eligibilitySuggested: SuggestedEligibility | null;
}): IiasCategory | null {
  if (!product.hsaFsaEligible) return null;
  return product.eligibilityOverride?.category ?? iiasCategoryOfEngine(product.eligibilitySuggested?.category ?? null);
}

/** Why a product's decision changed (the `reason` of `product.eligibility_changed`). */
export type EligibilityChangeReason =
  'override_set' | 'override_removed' | 'name_changed' | 'barcode_changed' | 'engine_updated';

/** The reason of a change: the override moved, else the barcode, else the name. */
export function changeReason(change: {
  override: boolean;
  barcode: boolean;
  overrideNow: EligibilityOverride | null;
}): EligibilityChangeReason {
  if (change.override) return change.overrideNow ? 'override_set' : 'override_removed';
  return change.barcode ? 'barcode_changed' : 'name_changed';
}

/** What `product.eligibility_changed` compares: status, source and IIAS category. */
export interface DecisionSnapshot {
  status: EligibilityStatus;
  source: EligibilitySource;
  iias_category: IiasCategory | null;
}

export function snapshotOf(
  columns: Pick<
    EligibilityColumns,
    | 'hsaFsaEligible'
    | 'requiresLmn'
    | 'eligibilityCategory'
    | 'eligibilitySource'
    | 'eligibilityOverride'
    | 'eligibilitySuggested'
  >,
): DecisionSnapshot {
  return { status: statusOf(columns), source: columns.eligibilitySource, iias_category: iiasCategoryOf(columns) };
}

/** True when a storefront should re-badge: the status, the source or the IIAS category moved. */
export function decisionChanged(before: DecisionSnapshot, after: DecisionSnapshot): boolean {
  return (
    before.status !== after.status || before.source !== after.source || before.iias_category !== after.iias_category
  );
}
