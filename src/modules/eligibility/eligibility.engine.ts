/**
 * HSA/FSA eligibility engine: decides from a UPC/GTIN (curated table) or, failing that, from the product
 * name (keyword categories), and explains the decision. Pure and synchronous; all data is compiled at load.
 */
import { createHash } from 'node:crypto';
import { ELIGIBILITY_CATEGORIES, UPC_TABLE } from './eligibility-data.js';
import type { EligibilityStatus, UpcEntry } from './eligibility.types.js';
import { ellipsize } from '../../platform/text.js';
import { COMPILED_BY_ID, matchName, normalizeName, pad } from './eligibility-matcher.js';
import { validateGtin, type GtinFormat } from './gtin.js';

export type { EligibilityStatus } from './eligibility.types.js';
export { normalizeName } from './eligibility-matcher.js';

/** Bumped with any change to how the engine decides that its data tables do not show. */
const RULES_REVISION = '2026-11-29-qualifiers';

/**
 * Which engine decides: a digest of its rules revision and data tables. When a deploy changes it,
 * stored products are checked again (`eligibility.recheck`), so their decisions follow the engine.
 */
export const ENGINE_VERSION = createHash('sha256')
  .update(JSON.stringify([RULES_REVISION, ELIGIBILITY_CATEGORIES, UPC_TABLE]))
  .digest('hex')
  .slice(0, 16);

export interface EligibilityInput {
  name?: string | null;
  upc_code_or_gtin?: string | null;
}

export interface EligibilityResult {
  /** True for 'eligible' and for 'requires_lmn' (eligible once a letter of medical necessity is approved); false for 'requires_review' until a person decides. */
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  status: EligibilityStatus;
  /** Category id, null when nothing matched. */
  category: string | null;
  source: 'upc' | 'name' | 'none';
  message: string;
}

const MAX_NAME_IN_MESSAGE = 120;

const CATEGORY_BY_ID = new Map(ELIGIBILITY_CATEGORIES.map((category) => [category.id, category]));
const UPC_BY_GTIN = new Map<string, UpcEntry>();
for (const entry of UPC_TABLE) {
  const { normalized } = validateGtin(entry.gtin);
  // Invalid table rows are skipped here and caught by the data tests.
  if (normalized) UPC_BY_GTIN.set(normalized, entry);
}

/** Reads "SPF 30" (or "30 SPF") from a normalised name. */
function statedSpf(normalized: string): number | null {
  const match = /(?:^| )spf (\d+)(?: |$)/.exec(normalized) ?? /(?:^| )(\d+) spf(?: |$)/.exec(normalized);
  return match ? Number(match[1]) : null;
}

const VERDICT: Record<EligibilityStatus, string> = {
  eligible: 'eligible',
  requires_lmn: 'eligible only with a Letter of Medical Necessity',
  not_eligible: 'not eligible',
  requires_review: 'to be reviewed against the product label',
};

/** How a message opens, per status. */
export const PREFIX: Record<EligibilityStatus, string> = {
  eligible: 'Eligible',
  requires_lmn: 'Eligible only with a Letter of Medical Necessity',
  not_eligible: 'Not eligible',
  requires_review: 'Needs review (not eligible until checked)',
};

function result(
  status: EligibilityStatus,
  category: string | null,
  source: EligibilityResult['source'],
  message: string,
): EligibilityResult {
  const payable = status === 'eligible' || status === 'requires_lmn';
  return { hsa_fsa_eligible: payable, requires_lmn: status === 'requires_lmn', status, category, source, message };
}

/**
 * The status of a stored decision: the products table keeps the two flags and the category, and a
 * `requires_review` decision is the one that is neither eligible nor LMN under a review category.
 */
export function storedStatus(
  hsaFsaEligible: boolean,
  requiresLmn: boolean,
  category: string | null,
): EligibilityStatus {
  if (requiresLmn) return 'requires_lmn';
  if (hsaFsaEligible) return 'eligible';
  return category !== null && CATEGORY_BY_ID.get(category)?.status === 'requires_review'
    ? 'requires_review'
    : 'not_eligible';
}

function quoteName(name: string): string {
  return `'${ellipsize(name, MAX_NAME_IN_MESSAGE)}'`;
}

