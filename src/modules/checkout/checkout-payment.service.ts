import { AdmissionGate } from '../../platform/admission.js';
import { withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { randomBase62 } from '../../platform/db/ids.js';
import { insertTogether } from '../../platform/db/sql.js';
import { newEvent, recordEvent } from '../../platform/events/events.service.js';
import { formatAmount } from '../../platform/money.js';
import { parseInput } from '../../platform/validation.js';
import { notExpired } from '../payments/card.js';
import { parkedMethod, paymentMethodOf, refuseRawCardInLiveMode, unparkedMethod, type ParkedMethod, type PaymentMethodInput } from '../payments/payment-method-input.js';
import { openAtRest, sealAtRest } from '../processor-accounts/processor-account.service.js';
import { needsAction, type Authorization, type AuthorizeResult, type CardDetails, type PaymentProcessor, type ProcessorResult, type SplitPayment } from '../payments/payment-processor.js';
import type { Payment } from '../payments/payment.entity.js';
import { PaymentJournal, withAttemptLeases } from '../payments/payment-journal.js';
import { processorFor } from '../payments/processor-registry.js';
import type { LmnApproval, Order } from '../orders/order.entity.js';
import { orderCompletedPayload, orderFailedPayload } from '../orders/order.resource.js';
import { orderNumberPart } from '../orders/order-numbers.js';
import { createOrder, type CapturedPayment, type OrderDraft } from '../orders/order.service.js';
import type { HealthcareBreakdown } from '../shared/amounts.js';
import { healthcareOf, shareByCategory } from './checkout-amounts.js';
import type { CheckoutSession } from './checkout-session.entity.js';
import { toCheckoutResource } from './checkout.resource.js';
import { effectiveStatus, getCheckoutSession, webhookUrlOf } from './checkout.service.js';
import { payCheckoutSchema, type PayCheckoutInput } from './checkout.schemas.js';

type Slot = 'hsa_fsa_card' | 'card';
interface Part {
  slot: Slot;
  method: PaymentMethodInput;
  details: CardDetails;
  amount: number;
}

/** A pay request's parts, and the regular card kept aside when the HSA/FSA card is expected to pay everything (a partial authorisation moves the rest to it). */
interface PaymentPlan {
  parts: Part[];
  reserve: Part | null;
}

/** A pay's outcome: the order it made (with its payments, as made) or the decline, or the shopper's action. */
export type PayOutcome = { ok: true; order: Order; payments: Payment[] } | { ok: false; order: Order; error: DomainError } | ActionOutcome;

/** The shopper must act (3-D Secure, a redirect) before the payment goes on: `POST …/payments/details` continues it. */
export interface ActionOutcome {
  ok: false;
  order: null;
  action: Record<string, unknown>;
  /** What a caller that cannot hand the action to the shopper answers (402 `authentication_required`). */
  error: DomainError;
}

const fieldError = (code: 'validation_error' | 'invalid_payment_method', field: string, message: string) => DomainError.field(field, message, code);

/**
 * Decides which card pays what. An HSA/FSA card pays only the eligible amount (and needs an
 * approved letter of medical necessity for items that require one); the regular card pays the
 * rest, or everything when it is the only card.
 */
function planPayment(ctx: ServiceContext, session: CheckoutSession, input: PayCheckoutInput, processor: PaymentProcessor, now: Date): PaymentPlan {
  const { hsa_amount: hsa, regular_amount: regular, total } = session.amounts;
  const notEligible = `${formatAmount(regular, session.currency)} of this checkout ${regular === 1 ? 'is' : 'are'} not HSA/FSA eligible`;
  const methods: Partial<Record<Slot, PaymentMethodInput>> = {};
  for (const slot of ['hsa_fsa_card', 'card'] as const) {
    const given = input[slot];
    if (!given) continue;
    const method = paymentMethodOf(given, ctx.principal.livemode, slot);
    if (method.kind === 'card' && !notExpired(method.card, now)) throw fieldError('validation_error', `${slot}.exp_year`, 'the card has expired');
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
  const part = (slot: Slot, details: CardDetails, amount: number): Part => ({ slot, method: methods[slot]!, details, amount });
  if (methods.hsa_fsa_card && methods.card) {
    if (hsa === 0) throw fieldError('invalid_payment_method', 'hsa_fsa_card', 'cannot be used: nothing in this checkout is HSA/FSA eligible');
    if (cardDetails!.type === 'hsa_fsa_card' && regular > 0) throw fieldError('invalid_payment_method', 'card', `is an HSA/FSA card; use a regular card: ${notEligible}`);
    const card = part('card', cardDetails!, regular);
    return regular > 0 ? { parts: [part('hsa_fsa_card', hsaDetails!, hsa), card], reserve: null } : { parts: [part('hsa_fsa_card', hsaDetails!, hsa)], reserve: card };
  }
  if (methods.hsa_fsa_card) {
    if (regular > 0) throw fieldError('validation_error', 'card', `is required: ${notEligible}`);
    return { parts: [part('hsa_fsa_card', hsaDetails!, total)], reserve: null };
  }
  if (cardDetails!.type === 'hsa_fsa_card' && regular > 0) throw fieldError('invalid_payment_method', 'card', `is an HSA/FSA card; use a regular card: ${notEligible}`);
  return { parts: [part('card', cardDetails!, total)], reserve: null };
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
  /** The card's expiry as entered (test cards) or as the processor reported it. */
  expiry: { month: number; year: number };
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
    // The IIAS breakdown is the checkout's request to the processor, not part of the order's split.
    amounts: { ...withoutHealthcare(session.amounts), ...paidSplit(session, payments) },
    metadata: session.metadata,
    payments,
  };
}

/**
 * The order's split: once paid, what the cards actually paid (HSA/FSA cards' captures, the rest on
 * regular cards: one regular card paying everything makes `hsa_amount` 0, a partial HSA/FSA
 * authorisation moves what it could not cover); unpaid, the checkout's split.
 */
function paidSplit(session: CheckoutSession, payments: CapturedPayment[]): { hsa_amount: number; regular_amount: number } {
  const { hsa_amount, regular_amount, total } = session.amounts;
  if (!payments.length) return { hsa_amount, regular_amount };
  const hsa = payments.reduce((sum, p) => sum + (p.paymentMethod === 'hsa_fsa_card' ? p.amount : 0), 0);
  return { hsa_amount: hsa, regular_amount: total - hsa };
}

/** Records a failed order and `order.failed` for a part that could not be paid, and the error the payer gets (402). */
async function recordFailedPayment(ctx: ServiceContext, session: CheckoutSession, now: Date, part: Part, refusal: Refusal, opts: PayOptions): Promise<PayOutcome & { order: Order }> {
  const { code, message, processorCode, authorizedAmount } = refusal;
  const { order } = await createOrder(ctx, orderDraft(session, now, opts));
  order.failureReason = `${part.slot}: ${code}`;
  order.transition(now, 'failed', `${part.details.type === 'hsa_fsa_card' ? 'HSA/FSA card' : 'card'} ${part.details.brand} ${part.details.last4} declined: ${code}`, 'failed');
  recordEvent(ctx, 'order.failed', orderFailedPayload(order), { webhookUrl: webhookUrlOf(session) });
  await ctx.em.flush();
  const error = new DomainError('card_declined', message, {
    param: part.slot,
    details: {
      decline_code: code,
      payment_method: part.details.type,
      order_id: order.id,
      ...(processorCode ? { refusal_reason_code: processorCode } : {}),
      ...(authorizedAmount !== undefined ? { authorized_amount: authorizedAmount } : {}),
    },
  });
  return { ok: false, order, error };
}

/** A refusal as the payer sees it; `authorizedAmount` is what an HSA/FSA card could cover when it was only partly authorised. */
type Refusal = Pick<ProcessorResult<never> & { ok: false }, 'code' | 'message' | 'processorCode'> & { authorizedAmount?: number };

/**
 * Pays an open session (hosted page, test helper, payment links, `POST …/payments`): all parts
 * are authorized, then captured, or none is (a later decline releases the earlier holds). Three
 * short steps, never two database connections at once and never a transaction open while the
 * processor works:
 *   1. one statement opens the attempt's journal (`calling`) while the session, locked by it, is
 *      still open; only one attempt per session can be open, so concurrent pays cannot both charge;
 *   2. the processor calls, each under the journal's idempotency key, outcomes written between;
 *   3. a transaction commits the order, its payments and events, and settles the journal.
 * A crash between 1 and 3 leaves a `calling` attempt that reconciliation reverses. A decline
 * records a failed order and `order.failed`, and is returned (not thrown). An authorisation that
 * needs the shopper (3-D Secure) parks the attempt with what is left to do and returns the
 * processor's action; `continueCheckoutPayment` takes it up again.
 *
 * Two cards are one processor-side split (an Adyen order): the HSA/FSA card is authorised first,
 * with partial authorisation allowed; what it could not cover moves to the regular card.
 */
export async function payCheckoutSession(ctx: ServiceContext, subject: CheckoutSession | string, body: unknown, opts: PayOptions = {}): Promise<PayOutcome> {
  refuseRawCardInLiveMode(body, ctx.principal.livemode);
  const input = parseInput(payCheckoutSchema, body ?? {});
  const processor = await processorFor(ctx);
  return payments.run(() => withAttemptLeases(() => startPayment(ctx, processor, subject, input, opts)));
}

/**
 * Continues a payment parked for the shopper with what the shopper's browser returned (`details`);
 * `hooks` are the owner's, as the payment started with them (a payment link's lock and paid mark).
 */
export async function continueCheckoutPayment(ctx: ServiceContext, sessionId: string, details: Record<string, unknown>, hooks: Omit<PayOptions, 'clientReferenceId'> = {}): Promise<PayOutcome> {
  const processor = await processorFor(ctx);
  return payments.run(() => withAttemptLeases(() => resumePayment(ctx, processor, sessionId, details, hooks)));
}

/** Payments in flight per process; a burst beyond what can start within 2 s is answered 429 at once. */
const payments = new AdmissionGate('payments', 8, 2000);

/** How long a payment waits for the shopper's 3-D Secure before reconciliation releases it. */
const ACTION_MINUTES = 15;

/** An authorised part. */
interface Held {
  i: number;
  part: Part;
  auth: Authorization;
}

/** One payment attempt in flight: what it charges and what the processor has answered so far. */
interface Run {
  sessionId: string;
  /** The session as this pay read it (a payment taken up again after the shopper acted reads it afresh). */
  session?: CheckoutSession;
  currency: string;
  total: number;
  /** The checkout's IIAS breakdown of its HSA/FSA amount. */
  healthcare: HealthcareBreakdown;
  storeFor: string | null;
  parts: Part[];
  reserve: Part | null;
  held: Held[];
  split: SplitPayment | null;
  /** Cents a partial HSA/FSA authorisation moved to the regular card. */
  moved: number;
  lmn: LmnApproval | null;
  now: Date;
  returnUrl: string | null;
  browserInfo: Record<string, unknown> | null;
  /** Rounds of `/details` so far (each round is a call of its own, under a key of its own). */
  rounds: number;
  journal: PaymentJournal;
  opts: PayOptions;
}

/** A part as a parked attempt keeps it. */
type ParkedPart = Omit<Part, 'method'> & { method: ParkedMethod };

/**
 * What a parked attempt keeps (`payment_attempts.state`) to go on after the shopper acted: the
 * parts' methods as `parkedMethod` keeps them (nothing of a card already sent, the encrypted
 * fields of one still to send sealed with SECRETS_KEY for this checkout).
 */
type ParkedRun = Omit<Run, 'session' | 'journal' | 'opts' | 'now' | 'parts' | 'reserve' | 'held'> & {
  now: string;
  clientReferenceId?: string | null;
  pending: number;
  parts: ParkedPart[];
  reserve: ParkedPart | null;
  held: (Omit<Held, 'part'> & { part: ParkedPart })[];
};

const parkedWhere = (sessionId: string) => `payment_attempts.state:${sessionId}`;

function toParked(run: Run, pending: number): ParkedRun {
  const { session: _session, journal: _journal, opts, now, parts, reserve, held, ...rest } = run;
  const keep = (part: Part, sent: boolean): ParkedPart => ({ ...part, method: parkedMethod(part.method, sent, (plain) => sealAtRest(plain, parkedWhere(run.sessionId))) });
  return {
    ...rest,
    now: now.toISOString(),
    clientReferenceId: opts.clientReferenceId ?? null,
    pending,
    parts: parts.map((part, i) => keep(part, i <= pending)),
    reserve: reserve && keep(reserve, false),
    held: held.map((h) => ({ ...h, part: keep(h.part, true) })),
  };
}

function fromParked(state: ParkedRun, journal: PaymentJournal, hooks: Omit<PayOptions, 'clientReferenceId'>): Run {
  const open = (part: ParkedPart): Part => ({ ...part, method: unparkedMethod(part.method, (sealed) => openAtRest(sealed, parkedWhere(state.sessionId))) });
  const { pending: _pending, clientReferenceId, ...rest } = state;
  return {
    ...rest,
    now: new Date(state.now),
    parts: state.parts.map(open),
    reserve: state.reserve && open(state.reserve),
    held: state.held.map((h) => ({ ...h, part: open(h.part) })),
    journal,
    opts: { ...hooks, clientReferenceId },
    rounds: state.rounds + 1,
  };
}

/** Throws 400 `invalid_state` when `session` can no longer be paid (paid, expired or closed). */
function refuseUnpayable(ctx: ServiceContext, session: CheckoutSession): void {
  const status = effectiveStatus(ctx, session);
  if (status === 'paid') throw new DomainError('invalid_state', `Checkout ${session.id} is already paid (order ${session.orderId}).`, { param: 'checkout_id', details: { order_id: session.orderId } });
  if (status === 'expired') throw new DomainError('invalid_state', `Checkout ${session.id} expired at ${session.expiresAt.toISOString()} and can no longer be paid.`, { param: 'checkout_id' });
}

/**
 * Step 1: checks the session and opens the attempt's journal. No transaction: the journal opens
 * in one statement only while the session, locked by that statement, is still open (a pay that
 * read the session just before another one settled it cannot open an attempt), and only one
 * attempt per session can be open at a time.
 */
async function startPayment(ctx: ServiceContext, processor: PaymentProcessor, subject: CheckoutSession | string, input: PayCheckoutInput, opts: PayOptions): Promise<PayOutcome> {
  // The session as this request read it (the statement opening the journal checks it is still open), or read now.
  const session = typeof subject === 'string' ? await getCheckoutSession(ctx, subject, 'fresh') : subject;
  const sessionId = session.id;
  refuseUnpayable(ctx, session);
  const now = ctx.now();
  const { parts, reserve } = planPayment(ctx, session, input, processor, now);
  const lmn = lmnApproval(session, input, parts, now);
  const open = () =>
    PaymentJournal.open(
      ctx,
      session.id,
      parts.map((p) => ({ slot: p.slot, payment_method: p.details.type, amount: p.amount })),
      {
        sql: `select 1 from checkout_sessions where id = ? and merchant_id = ? and livemode = ? and status = 'open' for update`,
        params: [session.id, ctx.principal.merchantId, ctx.principal.livemode],
      },
    );
  // Another attempt in the way may be one whose pay died (a crash, a failover): taken over once it lapsed.
  const journal = (await open()) ?? ((await PaymentJournal.takeOverLapsed(ctx, session.id)) ? await open() : null);
  if (!journal) {
    // Settled or closed since it was read, or another attempt is in flight.
    refuseUnpayable(ctx, await getCheckoutSession(ctx, sessionId, 'fresh'));
    throw new DomainError('payment_in_progress', `Another payment of checkout ${session.id} is in progress; retry in a few seconds.`, { param: 'checkout_id' });
  }
  const run: Run = {
    sessionId: session.id,
    session,
    currency: session.currency,
    total: session.amounts.total,
    healthcare: healthcareOf(session.amounts),
    storeFor: session.paymentType === 'subscription' ? session.id : null,
    parts,
    reserve,
    held: [],
    split: null,
    moved: 0,
    lmn,
    now,
    returnUrl: input.return_url ?? null,
    browserInfo: input.browser_info ?? null,
    rounds: 0,
    journal,
    opts,
  };
  if (run.parts.length > 1 || run.reserve) {
    const opened = await processor.openSplit(run.total, run.currency, run.journal.key(0, 'split'));
    if (!opened.ok) return fail(ctx, run, run.parts[0], opened);
    run.split = opened.split;
  }
  return authorizeFrom(ctx, processor, run, 0);
}

async function resumePayment(ctx: ServiceContext, processor: PaymentProcessor, sessionId: string, details: Record<string, unknown>, hooks: Omit<PayOptions, 'clientReferenceId'>): Promise<PayOutcome> {
  const parked = await PaymentJournal.unpark<ParkedRun>(ctx, sessionId);
  if (!parked)
    throw new DomainError('invalid_state', `No payment of checkout ${sessionId} is waiting for the shopper (none started, or it expired after ${ACTION_MINUTES} minutes).`, { param: 'checkout_id' });
  const { state, journal } = parked;
  const run = fromParked(state, journal, hooks);
  const pending = run.parts[state.pending];
  const result = await processor.details(details, `${journal.key(state.pending, 'details')}.${run.rounds}`);
  return authorizeFrom(ctx, processor, run, state.pending, result.ok ? { ...result, type: pending.slot } : result);
}

/**
 * Authorises the parts from `from` on (the first one's answer may be given: a `/details` result).
 * A partial authorisation of the HSA/FSA card moves the rest to the regular card; a refusal
 * releases every hold; a part that needs the shopper parks the attempt.
 */
async function authorizeFrom(ctx: ServiceContext, processor: PaymentProcessor, run: Run, from: number, first?: AuthorizeResult): Promise<PayOutcome> {
  for (let i = from; i < run.parts.length; i++) {
    const part = run.parts[i];
    const auth =
      i === from && first
        ? first
        : await processor.authorize({
            method: part.method,
            amount: part.amount,
            currency: run.currency,
            idempotencyKey: run.journal.key(i, 'authorize'),
            slot: part.slot,
            healthcare: part.slot === 'hsa_fsa_card' ? healthcareAmounts(part.amount, run.healthcare) : null,
            allowPartial: part.slot === 'hsa_fsa_card',
            split: run.split,
            storeFor: run.storeFor,
            returnUrl: run.returnUrl,
            browserInfo: run.browserInfo,
          });
    if (needsAction(auth)) return park(ctx, run, i, auth.action);
    if (!auth.ok) {
      await release(processor, run);
      return fail(ctx, run, part, { ...auth, message: `${auth.message} Nothing was charged.` });
    }
    run.held.push({ i, part, auth });
    run.journal.steps[i].authorization_id = auth.authorizationId;
    const short = part.amount - auth.amount;
    if (short > 0) {
      const next = run.parts[i + 1] ?? takeReserve(run);
      if (!next) {
        await release(processor, run);
        const covered = `${formatAmount(auth.amount, run.currency)} of ${formatAmount(part.amount, run.currency)}`;
        return fail(ctx, run, part, {
          code: 'insufficient_funds',
          message: `The HSA/FSA card covers only ${covered}. Nothing was charged; add a regular card for the rest.`,
          authorizedAmount: auth.amount,
        });
      }
      next.amount += short;
      part.amount = auth.amount;
      run.moved += short;
      run.journal.steps[i].amount = part.amount;
      run.journal.steps[i + 1].amount = next.amount;
    }
  }
  // What reconciliation must know that the processor cannot tell it: the amounts a partial
  // authorisation moved between the cards. Holds and captures it finds by their keys (`lookup`).
  if (run.moved > 0) await run.journal.record(ctx);
  return captureAndSettle(ctx, processor, run);
}

/** The IIAS amounts of an HSA/FSA authorisation of `amount`: the checkout's breakdown, re-shared in its proportions when the card is asked for another amount. */
function healthcareAmounts(amount: number, breakdown: HealthcareBreakdown) {
  const sum = breakdown.rx + breakdown.vision + breakdown.clinic + breakdown.dental + breakdown.otc;
  const parts = sum === amount ? breakdown : shareByCategory(amount, sum > 0 ? breakdown : { rx: 0, vision: 0, clinic: 0, dental: 0, otc: 1 });
  return { total: amount, prescription: parts.rx, vision: parts.vision, clinic: parts.clinic, dental: parts.dental };
}

function withoutHealthcare<T extends { healthcare?: unknown }>(amounts: T): Omit<T, 'healthcare'> {
  const { healthcare: _healthcare, ...split } = amounts;
  return split;
}

/** The regular card kept aside becomes the last part (a partial HSA/FSA authorisation needs it). */
function takeReserve(run: Run): Part | null {
  const reserve = run.reserve;
  if (!reserve) return null;
  run.reserve = null;
  reserve.amount = 0;
  run.parts.push(reserve);
  run.journal.steps.push({ slot: reserve.slot, payment_method: reserve.details.type, amount: 0, authorization_id: null, capture_id: null });
  return reserve;
}

/** Releases every hold of the attempt: the split as a whole when there is one, else each hold. */
async function release(processor: PaymentProcessor, run: Run): Promise<void> {
  if (run.split) return processor.cancelSplit(run.split, run.journal.key(0, 'cancel_split'));
  for (const h of run.held) await processor.void(h.auth.authorizationId, run.journal.key(h.i, 'void'));
}

/** Parks the attempt until the shopper acted; the caller hands `action` to the shopper's browser. */
async function park(ctx: ServiceContext, run: Run, pending: number, action: Record<string, unknown>): Promise<ActionOutcome> {
  await run.journal.park(ctx, toParked(run, pending), ACTION_MINUTES);
  const error = new DomainError('card_declined', 'This card needs the shopper to authenticate (3-D Secure). Pay through POST /api/v2/checkout/{id}/payments, which hands the action to the shopper.', {
    param: run.parts[pending].slot,
    details: { decline_code: 'authentication_required' },
  });
  return { ok: false, order: null, action, error };
}

/** Records the failed order and settles the journal as failed, in one transaction. */
function fail(ctx: ServiceContext, run: Run, part: Part, refusal: Refusal): Promise<PayOutcome> {
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const outcome = await recordFailedPayment(tx, await getCheckoutSession(tx, run.sessionId, true), run.now, part, refusal, run.opts);
    if (!(await run.journal.settle(tx, 'failed', outcome.order.id))) throw abandoned(run.sessionId);
    return outcome;
  });
}

