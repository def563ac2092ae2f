import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { scope, systemContext, withEm, type Log, type ServiceContext } from '../../platform/context.js';
import { effectiveNowSql } from '../../platform/clock.js';
import { DomainError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { recordAudit } from '../audit/audit-log.service.js';
import { Order } from '../orders/order.entity.js';
import { orderCompletedPayload, orderFailedPayload } from '../orders/order.resource.js';
import { Payment } from '../payments/payment.entity.js';
import { processorFor } from '../payments/processor-registry.js';
import { issueLetter, TEST_HELPER_CLINICIAN } from './lmn-letter.service.js';
import {
  LmnReview,
  type LmnAnswers,
  type LmnClinician,
  type LmnCustomer,
  type LmnHold,
  type LmnItem,
  type LmnLetter,
} from './lmn.entity.js';
import { toLmnReviewResource } from './lmn.resource.js';
import { runStatement } from '../../platform/db/sql.js';

/*
 * LMN reviews: opened by a pay (or a renewal) whose HSA/FSA part covers items that need a letter
 * the shopper does not hold; decided by a clinician (approve: capture, letter, order completed;
 * decline: release the hold, refund the regular part, order failed) or by the timeout.
 *
 * A decision calls the processor, never inside a transaction: the review is first marked as being
 * decided (`deciding_at`, one statement; a mark older than 2 minutes lapses, so a crash never
 * strands it), the processor is called under the review's own idempotency keys, then one
 * transaction records the outcome, its events and its audit entry.
 */

const settings = { timeoutHours: 144 };

/** LMN_REVIEW_TIMEOUT_HOURS, from the configuration. */
export function configureLmn(opts: { reviewTimeoutHours: number }): void {
  settings.timeoutHours = opts.reviewTimeoutHours;
}

/** When a review opened at `at` expires (LMN_REVIEW_TIMEOUT_HOURS later). */
export const reviewExpiry = (at: Date) => new Date(at.getTime() + settings.timeoutHours * 3600_000);

/** What a review is opened with. */
export interface ReviewRequest {
  order: Order;
  answers: LmnAnswers;
  items: LmnItem[];
  customer: LmnCustomer;
  hold: Omit<LmnHold, 'state' | 'capture_id'>;
  invoiceId?: string | null;
}

/** Opens a review in the caller's unit of work (the pay's transaction): `lmn_review.created`; the order carries `lmn_review`. */
export function openReview(ctx: ServiceContext, r: ReviewRequest): LmnReview {
  const now = ctx.now();
  const review = ctx.em.create(LmnReview, {
    ...scope(ctx),
    answers: r.answers,
    items: r.items,
    customer: r.customer,
    customerEmail: r.customer.email.toLowerCase(),
    orderId: r.order.id,
    invoiceId: r.invoiceId ?? null,
    hold: { ...r.hold, state: 'held', capture_id: null },
    expiresAt: reviewExpiry(now),
    createdAt: now,
    updatedAt: now,
  });
  r.order.lmn = {
    items: r.items.map((i) => i.product_id),
    review: { id: review.id, status: 'pending' },
    letter_id: null,
  };
  recordEvent(ctx, 'lmn_review.created', toLmnReviewResource(review), { webhookUrl: webhookUrlOfOrder(r.order) });
  return review;
}

const webhookUrlOfOrder = (order: Order) =>
  typeof order.metadata.webhook_url === 'string' ? order.metadata.webhook_url : null;

/** Who decides: a clinician (console), the test helper, or the system (timeout). */
export type Decider = { kind: 'clinician'; clinician: LmnClinician } | { kind: 'test_helper' } | { kind: 'system' };

/** What becomes of a review's subscription cycle when it is decided (registered by the subscriptions module). */
export type ReviewDecidedHook = (tx: ServiceContext, review: LmnReview, order: Order) => Promise<void>;
let onDecided: ReviewDecidedHook | null = null;

/** Registers what a decided renewal review does to its cycle (lmn never imports subscriptions). */
export function onLmnReviewDecided(hook: ReviewDecidedHook): void {
  onDecided = hook;
}

/** A review of the caller's merchant and mode. */
export async function getReview(ctx: ServiceContext, id: string): Promise<LmnReview> {
  const review = await ctx.em.findOne(LmnReview, { id, ...scope(ctx) });
  if (!review) throw new DomainError('not_found', `No LMN review ${id}.`, { param: 'id' });
  return review;
}

/** Marks a pending review as being decided (one statement); throws 400 `invalid_state` when it is decided or being decided. */
async function claim(ctx: ServiceContext, id: string): Promise<void> {
  const rows = await runStatement(
    ctx.em,
    `update lmn_reviews set deciding_at = now() where id = ? and merchant_id = ? and livemode = ? and status = 'pending' and (deciding_at is null or deciding_at < now() - interval '2 minutes') returning id`,
    [id, ctx.principal.merchantId, ctx.principal.livemode],
    { autocommit: true },
  );
  if (rows.length) return;
  const review = await getReview(ctx, id);
  throw new DomainError(
    'invalid_state',
    review.status === 'pending'
      ? `LMN review ${id} is being decided; retry in a minute.`
      : `LMN review ${id} is already ${review.status}.`,
    {
      param: 'id',
      details: { status: review.status },
    },
  );
}

/** Approves a pending review: captures the HSA/FSA hold, issues the letter, completes the order. */
export async function approveReview(
  ctx: ServiceContext,
  id: string,
  condition: string | null | undefined,
  decider: Decider,
): Promise<{ review: LmnReview; letter: LmnLetter }> {
  await claim(ctx, id);
  const review = await getReview(ctx, id);
  const processor = await processorFor(ctx);
  const capture = await processor.capture(review.hold.authorization_id, `${id}.capture`);
  if (!capture.ok) {
    // The hold is gone (expired at the processor): nothing can be captured, so the review ends as expired.
    await settleDecline(ctx, id, 'expired', decider);
    throw new DomainError(
      'invalid_state',
      `The HSA/FSA hold of LMN review ${id} could no longer be captured (${capture.code}); the review expired and the order failed.`,
      { param: 'id' },
    );
  }
  return recordDecision(ctx, id, (tx, r, order, now) => {
    const { em } = tx;
    const given = condition?.trim() || r.answers.condition;
    r.status = 'approved';
    r.decidedAt = now;
    r.decidedBy = deciderRecord(decider);
    r.condition = given;
    r.hold = { ...r.hold, state: 'captured', capture_id: capture.captureId };
    r.decidingAt = null;
    const letter = issueLetter(tx, r, given, decider.kind === 'clinician' ? decider.clinician : TEST_HELPER_CLINICIAN);
    r.letterId = letter.id;
    em.create(Payment, {
      ...scope(tx),
      orderId: order.id,
      paymentMethod: r.hold.payment_method,
      brand: r.hold.brand,
      last4: r.hold.last4,
      amount: r.hold.amount,
      currency: r.hold.currency,
      processorToken: r.hold.token,
      captureId: capture.captureId,
      capturedAt: now,
    });
    order.lmn = {
      items: order.lmn?.items ?? r.items.map((i) => i.product_id),
      review: { id: r.id, status: 'approved' },
      letter_id: letter.id,
    };
    order.completedAt = now;
    order.transition(
      now,
      'completed',
      `letter of medical necessity ${letter.id} issued; HSA/FSA payment captured`,
      'captured',
    );
    const webhookUrl = webhookUrlOfOrder(order);
    recordEvent(tx, 'lmn_review.approved', toLmnReviewResource(r), { webhookUrl });
    recordEvent(tx, 'order.completed', orderCompletedPayload(order), { webhookUrl });
    if (decider.kind === 'clinician')
      recordAudit(tx, 'lmn_review.approved', r.id, { order_id: order.id, letter_id: letter.id, condition: given });
    return { review: r, letter };
  });
}

/** Declines a pending review: releases the HSA/FSA hold, refunds the regular part, fails the order. */
export async function declineReview(
  ctx: ServiceContext,
  id: string,
  reason: string | null | undefined,
  decider: Decider,
): Promise<LmnReview> {
  await claim(ctx, id);
  return settleDecline(ctx, id, 'declined', decider, reason);
}

/**
 * Carries out a decline or a timeout on a claimed review: voids the hold and refunds the regular
 * part captured at checkout (each under the review's own keys: a second run never refunds
 * twice), then records it. The order ends `failed`, its `payment_status` `refunded` when a
 * regular part had been captured, else `failed`.
 */
async function settleDecline(
  ctx: ServiceContext,
  id: string,
  outcome: 'declined' | 'expired',
  decider: Decider,
  note?: string | null,
): Promise<LmnReview> {
  const review = await getReview(ctx, id);
  const processor = await processorFor(ctx);
  await processor.void(review.hold.authorization_id, `${id}.void`);
  const captured = await ctx.em.find(Payment, { orderId: review.orderId, ...scope(ctx) });
  for (const p of captured) {
    const left = p.amount - p.refundedAmount;
    if (left > 0) await processor.refund(p.captureId, left, `${id}.refund.${p.id}`);
  }
  return recordDecision(ctx, id, async (tx, r, order, now) => {
    const payments = await tx.em.find(Payment, { orderId: r.orderId });
    r.status = outcome;
    r.decidedAt = now;
    r.decidedBy = deciderRecord(decider);
    r.reason = outcome === 'expired' ? 'expired' : note?.trim() || 'declined';
    r.hold = { ...r.hold, state: 'released' };
    r.decidingAt = null;
    for (const p of payments) p.refundedAmount = p.amount;
    const refunded = payments.some((p) => p.amount > 0);
    order.lmn = {
      items: order.lmn?.items ?? r.items.map((i) => i.product_id),
      review: { id: r.id, status: outcome },
      letter_id: null,
    };
    order.failureReason = `lmn_review_${outcome}`;
    const why =
      outcome === 'expired' ? 'no clinician decided in time' : 'a clinician declined the letter of medical necessity';
    order.transition(
      now,
      'failed',
      `${why}: HSA/FSA hold released${refunded ? ', regular card refunded' : ''}`,
      refunded ? 'refunded' : 'failed',
    );
    const webhookUrl = webhookUrlOfOrder(order);
    recordEvent(
      tx,
      'lmn_review.declined',
      { ...toLmnReviewResource(r), reason: outcome === 'expired' ? 'expired' : 'declined' },
      { webhookUrl },
    );
    recordEvent(tx, 'order.failed', orderFailedPayload(order), { webhookUrl });
    if (decider.kind === 'clinician')
      recordAudit(tx, 'lmn_review.declined', r.id, { order_id: order.id, reason: r.reason });
    return r;
  });
}

/** Records a decision in one transaction: the review (locked) and its order, then the hook and the flush. */
function recordDecision<T>(
  ctx: ServiceContext,
  id: string,
  apply: (tx: ServiceContext, review: LmnReview, order: Order, now: Date) => T | Promise<T>,
): Promise<T> {
  return ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    const review = await em.findOneOrFail(LmnReview, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const order = await em.findOneOrFail(Order, { id: review.orderId });
    const result = await apply(tx, review, order, tx.now());
    await onDecided?.(tx, review, order);
    await em.flush();
    return result;
  });
}

