/**
 * HSA/FSA eligibility engine: decides from a UPC/GTIN (curated table) or, failing that, from the product
 * name (keyword categories), and explains the decision. Pure and synchronous; all data is compiled at load.
 */
import { createHash } from 'node:crypto';
import { ELIGIBILITY_CATEGORIES, UPC_TABLE } from './eligibility-data.js';
import type { EligibilityCategory, EligibilityStatus, UpcEntry } from './eligibility.types.js';
import { ellipsize, truncateCodePoints } from '../../platform/text.js';
import { validateGtin, type GtinFormat } from './gtin.js';

export type { EligibilityStatus } from './eligibility.types.js';

/** Bumped with any change to how the engine decides that its data tables do not show. */
const RULES_REVISION = '2026-11-29';

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

// Names longer than this are cut before matching so a pathological input cannot slow product creation.
const MAX_NAME_CHARS = 1000;
const MAX_NAME_IN_MESSAGE = 120;

const IRREGULAR: Record<string, string> = {
  lens: 'lens',
  lenses: 'lens',
  teeth: 'tooth',
  feet: 'foot',
  women: 'woman',
  men: 'man',
  children: 'child',
};

/** Folds a word to a crude singular; names and keywords go through the same function, so it only has to be consistent. */
function singular(word: string): string {
  if (IRREGULAR[word]) return IRREGULAR[word];
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  // "cookie" and "cookies" must meet: both become "cooky".
  if (word.endsWith('ie')) return word.slice(0, -2) + 'y';
  if (word.endsWith('aches')) return word.slice(0, -1);
  if (/(sses|shes|ches|xes|zzes)$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(word)) return word;
  if (word.endsWith('s')) {
    const stem = word.slice(0, -1);
    return IRREGULAR[stem] ?? stem;
  }
  return word;
}

/** Normalises a product name or keyword to space-separated singular lowercase words ("Band-Aids®" → "band aid"). */
export function normalizeName(text: string): string {
  return (
    truncateCodePoints(text, MAX_NAME_CHARS)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/['’`]/g, '')
      .replace(/&/g, ' and ')
      // Split letters from digits so "SPF50", "KN95" and "B-12" all tokenise the same way.
      .replace(/([a-z])(\d)/g, '$1 $2')
      .replace(/(\d)([a-z])/g, '$1 $2')
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '')
      .map(singular)
      .join(' ')
  );
}

interface CompiledKeyword {
  text: string;
  /** Each part padded with spaces, so a substring test on the padded name is a whole-word match. */
  parts: string[];
  /** First word of each part: a cheap set lookup that rules out most keywords before any substring search. */
  heads: string[];
  weight: number;
  /** Position in its category's list: on a tie in weight the earlier keyword is the one a message cites. */
  order: number;
}

interface CompiledCategory {
  category: EligibilityCategory;
  keywords: CompiledKeyword[];
  negatives: string[];
  /** `confirm.phrases`, padded like `negatives`. */
  confirms: string[] | null;
}

const pad = (phrase: string): string => ` ${phrase} `;

function compileKeyword(text: string, order: number): CompiledKeyword {
  const parts = text.split(' + ').map((part) => normalizeName(part));
  if (parts.some((part) => part === '')) throw new Error(`Eligibility keyword '${text}' normalises to nothing`);
  const weight = parts.reduce((sum, part) => sum + part.split(' ').length, 0);
  return { text, parts: parts.map(pad), heads: parts.map((part) => part.split(' ')[0]), weight, order };
}

const COMPILED: readonly CompiledCategory[] = ELIGIBILITY_CATEGORIES.map((category) => ({
  category,
  keywords: category.keywords.map(compileKeyword),
  negatives: (category.negative_keywords ?? []).map((negative) => pad(normalizeName(negative))),
  confirms: category.confirm ? category.confirm.phrases.map((phrase) => pad(normalizeName(phrase))) : null,
}));
const COMPILED_BY_ID = new Map(COMPILED.map((compiled) => [compiled.category.id, compiled]));

interface IndexedKeyword {
  /** Index of the category in COMPILED: candidates are ranked in data order, as before the index. */
  at: number;
  keyword: CompiledKeyword;
}

// Keywords by the first word of their first part: a name only looks at the keywords that start with one of its words.
const BY_HEAD = new Map<string, IndexedKeyword[]>();
COMPILED.forEach(({ keywords }, at) => {
  for (const keyword of keywords) {
    const list = BY_HEAD.get(keyword.heads[0]) ?? [];
    list.push({ at, keyword });
    BY_HEAD.set(keyword.heads[0], list);
  }
});