/** Expiry of a card whose processor did not report one: never counts as expired here (the processor's refusal decides). */
const UNREPORTED_EXPIRY = { month: 12, year: 2099 };

async function captureAndSettle(ctx: ServiceContext, processor: PaymentProcessor, run: Run): Promise<PayOutcome> {
  // Capture every hold; should one capture fail, the parts already captured are refunded and
  // the remaining holds released, so the customer is charged all or nothing.
  const captured: Captured[] = [];
  for (const [n, held] of run.held.entries()) {
    const capture = await processor.capture(held.auth.authorizationId, run.journal.key(held.i, 'capture'));
    if (!capture.ok) {
      for (const c of captured) await processor.refund(c.captureId, c.part.amount, run.journal.key(c.i, 'reverse'));
      for (const h of run.held.slice(n + 1)) await processor.void(h.auth.authorizationId, run.journal.key(h.i, 'void'));
      return fail(ctx, run, held.part, { code: capture.code, message: 'The payment could not be completed; nothing was charged.' });
    }
    run.journal.steps[held.i].capture_id = capture.captureId;
    captured.push({ ...held, captureId: capture.captureId });
  }

  const { opts } = run;
  // Nothing else to lock or run with it: the order commits in one statement (settleAtOnce).
  if (run.session && !opts.lockFirst && !opts.onPaid && !startedBy.has(run.session.paymentType)) return settleAtOnce(ctx, run, run.session, captured);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await opts.lockFirst?.(tx); // lock order: the session's owner, then the session
    const paid = await getCheckoutSession(tx, run.sessionId, true);
    const { order, payments } = await createOrder(tx, orderDraft(paid, run.now, opts, captured.map(captureOf)), false);
    const done = markPaid(run, paid, order, payments, captured);
    await startedHook(paid.paymentType)?.(tx, done);
    const events = paidEvents(tx, paid, order);
    await opts.onPaid?.(tx, done);
    if (!(await run.journal.settle(tx, 'succeeded', order.id))) throw abandoned(paid.id);
    // The order, its payments and events in one statement; the session's change (and a hook's work) with the flush.
    await insertTogether(em, [order, ...payments, ...events]);
    await em.flush();
    return { ok: true as const, order, payments };
  });
}