const deciderRecord = (d: Decider): LmnReview['decidedBy'] =>
  d.kind === 'clinician' ? { kind: 'clinician', ...d.clinician } : { kind: d.kind };

/**
 * Expires the pending reviews past `expires_at` (each by its merchant's clock): claims a batch
 * (`FOR UPDATE SKIP LOCKED`, marked as being decided), then releases each one's hold as a decline
 * with reason `expired`. Returns how many expired.
 */
export async function expireDueReviews(orm: MikroORM, log: Log): Promise<number> {
  const em = orm.em.fork();
  const rows = await runStatement<{ id: string; merchant_id: string; livemode: boolean; offset: string }>(
    em,
    `update lmn_reviews t set deciding_at = now()
     where t.id in (select d.id from lmn_reviews d where d.status = 'pending' and d.expires_at <= ${effectiveNowSql('d')}
                    and (d.deciding_at is null or d.deciding_at < now() - interval '2 minutes') order by d.expires_at limit 50 for update skip locked)
     returning t.id, t.merchant_id, t.livemode, case when t.livemode then 0 else (select m.test_clock_offset_ms from merchants m where m.id = t.merchant_id) end as "offset"`,
    [],
    { autocommit: true },
  );
  for (const row of rows) {
    const ctx = systemContext(orm.em.fork(), row.merchant_id, row.livemode, Number(row.offset), log);
    try {
      await settleDecline(ctx, row.id, 'expired', { kind: 'system' });
    } catch (err) {
      log.error({ err, review: row.id }, 'could not expire an LMN review; retried after 2 minutes');
    }
  }
  return rows.length;
}
