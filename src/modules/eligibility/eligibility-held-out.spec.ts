import path from 'node:path';
import {
  answeredReview,
  evaluate,
  formatEvaluation,
  LABELLED_SETS,
  readLabelledNames,
  type LabelledName,
} from './eligibility-evaluation.js';
import { normalizeName } from './eligibility.engine.js';
import { ELIGIBILITY_STATUSES } from './eligibility.types.js';

const DECIDED_STATUSES = ELIGIBILITY_STATUSES.filter((status) => status !== 'requires_review');

const read = (file: string): LabelledName[] =>
  readLabelledNames(path.join(process.cwd(), 'test/fixtures/eligibility', file));

interface Floors {
  accuracy: number;
  /** Names labelled not_eligible or requires_lmn that may be answered eligible. */
  costlyFalseEligible: number;
  /** Share of the set that may be answered requires_review. */
  review: number;
}

// The bars the classifier is held to on names it has not seen: accuracy ≥ 0.95, no costly false eligible, ≤ 3 %
// answered requires_review.
const UNSEEN_BARS: Floors = { accuracy: 0.95, costlyFalseEligible: 0, review: 0.03 };

// What each set holds the engine to. The sixteenth independent unseen set (a mass merchant's website: health,
// pharmacy-OTC, baby, personal-care, beauty, fitness and household departments) was measured once (2026-11-29), after
// the fifteenth one's classes were covered, at 263/270 = 97.4 %, no name labelled not_eligible or requires_lmn answered
// eligible, none answered requires_review: all three bars held. Its classes were then covered (ergonomic keyboards and mice,
// exercise floor mats, bandage scissors, a tooth-preserving kit, breast-milk bags): it reaches 269/270, the rest a
// collagen powder the sets label both ways. The fifteenth independent unseen set (a grocery-and-pharmacy chain's online
// health, baby, personal-care and household aisles) was measured once (2026-11-29), after the fourteenth one's classes
// and two more recall audits written from no set (family aisles, brand-decided titles) were covered, at 286/294 =
// 97.3 %, one name labelled not_eligible (a powered callus remover, read as callus medicine) answered eligible, 1.0 %
// requires_review: the accuracy and review bars held, the false-eligible bar did not by one name. Its classes were
// then covered (powered callus removers, incontinence underwear by its absorbency, a nebulizer sold with "cool mist",
// breathing trainers, a CPAP brand's run-together name, vitamin-enhanced water, first-aid adhesive pads): it reaches
// 293/294. The fourteenth independent unseen set (a general retailer's health, wellness and
// household catalog, as the issue describes its own held-out set) was measured once (2026-11-29), after the thirteenth
// one's classes and three recall audits written from no set (home medical equipment, OTC medicines and supplies, the
// letter-of-necessity and everyday sides of a wellness catalog) were covered, at 300/311 = 96.5 %, no name labelled
// not_eligible or requires_lmn answered eligible, 1.0 % requires_review: all three bars held. Its misses were then covered, most by a brand audit told their names
// (so its later figure is no measure): it reaches 308/311. The thirteenth independent unseen set (one family-health store's whole feed:
// baby and maternity, kids' health, seniors and caregiving) was measured once (2026-11-29), after the twelfth one's
// classes and a second look-alike audit (medical-supply brands' everyday goods, home medical equipment) were covered,
// at 239/261 = 91.6 %, no name labelled not_eligible or requires_lmn answered eligible, 2.3 % requires_review: the
// false-eligible and review bars held, the accuracy bar did not. Its misses were pediatric positioning, bath and
// toileting equipment, tracheostomy supplies and pump parts no table knew, answered not_eligible; they were then
// covered by class, and it reaches 259/261. The twelfth independent unseen set (one pharmacy-and-wellness store's whole feed)
// was measured once (2026-11-29), after the tenth and eleventh ones' classes and an audit of about 1,000 look-alike
// titles of the auditor's own were covered, at 257/283 = 90.8 %, 6 costly (orthodontic flossers "for Braces", a spinal
// decompression device, a hot-and-cold foam roller, an exercise peddler, a donut pillow, an aromatherapy roll-on),
// 1.8 % requires_review: only the review bar held. Its classes were then covered; it reaches 273/283. The eleventh independent unseen set (a big-box retailer's health, beauty and baby
// aisles, about 15 % everyday goods that share a medical word) was measured once (2026-11-29), after the eighth one's
// classes were covered, at 263/298 = 88.3 % (262/297 without the one name the overlap test flagged, removed after),
// 11 names labelled not_eligible or requires_lmn answered eligible, 2.0 % requires_review: only the review bar held.
// Most costly answers were everyday goods beside a medicine brand or word (a tissue "with the scent of Vicks", an empty
// first-aid bag, a bottle warmer for breast milk, an electric foot file, an arnica bath oil) and supplements named like
// supplies (bladder-control and urinary-health formulas). Its misses were then covered by class; it reaches 290/297.
// The tenth independent unseen set (direct-to-consumer storefronts' own titles), written at the same time as the
// eleventh and measured once after the eleventh one's classes were covered, at 208/246 = 84.6 % (246 names after the
// overlap test removed 10: under the 250 a measure needs), 3 costly (a kettle model named EKG, PMS gummies, an
// emollient for eczema-prone skin), 2.4 % requires_review. Most misses were DTC brands no table knew, answered
// not_eligible. Its classes were then covered; it reaches 239/246. The eighth independent unseen set (marketplace listing titles), written at the
// same time as the ninth, was measured once (2026-11-29) after the ninth one's classes were covered, at 253/266 =
// 95.1 %, three names labelled not_eligible or requires_lmn (a gripe water sold as a supplement, non-prescription
// sunglasses of an eyeglass brand, soccer shin guards with an ankle sleeve) answered eligible, 0 % requires_review:
// the accuracy and review bars held, the false-eligible bar did not. Its classes were then covered (gripe water,
// non-prescription sunglasses, shin guards, lactation drink mixes named by a taste, fever patches, ephedrine, pet dander,
// diabetic socks, baby powder); it reaches 262/266, the rest label questions (creatine, a tinted sunscreen, a baby
// ointment) and an oxygen monitor that also records heart rate, read as a tracker. The ninth independent unseen set (home-medical and wellness store names), written
// while the seventh one's classes were covered, was measured once (2026-11-29) at 315/335 = 94.0 %, two requires_lmn
// names (a psoriasis medicated shampoo, which the FSA Store leaves to a letter, and zinc lozenges sold as a supplement)
// answered eligible, 0.9 % requires_review: only the review bar held. Its misses were then covered by class (bath
// benches read as weight benches, reach aids, drop-foot orthoses, traction devices, amplified phones, massage tools,
// yoga mats and toning balls, wound-care straps and suture removal, TENS garments, an asthma monitor, joint-health
// formulas, red-light skincare wands): it reaches 335/335. The seventh independent unseen set (mostly store brands), written while the sixth
// one's misses were covered, was measured once (2026-11-29) at 253/262 = 96.6 %, one requires_lmn name (a coal-tar
// dandruff shampoo, which the lists leave to a letter) answered eligible, 1.1 % requires_review: the accuracy and review
// bars held, the false-eligible bar did not by one name. Its classes were then covered (a children's liquid medicine
// named by its flavour, read as candy; coal tar sold for dandruff, which is a dandruff shampoo; temporary fillings,
// calcium chews named by a taste, urinary-tract drink mixes, a store brand that shares a fitness brand's word, bath
// pillows, car-seat lumbar cushions) and one label corrected (minoxidil, not eligible as the policy says): it reaches
// 261/262. The sixth independent unseen set, written while the fifth one's misses were
// covered, was measured once (2026-11-29) at 288/296 = 97.3 %, two requires_lmn names (a heated massager chair pad, an
// office back support) answered eligible, 0.3 % requires_review. Its misses were then covered by class (calamine, sterile cotton, weight-loss programs by name,
// heated massagers, travel pillows, nutrition formulas in a chocolate flavour, a compression brand's ungraded sock, office
// back supports); it reaches 296/296. The fifth independent unseen set, written the same way while the fourth one's
// misses were covered by class (and a one-word-keyword audit), was measured once (2026-11-29) at 276/286 = 96.5 %, one
// requires_lmn name (a blood-pressure supplement read as a blood-pressure monitor) answered eligible, 1.0 %
// requires_review: the accuracy and review bars held, the false-eligible bar did not by one name. Its misses were then
// covered by class (supplement formulas named after a marker, home tests, bedwetting underwear, pressure overlays,
// skin-protectant pastes, mineral chews, fitness streaming); it reaches 286/286. The fourth independent unseen set, written the same way, was measured once
// (2026-11-29) after a knowledge round (brand, product-line and catalog-noun tables written from the retail aisles, not
// from a set) at 312/332 = 94.0 %, 2 not_eligible names answered eligible (a malt drink named "Ice", a permethrin fabric
// treatment), 1.5 % requires_review; 295/332 = 88.9 % on the engine before that round. The third independent unseen set, written the same way with more long-tail brands
// and look-alike goods (a shelf bracket "brace", a phone "pill case", a skin-care brand named First Aid Beauty), was
// measured once (2026-11-29) on the engine after the second one's round at 323/371 = 87.1 %, 8 not_eligible or
// requires_lmn names answered eligible, 1.3 % requires_review: none of the three bars held besides review. Only its
// costly look-alikes were then excluded by category (hardware brackets, the skin-care brand, phone cases, natural sleep
// aids read as OTC sleep aids); the other misses stand. It reached 345/371 after a knowledge round of supplement,
// fitness, furniture and consumer-brand lines written from retail lists, and 360/371 once two label questions were
// settled (a vaginal moisturizer needs a letter as lubricants do; a fertility lubricant is a fertility aid, relabelled).
// The second independent unseen set was written by someone who had not read the
// rules, while the first one's misses were being covered, and measured once (2026-11-29) after those rules at
// 433/466 = 92.9 %, one not_eligible name (builders' hardware named a brace) answered eligible, 1.3 % requires_review:
// its accuracy and false-eligible bars did NOT hold (bench/README.md). The hardware brace was then excluded, and its other
// misses read by cause and their whole categories covered (home medical equipment, wound-care accessories, OTC medicines
// by ingredient, class packs, studios and fitness apps, exercise benches and bars, medical nutrition, fibre and stress
// supplements): it reaches 466/466 and is a regression set held there and to the three bars. The independent unseen set was written by someone who had not read the rules and
// measured once (2026-11-29) at 390/421 = 92.6 %, one requires_lmn name (a menopause supplement) answered eligible,
// 0.95 % requires_review (354/421 = 84.1 %, no false eligible, on the engine before the coverage tables): its accuracy
// and false-eligible bars did NOT hold (bench/README.md). Its misses were then read and their categories covered (a
// "multi-symptom relief" phrase that called a menopause supplement a cold medicine is now tied to the symptoms it
// relieves): it reaches 421/421 and is a regression set held there and to the three bars. The fourth unseen set was written after the coverage tables
// (eligibility-data.taxonomy.ts, .brands.ts) and measured once (2026-11-29) at 274/285 = 96.1 %, no not_eligible or
// requires_lmn name answered eligible (one requires_review name, compression stockings of a medical brand that state no
// grade, was), 2.1 % requires_review: all three bars of UNSEEN_BARS hold on it. Its misses were then read and covered
// by category (STD tests, skin adhesives, dental protectors, bedside handles, pain powders, bordered foam dressings,
// menstrual-cup, fitness and beauty-supplement brands): it reaches 284/285 and is held to that (bench/README.md). The
// older sets have had their misses read and keep what they reach: the third unseen set measured 234/270 once and
// reaches 269/270 since the coverage tables, the second 259/297 and now 296/297, the first 308/352 and now 351/352; the
// post-rules set's 131 are all answered as labelled, its 5 requires_review names included (3.8 %). The training set is held by
// eligibility-labelled.spec.ts.
const FLOORS: Partial<Record<(typeof LABELLED_SETS)[number]['file'], Floors>> = {
  'unseen-2026-11-29-independent-16.csv': { ...UNSEEN_BARS, accuracy: 269 / 270 },
  'unseen-2026-11-29-independent-15.csv': { ...UNSEEN_BARS, accuracy: 293 / 294 },
  'unseen-2026-11-29-independent-14.csv': { ...UNSEEN_BARS, accuracy: 308 / 311 },
  'unseen-2026-11-29-independent-13.csv': { ...UNSEEN_BARS, accuracy: 259 / 261 },
  'unseen-2026-11-29-independent-12.csv': { ...UNSEEN_BARS, accuracy: 273 / 283 },
  'unseen-2026-11-29-independent-11.csv': { ...UNSEEN_BARS, accuracy: 290 / 297 },
  'unseen-2026-11-29-independent-10.csv': { ...UNSEEN_BARS, accuracy: 240 / 246 },
  'unseen-2026-11-29-independent-8.csv': { ...UNSEEN_BARS, accuracy: 262 / 266 },
  'unseen-2026-11-29-independent-9.csv': { ...UNSEEN_BARS, accuracy: 335 / 335 },
  'unseen-2026-11-29-independent-7.csv': { ...UNSEEN_BARS, accuracy: 261 / 262 },
  'unseen-2026-11-29-independent-6.csv': { ...UNSEEN_BARS, accuracy: 296 / 296 },
  'unseen-2026-11-29-independent-5.csv': { ...UNSEEN_BARS, accuracy: 286 / 286 },
  'unseen-2026-11-29-independent-4.csv': { ...UNSEEN_BARS, accuracy: 332 / 332 },
  'unseen-2026-11-29-independent-3.csv': { accuracy: 360 / 371, costlyFalseEligible: 0, review: 5 / 371 },
  'unseen-2026-11-29-independent-2.csv': { ...UNSEEN_BARS, accuracy: 466 / 466 },
  'unseen-2026-11-29-independent.csv': { ...UNSEEN_BARS, accuracy: 377 / 377 },
  'unseen-2026-11-29b.csv': { ...UNSEEN_BARS, accuracy: 285 / 285 },
  'unseen-2026-11-29.csv': { ...UNSEEN_BARS, accuracy: 270 / 270 },
  'unseen-2026-11-28b.csv': { ...UNSEEN_BARS, accuracy: 296 / 297 },
  'unseen-2026-11-28.csv': { accuracy: 351 / 352, costlyFalseEligible: 0, review: UNSEEN_BARS.review },
  'post-rules-names.csv': { accuracy: 131 / 131, costlyFalseEligible: 0, review: 5 / 131 },
  'held-out-names.csv': UNSEEN_BARS,
};
const MEASURED = LABELLED_SETS.flatMap(({ file, role }) => {
  const floors = FLOORS[file];
  return floors ? [[file, role, floors] as const] : [];
});

