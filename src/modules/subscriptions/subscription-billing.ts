import type { EntityManager } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log, type ServiceContext } from '../../platform/context.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { setupLinkUrl } from '../customers/customer.resource.js';
import { addSetupLink } from '../customers/payment-method-setup-link.service.js';
import { takeOrderNumbers } from '../orders/order-numbers.js';
import { orderCompletedPayload } from '../orders/order.resource.js';
import { createOrder } from '../orders/order.service.js';
import { PaymentJournal } from '../payments/payment-journal.js';
import { processorFor } from '../payments/processor-registry.js';
import { periodAt } from './subscription-calendar.js';
import { Subscription, SubscriptionInvoice, SubscriptionInvoiceAttempt } from './subscription.entity.js';
import { afterChargeFailure, afterChargeSuccess, DISPOSITIONS, isBillable, MAX_ATTEMPTS, type Disposition, type SubscriptionStatus } from './subscription-lifecycle.js';
import { endSubscription } from './subscription-ending.js';
import { recordSubscriptionEvent } from './subscription-events.js';
import { renewalOrderDraft } from './subscription-renewal.js';
import { invoiceEventBody } from './subscription.resource.js';

/**
 * The billing engine. A charge goes in three steps so that no transaction is open during a
 * processor call and no period is ever charged twice:
 *
 * 1. claim (one short transaction): due subscriptions are locked `FOR UPDATE SKIP LOCKED`; each
 *    gets its cycle's invoice (unique per subscription and period start) and an attempt row in
 *    `calling` (the journal, committed before the call) and a lease;
 * 2. call the processor with no transaction open, the attempt's id as the idempotency key;
 * 3. settle (a second short transaction): the attempt's outcome, the invoice, the order, the
 *    subscription's next state and the events, applied only if the attempt is still `calling`.
 *
 * A worker that dies between 1 and 3 leaves the attempt `calling` under a lease; when the lease
 * lapses the sweep claims the subscription again and re-drives the same attempt with the same
 * idempotency key, so the processor answers with the first call's capture instead of charging again.
 *
 * Cancel now versus a charge in flight: the cancel wins at once and never waits for the
 * processor. Once a cancel has committed, the cycle it voided is never paid: step 3 (which locks
 * the subscription, like the cancel) finds the invoice `void`, records no order and no
 * `subscription.renewed`, marks the attempt `reversed` and, in the same transaction, journals the
 * reversal of its capture (payment-journal.ts); the refund, under a key of its own, is made right
 * after the commit, or by the reconciliation sweep if this process dies first. A cancel that finds
 * a charge in flight keeps the subscription due, so that a charge whose worker died is re-driven
 * (same key: the processor answers the first call) and settled the same way. A charge settled
 * before the cancel committed stays paid: the cycle was paid while the subscription was live.
 */

/** How long a claimed charge is held by one worker (real time) before another may re-drive it. */
let leaseMs = 120_000;

/** Changes the lease (the crash test shortens it so a restarted worker re-drives at once). */
export function setBillingLeaseMs(ms: number): void {
  leaseMs = ms;
}

/** A charge claimed for one attempt, ready to send to the processor. */
export interface ChargeJob {
  attemptId: string;
  subscriptionId: string;
  merchantId: string;
  livemode: boolean;
  clockOffsetMs: number;
  amount: number;
  currency: string;
  token: string;
  /** The attempt was made by replacing the card (a rescue), not by the schedule. */
  byNewCard: boolean;
}

type ChargeOutcome = { job: ChargeJob; ok: true; captureId: string } | { job: ChargeJob; ok: false; code: string; disposition: Disposition } | { job: ChargeJob; ok: null; error: unknown };

const noop = () => undefined;
const silent: Log = { info: noop, warn: noop, error: noop, debug: noop };

/** A context on the caller's transaction for `sub`'s merchant and mode (no fork: one per row would cost a unit of work each). */
function ctxFor(em: EntityManager, sub: { merchant: { id: string }; livemode: boolean }, clockOffsetMs: number, log: Log): ServiceContext {
  return withEm(systemContext(em, sub.merchant.id, sub.livemode, clockOffsetMs, log, 'job_billing'), em);
}

