import { DomainError } from '../../platform/errors.js';
import { formatAmount } from '../../platform/money.js';
import { notExpired } from '../payments/card.js';
import { paymentMethodOf, type PaymentMethodInput } from '../payments/payment-method-input.js';
import type { CardDetails, HealthcareAmounts, PaymentProcessor } from '../payments/payment-processor.js';
import type { LmnAnswers } from '../lmn/lmn.entity.js';
import type { HealthcareBreakdown } from '../shared/amounts.js';
import { shareByCategory } from './checkout-amounts.js';
import type { CheckoutSession } from './checkout-session.entity.js';
import type { PayCheckoutInput } from './checkout.schemas.js';

/*
 * The plan of a pay: which card pays what, decided from the session and the request alone (no
 * database, no processor call beyond `inspect`, which only reads the card).
 */

export type Slot = 'hsa_fsa_card' | 'card';

/** One card of a pay and the cents it is asked for. */
export interface Part {
  slot: Slot;
  method: PaymentMethodInput;
  details: CardDetails;
  amount: number;
}

/** A pay request's parts, and the regular card kept aside when the HSA/FSA card is expected to pay everything (a partial authorisation moves the rest to it). */
export interface PaymentPlan {
  parts: Part[];
  reserve: Part | null;
}

/** What a plan reads of the session. */
export type PlannedSession = Pick<CheckoutSession, 'amounts' | 'currency' | 'lineItems'>;

const fieldError = (code: 'validation_error' | 'invalid_payment_method', field: string, message: string) =>
  DomainError.field(field, message, code);

/**
 * Decides which card pays what. An HSA/FSA card pays only the eligible amount; the regular card
 * pays the rest, or everything when it is the only card.
 */
export function planPayment(
  livemode: boolean,
  session: PlannedSession,
  input: PayCheckoutInput,
  processor: Pick<PaymentProcessor, 'inspect'>,
  now: Date,
): PaymentPlan {
  const { hsa_amount: hsa, regular_amount: regular, total } = session.amounts;
  const notEligible = `${formatAmount(regular, session.currency)} of this checkout ${regular === 1 ? 'is' : 'are'} not HSA/FSA eligible`;
  const methods: Partial<Record<Slot, PaymentMethodInput>> = {};
  for (const slot of ['hsa_fsa_card', 'card'] as const) {
    const given = input[slot];
    if (!given) continue;
    const method = paymentMethodOf(given, livemode, slot);
    if (method.kind === 'card' && !notExpired(method.card, now))
      throw fieldError('validation_error', `${slot}.exp_year`, 'the card has expired');
    methods[slot] = method;
  }
  const hsaDetails = methods.hsa_fsa_card && processor.inspect(methods.hsa_fsa_card, 'hsa_fsa_card');
  const cardDetails = methods.card && processor.inspect(methods.card, 'card');
  if (hsaDetails && hsaDetails.type !== 'hsa_fsa_card')
    throw fieldError(
      'invalid_payment_method',
      'hsa_fsa_card',
      'This is a regular card, not an HSA/FSA card. Enter an HSA/FSA card here, or choose "One regular card" to pay the whole total with this card.',
    );
  const part = (slot: Slot, details: CardDetails, amount: number): Part => ({
    slot,
    method: methods[slot]!,
    details,
    amount,
  });
  if (methods.hsa_fsa_card && methods.card) {
    if (hsa === 0)
      throw fieldError(
        'invalid_payment_method',
        'hsa_fsa_card',
        'cannot be used: nothing in this checkout is HSA/FSA eligible',
      );
    if (cardDetails!.type === 'hsa_fsa_card' && regular > 0)
      throw fieldError('invalid_payment_method', 'card', `is an HSA/FSA card; use a regular card: ${notEligible}`);
    const card = part('card', cardDetails!, regular);
    return regular > 0
      ? { parts: [part('hsa_fsa_card', hsaDetails!, hsa), card], reserve: null }
      : { parts: [part('hsa_fsa_card', hsaDetails!, hsa)], reserve: card };
  }
  if (methods.hsa_fsa_card) {
    if (regular > 0) throw fieldError('validation_error', 'card', `is required: ${notEligible}`);
    return { parts: [part('hsa_fsa_card', hsaDetails!, total)], reserve: null };
  }
  if (cardDetails!.type === 'hsa_fsa_card' && regular > 0)
    throw fieldError('invalid_payment_method', 'card', `is an HSA/FSA card; use a regular card: ${notEligible}`);
  return { parts: [part('card', cardDetails!, total)], reserve: null };
}

/** What an HSA/FSA card paying for items that need a letter of medical necessity asks for: the items, and the questionnaire (a request for a letter) when given. */
export interface LmnRequest {
  items: { product_id: string; name: string }[];
  answers: LmnAnswers | null;
}

/** The items an HSA/FSA card pays that need a letter, with the shopper's answers; null when none (or no HSA/FSA card pays). */
export function lmnRequest(session: PlannedSession, input: PayCheckoutInput, parts: Part[]): LmnRequest | null {
  const lmnItems = session.lineItems.filter((l) => l.requires_lmn);
  if (!lmnItems.length || !parts.some((p) => p.details.type === 'hsa_fsa_card')) return null;
  const items = [...new Map(lmnItems.map((l) => [l.product_id, { product_id: l.product_id, name: l.name }])).values()];
  const answers = input.lmn
    ? {
        condition: input.lmn.condition,
        recommended_by_provider: true,
        provider_name: input.lmn.provider_name ?? null,
        attestation: true,
      }
    : null;
  return { items, answers };
}

/** The questionnaire is required when no valid letter covers the items: it is what the clinician reviews. */
export function requireAnswers(request: LmnRequest): LmnAnswers {
  if (request.answers) return request.answers;
  const names = request.items.map((l) => l.name).join(', ');
  throw fieldError(
    'validation_error',
    'lmn',
    `is required: ${names} ${request.items.length === 1 ? 'needs' : 'need'} a letter of medical necessity to be paid with an HSA/FSA card (answer the questionnaire for a clinician to review, or pay with a regular card)`,
  );
}

/** The IIAS amounts of an HSA/FSA authorisation of `amount`: the checkout's breakdown, re-shared in its proportions when the card is asked for another amount. */
export function healthcareAmounts(amount: number, breakdown: HealthcareBreakdown): HealthcareAmounts {
  const sum = breakdown.rx + breakdown.vision + breakdown.clinic + breakdown.dental + breakdown.otc;
  const parts =
    sum === amount
      ? breakdown
      : shareByCategory(amount, sum > 0 ? breakdown : { rx: 0, vision: 0, clinic: 0, dental: 0, otc: 1 });
  return { total: amount, prescription: parts.rx, vision: parts.vision, clinic: parts.clinic, dental: parts.dental };
}