/** Formats a barcode the way it is printed under the bars, e.g. "UPC 0 12345 67890 5". */
function displayCode(digits: string, format: GtinFormat): string {
  switch (format) {
    case 'UPC-A':
      return `UPC ${digits[0]} ${digits.slice(1, 6)} ${digits.slice(6, 11)} ${digits[11]}`;
    case 'UPC-E':
      return `UPC ${digits[0]} ${digits.slice(1, 7)} ${digits[7]}`;
    case 'EAN-13':
      return `EAN ${digits[0]} ${digits.slice(1, 7)} ${digits.slice(7)}`;
    case 'EAN-8':
      return `EAN ${digits.slice(0, 4)} ${digits.slice(4)}`;
    case 'GTIN-14':
      return `GTIN ${digits}`;
  }
}

function decideByName(name: string): EligibilityResult {
  const normalized = normalizeName(name);
  const match = matchName(normalized);
  if (!match) {
    return result(
      'not_eligible',
      null,
      'none',
      `Not eligible: no HSA/FSA-eligible category was recognised in ${quoteName(name)} (IRS Pub. 502: only medical care qualifies). A valid UPC or a clearer product name (e.g. 'digital thermometer') helps.`,
    );
  }
  const { category, keyword } = match;
  const matchedOn = `Matched by name on ${keyword.text
    .split(' + ')
    .map((part) => `"${part}"`)
    .join(' + ')}.`;
  const spf = category.min_spf === undefined ? null : statedSpf(normalized);
  if (category.min_spf !== undefined && spf !== null && spf < category.min_spf) {
    return result(
      'not_eligible',
      category.id,
      'name',
      `Not eligible: ${quoteName(name)} matches category '${category.label}' but states SPF ${spf}, below the SPF ${category.min_spf} minimum. Rule: ${category.rationale}. ${matchedOn}`,
    );
  }
  const confirms = COMPILED_BY_ID.get(category.id)?.confirms;
  const review = category.confirm && CATEGORY_BY_ID.get(category.confirm.review_category);
  if (confirms && review && !confirms.some((phrase) => pad(normalized).includes(phrase))) {
    return result(
      'requires_review',
      review.id,
      'name',
      `${PREFIX.requires_review}: ${quoteName(name)} matches category '${category.label}' but does not state ${category.confirm?.missing}. Rule: ${review.rationale}. ${matchedOn}`,
    );
  }
  return result(
    category.status,
    category.id,
    'name',
    `${PREFIX[category.status]}: ${quoteName(name)} matches category '${category.label}'. Rule: ${category.rationale}. ${matchedOn}`,
  );
}

/** Prefixes a name-based decision with why the barcode did not decide it. */
function withBarcodeNote(note: string, name: string | null): EligibilityResult {
  if (!name) {
    return result(
      'not_eligible',
      null,
      'none',
      `Not eligible: ${note} and no product name was given, so no eligible category was recognised. Add the product name or check the barcode.`,
    );
  }
  const byName = decideByName(name);
  return { ...byName, message: `${note}, so the name decided. ${byName.message}` };
}

/** Decides whether a product is HSA/FSA eligible from its UPC/GTIN and/or name, with a human explanation. */
export function checkEligibility(input: EligibilityInput): EligibilityResult {
  const name = typeof input?.name === 'string' && input.name.trim() !== '' ? input.name.trim() : null;
  const code =
    typeof input?.upc_code_or_gtin === 'string' && input.upc_code_or_gtin.trim() !== ''
      ? input.upc_code_or_gtin.trim()
      : null;

  if (!code) {
    return name
      ? decideByName(name)
      : result('not_eligible', null, 'none', 'Not eligible: no product name or UPC was given.');
  }

  const gtin = validateGtin(code);
  if (!gtin.valid || !gtin.normalized || !gtin.format) {
    const reason = (gtin.reason ?? 'unrecognised barcode').replace(/\.$/, '');
    return withBarcodeNote(`The barcode ${quoteName(code)} is not valid (${reason})`, name);
  }

  const display = displayCode(code.replace(/[\s-]/g, ''), gtin.format);
  const entry = UPC_BY_GTIN.get(gtin.normalized);
  const category = entry ? CATEGORY_BY_ID.get(entry.category_id) : undefined;
  if (!entry || !category) return withBarcodeNote(`${display} is not in the eligibility list`, name);

  return result(
    category.status,
    category.id,
    'upc',
    `${display} is listed as '${entry.name}' (${category.label}): ${VERDICT[category.status]}. Rule: ${category.rationale}.`,
  );
}
