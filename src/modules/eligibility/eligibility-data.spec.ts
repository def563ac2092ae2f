import { ELIGIBILITY_CATEGORIES, UPC_TABLE } from './eligibility-data.js';
import { checkEligibility, normalizeName } from './eligibility.engine.js';
import { validateGtin } from './gtin.js';
import { ELIGIBILITY_STATUSES, RULE_SOURCES } from './eligibility.types.js';

describe('eligibility categories', () => {
  test('there are at least 40 categories covering every status', () => {
    expect(ELIGIBILITY_CATEGORIES.length).toBeGreaterThanOrEqual(40);
    for (const status of ELIGIBILITY_STATUSES) {
      expect(ELIGIBILITY_CATEGORIES.some((c) => c.status === status)).toBe(true);
    }
  });

  test('category ids are unique kebab-case', () => {
    const ids = ELIGIBILITY_CATEGORIES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test.each(ELIGIBILITY_CATEGORIES.map((c) => [c.id, c] as const))(
    '%s has a label, a rationale and usable keywords',
    (_id, category) => {
      expect(category.label.trim()).not.toBe('');
      expect(category.rationale.length).toBeGreaterThan(20);
      expect(category.keywords.length).toBeGreaterThan(0);
      for (const phrase of [
        ...category.keywords.flatMap((k) => k.split(' + ')),
        ...(category.negative_keywords ?? []),
      ]) {
        expect(normalizeName(phrase)).not.toBe('');
        expect(phrase).not.toContain('+');
      }
    },
  );

  // The message a merchant forwards names the rule and where it comes from.
  test.each(ELIGIBILITY_CATEGORIES.map((c) => [c.id, c.rationale] as const))(
    '%s cites its source first',
    (_id, rationale) => {
      expect(RULE_SOURCES.some((source) => rationale.startsWith(source))).toBe(true);
    },
  );

  test.each(ELIGIBILITY_CATEGORIES.filter((c) => c.confirm).map((c) => [c.id, c] as const))(
    '%s sends unconfirmed names to a review category',
    (_id, category) => {
      expect(category.status).toBe('eligible');
      expect(ELIGIBILITY_CATEGORIES.find((c) => c.id === category.confirm?.review_category)?.status).toBe(
        'requires_review',
      );
    },
  );
});

describe('UPC table', () => {
  test('has at least 40 entries across every status', () => {
    expect(UPC_TABLE.length).toBeGreaterThanOrEqual(40);
    const statuses = new Set(UPC_TABLE.map((e) => ELIGIBILITY_CATEGORIES.find((c) => c.id === e.category_id)?.status));
    expect([...statuses].sort()).toEqual(['eligible', 'not_eligible', 'requires_lmn']);
  });

  test.each(UPC_TABLE.map((e) => [e.gtin, e] as const))(
    '%s passes validateGtin, names a known category and is found by UPC',
    (gtin, entry) => {
      expect(validateGtin(gtin)).toMatchObject({ valid: true });
      expect(ELIGIBILITY_CATEGORIES.some((c) => c.id === entry.category_id)).toBe(true);
      expect(checkEligibility({ upc_code_or_gtin: gtin })).toMatchObject({
        source: 'upc',
        category: entry.category_id,
      });
    },
  );

  test('GTINs are unique once normalised', () => {
    const normalized = UPC_TABLE.map((e) => validateGtin(e.gtin).normalized);
    expect(new Set(normalized).size).toBe(UPC_TABLE.length);
  });

  // The name matcher and the curated table should agree, or one of them has a data bug.
  test.each(UPC_TABLE.map((e) => [e.name, e.category_id] as const))(
    'name of listed product %s classifies as %s',
    (name, categoryId) => {
      expect(checkEligibility({ name }).category).toBe(categoryId);
    },
  );
});

describe('normalizeName', () => {
  test.each([
    ['Band-Aid® Bandages', 'band aid bandage'],
    ['Contact Lenses', 'contact lens'],
    ['Women’s Multivitamin Gummies', 'woman multivitamin gummy'],
    ['Crutches & Braces', 'crutch and brace'],
    ['SPF50+ KN95', 'spf 50 kn 95'],
    ['Headaches', 'headache'],
    ['Glasses', 'glass'],
    ['Crème Brûlée Cookies', 'creme brulee cooky'],
    // Words that name an Object.prototype member are words like any other.
    ['Constructor Toys', 'constructor toy'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });
});