describe.each(MEASURED)('the name classifier on %s', (file, role, floors) => {
  const set = read(file);
  const evaluation = evaluate(set);
  const figures = () => `${role}\n${formatEvaluation(evaluation)}`;

  test(`no more than ${floors.costlyFalseEligible} name labelled not_eligible or requires_lmn is answered eligible`, () => {
    const costly = evaluation.falseEligible.filter((miss) => miss.expected !== 'requires_review');
    if (costly.length > floors.costlyFalseEligible) throw new Error(figures());
    expect(costly.length).toBeLessThanOrEqual(floors.costlyFalseEligible);
  });

  test(`accuracy is at least ${(floors.accuracy * 100).toFixed(1)}%`, () => {
    if (evaluation.accuracy < floors.accuracy) throw new Error(figures());
    expect(evaluation.accuracy).toBeGreaterThanOrEqual(floors.accuracy);
  });

  test(`at most ${(floors.review * 100).toFixed(1)}% of the names are answered requires_review`, () => {
    const share = answeredReview(evaluation) / evaluation.total;
    if (share > floors.review) throw new Error(figures());
    expect(share).toBeLessThanOrEqual(floors.review);
  });
});

// A new set is written as new products, not as older names in another size: a name whose words (numbers, sizes and
// counts aside) overlap an older name's by this share or more is a copy (Jaccard).
const MAX_WORD_OVERLAP = 0.45;
const SIZE_WORDS = new Set([
  'oz',
  'fl',
  'ct',
  'mg',
  'mcg',
  'ml',
  'l',
  'lb',
  'g',
  'iu',
  'in',
  'x',
  'pk',
  'pack',
  'count',
]);

