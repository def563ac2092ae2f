/**
 * How the eligibility engine reads a product name: normalisation (lowercase, folded plurals), the keyword index compiled
 * from the data tables at load, and the ranking that picks one category among those whose phrases the name holds.
 */
import { ELIGIBILITY_CATEGORIES } from './eligibility-data.js';
import type { EligibilityCategory, EligibilityStatus } from './eligibility.types.js';
import { truncateCodePoints } from '../../platform/text.js';

// Names longer than this are cut before matching so a pathological input cannot slow product creation.
const MAX_NAME_CHARS = 1000;

const IRREGULAR: Record<string, string> = {
  lens: 'lens',
  lenses: 'lens',
  teeth: 'tooth',
  feet: 'foot',
  women: 'woman',
  men: 'man',
  children: 'child',
};

const irregular = (word: string): string | undefined => (Object.hasOwn(IRREGULAR, word) ? IRREGULAR[word] : undefined);

/** Folds a word to a crude singular; names and keywords go through the same function, so it only has to be consistent. */
function foldSingular(word: string): string {
  const exception = irregular(word);
  if (exception) return exception;
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return word.slice(0, -3) + 'y';
  // "cookie" and "cookies" must meet: both become "cooky".
  if (word.endsWith('ie')) return word.slice(0, -2) + 'y';
  if (word.endsWith('aches')) return word.slice(0, -1);
  if (/(sses|shes|ches|xes|zzes)$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(word)) return word;
  if (word.endsWith('s')) {
    const stem = word.slice(0, -1);
    return irregular(stem) ?? stem;
  }
  return word;
}

// Catalog names reuse a small vocabulary (brands, forms, sizes): the folded words are kept, up to a bound.
const SINGULAR = new Map<string, string>();
const MAX_SINGULAR_CACHED = 20_000;

function singular(word: string): string {
  const cached = SINGULAR.get(word);
  if (cached !== undefined) return cached;
  const folded = foldSingular(word);
  if (SINGULAR.size >= MAX_SINGULAR_CACHED) SINGULAR.clear();
  SINGULAR.set(word, folded);
  return folded;
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
  /** One part of one word: found by its head alone, no substring search needed. */
  single: boolean;
  weight: number;
  /** Position in its category's list: on a tie in weight the earlier keyword is the one a message cites. */
  order: number;
}

interface CompiledCategory {
  category: EligibilityCategory;
  keywords: CompiledKeyword[];
  /** Padded phrases, each with its first word (a set lookup before the substring search). */
  negatives: { phrase: string; head: string }[];
  /** `confirm.phrases`, padded like `negatives`. */
  confirms: string[] | null;
}

export const pad = (phrase: string): string => ` ${phrase} `;

function compileKeyword(text: string, order: number): CompiledKeyword {
  const parts = text.split(' + ').map((part) => normalizeName(part));
  if (parts.some((part) => part === '')) throw new Error(`Eligibility keyword '${text}' normalises to nothing`);
  const weight = parts.reduce((sum, part) => sum + part.split(' ').length, 0);
  const heads = parts.map((part) => part.split(' ')[0]);
  return { text, parts: parts.map(pad), heads, single: weight === 1, weight, order };
}

const COMPILED: readonly CompiledCategory[] = ELIGIBILITY_CATEGORIES.map((category) => ({
  category,
  keywords: category.keywords.map(compileKeyword),
  negatives: (category.negative_keywords ?? []).map((negative) => {
    const phrase = normalizeName(negative);
    return { phrase: pad(phrase), head: phrase.split(' ')[0] };
  }),
  confirms: category.confirm ? category.confirm.phrases.map((phrase) => pad(normalizeName(phrase))) : null,
}));
export const COMPILED_BY_ID = new Map(COMPILED.map((compiled) => [compiled.category.id, compiled]));

interface IndexedKeyword {
  /** Index of the category in COMPILED: candidates are ranked in data order, as before the index. */
  at: number;
  keyword: CompiledKeyword;
}

// Every word of a keyword is a word of any name that holds it, so each keyword is filed under its rarest word (the one
// fewest keywords use): a name only looks at the keywords filed under one of its words, and a common word ("pain",
// "pad") does not bring every phrase that starts with it.
const WORD_USE = new Map<string, number>();
for (const { keywords } of COMPILED)
  for (const keyword of keywords)
    for (const word of new Set(keyword.parts.flatMap((part) => part.trim().split(' '))))
      WORD_USE.set(word, (WORD_USE.get(word) ?? 0) + 1);
const rarestWord = (keyword: CompiledKeyword): string =>
  keyword.parts
    .flatMap((part) => part.trim().split(' '))
    .reduce((rarest, word) => ((WORD_USE.get(word) ?? 0) < (WORD_USE.get(rarest) ?? 0) ? word : rarest));
const BY_HEAD = new Map<string, IndexedKeyword[]>();
COMPILED.forEach(({ keywords }, at) => {
  for (const keyword of keywords) {
    const word = rarestWord(keyword);
    const list = BY_HEAD.get(word) ?? [];
    list.push({ at, keyword });
    BY_HEAD.set(word, list);
  }
});

