import { withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { insertTogether } from '../../platform/db/sql.js';
import { newEvent, recordEvent } from '../../platform/events/events.service.js';
import type { ProcessorResult } from '../payments/payment-processor.js';
import type { Payment } from '../payments/payment.entity.js';
import type { Order } from '../orders/order.entity.js';
import { orderCompletedPayload, orderFailedPayload } from '../orders/order.resource.js';
import { numberedBy, orderNumberPart } from '../orders/order-numbers.js';
import { createOrder, newOrder, type CapturedPayment, type OrderDraft } from '../orders/order.service.js';
import { openReview } from '../lmn/lmn-review.service.js';
import type { Part } from './checkout-payment-plan.js';
import type { Captured, PaidCheckout, PaidHook, PayOptions, PayOutcome, Run } from './checkout-payment-run.js';
import type { CheckoutSession } from './checkout-session.entity.js';
import { toCheckoutResource } from './checkout.resource.js';
import { getCheckoutSession, webhookUrlOf } from './checkout.service.js';

/* The last step of a pay: the order, its payments and events commit with the journal's settlement. */

const startedBy = new Map<CheckoutSession['paymentType'], PaidHook>();

/**
 * Registers what paying a checkout of `paymentType` starts, in the order's transaction and before
 * its events (a subscription checkout starts its subscription: the module wiring registers it, so
 * checkout never imports the module it sells for).
 */
export function onCheckoutPaid(paymentType: CheckoutSession['paymentType'], hook: PaidHook): void {
  startedBy.set(paymentType, hook);
}

/** What paying a checkout of `paymentType` starts; a type other than `one_time` must have it registered. */
function startedHook(paymentType: CheckoutSession['paymentType']): PaidHook | undefined {
  const hook = startedBy.get(paymentType);
  if (!hook && paymentType !== 'one_time')
    throw new Error(`nothing is registered to start what a ${paymentType} checkout sells (onCheckoutPaid)`);
  return hook;
}

function withoutHealthcare<T extends { healthcare?: unknown }>(amounts: T): Omit<T, 'healthcare'> {
  const { healthcare: _healthcare, ...split } = amounts;
  return split;
}

/** The order a payment of `session` makes (a payment-link order carries the link and the payer's reference instead of a reference_id). */
function orderDraft(
  session: CheckoutSession,
  now: Date,
  opts: PayOptions,
  payments: CapturedPayment[] = [],
  held = 0,
): OrderDraft {
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
    customer: {
      ...session.customer,
      phone: session.customer.phone ?? null,
      shipping_address: session.shippingInfo,
      billing_address: session.billingInfo,
    },
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
    amounts: { ...withoutHealthcare(session.amounts), ...paidSplit(session, payments, held) },
    metadata: session.metadata,
    payments,
  };
}

/**
 * The order's split: once paid, what the cards actually paid (HSA/FSA cards' captures, the rest on
 * regular cards: one regular card paying everything makes `hsa_amount` 0, a partial HSA/FSA
 * authorisation moves what it could not cover); unpaid, the checkout's split. `held`: an HSA/FSA
 * part authorised and held for a clinician's review counts as the HSA/FSA card's.
 */
function paidSplit(
  session: CheckoutSession,
  payments: CapturedPayment[],
  held: number,
): { hsa_amount: number; regular_amount: number } {
  const { hsa_amount, regular_amount, total } = session.amounts;
  if (!payments.length && !held) return { hsa_amount, regular_amount };
  const hsa = held + payments.reduce((sum, p) => sum + (p.paymentMethod === 'hsa_fsa_card' ? p.amount : 0), 0);
  return { hsa_amount: hsa, regular_amount: total - hsa };
}

/** A refusal as the payer sees it; `authorizedAmount` is what an HSA/FSA card could cover when it was only partly authorised. */
export type Refusal = Pick<ProcessorResult<never> & { ok: false }, 'code' | 'message' | 'processorCode'> & {
  authorizedAmount?: number;
};

