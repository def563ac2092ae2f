/**
 * The curated HSA/FSA eligibility data set: categories with keywords and rationale (in the spirit of
 * IRS Publication 502, the CARES Act 2020, IRS Ann. 2021-7 and plan administrators' published lists) plus a
 * barcode table. Measured on test/fixtures/eligibility/labelled-names.csv (`npm run bench`).
 * Order matters only for ties between equally specific phrases of the same status: earlier wins.
 */
import { MEDICINE_CATEGORIES } from './eligibility-data.medicines.js';
import { SUPPLY_CATEGORIES } from './eligibility-data.supplies.js';
import { LMN_CATEGORIES } from './eligibility-data.lmn.js';
import { INELIGIBLE_CATEGORIES } from './eligibility-data.ineligible.js';
import { REVIEW_CATEGORIES } from './eligibility-data.review.js';
import { LISTED_ELIGIBLE_CATEGORIES, LISTED_INELIGIBLE_CATEGORIES } from './eligibility-data.listed.js';
import { SUPPLEMENT_FORM_FALLBACK, WELLNESS_LMN_CATEGORIES } from './eligibility-data.wellness.js';
import {
  TAXONOMY_ELIGIBLE_CATEGORIES,
  TAXONOMY_INELIGIBLE_CATEGORIES,
  TAXONOMY_LMN_CATEGORIES,
} from './eligibility-data.taxonomy.js';
import { BRAND_CATEGORIES } from './eligibility-data.brands.js';
import { PET_BRAND_CATEGORY, WELLNESS_BRAND_CATEGORIES } from './eligibility-data.brands-wellness.js';
import { WELLNESS_TYPE_CATEGORIES, WELLNESS_TYPE_INELIGIBLE_CATEGORIES } from './eligibility-data.types-wellness.js';
import { MEDICAL_BRAND_CATEGORIES } from './eligibility-data.brands-medical.js';
import { MEDICAL_TYPE_CATEGORIES } from './eligibility-data.types-medical.js';
import {
  WELLNESS_RECALL_INELIGIBLE_CATEGORIES,
  WELLNESS_RECALL_LMN_CATEGORIES,
} from './eligibility-data.wellness-recall.js';
import { EQUIPMENT_CATEGORIES } from './eligibility-data.equipment.js';
import { OTC_ELIGIBLE_CATEGORIES, OTC_INELIGIBLE_CATEGORIES, OTC_LMN_CATEGORIES } from './eligibility-data.otc.js';
import {
  BRAND_RECALL_BRAND_CATEGORIES,
  BRAND_RECALL_ELIGIBLE_CATEGORIES,
  BRAND_RECALL_INELIGIBLE_CATEGORIES,
  BRAND_RECALL_LMN_CATEGORIES,
} from './eligibility-data.brands-recall.js';
import {
  FAMILY_ELIGIBLE_CATEGORIES,
  FAMILY_INELIGIBLE_CATEGORIES,
  FAMILY_LMN_CATEGORIES,
} from './eligibility-data.family.js';
import type { EligibilityCategory } from './eligibility.types.js';

export type { EligibilityCategory, EligibilityStatus, UpcEntry } from './eligibility.types.js';
export { UPC_TABLE } from './eligibility-data.upc.js';

export const ELIGIBILITY_CATEGORIES: readonly EligibilityCategory[] = [
  ...MEDICINE_CATEGORIES,
  ...SUPPLY_CATEGORIES,
  ...LISTED_ELIGIBLE_CATEGORIES,
  ...TAXONOMY_ELIGIBLE_CATEGORIES,
  ...MEDICAL_TYPE_CATEGORIES,
  ...EQUIPMENT_CATEGORIES,
  ...OTC_ELIGIBLE_CATEGORIES,
  ...BRAND_RECALL_ELIGIBLE_CATEGORIES,
  ...FAMILY_ELIGIBLE_CATEGORIES,
  ...LMN_CATEGORIES,
  ...WELLNESS_LMN_CATEGORIES,
  ...TAXONOMY_LMN_CATEGORIES,
  ...WELLNESS_TYPE_CATEGORIES,
  ...WELLNESS_RECALL_LMN_CATEGORIES,
  ...OTC_LMN_CATEGORIES,
  ...BRAND_RECALL_LMN_CATEGORIES,
  ...FAMILY_LMN_CATEGORIES,
  ...REVIEW_CATEGORIES,
  ...INELIGIBLE_CATEGORIES,
  ...LISTED_INELIGIBLE_CATEGORIES,
  ...TAXONOMY_INELIGIBLE_CATEGORIES,
  ...WELLNESS_TYPE_INELIGIBLE_CATEGORIES,
  ...WELLNESS_RECALL_INELIGIBLE_CATEGORIES,
  ...OTC_INELIGIBLE_CATEGORIES,
  ...BRAND_RECALL_INELIGIBLE_CATEGORIES,
  ...FAMILY_INELIGIBLE_CATEGORIES,
  PET_BRAND_CATEGORY,
  ...BRAND_CATEGORIES,
  ...MEDICAL_BRAND_CATEGORIES,
  ...WELLNESS_BRAND_CATEGORIES,
  ...BRAND_RECALL_BRAND_CATEGORIES,
  SUPPLEMENT_FORM_FALLBACK,
];