const CATEGORY_BY_ID = new Map(ELIGIBILITY_CATEGORIES.map((category) => [category.id, category]));
const UPC_BY_GTIN = new Map<string, UpcEntry>();
for (const entry of UPC_TABLE) {
  const { normalized } = validateGtin(entry.gtin);
  // Invalid table rows are skipped here and caught by the data tests.
  if (normalized) UPC_BY_GTIN.set(normalized, entry);
}

// On a tie in specificity and evidence the more cautious answer wins: a generic "candy" beats a generic "bandage".
const CAUTION: Record<EligibilityStatus, number> = {
  eligible: 0,
  requires_lmn: 1,
  requires_review: 2,
  not_eligible: 3,
};

interface NameMatch {
  category: EligibilityCategory;
  /** Whether one of its phrases starts in the name's head (before "with"), i.e. names the product itself. */
  inHead: boolean;
  /** The longest phrase that matched; it is what the message cites. */
  keyword: CompiledKeyword;
  /** Sum of the weights of every phrase of the category that matched. */
  evidence: number;
}

/**
 * Ranks matches: a decisive category first, then one that names the head (the product before "with") over one
 * found only in what follows, then longest phrase, then total matched words, then caution; earlier data wins a full tie.
 */
function beats(a: NameMatch, b: NameMatch): boolean {
  if (Boolean(a.category.decisive) !== Boolean(b.category.decisive)) return Boolean(a.category.decisive);
  if (a.inHead !== b.inHead) return a.inHead;
  if (a.keyword.weight !== b.keyword.weight) return a.keyword.weight > b.keyword.weight;
  if (a.evidence !== b.evidence) return a.evidence > b.evidence;
  return CAUTION[a.category.status] > CAUTION[b.category.status];
}

/** Every keyword the name holds, grouped by category index. */
function keywordHits(text: string, words: ReadonlySet<string>): Map<number, CompiledKeyword[]> {
  const hits = new Map<number, CompiledKeyword[]>();
  for (const word of words) {
    for (const { at, keyword } of BY_HEAD.get(word) ?? []) {
      if (!keyword.heads.every((head) => words.has(head)) || !keyword.parts.every((part) => text.includes(part)))
        continue;
      const list = hits.get(at);
      if (list) list.push(keyword);
      else hits.set(at, [keyword]);
    }
  }
  return hits;
}

type Tier = 'product' | 'brand' | 'fallback';

const tierOf = (category: EligibilityCategory): Tier =>
  category.fallback ? 'fallback' : category.brand ? 'brand' : 'product';

// What follows "with" qualifies the product ("nasal gel with aloe"), it does not name it. Not "for": what follows it is
// often the purpose that decides ("wrist bands for nausea", "collagen for hair, skin and nails").
const TAIL_START = / with /;

/** The best match among categories of one tier: product types, else brands, else forms of sale. */
function bestOf(text: string, hits: Map<number, CompiledKeyword[]>, tier: Tier, headEnd: number): NameMatch | null {
  let best: NameMatch | null = null;
  let specific: NameMatch | null = null;
  for (const at of [...hits.keys()].sort((a, b) => a - b)) {
    const { category, negatives } = COMPILED[at];
    if (tierOf(category) !== tier || negatives.some((negative) => text.includes(negative))) continue;
    const keywords = hits.get(at) ?? [];
    let keyword = keywords[0];
    let evidence = 0;
    let inHead = false;
    for (const hit of keywords) {
      evidence += hit.weight;
      if (hit.weight > keyword.weight || (hit.weight === keyword.weight && hit.order < keyword.order)) keyword = hit;
      inHead ||= hit.parts.some((part) => text.indexOf(part) < headEnd);
    }
    const candidate = { category, inHead, keyword, evidence };
    if (!best || beats(candidate, best)) best = candidate;
    if (!category.broad && (!specific || beats(candidate, specific))) specific = candidate;
  }
  // A broad category decides the status; a specific one of the same status that also matched says it more precisely.
  return best?.category.broad && specific?.category.status === best.category.status ? specific : best;
}

function matchName(normalized: string): NameMatch | null {
  const text = pad(normalized);
  const hits = keywordHits(text, new Set(normalized.split(' ')));
  // The head ends where the first "with" starts (a name that opens with one has no head to prefer).
  const tail = TAIL_START.exec(text);
  const headEnd = tail && tail.index > 0 ? tail.index : text.length;
  return (
    bestOf(text, hits, 'product', headEnd) ??
    bestOf(text, hits, 'brand', headEnd) ??
    bestOf(text, hits, 'fallback', headEnd)
  );
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