type Captured = Held & { captureId: string };

const captureOf = ({ part, auth, captureId }: Captured): CapturedPayment => ({
  paymentMethod: auth.type,
  brand: auth.brand,
  last4: auth.last4,
  amount: part.amount,
  processorToken: auth.token,
  captureId,
});

/** Moves the new order to completed and the session to paid (in memory): what a paid checkout is. */
function markPaid(run: Run, paid: CheckoutSession, order: Order, payments: Payment[], captured: Captured[]): PaidCheckout {
  const { now } = run;
  order.transition(now, 'processing', 'payment authorized', 'authorized');
  order.lmn = run.lmn;
  order.completedAt = now;
  order.transition(now, 'completed', 'payment captured', 'captured');
  paid.status = 'paid';
  paid.paidAt = now;
  paid.orderId = order.id;
  const cards = captured.map(({ part, auth, captureId }) => ({
    slot: part.slot,
    type: auth.type,
    brand: auth.brand,
    last4: auth.last4,
    token: auth.token,
    captureId,
    expiry: auth.expiry ?? (part.method.kind === 'card' ? { month: part.method.card.exp_month, year: part.method.card.exp_year } : UNREPORTED_EXPIRY),
  }));
  return { session: paid, order, payments, cards };
}

/** The events of a paid checkout (made, not yet written). */
function paidEvents(ctx: ServiceContext, paid: CheckoutSession, order: Order) {
  const webhookUrl = webhookUrlOf(paid);
  return [
    newEvent(ctx, 'order.created', orderCompletedPayload(order), { webhookUrl }),
    newEvent(ctx, 'order.completed', orderCompletedPayload(order), { webhookUrl }),
    newEvent(ctx, 'checkout.completed', toCheckoutResource(paid), { webhookUrl }),
  ];
}