function comparedWords(name: string): Set<string> {
  return new Set(
    normalizeName(name)
      .split(' ')
      .filter((word) => !/^\d+$/.test(word) && !SIZE_WORDS.has(word)),
  );
}

// The newest set was screened before it was measured (this test found none of its names in an older set). The sixth
// independent set's two (a berberine and a mascara) were removed before it was measured, the fifth had none. The fourth
// independent set's one (a lubricant) was removed before it was measured, the third had none; the second
// independent set's 3 names this test found were removed before it was measured, and the 44
// it found in the first independent set (36 of them names of the fourth unseen set, written at the same time) were
// removed from that set afterwards (its figures with and without them are in bench/README.md).
const KNOWN_COPIES = { same: 0, overlapping: 0 };

function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

describe('the labelled sets', () => {
  const sets = LABELLED_SETS.map(({ file }) => ({ file, names: read(file) }));

  test.each(sets.map(({ file, names }) => [file, names] as const))(
    '%s covers every decided status and has no duplicate name',
    (_file, names) => {
      const evaluation = evaluate(names);
      // A writer may leave out every name no public list settles (the sixteenth set has no requires_review label);
      // the three answers a list decides must all be there.
      for (const status of DECIDED_STATUSES) expect(evaluation.perClass[status].support).toBeGreaterThan(0);
      expect(new Set(names.map((c) => c.name.toLowerCase())).size).toBe(names.length);
    },
  );

  test(`the newest set has at least 250 names, ${KNOWN_COPIES.same} of them in an older set`, () => {
    const [newest, ...older] = sets;
    expect(newest.names.length).toBeGreaterThanOrEqual(250);
    const seen = new Set(older.flatMap(({ names }) => names.map((c) => c.name.toLowerCase())));
    expect(newest.names.filter((c) => seen.has(c.name.toLowerCase()))).toHaveLength(KNOWN_COPIES.same);
  });

  test(`${KNOWN_COPIES.overlapping} names of the newest set share 45% or more of their words with a name of an older set`, () => {
    const [newest, ...older] = sets;
    const olderWords = older.flatMap(({ names }) => names.map((c) => ({ name: c.name, words: comparedWords(c.name) })));
    const copies = newest.names.flatMap(({ name }) => {
      const words = comparedWords(name);
      const close = olderWords.find((other) => jaccard(words, other.words) >= MAX_WORD_OVERLAP);
      return close ? [`${name} ~ ${close.name}`] : [];
    });
    expect(copies).toHaveLength(KNOWN_COPIES.overlapping);
  });
});
