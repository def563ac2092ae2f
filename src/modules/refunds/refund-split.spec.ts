import { splitLineRefund, splitRefund, type RefundablePayment } from './refund-split.js';

/** Applies refunds in sequence, returning the shares and checking the invariants at each step. */
function run(hsaCaptured: number, regularCaptured: number, amounts: number[]) {
  const hsa: RefundablePayment = { captured: hsaCaptured, refunded: 0 };
  const regular: RefundablePayment = { captured: regularCaptured, refunded: 0 };
  return amounts.map((a) => {
    const share = splitRefund(a, hsa, regular);
    expect(share.hsa + share.regular).toBe(a);
    expect(share.hsa).toBeGreaterThanOrEqual(0);
    expect(share.regular).toBeGreaterThanOrEqual(0);
    hsa.refunded += share.hsa;
    regular.refunded += share.regular;
    expect(hsa.refunded).toBeLessThanOrEqual(hsa.captured);
    expect(regular.refunded).toBeLessThanOrEqual(regular.captured);
    return [share.hsa, share.regular];
  });
}

test('a full refund returns each payment exactly', () => {
  expect(run(2000, 1500, [3500])).toEqual([[2000, 1500]]);
  expect(run(1, 2, [3])).toEqual([[1, 2]]);
});

test('a partial refund is proportional, rounded down on the HSA/FSA side', () => {
  expect(run(2000, 1000, [1500])).toEqual([[1000, 500]]);
  expect(run(1000, 1000, [1])).toEqual([[0, 1]]);
});

test('three refunds of 1 cent on a split order alternate so the cumulative split stays proportional', () => {
  expect(run(2000, 1500, [1, 1, 1])).toEqual([
    [0, 1],
    [1, 0],
    [0, 1],
  ]);
});

test('odd amounts then the remainder: each payment comes back exactly', () => {
  const shares = run(1999, 1001, [333, 777, 1, 1889]);
  const hsa = shares.reduce((s, [h]) => s + h, 0);
  const regular = shares.reduce((s, [, r]) => s + r, 0);
  expect([hsa, regular]).toEqual([1999, 1001]);
});

test('one-sided orders', () => {
  expect(run(0, 500, [100, 400])).toEqual([
    [0, 100],
    [0, 400],
  ]);
  expect(run(500, 0, [100, 400])).toEqual([
    [100, 0],
    [400, 0],
  ]);
});

test('after one side was given back (a failed part), the other side is never overdrawn', () => {
  // HSA already refunded in full, regular untouched: everything left comes from regular.
  expect(splitRefund(1500, { captured: 2000, refunded: 2000 }, { captured: 1500, refunded: 0 })).toEqual({
    hsa: 0,
    regular: 1500,
  });
  // Regular exhausted: the HSA side takes the rest even above its proportional target.
  expect(splitRefund(1000, { captured: 2000, refunded: 1000 }, { captured: 1500, refunded: 1500 })).toEqual({
    hsa: 1000,
    regular: 0,
  });
});

test('random sequences never over-refund and always finish exact', () => {
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 300; i++) {
    const h = rand(5000);
    const r = 1 + rand(5000);
    let left = h + r;
    const amounts: number[] = [];
    while (left > 0) {
      const a = Math.min(left, 1 + rand(Math.max(1, Math.floor(left / 2) + 1)));
      amounts.push(a);
      left -= a;
    }
    const shares = run(h, r, amounts);
    expect(shares.reduce((s, [x]) => s + x, 0)).toBe(h);
    expect(shares.reduce((s, [, y]) => s + y, 0)).toBe(r);
  }
});

test('more than remains is refused', () => {
  expect(() => splitRefund(2, { captured: 1, refunded: 0 }, { captured: 0, refunded: 0 })).toThrow(RangeError);
});

describe('line refunds go back to the card that paid the line', () => {
  // A split checkout: a 19.99 thermometer (eligible, HSA/FSA card) and a 12.00 candle (regular card).
  const paid = [
    { id: 'li_1', price: 1999, quantity: 1, hsa_fsa_eligible: true },
    { id: 'li_2', price: 600, quantity: 2, hsa_fsa_eligible: false },
  ];
  const fresh = (hsa: number, regular: number) =>
    [
      { captured: hsa, refunded: 0 },
      { captured: regular, refunded: 0 },
    ] as const;

  test('a line that is not eligible returns wholly to the regular card', () => {
    expect(splitLineRefund([{ line_item_id: 'li_2', amount: 1200 }], paid, ...fresh(1999, 1200))).toEqual({
      hsa: 0,
      regular: 1200,
    });
    expect(splitLineRefund([{ line_item_id: 'li_2', amount: 600 }], paid, ...fresh(1999, 1200))).toEqual({
      hsa: 0,
      regular: 600,
    });
  });

  test('an eligible line returns wholly to the HSA/FSA card that paid it', () => {
    expect(splitLineRefund([{ line_item_id: 'li_1', amount: 1999 }], paid, ...fresh(1999, 1200))).toEqual({
      hsa: 1999,
      regular: 0,
    });
  });

  test('both lines at once: each to its own card', () => {
    expect(
      splitLineRefund(
        [
          { line_item_id: 'li_1', amount: 1000 },
          { line_item_id: 'li_2', amount: 600 },
        ],
        paid,
        ...fresh(1999, 1200),
      ),
    ).toEqual({ hsa: 1000, regular: 600 });
  });

  test('one regular card paid everything: every line returns to it', () => {
    expect(splitLineRefund([{ line_item_id: 'li_1', amount: 1999 }], paid, ...fresh(0, 3199))).toEqual({
      hsa: 0,
      regular: 1999,
    });
  });

  test('a partial authorisation moved part of the eligible lines to the regular card: the eligible line returns in that proportion', () => {
    // The HSA/FSA card covered 1000 of the 1999 eligible; the regular card paid 999 + 1200.
    expect(splitLineRefund([{ line_item_id: 'li_1', amount: 1999 }], paid, ...fresh(1000, 2199))).toEqual({
      hsa: 1000,
      regular: 999,
    });
  });

  test('a card with too little left hands the excess to the other card', () => {
    expect(
      splitLineRefund(
        [{ line_item_id: 'li_2', amount: 1200 }],
        paid,
        { captured: 1999, refunded: 0 },
        { captured: 1200, refunded: 600 },
      ),
    ).toEqual({ hsa: 600, regular: 600 });
  });
});