const clockNow = (offsetMs: number) => new Date(Date.now() + offsetMs);

/** When the sweep must next look at `sub` after billing decided `next` (a scheduled end comes first). */
function dueAt(sub: Subscription, next: Date | null): Date | null {
  if (!sub.cancelAtPeriodEnd) return next;
  return next && next < sub.currentPeriodEnd ? next : sub.currentPeriodEnd;
}

/** Applies a billing outcome, unless the subscription ended meanwhile or a dispute holds it (then it is what a reversal restores). */
function setBillingState(sub: Subscription, status: SubscriptionStatus, next: Date | null): void {
  if (sub.status === 'cancelled') return;
  if (sub.status === 'disputed') {
    sub.priorStatus = status;
    sub.priorNextChargeAt = next;
    return;
  }
  sub.status = status;
  sub.nextChargeAt = dueAt(sub, next);
}

interface Parties {
  customers: Map<string, Customer>;
  methods: Map<string, PaymentMethod>;
}

async function loadParties(em: EntityManager, subs: Subscription[], extraMethodIds: string[] = []): Promise<Parties> {
  const [customers, methods] = await Promise.all([
    em.find(Customer, { id: { $in: [...new Set(subs.map((s) => s.customerId))] } }),
    em.find(PaymentMethod, { id: { $in: [...new Set([...subs.map((s) => s.paymentMethodId), ...extraMethodIds])] } }),
  ]);
  return { customers: new Map(customers.map((c) => [c.id, c])), methods: new Map(methods.map((m) => [m.id, m])) };
}

/** Leases `sub` to this charge (no other worker takes it meanwhile) and describes the charge of `attempt` on the card `token`. */
function leaseCharge(sub: Subscription, attempt: SubscriptionInvoiceAttempt, currency: string, clockOffsetMs: number, token: string, byNewCard: boolean): ChargeJob {
  sub.billingLeaseUntil = new Date(Date.now() + leaseMs);
  return { attemptId: attempt.id, subscriptionId: sub.id, merchantId: sub.merchant.id, livemode: sub.livemode, clockOffsetMs, amount: attempt.amount, currency, token, byNewCard };
}

/**
 * Step 1 for subscriptions locked by the caller's transaction: ends those whose scheduled end
 * has come, opens the due cycle's invoice (or takes the open one), and writes the attempt
 * (`calling`) and the lease. Returns the charges to make once the transaction commits.
 */
