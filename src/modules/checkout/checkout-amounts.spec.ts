import { ELIGIBILITY_CATEGORIES } from '../eligibility/eligibility-data.js';
import { ENGINE_IIAS, iiasCategoryOfEngine, type IiasCategory } from '../products/product-eligibility.js';
import { checkoutType, shareByCategory, splitAmounts, type PricedLine } from './checkout-amounts.js';

const line = (price: number, quantity: number, hsaFsaEligible: boolean, iiasCategory?: IiasCategory): PricedLine => ({
  price,
  quantity,
  hsaFsaEligible,
  iiasCategory,
});
const none = { rx: 0, vision: 0, clinic: 0, dental: 0, otc: 0 };

describe('splitAmounts', () => {
  test('all eligible, no extras: the HSA/FSA card pays everything', () => {
    expect(splitAmounts([line(1000, 2, true)], { shipping: 0, tax: 0, discount: 0 })).toEqual({
      subtotal: 2000,
      hsa_amount: 2000,
      regular_amount: 0,
      shipping: 0,
      tax: 0,
      discount: 0,
      total: 2000,
      healthcare: { ...none, otc: 2000 },
    });
  });

  test('shipping always goes to the regular card', () => {
    const a = splitAmounts([line(1000, 1, true)], { shipping: 500, tax: 0, discount: 0 });
    expect(a).toMatchObject({ hsa_amount: 1000, regular_amount: 500, total: 1500 });
  });

  test('split: discount pro rata rounded against HSA, tax pro rata rounded down', () => {
    // eligible 1000 of 3000; discount 100 → eligible share ceil(33.3) = 34; discounted 2900, eligible 966
    // tax 290 → eligible share floor(290 * 966 / 2900) = floor(96.6) = 96
    const a = splitAmounts([line(1000, 1, true), line(2000, 1, false)], { shipping: 0, tax: 290, discount: 100 });
    expect(a).toEqual({
      subtotal: 3000,
      hsa_amount: 966 + 96,
      regular_amount: 3190 - 1062,
      shipping: 0,
      tax: 290,
      discount: 100,
      total: 3190,
      healthcare: { ...none, otc: 1062 },
    });
  });

  test('no eligible line: nothing for the HSA/FSA card', () => {
    expect(splitAmounts([line(999, 3, false)], { shipping: 100, tax: 50, discount: 0 })).toMatchObject({
      hsa_amount: 0,
      regular_amount: 3147,
      total: 3147,
    });
  });

  test('the parts always add up to the total', () => {
    for (let i = 0; i < 500; i++) {
      const lines = Array.from({ length: 1 + (i % 4) }, (_, k) =>
        line(1 + ((i * 37 + k * 101) % 5000), 1 + (k % 3), (i + k) % 3 !== 0),
      );
      const subtotal = lines.reduce((s, l) => s + l.price * l.quantity, 0);
      const extra = { shipping: i % 700, tax: (i * 13) % 900, discount: Math.min(subtotal, (i * 7) % 400) };
      const a = splitAmounts(lines, extra);
      expect(a.hsa_amount + a.regular_amount).toBe(a.total);
      expect(a.hsa_amount).toBeGreaterThanOrEqual(0);
      expect(a.regular_amount).toBeGreaterThanOrEqual(extra.shipping);
      expect(a.healthcare.rx + a.healthcare.vision + a.healthcare.clinic + a.healthcare.dental + a.healthcare.otc).toBe(
        a.hsa_amount,
      );
    }
  });

  test('healthcare: hsa_amount by IIAS category, an eligible line without one counting as OTC, not-eligible lines nowhere', () => {
    const a = splitAmounts(
      [
        line(2500, 1, true, 'vision'),
        line(800, 1, true, 'dental'),
        line(1200, 1, true, 'rx'),
        line(1000, 1, true),
        line(1700, 1, false),
      ],
      { shipping: 500, tax: 0, discount: 0 },
    );
    expect(a.hsa_amount).toBe(5500);
    expect(a.healthcare).toEqual({ rx: 1200, vision: 2500, clinic: 0, dental: 800, otc: 1000 });
  });

  test('healthcare follows the discount and tax shares and adds up to hsa_amount exactly', () => {
    for (let i = 0; i < 300; i++) {
      const cats: IiasCategory[] = ['rx', 'vision', 'clinic', 'dental', 'otc'];
      const lines = Array.from({ length: 1 + (i % 5) }, (_, k) =>
        line(1 + ((i * 53 + k * 97) % 4000), 1 + (k % 2), (i + k) % 4 !== 0, cats[(i + k) % 5]),
      );
      const subtotal = lines.reduce((s, l) => s + l.price * l.quantity, 0);
      const a = splitAmounts(lines, {
        shipping: i % 300,
        tax: (i * 17) % 700,
        discount: Math.min(subtotal, (i * 11) % 500),
      });
      expect(a.healthcare.rx + a.healthcare.vision + a.healthcare.clinic + a.healthcare.dental + a.healthcare.otc).toBe(
        a.hsa_amount,
      );
      for (const c of cats) {
        const exact =
          a.hsa_amount *
          lines.filter((l) => l.hsaFsaEligible && l.iiasCategory === c).reduce((s, l) => s + l.price * l.quantity, 0);
        const eligible = lines.filter((l) => l.hsaFsaEligible).reduce((s, l) => s + l.price * l.quantity, 0);
        if (eligible > 0) expect(Math.abs(a.healthcare[c] - exact / eligible)).toBeLessThan(1); // within a cent of its proportional share
      }
    }
  });
});

describe('IIAS category of an engine category', () => {
  test('names eligible engine categories that exist (a renamed one would silently count as OTC)', () => {
    const status = new Map(ELIGIBILITY_CATEGORIES.map((c) => [c.id, c.status]));
    for (const id of Object.keys(ENGINE_IIAS)) expect([id, status.get(id)]).toEqual([id, 'eligible']);
    expect(Object.values(ENGINE_IIAS).sort()).toEqual(['dental', 'vision', 'vision']);
    expect(iiasCategoryOfEngine('eyeglasses')).toBe('vision');
    expect(iiasCategoryOfEngine('denture-care')).toBe('dental');
    expect(iiasCategoryOfEngine('cosmetics-with-spf')).toBe('otc'); // not eligible anyway: iiasCategoryOf gives it none
    expect(iiasCategoryOfEngine(null)).toBe('otc');
  });
});

describe('shareByCategory', () => {
  test('rounds each share down and gives the cents left to the largest fractions, ties in category order', () => {
    expect(shareByCategory(100, { rx: 1, vision: 1, clinic: 1, dental: 0, otc: 0 })).toEqual({
      rx: 34,
      vision: 33,
      clinic: 33,
      dental: 0,
      otc: 0,
    });
    expect(shareByCategory(10, { rx: 0, vision: 2, clinic: 0, dental: 0, otc: 1 })).toEqual({
      rx: 0,
      vision: 7,
      clinic: 0,
      dental: 0,
      otc: 3,
    });
    expect(shareByCategory(0, { rx: 1, vision: 0, clinic: 0, dental: 0, otc: 0 })).toEqual(none);
  });
});

test('checkoutType', () => {
  expect(checkoutType([line(1, 1, true)])).toBe('eligible');
  expect(checkoutType([line(1, 1, true), line(1, 1, false)])).toBe('split');
  expect(checkoutType([line(1, 1, false)])).toBe('regular');
});
