import { AdmissionGate } from '../../platform/admission.js';
import { withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { formatAmount } from '../../platform/money.js';
import { parseInput } from '../../platform/validation.js';
import { notExpired, type CardInput } from '../payments/card.js';
import type { Authorization, CardDetails, PaymentProcessor } from '../payments/payment-processor.js';
import type { Payment } from '../payments/payment.entity.js';
import { PaymentJournal } from '../payments/payment-journal.js';
import { processorFor } from '../payments/processor-registry.js';
import type { LmnApproval, Order } from '../orders/order.entity.js';
import { orderCompletedPayload, orderFailedPayload } from '../orders/order.resource.js';
import { createOrder, type CapturedPayment, type OrderDraft } from '../orders/order.service.js';
import type { CheckoutSession } from './checkout-session.entity.js';
import { toCheckoutResource } from './checkout.resource.js';
import { effectiveStatus, getCheckoutSession, webhookUrlOf } from './checkout.service.js';
import { payCheckoutSchema, type PayCheckoutInput } from './checkout.schemas.js';

type Slot = 'hsa_fsa_card' | 'card';
interface Part {
  slot: Slot;
  card: CardInput;
  details: CardDetails;
  amount: number;
}

export type PayOutcome = { ok: true; order: Order } | { ok: false; order: Order; error: DomainError };

const fieldError = (code: 'validation_error' | 'invalid_payment_method', field: string, message: string) => DomainError.field(field, message, code);

/**
 * Decides which card pays what. An HSA/FSA card pays only the eligible amount (and needs an
 * approved letter of medical necessity for items that require one); the regular card pays the
 * rest, or everything when it is the only card.
 */
export function planPayment(session: CheckoutSession, input: PayCheckoutInput, processor: PaymentProcessor, now: Date): Part[] {
  const { hsa_amount: hsa, regular_amount: regular, total } = session.amounts;
  const notEligible = `${formatAmount(regular, session.currency)} of this checkout ${regular === 1 ? 'is' : 'are'} not HSA/FSA eligible`;
  const parts: Part[] = [];
  for (const slot of ['hsa_fsa_card', 'card'] as const) {
    const card = input[slot];
    if (card && !notExpired(card, now)) throw fieldError('validation_error', `${slot}.exp_year`, 'the card has expired');
  }
  const hsaDetails = input.hsa_fsa_card && processor.inspect(input.hsa_fsa_card);
  const cardDetails = input.card && processor.inspect(input.card);
  if (hsaDetails && hsaDetails.type !== 'hsa_fsa_card')
    throw fieldError(
      'invalid_payment_method',
      'hsa_fsa_card',
      'This is a regular card, not an HSA/FSA card. Enter an HSA/FSA card here, or choose "One regular card" to pay the whole total with this card.',
    );
  if (input.hsa_fsa_card && input.card) {
    if (hsa === 0) throw fieldError('invalid_payment_method', 'hsa_fsa_card', 'cannot be used: nothing in this checkout is HSA/FSA eligible');
    if (cardDetails!.type === 'hsa_fsa_card' && regular > 0) throw fieldError('invalid_payment_method', 'card', `is an HSA/FSA card; use a regular card: ${notEligible}`);
    parts.push({ slot: 'hsa_fsa_card', card: input.hsa_fsa_card, details: hsaDetails!, amount: hsa });
    if (regular > 0) parts.push({ slot: 'card', card: input.card, details: cardDetails!, amount: regular });
  } else if (input.hsa_fsa_card) {
    if (regular > 0) throw fieldError('validation_error', 'card', `is required: ${notEligible}`);
    parts.push({ slot: 'hsa_fsa_card', card: input.hsa_fsa_card, details: hsaDetails!, amount: total });
  } else {
    if (cardDetails!.type === 'hsa_fsa_card' && regular > 0) throw fieldError('invalid_payment_method', 'card', `is an HSA/FSA card; use a regular card: ${notEligible}`);
    parts.push({ slot: 'card', card: input.card!, details: cardDetails!, amount: total });
  }
  return parts;
}

/** An approved LMN when an HSA/FSA card pays for items that need one; otherwise null. */
function lmnApproval(session: CheckoutSession, input: PayCheckoutInput, parts: Part[], now: Date): LmnApproval | null {
  const lmnItems = session.lineItems.filter((l) => l.requires_lmn);
  if (!lmnItems.length || !parts.some((p) => p.details.type === 'hsa_fsa_card')) return null;
  if (!input.lmn) {
    const names = lmnItems.map((l) => l.name).join(', ');
    throw fieldError(
      'validation_error',
      'lmn',
      `is required: ${names} ${lmnItems.length === 1 ? 'needs' : 'need'} a letter of medical necessity to be paid with an HSA/FSA card (answer the questionnaire, or pay with a regular card)`,
    );
  }
  return { status: 'approved', approved_at: now.toISOString(), condition: input.lmn.condition, provider_name: input.lmn.provider_name ?? null, items: lmnItems.map((l) => l.product_id) };
}

/**
 * What a caller paying through a checkout session adds to the order (payment links).
 *
 * Lock order: whatever owns the session (a payment link) first, then the checkout session.
 * Every transaction that locks both (a link's prepare step and its cancel lock the link then the
 * session) must keep it, or concurrent pays deadlock: so the settle step takes `lockFirst`'s
 * locks before it locks the session.
 */
export interface PayOptions {
  /** The payer's reference (a payment link's `?client_reference_id=`), kept on link orders. */
  clientReferenceId?: string | null;
  /** Runs first in the transaction that commits the order, before the session is locked: takes the owner's lock (see the lock order above). */
  lockFirst?: (tx: ServiceContext) => Promise<void>;
  /** Runs inside the transaction that commits the order, after its events (e.g. marks a payment link paid). */
  onPaid?: PaidHook;
}

/** A card that paid part of a checkout, as the processor answered it. */
export interface PaidCard {
  slot: Slot;
  type: Authorization['type'];
  brand: string;
  last4: string;
  token: string;
  captureId: string;
  card: CardInput;
}

/** A checkout just paid, as the work that runs in its order's transaction sees it. */
export interface PaidCheckout {
  session: CheckoutSession;
  order: Order;
  payments: Payment[];
  cards: PaidCard[];
}

/** Work that runs in the transaction committing a paid checkout's order. */
export type PaidHook = (tx: ServiceContext, paid: PaidCheckout) => Promise<void>;

const startedBy = new Map<CheckoutSession['paymentType'], PaidHook>();

/**
 * Registers what paying a checkout of `paymentType` starts, in the order's transaction and before
 * its events (a subscription checkout starts its subscription: the module wiring registers it, so
 * checkout never imports the module it sells for).
 */
export function onCheckoutPaid(paymentType: CheckoutSession['paymentType'], hook: PaidHook): void {
  startedBy.set(paymentType, hook);
}

/** The order a payment of `session` makes (a payment-link order carries the link and the payer's reference instead of a reference_id). */
function orderDraft(session: CheckoutSession, now: Date, opts: PayOptions, payments: CapturedPayment[] = []): OrderDraft {
  const recurring = session.paymentType === 'subscription';
  return {
    at: now,
    reason: 'checkout payment started',
    checkoutId: session.id,
    referenceId: session.paymentLinkId ? null : session.referenceId,
    paymentLinkId: session.paymentLinkId,
    clientReferenceId: session.paymentLinkId ? (opts.clientReferenceId ?? null) : null,
    isRecurring: recurring,
    currency: session.currency,
    customer: { ...session.customer, phone: session.customer.phone ?? null, shipping_address: session.shippingInfo, billing_address: session.billingInfo },
    lineItems: session.lineItems.map((l, i) => ({
      id: `li_${session.id.slice(3, 15)}_${i + 1}`,
      product_id: l.matched_product_id,
      merchant_product_id: l.product_id,
      name: l.name,
      quantity: l.quantity,
      price: l.price,
      hsa_fsa_eligible: l.hsa_fsa_eligible,
      requires_lmn: l.requires_lmn,
      is_recurring: recurring,
    })),
    amounts: session.amounts,
    metadata: session.metadata,
    payments,
  };
}

/** Records a failed order and `order.failed` for a part that could not be paid, and the error the payer gets (402). */
async function recordFailedPayment(ctx: ServiceContext, session: CheckoutSession, now: Date, part: Part, code: string, message: string, opts: PayOptions): Promise<PayOutcome> {
  const { order } = await createOrder(ctx, orderDraft(session, now, opts));
  order.failureReason = `${part.slot}: ${code}`;
  order.transition(now, 'failed', `${part.details.type === 'hsa_fsa_card' ? 'HSA/FSA card' : 'card'} ${part.details.brand} ${part.details.last4} declined: ${code}`, 'failed');
  recordEvent(ctx, 'order.failed', orderFailedPayload(order), { webhookUrl: webhookUrlOf(session) });
  await ctx.em.flush();
  const error = new DomainError('card_declined', message, { param: part.slot, details: { decline_code: code, payment_method: part.details.type, order_id: order.id } });
  return { ok: false, order, error };
}

/**
 * Pays an open session (hosted page, test helper, payment links): all parts are authorized, then
 * captured, or none is (a later decline voids the earlier holds). Three short steps, never two
 * database connections at once and never a transaction open while the processor works:
 *   1. a transaction locks the session, checks it, and commits the attempt's journal (`calling`);
 *      only one attempt per session can be open, so concurrent pays cannot both charge;
 *   2. the processor calls, each under the journal's idempotency key, outcomes written between;
 *   3. a transaction commits the order, its payments and events, and settles the journal.
 * A crash between 1 and 3 leaves a `calling` attempt that reconciliation reverses. A decline
 * records a failed order and `order.failed`, and is returned (not thrown).
 */
export async function payCheckoutSession(ctx: ServiceContext, sessionId: string, body: unknown, opts: PayOptions = {}): Promise<PayOutcome> {
  const input = parseInput(payCheckoutSchema, body ?? {});
  const processor = processorFor(ctx);
  return payments.run(() => pay(ctx, processor, sessionId, input, opts));
}

/** Payments in flight per process; a burst beyond what can start within 2 s is answered 429 at once. */
const payments = new AdmissionGate('payments', 8, 2000);

async function pay(ctx: ServiceContext, processor: PaymentProcessor, sessionId: string, input: PayCheckoutInput, opts: PayOptions): Promise<PayOutcome> {
  const { session, parts, lmn, journal, now } = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const session = await getCheckoutSession(tx, sessionId, true);
    const status = effectiveStatus(tx, session);
    if (status === 'paid')
      throw new DomainError('invalid_state', `Checkout ${session.id} is already paid (order ${session.orderId}).`, { param: 'checkout_id', details: { order_id: session.orderId } });
    if (status === 'expired') throw new DomainError('invalid_state', `Checkout ${session.id} expired at ${session.expiresAt.toISOString()} and can no longer be paid.`, { param: 'checkout_id' });
    const now = tx.now();
    const parts = planPayment(session, input, processor, now);
    const lmn = lmnApproval(session, input, parts, now);
    const journal = await PaymentJournal.open(
      tx,
      session.id,
      parts.map((p) => ({ slot: p.slot, payment_method: p.details.type, amount: p.amount })),
    );
    if (!journal) throw new DomainError('payment_in_progress', `Another payment of checkout ${session.id} is in progress; retry in a few seconds.`, { param: 'checkout_id' });
    return { session, parts, lmn, journal, now };
  });

  const fail = (part: Part, code: string, message: string) =>
    ctx.em.transactional(async (em) => {
      const tx = withEm(ctx, em);
      const outcome = await recordFailedPayment(tx, await getCheckoutSession(tx, sessionId, true), now, part, code, message, opts);
      if (!(await journal.settle(tx, 'failed', outcome.order.id))) throw abandoned(session.id);
      return outcome;
    });

  const held: { i: number; part: Part; auth: Authorization }[] = [];
  for (const [i, part] of parts.entries()) {
    const auth = await processor.authorize(part.card, part.amount, session.currency, journal.key(i, 'authorize'));
    if (!auth.ok) {
      for (const h of held) await processor.void(h.auth.authorizationId, journal.key(h.i, 'void'));
      return fail(part, auth.code, `${auth.message} Nothing was charged.`);
    }
    journal.steps[i].authorization_id = auth.authorizationId;
    held.push({ i, part, auth });
  }
  await journal.record(ctx);

  // Capture every hold; should one capture fail, the parts already captured are refunded and
  // the remaining holds released, so the customer is charged all or nothing.
  const captured: { i: number; part: Part; auth: Authorization; captureId: string }[] = [];
  for (const [n, { i, part, auth }] of held.entries()) {
    const capture = await processor.capture(auth.authorizationId, journal.key(i, 'capture'));
    if (!capture.ok) {
      for (const c of captured) await processor.refund(c.captureId, c.part.amount, journal.key(c.i, 'reverse'));
      for (const h of held.slice(n + 1)) await processor.void(h.auth.authorizationId, journal.key(h.i, 'void'));
      return fail(part, capture.code, 'The payment could not be completed; nothing was charged.');
    }
    journal.steps[i].capture_id = capture.captureId;
    captured.push({ i, part, auth, captureId: capture.captureId });
  }

  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await opts.lockFirst?.(tx); // lock order: the session's owner, then the session
    const paid = await getCheckoutSession(tx, sessionId, true);
    const captures = captured.map(({ part, auth, captureId }) => ({ paymentMethod: auth.type, brand: auth.brand, last4: auth.last4, amount: part.amount, processorToken: auth.token, captureId }));
    const { order, payments } = await createOrder(tx, orderDraft(paid, now, opts, captures));
    order.transition(now, 'processing', 'payment authorized', 'authorized');
    order.lmn = lmn;
    order.completedAt = now;
    order.transition(now, 'completed', 'payment captured', 'captured');
    paid.status = 'paid';
    paid.paidAt = now;
    paid.orderId = order.id;
    const cards = captured.map(({ part, auth, captureId }) => ({ slot: part.slot, type: auth.type, brand: auth.brand, last4: auth.last4, token: auth.token, captureId, card: part.card }));
    const done: PaidCheckout = { session: paid, order, payments, cards };
    await startedHook(paid.paymentType)?.(tx, done);
    const webhookUrl = webhookUrlOf(paid);
    recordEvent(tx, 'order.created', orderCompletedPayload(order), { webhookUrl });
    recordEvent(tx, 'order.completed', orderCompletedPayload(order), { webhookUrl });
    recordEvent(tx, 'checkout.completed', toCheckoutResource(paid), { webhookUrl });
    await opts.onPaid?.(tx, done);
    if (!(await journal.settle(tx, 'succeeded', order.id))) throw abandoned(paid.id);
    await em.flush();
    return { ok: true as const, order };
  });
}

/** What paying a checkout of `paymentType` starts; a type other than `one_time` must have it registered. */
function startedHook(paymentType: CheckoutSession['paymentType']): PaidHook | undefined {
  const hook = startedBy.get(paymentType);
  if (!hook && paymentType !== 'one_time') throw new Error(`nothing is registered to start what a ${paymentType} checkout sells (onCheckoutPaid)`);
  return hook;
}

/** The attempt ran so long that reconciliation reversed it: nothing is kept, nothing charged. */
const abandoned = (checkoutId: string) =>
  new DomainError('service_unavailable', `The payment of checkout ${checkoutId} took too long and was reversed; nothing was charged. Retry.`, { param: 'checkout_id' });
