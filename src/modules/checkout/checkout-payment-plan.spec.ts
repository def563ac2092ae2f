import { SimulatedProcessor } from '../payments/simulated-processor.js';
import type { CheckoutLineItem } from './checkout-session.entity.js';
import {
  healthcareAmounts,
  lmnRequest,
  planPayment,
  requireAnswers,
  type PlannedSession,
} from './checkout-payment-plan.js';

// `inspect` only reads the card: the processor never reaches its ledger here.
const processor = new SimulatedProcessor(() => Promise.reject(new Error('no ledger in a plan')));
const now = new Date('2026-06-01T00:00:00Z');
const card = (number: string) => ({ number, exp_month: 12, exp_year: 2030, cvc: '123' });
const hsa = card('4111110000000013');
const visa = card('4242424242424242');
const item = (requiresLmn: boolean, eligible = true): CheckoutLineItem => ({
  product_id: requiresLmn ? 'VIT' : 'THERM',
  name: requiresLmn ? 'Vitamin D' : 'Thermometer',
  price: 1000,
  quantity: 1,
  currency: 'usd',
  matched_product_id: 1,
  hsa_fsa_eligible: eligible,
  requires_lmn: requiresLmn,
});
const session = (hsaAmount: number, regular: number, lineItems = [item(false)]): PlannedSession => ({
  currency: 'usd',
  lineItems,
  amounts: {
    subtotal: hsaAmount + regular,
    hsa_amount: hsaAmount,
    regular_amount: regular,
    shipping: 0,
    tax: 0,
    discount: 0,
    total: hsaAmount + regular,
  },
});
const plan = (s: PlannedSession, input: Record<string, unknown>) => planPayment(false, s, input, processor, now);
const amountsOf = (p: ReturnType<typeof plan>) => p.parts.map((x) => [x.slot, x.amount]);

describe('planPayment', () => {
  test('a split pays the eligible amount with the HSA/FSA card and the rest with the regular card', () => {
    expect(amountsOf(plan(session(1000, 500), { hsa_fsa_card: hsa, card: visa }))).toEqual([
      ['hsa_fsa_card', 1000],
      ['card', 500],
    ]);
  });

  test('two cards on an all-eligible checkout keep the regular card aside for a partial authorisation', () => {
    const p = plan(session(1000, 0), { hsa_fsa_card: hsa, card: visa });
    expect(amountsOf(p)).toEqual([['hsa_fsa_card', 1000]]);
    expect(p.reserve?.slot).toBe('card');
  });

  test('one regular card pays the whole total', () => {
    expect(amountsOf(plan(session(1000, 500), { card: visa }))).toEqual([['card', 1500]]);
  });

  test('an HSA/FSA card alone cannot pay what is not eligible', () => {
    expect(() => plan(session(1000, 500), { hsa_fsa_card: hsa })).toThrow(/card is required/);
  });

  test('a regular card in the HSA/FSA slot is refused', () => {
    expect(() => plan(session(1000, 0), { hsa_fsa_card: visa })).toThrow(/not an HSA\/FSA card/);
  });

  test('an expired card is refused before any call', () => {
    expect(() => plan(session(0, 500), { card: { ...visa, exp_year: 2020 } })).toThrow(/expired/);
  });
});

describe('lmnRequest', () => {
  const lmnSession = session(2000, 0, [item(true), item(false)]);
  test('an HSA/FSA card paying an item that needs a letter asks for that item only', () => {
    const { parts } = plan(lmnSession, { hsa_fsa_card: hsa });
    expect(lmnRequest(lmnSession, {}, parts)).toEqual({
      items: [{ product_id: 'VIT', name: 'Vitamin D' }],
      answers: null,
    });
  });

  test('without a letter the questionnaire is required', () => {
    const { parts } = plan(lmnSession, { hsa_fsa_card: hsa });
    expect(() => requireAnswers(lmnRequest(lmnSession, {}, parts)!)).toThrow(/letter of medical necessity/);
  });

  test('a regular card paying the same item asks for nothing', () => {
    const { parts } = plan(lmnSession, { card: visa });
    expect(lmnRequest(lmnSession, {}, parts)).toBeNull();
  });
});

describe('healthcareAmounts', () => {
  test('a partly authorised amount is re-shared in the breakdown proportions', () => {
    expect(healthcareAmounts(500, { rx: 600, vision: 0, clinic: 0, dental: 0, otc: 400 })).toEqual({
      total: 500,
      prescription: 300,
      vision: 0,
      clinic: 0,
      dental: 0,
    });
  });
});
