import { AdmissionGate } from '../../platform/admission.js';
import { scope, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput } from '../../platform/validation.js';
import { getOrderEntity } from '../orders/order.service.js';
import { refuseRawCardInLiveMode } from '../payments/payment-method-input.js';
import { Payment } from '../payments/payment.entity.js';
import type { PaymentProcessor } from '../payments/payment-processor.js';
import { PaymentJournal, withAttemptLeases } from '../payments/payment-journal.js';
import { processorFor } from '../payments/processor-registry.js';
import { healthcareOf } from './checkout-amounts.js';
import { authorizeFrom } from './checkout-payment-authorize.js';
import { fail } from './checkout-payment-commit.js';
import { ACTION_MINUTES, fromParked, type ParkedRun } from './checkout-payment-parking.js';
import { coveringLetter } from '../lmn/lmn-letter.service.js';
import { lmnRequest, planPayment, requireAnswers, type LmnRequest } from './checkout-payment-plan.js';
import type { PayOptions, PayOutcome, Run } from './checkout-payment-run.js';
import type { CheckoutSession } from './checkout-session.entity.js';
import { effectiveStatus, getCheckoutSession } from './checkout.service.js';
import { payCheckoutSchema, type PayCheckoutInput } from './checkout.schemas.js';

export { onCheckoutPaid } from './checkout-payment-commit.js';
export type {
  ActionOutcome,
  PaidCard,
  PaidCheckout,
  PaidHook,
  PayOptions,
  PayOutcome,
} from './checkout-payment-run.js';

/*
 * Paying a checkout session, step by step: the plan (checkout-payment-plan.ts), the journal
 * opened here, the processor's authorisations and captures (checkout-payment-authorize.ts),
 * parking for the shopper's 3-D Secure (checkout-payment-parking.ts) and the commit of the order
 * (checkout-payment-commit.ts).
 */

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
export async function payCheckoutSession(
  ctx: ServiceContext,
  subject: CheckoutSession | string,
  body: unknown,
  opts: PayOptions = {},
): Promise<PayOutcome> {
  refuseRawCardInLiveMode(body, ctx.principal.livemode);
  const input = parseInput(payCheckoutSchema, body ?? {});
  const processor = await processorFor(ctx);
  return payments.run(() => withAttemptLeases(() => startPayment(ctx, processor, subject, input, opts)));
}

/**
 * Continues a payment parked for the shopper with what the shopper's browser returned (`details`);
 * `hooks` are the owner's, as the payment started with them (a payment link's lock and paid mark).
 */
export async function continueCheckoutPayment(
  ctx: ServiceContext,
  sessionId: string,
  details: Record<string, unknown>,
  hooks: Omit<PayOptions, 'clientReferenceId'> = {},
): Promise<PayOutcome> {
  const processor = await processorFor(ctx);
  return payments.run(() => withAttemptLeases(() => resumePayment(ctx, processor, sessionId, details, hooks)));
}

/** Payments in flight per process; a burst beyond what can start within 2 s is answered 429 at once. */
const payments = new AdmissionGate('payments', 8, 2000);

/** Throws 400 `invalid_state` when `session` can no longer be paid (paid, expired or closed). */
function refuseUnpayable(ctx: ServiceContext, session: CheckoutSession): void {
  const status = effectiveStatus(ctx, session);
  if (status === 'paid')
    throw new DomainError('invalid_state', `Checkout ${session.id} is already paid (order ${session.orderId}).`, {
      param: 'checkout_id',
      details: { order_id: session.orderId },
    });
  if (status === 'expired')
    throw new DomainError(
      'invalid_state',
      `Checkout ${session.id} expired at ${session.expiresAt.toISOString()} and can no longer be paid.`,
      { param: 'checkout_id' },
    );
}

/**
 * Step 1: checks the session and opens the attempt's journal. No transaction: the journal opens
 * in one statement only while the session, locked by that statement, is still open (a pay that
 * read the session just before another one settled it cannot open an attempt), and only one
 * attempt per session can be open at a time.
 */
async function startPayment(
  ctx: ServiceContext,
  processor: PaymentProcessor,
  subject: CheckoutSession | string,
  input: PayCheckoutInput,
  opts: PayOptions,
): Promise<PayOutcome> {
  // The session as this request read it (the statement opening the journal checks it is still open), or read now.
  const session = typeof subject === 'string' ? await getCheckoutSession(ctx, subject, 'fresh') : subject;
  const sessionId = session.id;
  // This request, retried under its Idempotency-Key, paid it before its answer was lost: that order again.
  if (
    session.orderId &&
    effectiveStatus(ctx, session) === 'paid' &&
    (await PaymentJournal.paidByThisRequest(ctx, sessionId, session.orderId))
  ) {
    const order = await getOrderEntity(ctx, session.orderId);
    return { ok: true, order, payments: await ctx.em.find(Payment, { orderId: order.id, ...scope(ctx) }) };
  }
  refuseUnpayable(ctx, session);
  const now = ctx.now();
  const { parts, reserve } = planPayment(ctx.principal.livemode, session, input, processor, now);
  const { lmn, review } = await lmnCoverage(ctx, session, lmnRequest(session, input, parts), now);
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
    throw new DomainError(
      'payment_in_progress',
      `Another payment of checkout ${session.id} is in progress; retry in a few seconds.`,
      { param: 'checkout_id' },
    );
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
    review,
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

/**
 * How a pay's items that need a letter are covered: by a valid letter of the shopper (no review),
 * or by a review this pay opens (the questionnaire is then required). One query, only when an
 * HSA/FSA card pays for such items.
 */
async function lmnCoverage(
  ctx: ServiceContext,
  session: CheckoutSession,
  request: LmnRequest | null,
  now: Date,
): Promise<Pick<Run, 'lmn' | 'review'>> {
  if (!request) return { lmn: null, review: null };
  const items = request.items.map((i) => i.product_id);
  const letter = await coveringLetter(ctx, session.customer.email, items, now);
  if (letter) return { lmn: { items, review: null, letter_id: letter.id }, review: null };
  return { lmn: null, review: { answers: requireAnswers(request), items: request.items } };
}

async function resumePayment(
  ctx: ServiceContext,
  processor: PaymentProcessor,
  sessionId: string,
  details: Record<string, unknown>,
  hooks: Omit<PayOptions, 'clientReferenceId'>,
): Promise<PayOutcome> {
  const parked = await PaymentJournal.unpark<ParkedRun>(ctx, sessionId);
  if (!parked)
    throw new DomainError(
      'invalid_state',
      `No payment of checkout ${sessionId} is waiting for the shopper (none started, or it expired after ${ACTION_MINUTES} minutes).`,
      { param: 'checkout_id' },
    );
  const { state, journal } = parked;
  const run = fromParked(state, journal, hooks);
  const pending = run.parts[state.pending];
  const result = await processor.details(details, `${journal.key(state.pending, 'details')}.${run.rounds}`);
  return authorizeFrom(ctx, processor, run, state.pending, result.ok ? { ...result, type: pending.slot } : result);
}