export async function prepareCharges(em: EntityManager, subs: Subscription[], offsets: Map<string, number>, log: Log, opts: { byNewCard?: boolean } = {}): Promise<ChargeJob[]> {
  if (!subs.length) return [];
  // A cancelled subscription is claimed only for a charge that was in flight when it ended (its voided cycle is the latest).
  const openIds = subs.map((s) => (s.status === 'cancelled' ? s.latestInvoiceId : s.openInvoiceId)).filter((id): id is string => !!id);
  const openInvoices = new Map((openIds.length ? await em.find(SubscriptionInvoice, { id: { $in: openIds } }) : []).map((i) => [i.id, i]));
  const inFlight = new Map((openIds.length ? await em.find(SubscriptionInvoiceAttempt, { invoiceId: { $in: openIds }, status: 'calling' }) : []).map((a) => [a.invoiceId, a]));
  const parties = await loadParties(
    em,
    subs,
    [...inFlight.values()].map((a) => a.paymentMethodId),
  );
  const jobs: ChargeJob[] = [];
  for (const sub of subs) {
    const offset = offsets.get(sub.id) ?? 0;
    const now = clockNow(offset);
    const ctx = ctxFor(em, sub, offset, log);
    const pm = parties.methods.get(sub.paymentMethodId) ?? null;
    if (sub.status === 'cancelled') {
      // Cancelled while a charge was in flight whose worker died: re-drive that attempt under its
      // own key (the processor answers the first call), so that step 3 settles it as reversed.
      const attempt = sub.latestInvoiceId ? inFlight.get(sub.latestInvoiceId) : undefined;
      const token = attempt && parties.methods.get(attempt.paymentMethodId)?.processorToken;
      const invoice = attempt && openInvoices.get(attempt.invoiceId);
      if (!attempt || !token || !invoice) {
        sub.nextChargeAt = null;
        continue;
      }
      jobs.push(leaseCharge(sub, attempt, invoice.currency, offset, token, false));
      continue;
    }
    if (sub.cancelAtPeriodEnd && now >= sub.currentPeriodEnd) {
      await endSubscription(ctx, sub, sub.currentPeriodEnd, parties.customers.get(sub.customerId) ?? null, pm);
      continue;
    }
    if (!isBillable(sub.status) && !opts.byNewCard) {
      sub.nextChargeAt = dueAt(sub, null);
      continue;
    }
    let invoice = sub.openInvoiceId ? openInvoices.get(sub.openInvoiceId) : undefined;
    if (!invoice || invoice.status === 'paid' || invoice.status === 'void') {
      const period = periodAt(sub.anchorAt, sub.interval, sub.intervalCount, sub.periodIndex + 1);
      if (period.start > now) {
        sub.nextChargeAt = dueAt(sub, period.start);
        continue;
      }
      invoice = em.create(SubscriptionInvoice, {
        merchant: sub.merchant,
        livemode: sub.livemode,
        subscriptionId: sub.id,
        periodIndex: period.index,
        periodStart: period.start,
        periodEnd: period.end,
        amount: sub.amountCents,
        currency: sub.currency,
        createdAt: now,
        updatedAt: now,
      });
      sub.periodIndex = period.index;
      sub.currentPeriodStart = period.start;
      sub.currentPeriodEnd = period.end;
      sub.openInvoiceId = invoice.id;
      sub.latestInvoiceId = invoice.id;
    }
    if (!pm || !pm.processorToken) {
      log.error({ subscription: sub.id }, 'subscription has no usable payment method');
      continue;
    }
    let attempt = inFlight.get(invoice.id);
    if (!attempt) {
      invoice.attemptCount += 1;
      attempt = em.create(SubscriptionInvoiceAttempt, {
        merchant: sub.merchant,
        livemode: sub.livemode,
        invoiceId: invoice.id,
        attempt: invoice.attemptCount,
        amount: invoice.amount,
        paymentMethodId: pm.id,
        createdAt: now,
        updatedAt: now,
      });
    }
    jobs.push(leaseCharge(sub, attempt, invoice.currency, offset, pm.processorToken, !!opts.byNewCard));
  }
  await em.flush();
  return jobs;
}

