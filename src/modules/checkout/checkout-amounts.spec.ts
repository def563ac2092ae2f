import { checkoutType, splitAmounts, type PricedLine } from './checkout-amounts.js';

const line = (price: number, quantity: number, hsaFsaEligible: boolean): PricedLine => ({ price, quantity, hsaFsaEligible });

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
    expect(a).toEqual({ subtotal: 3000, hsa_amount: 966 + 96, regular_amount: 3190 - 1062, shipping: 0, tax: 290, discount: 100, total: 3190 });
  });

  test('no eligible line: nothing for the HSA/FSA card', () => {
    expect(splitAmounts([line(999, 3, false)], { shipping: 100, tax: 50, discount: 0 })).toMatchObject({ hsa_amount: 0, regular_amount: 3147, total: 3147 });
  });

  test('the parts always add up to the total', () => {
    for (let i = 0; i < 500; i++) {
      const lines = Array.from({ length: 1 + (i % 4) }, (_, k) => line(1 + ((i * 37 + k * 101) % 5000), 1 + (k % 3), (i + k) % 3 !== 0));
      const subtotal = lines.reduce((s, l) => s + l.price * l.quantity, 0);
      const extra = { shipping: i % 700, tax: (i * 13) % 900, discount: Math.min(subtotal, (i * 7) % 400) };
      const a = splitAmounts(lines, extra);
      expect(a.hsa_amount + a.regular_amount).toBe(a.total);
      expect(a.hsa_amount).toBeGreaterThanOrEqual(0);
      expect(a.regular_amount).toBeGreaterThanOrEqual(extra.shipping);
    }
  });
});

test('checkoutType', () => {
  expect(checkoutType([line(1, 1, true)])).toBe('eligible');
  expect(checkoutType([line(1, 1, true), line(1, 1, false)])).toBe('split');
  expect(checkoutType([line(1, 1, false)])).toBe('regular');
});