/** Records a failed order and `order.failed` for a part that could not be paid, and the error the payer gets (402). */
async function recordFailedPayment(
  ctx: ServiceContext,
  session: CheckoutSession,
  now: Date,
  part: Part,
  refusal: Refusal,
  opts: PayOptions,
): Promise<PayOutcome & { order: Order }> {
  const { code, message, processorCode, authorizedAmount } = refusal;
  const { order } = await createOrder(ctx, orderDraft(session, now, opts));
  order.failureReason = `${part.slot}: ${code}`;
  order.transition(
    now,
    'failed',
    `${part.details.type === 'hsa_fsa_card' ? 'HSA/FSA card' : 'card'} ${part.details.brand} ${part.details.last4} declined: ${code}`,
    'failed',
  );
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

/** Records the failed order and settles the journal as failed, in one transaction. */
export function fail(ctx: ServiceContext, run: Run, part: Part, refusal: Refusal): Promise<PayOutcome> {
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const outcome = await recordFailedPayment(
      tx,
      await getCheckoutSession(tx, run.sessionId, true),
      run.now,
      part,
      refusal,
      run.opts,
    );
    if (!(await run.journal.settle(tx, 'failed', outcome.order.id))) throw abandoned(run.sessionId);
    return outcome;
  });
}

/** Expiry of a card whose processor did not report one: never counts as expired here (the processor's refusal decides). */
const UNREPORTED_EXPIRY = { month: 12, year: 2099 };

const captureOf = ({ part, auth, captureId }: Captured): CapturedPayment => ({
  paymentMethod: auth.type,
  brand: auth.brand,
  last4: auth.last4,
  amount: part.amount,
  processorToken: auth.token,
  captureId,
});

/** Cents of the HSA/FSA part authorised and not captured (held for a clinician's review). */
const heldAmount = (run: Run, captured: Captured[]) =>
  run.held.filter((h) => !captured.some((c) => c.i === h.i)).reduce((sum, h) => sum + h.part.amount, 0);

/**
 * Moves the new order to completed (in memory) and answers the checkout as paid: `session` as it
 * is once paid (a copy: the session as read stays as it is in its unit of work, whose flush must
 * not write it; the commit's statement does).
 */
function markPaid(
  run: Run,
  session: CheckoutSession,
  order: Order,
  payments: Payment[],
  captured: Captured[],
): PaidCheckout {
  const { now } = run;
  order.lmn = run.lmn;
  if (run.review) {
    // Under a clinician's review: the regular part is captured, the HSA/FSA part only authorised.
    order.transition(
      now,
      'processing',
      'payment authorized; the HSA/FSA part is held until a clinician reviews the letter of medical necessity',
      'authorized',
    );
  } else {
    order.transition(now, 'processing', 'payment authorized', 'authorized');
    order.completedAt = now;
    order.transition(now, 'completed', 'payment captured', 'captured');
  }
  const paid: CheckoutSession = { ...session, status: 'paid', paidAt: now, orderId: order.id };
  const held = run.held
    .filter((h) => !captured.some((c) => c.i === h.i))
    .map((h) => ({ ...h, captureId: h.auth.authorizationId }));
  const cards = [...captured, ...held].map(({ part, auth, captureId }) => ({
    slot: part.slot,
    type: auth.type,
    brand: auth.brand,
    last4: auth.last4,
    token: auth.token,
    captureId,
    expiry:
      auth.expiry ??
      (part.method.kind === 'card'
        ? { month: part.method.card.exp_month, year: part.method.card.exp_year }
        : UNREPORTED_EXPIRY),
  }));
  return { session: paid, order, payments, cards };
}

/** The events of a paid checkout (made, not yet written): the order's (they carry its number), then the checkout's. */
function paidEvents(ctx: ServiceContext, paid: CheckoutSession, order: Order, completed: boolean) {
  const webhookUrl = webhookUrlOf(paid);
  return {
    ofOrder: [
      newEvent(ctx, 'order.created', orderCompletedPayload(order), { webhookUrl }),
      ...(completed ? [newEvent(ctx, 'order.completed', orderCompletedPayload(order), { webhookUrl })] : []),
    ],
    ofCheckout: newEvent(ctx, 'checkout.completed', toCheckoutResource(paid), { webhookUrl }),
  };
}