// On a tie in specificity and evidence the more cautious answer wins: a generic "candy" beats a generic "bandage".
const CAUTION: Record<EligibilityStatus, number> = {
  eligible: 0,
  requires_lmn: 1,
  requires_review: 2,
  not_eligible: 3,
};

export interface NameMatch {
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

/** Whether every part of a keyword is in the name (each head word first: a set lookup before the substring search). */
function holds(keyword: CompiledKeyword, text: string, words: ReadonlySet<string>): boolean {
  for (let i = 0; i < keyword.heads.length; i++) if (!words.has(keyword.heads[i])) return false;
  for (let i = 0; i < keyword.parts.length; i++) if (!text.includes(keyword.parts[i])) return false;
  return true;
}

/** Every keyword the name holds, grouped by category index. */
function keywordHits(text: string, words: ReadonlySet<string>): Map<number, CompiledKeyword[]> {
  const hits = new Map<number, CompiledKeyword[]>();
  for (const word of words) {
    const candidates = BY_HEAD.get(word);
    if (!candidates) continue;
    // Plain loops: this runs for every keyword that starts with a word of every name.
    for (let i = 0; i < candidates.length; i++) {
      const { at, keyword } = candidates[i];
      if (!keyword.single && !holds(keyword, text, words)) continue;
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
const TAIL_START = ' with ';

const TIERS: readonly Tier[] = ['product', 'brand', 'fallback'];

/** The best of one tier's matches; a broad category decides the status, a specific one of that status is cited. */
interface TierBest {
  best: NameMatch | null;
  specific: NameMatch | null;
}

// A taste or a smell is not the product: in "Laxative Root Beer Flavor" or "Lavender Scented Epsom Salt" the words
// just before the marker describe it. Up to this many words before a marker are read as its qualifier.
const QUALIFIER_MARKERS = ['flavor', 'flavored', 'flavour', 'flavoured', 'scent', 'scented'];
const PADDED_MARKERS = QUALIFIER_MARKERS.map(pad);
const QUALIFIER_WORDS = 3;

/** Where the name's taste and smell qualifiers are: [start, end) of the words before each marker, marker included. */
function qualifierSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const marker of PADDED_MARKERS) {
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
      let start = at;
      for (let i = 0; i < QUALIFIER_WORDS && start > 0; i++) start = text.lastIndexOf(' ', start - 1);
      spans.push([Math.max(start, 0), at + marker.length]);
    }
  }
  return spans;
}

/** Whether every part of a keyword lies in a qualifier span: a food, drink or candy word naming a taste or a smell. */
const onlyQualifies = (keyword: CompiledKeyword, text: string, spans: readonly [number, number][]): boolean =>
  keyword.parts.every((part) => {
    const at = text.indexOf(part);
    return spans.some(([start, end]) => at >= start && at + part.length <= end + 1);
  });

/** The best match of the first tier that has one: product types, else brands, else forms of sale. */
function bestMatch(
  text: string,
  words: ReadonlySet<string>,
  hits: Map<number, CompiledKeyword[]>,
  headEnd: number,
  qualifiers: readonly [number, number][],
): NameMatch | null {
  const tiers: TierBest[] = [
    { best: null, specific: null },
    { best: null, specific: null },
    { best: null, specific: null },
  ];
  for (const at of [...hits.keys()].sort((a, b) => a - b)) {
    const { category, negatives } = COMPILED[at];
    if (negatives.some(({ phrase, head }) => words.has(head) && text.includes(phrase))) continue;
    let keywords = hits.get(at) ?? [];
    // Only the not-eligible side names tastes and smells (food, drink, candy): a medicine in the span still decides.
    if (qualifiers.length > 0 && category.status === 'not_eligible') {
      keywords = keywords.filter((hit) => !onlyQualifies(hit, text, qualifiers));
      if (keywords.length === 0) continue;
    }
    let keyword = keywords[0];
    let evidence = 0;
    let inHead = false;
    for (const hit of keywords) {
      evidence += hit.weight;
      if (hit.weight > keyword.weight || (hit.weight === keyword.weight && hit.order < keyword.order)) keyword = hit;
      inHead ||= hit.parts.some((part) => text.indexOf(part) < headEnd);
    }
    const candidate = { category, inHead, keyword, evidence };
    const tier = tiers[TIERS.indexOf(tierOf(category))];
    if (!tier.best || beats(candidate, tier.best)) tier.best = candidate;
    if (!category.broad && (!tier.specific || beats(candidate, tier.specific))) tier.specific = candidate;
  }
  for (const { best, specific } of tiers) {
    if (!best) continue;
    // A specific category of the broad one's status that also matched says it more precisely.
    return best.category.broad && specific?.category.status === best.category.status ? specific : best;
  }
  return null;
}

export function matchName(normalized: string): NameMatch | null {
  const text = pad(normalized);
  const words = new Set(normalized.split(' '));
  const hits = keywordHits(text, words);
  // The head ends where the first "with" starts (a name that opens with one has no head to prefer).
  const tail = text.indexOf(TAIL_START);
  const headEnd = tail > 0 ? tail : text.length;
  const qualifiers = QUALIFIER_MARKERS.some((marker) => words.has(marker)) ? qualifierSpans(text) : [];
  return bestMatch(text, words, hits, headEnd, qualifiers);
}