/**
 * Commits a paid checkout in one statement, no transaction around it: the journal settles (while
 * reconciliation has not taken the attempt over), the session is marked paid, the order number is
 * taken, and the order, its payments and events are written, all or nothing. The order number is
 * taken in that statement (no gap when it fails): the order and its events are made with a
 * placeholder the statement fills in.
 */
async function settleAtOnce(ctx: ServiceContext, run: Run, session: CheckoutSession, captured: Captured[]): Promise<PayOutcome> {
  const placeholder = `ORDNUM${randomBase62(16)}`;
  const { order, payments } = await createOrder(ctx, { ...orderDraft(session, run.now, run.opts, captured.map(captureOf)), orderNumber: placeholder }, false);
  const before = { status: session.status, paidAt: session.paidAt, orderId: session.orderId };
  markPaid(run, session, order, payments, captured);
  const journal = run.journal.settling('succeeded', order.id);
  const [settled] = await insertTogether<{ number: string }>(ctx.em, [order, ...payments, ...paidEvents(ctx, session, order)], {
    with: [
      { sql: `settled as (${journal.sql})`, params: journal.params },
      {
        sql: `paid as (update checkout_sessions set status = 'paid', paid_at = ?::timestamptz, order_id = ?::text, updated_at = ?::timestamptz where id = ?::text and exists (select 1 from settled) returning id)`,
        params: [run.now, order.id, new Date(), session.id],
      },
      orderNumberPart('numbered', 'paid', ctx.principal),
    ],
    from: 'numbered',
    fill: { token: placeholder, sql: 'numbered.number' },
    returning: 'numbered.number',
  });
  // The session as read stays as it is in this unit of work (nothing flushes it): the statement wrote its change.
  Object.assign(session, before);
  if (!settled) throw abandoned(session.id);
  order.orderNumber = settled.number;
  return { ok: true as const, order, payments };
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