/** Step 2: the processor calls, with no transaction open (a few at a time). */
export async function callProcessor(root: EntityManager, jobs: ChargeJob[], log: Log, concurrency = 32): Promise<ChargeOutcome[]> {
  const outcomes = new Array<ChargeOutcome>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i];
      try {
        const processor = await processorFor(ctxFor(root, { merchant: { id: job.merchantId }, livemode: job.livemode }, job.clockOffsetMs, log));
        const result = await processor.chargeToken(job.token, job.amount, job.currency.toLowerCase(), job.attemptId);
        if (result.ok) outcomes[i] = { job, ok: true, captureId: result.captureId };
        else outcomes[i] = { job, ok: false, code: result.code, disposition: result.disposition && DISPOSITIONS.includes(result.disposition) ? result.disposition : 'retry' };
      } catch (error) {
        log.error({ err: error, attempt: job.attemptId }, 'processor call failed; the attempt is re-driven when its lease lapses');
        outcomes[i] = { job, ok: null, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return outcomes;
}

/**
 * Step 3: applies the processor's answers in one short transaction. Subscriptions are locked in
 * id order; an attempt no longer `calling` was settled by someone else and is skipped. A call
 * that threw is left `calling`: the lease lapses and the same attempt is re-driven. A capture of
 * a cycle voided meanwhile (cancel now committed first) is reversed, never kept: the attempt is
 * `reversed`, no order, no event; the refund is journaled here and made once this commits.
 */
export async function settleCharges(root: EntityManager, outcomes: ChargeOutcome[], log: Log): Promise<void> {
  const decided = outcomes.filter((o) => o.ok !== null);
  if (!decided.length) return;
  const reversals: { journal: PaymentJournal; ctx: ServiceContext }[] = [];
  await root.fork().transactional(async (em) => {
    const subIds = [...new Set(decided.map((o) => o.job.subscriptionId))].sort();
    await em.execute(`select id from subscriptions where id in (${subIds.map(() => '?').join(',')}) order by id for update`, subIds);
    const attempts = new Map((await em.find(SubscriptionInvoiceAttempt, { id: { $in: decided.map((o) => o.job.attemptId) }, status: 'calling' })).map((a) => [a.id, a]));
    if (!attempts.size) return;
    const subs = new Map((await em.find(Subscription, { id: { $in: subIds } }, { refresh: true })).map((s) => [s.id, s]));
    const invoices = new Map((await em.find(SubscriptionInvoice, { id: { $in: [...new Set([...attempts.values()].map((a) => a.invoiceId))] } })).map((i) => [i.id, i]));
    const parties = await loadParties(
      em,
      [...subs.values()],
      [...attempts.values()].map((a) => a.paymentMethodId),
    );
    const voided = (o: ChargeOutcome) => invoices.get(attempts.get(o.job.attemptId)!.invoiceId)!.status === 'void';
    const paid = decided.filter((o) => o.ok && attempts.has(o.job.attemptId) && !voided(o));
    const numbers = await takeOrderNumbers(
      em,
      paid.map((o) => o.job),
    );
    for (const outcome of decided) {
      const attempt = attempts.get(outcome.job.attemptId);
      if (!attempt) continue;
      const sub = subs.get(outcome.job.subscriptionId)!;
      const invoice = invoices.get(attempt.invoiceId)!;
      const now = clockNow(outcome.job.clockOffsetMs);
      const ctx = ctxFor(em, sub, outcome.job.clockOffsetMs, log);
      const customer = parties.customers.get(sub.customerId) ?? null;
      const pm = parties.methods.get(attempt.paymentMethodId)!;
      const previous = sub.status;
      sub.billingLeaseUntil = null;
      if (sub.status === 'cancelled') sub.nextChargeAt = null; // nothing left to re-drive
      attempt.updatedAt = now;
      invoice.updatedAt = now;
      if (outcome.ok && voided(outcome)) {
        // Cancelled while the processor charged: keep nothing. The reversal is journaled with this
        // settlement (both commit or neither) and refunds the capture under a key of its own.
        attempt.status = 'reversed';
        attempt.pspReference = outcome.captureId;
        const steps = [{ slot: 'card' as const, payment_method: pm.type, amount: attempt.amount, authorization_id: null, capture_id: outcome.captureId }];
        reversals.push({ journal: await PaymentJournal.openReversal(ctx, attempt.id, steps), ctx: ctxFor(root, sub, outcome.job.clockOffsetMs, log) });
      } else if (outcome.ok) {
        attempt.status = 'succeeded';
        attempt.pspReference = outcome.captureId;
        const { order } = await createOrder(ctx, renewalOrderDraft(sub, invoice, customer, pm, numbers.shift()!, outcome.captureId, now));
        order.completedAt = now;
        order.transition(now, 'completed', 'payment captured', 'captured');
        Object.assign(invoice, { status: 'paid', paidAt: now, pspReference: outcome.captureId, orderId: order.id, nextRetryAt: null });
        if (sub.openInvoiceId === invoice.id) sub.openInvoiceId = null;
        const decision = afterChargeSuccess(previous, outcome.job.byNewCard);
        setBillingState(sub, decision.status, invoice.periodEnd > sub.currentPeriodEnd ? invoice.periodEnd : sub.currentPeriodEnd);
        recordEvent(ctx, 'order.created', orderCompletedPayload(order));
        recordEvent(ctx, 'order.completed', orderCompletedPayload(order));
        for (const type of decision.events) recordSubscriptionEvent(ctx, type, sub, customer, pm, type === 'subscription.renewed' ? { invoice: invoiceEventBody(invoice) } : {});
      } else {
        attempt.status = 'failed';
        attempt.disposition = outcome.disposition;
        attempt.refusalCode = outcome.code;
        const decision = afterChargeFailure(outcome.disposition, attempt.attempt, now);
        Object.assign(invoice, { lastDisposition: outcome.disposition, lastRefusalCode: outcome.code });
        if (invoice.status === 'void' || sub.status === 'cancelled') continue; // ended meanwhile: the cycle stays void
        Object.assign(invoice, { nextRetryAt: decision.nextRetryAt, status: decision.status === 'unpaid' ? 'uncollectible' : 'open' });
        setBillingState(sub, decision.status, decision.nextRetryAt);
        // The card is the problem: the event carries a fresh card-update link for the shopper.
        const cardUpdate = outcome.disposition === 'action_required' ? { card_update_url: setupLinkUrl(addSetupLink(ctx, sub.customerId, sub.id)) } : {};
        recordSubscriptionEvent(ctx, 'subscription.payment_failed', sub, customer, pm, {
          failure: {
            disposition: outcome.disposition,
            status: decision.status,
            refusal_code: outcome.code,
            attempt: attempt.attempt,
            max_attempts: MAX_ATTEMPTS,
            next_retry_at: decision.nextRetryAt?.toISOString() ?? null,
          },
          ...cardUpdate,
        });
      }
    }
    await em.flush();
  });
  // After the commit, with no transaction open: refund what was captured for voided cycles. A
  // failure here loses nothing: the journal stays `reversing` and the reconciliation sweep retries.
  for (const { journal, ctx } of reversals) {
    await journal.reverse(ctx).catch((err: unknown) => log.error({ err, journal: journal.id }, "reversal of a cancelled cycle's charge failed; the reconciliation sweep retries it"));
  }
}

/** Steps 2 and 3 for jobs claimed by a committed step 1. */
export async function runCharges(root: EntityManager, jobs: ChargeJob[], log: Log = silent): Promise<void> {
  if (!jobs.length) return;
  await settleCharges(root, await callProcessor(root, jobs, log), log);
}

/**
 * Claims up to `batch` due subscriptions (by each merchant's clock, not leased by a live worker)
 * and prepares their charges, in one short transaction. Returns the jobs and how many were claimed.
 */
export async function claimDue(root: EntityManager, log: Log, batch: number): Promise<{ claimed: number; jobs: ChargeJob[] }> {
  return root.fork().transactional(async (em) => {
    const rows = await em.execute<{ id: string; offset: string }[]>(
      `select s.id, case when s.livemode then 0 else m.test_clock_offset_ms end as "offset"
       from subscriptions s join merchants m on m.id = s.merchant_id
       where s.next_charge_at is not null
         and s.next_charge_at <= now() + case when s.livemode then interval '0' else m.test_clock_offset_ms * interval '1 millisecond' end
         and (s.billing_lease_until is null or s.billing_lease_until < now())
       order by s.next_charge_at limit ? for update of s skip locked`,
      [batch],
    );
    if (!rows.length) return { claimed: 0, jobs: [] };
    const subs = await em.find(Subscription, { id: { $in: rows.map((r) => r.id) } });
    const offsets = new Map(rows.map((r) => [r.id, Number(r.offset)]));
    return { claimed: rows.length, jobs: await prepareCharges(em, subs, offsets, log) };
  });
}

/**
 * The billing sweep: claims due subscriptions in batches, charges them, settles them, until
 * nothing is due (or `maxBatches`). Any number of workers may run it at once.
 */
export async function runBillingSweep(root: EntityManager, log: Log, opts: { batch?: number; maxBatches?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 100;
  let charged = 0;
  for (let i = 0; i < (opts.maxBatches ?? 1000); i++) {
    const { claimed, jobs } = await claimDue(root, log, batch);
    if (!claimed) break;
    await runCharges(root, jobs, log);
    charged += jobs.length;
    // No early stop on a short batch: a subscription billed for one period may be due again at
    // once (a test clock moved by several periods), so sweep until nothing is due.
  }
  return charged;
}