/** Opens the clinician's review of a pay whose HSA/FSA part is held (`lmn_review.created`, in the order's transaction). */
function openReviewOf(tx: ServiceContext, run: Run, paid: CheckoutSession, order: Order): void {
  const hold = run.held.find((h) => h.part.slot === 'hsa_fsa_card')!;
  const { email, first_name, last_name } = paid.customer;
  openReview(tx, {
    order,
    answers: run.review!.answers,
    items: run.review!.items,
    customer: { email, first_name, last_name },
    hold: {
      authorization_id: hold.auth.authorizationId,
      amount: hold.part.amount,
      currency: run.currency,
      payment_method: hold.auth.type,
      brand: hold.auth.brand,
      last4: hold.auth.last4,
      token: hold.auth.token,
    },
  });
}

/**
 * Commits a paid checkout: its order, payments and events, the session's change and the
 * journal's settlement, all or nothing, in one statement (`writePaid`). What else a paid checkout
 * starts (the owner's lock and hooks: a payment link's, a subscription's, a clinician's review)
 * commits with it: then that statement runs in a transaction that takes the owner's lock and
 * the session's first, and flushes the hooks' work after it.
 */
export async function commitPaid(ctx: ServiceContext, run: Run, captured: Captured[]): Promise<PayOutcome> {
  const { opts, session } = run;
  if (session && !opts.lockFirst && !opts.onPaid && !run.review && !startedBy.has(session.paymentType))
    return writePaid(ctx, run, session, captured);
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    await opts.lockFirst?.(tx); // lock order: the session's owner, then the session
    const outcome = await writePaid(tx, run, await getCheckoutSession(tx, run.sessionId, true), captured);
    await em.flush();
    return outcome;
  });
}

/**
 * Runs what a paid checkout starts (in `ctx`'s unit of work) and writes the paid checkout in one
 * statement: the journal settles (while reconciliation has not taken the attempt over, else
 * nothing is written and `abandoned` is thrown), the session is marked paid, the order number is
 * taken (no gap when the statement fails), and the order, its payments and events are written
 * with that number (`numberedBy`). Outside a transaction, the statement is one on its own.
 */
async function writePaid(
  ctx: ServiceContext,
  run: Run,
  session: CheckoutSession,
  captured: Captured[],
): Promise<PayOutcome> {
  const { order, payments } = newOrder(
    ctx,
    orderDraft(session, run.now, run.opts, captured.map(captureOf), heldAmount(run, captured)),
  );
  const done = markPaid(run, session, order, payments, captured);
  await startedHook(session.paymentType)?.(ctx, done);
  const { ofOrder, ofCheckout } = paidEvents(ctx, done.session, order, !run.review);
  if (run.review) openReviewOf(ctx, run, done.session, order);
  await run.opts.onPaid?.(ctx, done);
  // The session's lock first, then the attempt's: the order in which a concurrent pay opens its attempt.
  const journal = run.journal.settling('succeeded', order.id, 'subject');
  const [settled] = await insertTogether<{ number: string }>(ctx.em, [order, ...payments, ...ofOrder, ofCheckout], {
    with: [
      { sql: `subject as (select id from checkout_sessions where id = ?::text for update)`, params: [session.id] },
      { sql: `settled as (${journal.sql})`, params: journal.params },
      {
        sql: `paid as (update checkout_sessions set status = 'paid', paid_at = ?::timestamptz, order_id = ?::text, updated_at = ?::timestamptz where id = ?::text and exists (select 1 from settled) returning id)`,
        params: [run.now, order.id, new Date(), session.id],
      },
      orderNumberPart('numbered', 'paid', ctx.principal),
    ],
    from: 'numbered',
    computed: numberedBy('numbered', order, ofOrder),
    returning: 'numbered.number',
  });
  if (!settled) throw abandoned(session.id);
  order.orderNumber = settled.number;
  return { ok: true as const, order, payments };
}

/** The attempt ran so long that reconciliation reversed it: nothing is kept, nothing charged. */
export const abandoned = (checkoutId: string) =>
  new DomainError(
    'service_unavailable',
    `The payment of checkout ${checkoutId} took too long and was reversed; nothing was charged. Retry.`,
    { param: 'checkout_id' },
  );
