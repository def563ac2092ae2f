import type { EntityManager } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log, type ServiceContext } from '../../platform/context.js';
import { runBulk } from '../../platform/db/bulk.js';
import { prefixedId } from '../../platform/db/ids.js';
import { eventRow, insertEvents, type EventRow } from '../../platform/events/events.service.js';
import { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { setupLinkUrl } from '../customers/customer.resource.js';
import { addSetupLink } from '../customers/payment-method-setup-link.service.js';
import { takeOrderNumbers } from '../orders/order-numbers.js';
import { transitionOrder } from '../orders/order.entity.js';
import { orderCompletedPayload } from '../orders/order.resource.js';
import { buildOrder, insertOrders, insertPayments, type BuiltOrder } from '../orders/order.service.js';
import { PaymentJournal } from '../payments/payment-journal.js';
import type { PaymentProcessor } from '../payments/payment-processor.js';
import { processorFor } from '../payments/processor-registry.js';
import { periodAt } from './subscription-calendar.js';
import { Subscription } from './subscription.entity.js';
import {
  afterChargeFailure,
  afterChargeSuccess,
  DISPOSITIONS,
  isBillable,
  MAX_ATTEMPTS,
  type Disposition,
  type SubscriptionStatus,
} from './subscription-lifecycle.js';
import {
  billingWrites,
  lockDueSubscriptions,
  lockSubscriptionRows,
  readCallingAttempts,
  readInvoices,
  readMethods,
  type BillingAttempt,
  type BillingInvoice,
  type BillingMethod,
  type BillingSubscription,
} from './subscription-billing-rows.js';
import { endSubscription } from './subscription-ending.js';
import { subscriptionEventRow } from './subscription-events.js';
import { renewalOrderDraft } from './subscription-renewal.js';
import { letterCovers, openRenewalReview } from '../lmn/lmn-renewal.js';
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
 * Each step reads and writes its whole batch as plain rows in a few statements (the writes of a
 * step in one: subscription-billing-rows.ts), not through the unit of work: at 100,000 renewals
 * the ORM's per-row bookkeeping cost more than the charges. The rare side effects (a scheduled end,
 * a card-update link) still go through the owning services, in the same transaction.
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
  /** An HSA/FSA renewal of a product that needs a letter: charged if the shopper's letter still covers it, else held for a review (lmn-renewal.ts). */
  lmn: { customerId: string; productId: string } | null;
}

type ChargeOutcome =
  | { job: ChargeJob; ok: true; captureId: string }
  | { job: ChargeJob; ok: 'held'; authorizationId: string }
  | { job: ChargeJob; ok: false; code: string; disposition: Disposition }
  | { job: ChargeJob; ok: null; error: unknown };

const noop = () => undefined;
const silent: Log = { info: noop, warn: noop, error: noop, debug: noop };

/** A context on the caller's transaction for a merchant and mode (no fork: one per row would cost a unit of work each). */
function ctxFor(
  em: EntityManager,
  merchantId: string,
  livemode: boolean,
  clockOffsetMs: number,
  log: Log,
): ServiceContext {
  return withEm(systemContext(em, merchantId, livemode, clockOffsetMs, log, 'job_billing'), em);
}

const clockNow = (offsetMs: number) => new Date(Date.now() + offsetMs);
const principalScope = (p: { merchantId: string; livemode: boolean }) => ({
  merchant: p.merchantId,
  livemode: p.livemode,
});

/** When the sweep must next look at `sub` after billing decided `next` (a scheduled end comes first). */
function dueAt(sub: BillingSubscription, next: Date | null): Date | null {
  if (!sub.cancelAtPeriodEnd) return next;
  return next && next < sub.currentPeriodEnd ? next : sub.currentPeriodEnd;
}

/** Applies a billing outcome, unless the subscription ended meanwhile or a dispute holds it (then it is what a reversal restores). */
function setBillingState(sub: BillingSubscription, status: SubscriptionStatus, next: Date | null): void {
  if (sub.status === 'cancelled') return;
  if (sub.status === 'disputed') {
    sub.priorStatus = status;
    sub.priorNextChargeAt = next;
    return;
  }
  sub.status = status;
  sub.nextChargeAt = dueAt(sub, next);
}

/** Leases `sub` to this charge (no other worker takes it meanwhile) and describes the charge of `attempt` on the card `token`. */
function leaseCharge(
  sub: BillingSubscription,
  attempt: BillingAttempt,
  currency: string,
  clockOffsetMs: number,
  pm: BillingMethod,
  byNewCard: boolean,
): ChargeJob {
  sub.billingLeaseUntil = new Date(Date.now() + leaseMs);
  const lmn =
    sub.requiresLmn && pm.type === 'hsa_fsa_card' && sub.merchantProductId
      ? { customerId: sub.customerId, productId: sub.merchantProductId }
      : null;
  return {
    attemptId: attempt.id,
    subscriptionId: sub.id,
    merchantId: sub.merchantId,
    livemode: sub.livemode,
    clockOffsetMs,
    amount: attempt.amount,
    currency,
    token: pm.processorToken,
    byNewCard,
    lmn,
  };
}

/** Ends the subscriptions whose scheduled end has come, through the entity and `endSubscription` (rare: not worth a batch path). */
async function endScheduled(
  em: EntityManager,
  subs: BillingSubscription[],
  offsets: Map<string, number>,
  log: Log,
): Promise<void> {
  if (!subs.length) return;
  const entities = await em.find(Subscription, { id: { $in: subs.map((s) => s.id) } }, { refresh: true });
  const [customers, methods] = await Promise.all([
    em.find(Customer, { id: { $in: entities.map((s) => s.customerId) } }),
    em.find(PaymentMethod, { id: { $in: entities.map((s) => s.paymentMethodId) } }),
  ]);
  for (const sub of entities) {
    const ctx = ctxFor(em, sub.merchant.id, sub.livemode, offsets.get(sub.id) ?? 0, log);
    await endSubscription(
      ctx,
      sub,
      sub.currentPeriodEnd,
      customers.find((c) => c.id === sub.customerId) ?? null,
      methods.find((m) => m.id === sub.paymentMethodId) ?? null,
    );
  }
  await em.flush();
}

/**
 * Step 1 for subscriptions locked by the caller's transaction (as read then): ends those whose
 * scheduled end has come, opens the due cycle's invoice (or takes the open one), and writes the
 * attempt (`calling`) and the lease. Returns the charges to make once the transaction commits.
 */
export async function prepareCharges(
  em: EntityManager,
  subs: BillingSubscription[],
  offsets: Map<string, number>,
  log: Log,
  opts: { byNewCard?: boolean } = {},
): Promise<ChargeJob[]> {
  if (!subs.length) return [];
  // A cancelled subscription is claimed only for a charge that was in flight when it ended (its voided cycle is the latest).
  const openIds = subs
    .map((s) => (s.status === 'cancelled' ? s.latestInvoiceId : s.openInvoiceId))
    .filter((id): id is string => !!id);
  const open = await readInvoices(em, openIds);
  const openInvoices = new Map(open.map((o) => [o.invoice.id, o.invoice]));
  const inFlight = new Map(open.flatMap((o) => (o.calling ? [[o.invoice.id, o.calling] as const] : [])));
  const methods = await readMethods(em, [
    ...subs.map((s) => s.paymentMethodId),
    ...[...inFlight.values()].map((a) => a.paymentMethodId),
  ]);
  const jobs: ChargeJob[] = [];
  const changed: BillingSubscription[] = [];
  const ending: BillingSubscription[] = [];
  const invoices: BillingInvoice[] = [];
  const attempts: BillingAttempt[] = [];
  for (const sub of subs) {
    const offset = offsets.get(sub.id) ?? 0;
    const now = clockNow(offset);
    const pm = methods.get(sub.paymentMethodId) ?? null;
    if (sub.cancelAtPeriodEnd && sub.status !== 'cancelled' && now >= sub.currentPeriodEnd) {
      ending.push(sub);
      continue;
    }
    changed.push(sub);
    if (sub.status === 'cancelled') {
      // Cancelled while a charge was in flight whose worker died: re-drive that attempt under its
      // own key (the processor answers the first call), so that step 3 settles it as reversed.
      const attempt = sub.latestInvoiceId ? inFlight.get(sub.latestInvoiceId) : undefined;
      const method = attempt && methods.get(attempt.paymentMethodId);
      const invoice = attempt && openInvoices.get(attempt.invoiceId);
      if (!attempt || !method?.processorToken || !invoice) {
        sub.nextChargeAt = null;
        continue;
      }
      jobs.push(leaseCharge(sub, attempt, invoice.currency, offset, method, false));
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
      invoice = {
        id: prefixedId('in'),
        merchantId: sub.merchantId,
        livemode: sub.livemode,
        subscriptionId: sub.id,
        periodIndex: period.index,
        periodStart: period.start,
        periodEnd: period.end,
        amount: sub.amountCents,
        currency: sub.currency,
        status: 'open',
        attemptCount: 0,
        nextRetryAt: null,
        orderId: null,
        pspReference: null,
        paidAt: null,
        lastDisposition: null,
        lastRefusalCode: null,
        createdAt: now,
        updatedAt: now,
        isNew: true,
      };
      invoices.push(invoice);
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
      if (!invoice.isNew) {
        invoice.updatedAt = now;
        invoices.push(invoice);
      }
      attempt = {
        id: prefixedId('ia'),
        merchantId: sub.merchantId,
        livemode: sub.livemode,
        invoiceId: invoice.id,
        attempt: invoice.attemptCount,
        amount: invoice.amount,
        paymentMethodId: pm.id,
        status: 'calling',
        pspReference: null,
        disposition: null,
        refusalCode: null,
        createdAt: now,
        updatedAt: now,
        isNew: true,
      };
      attempts.push(attempt);
    }
    jobs.push(leaseCharge(sub, attempt, invoice.currency, offset, pm, !!opts.byNewCard));
  }
  await runBulk(em, billingWrites(em, changed, invoices, attempts));
  await endScheduled(em, ending, offsets, log);
  return jobs;
}

/**
 * Step 1 for one subscription the caller holds as an entity, locked (or created) in its
 * transaction `em`: flushes it, prepares its charge as `prepareCharges` does, and reloads it.
 */
export async function prepareChargeOf(
  ctx: ServiceContext,
  em: EntityManager,
  sub: Subscription,
  opts: { byNewCard?: boolean } = {},
): Promise<ChargeJob[]> {
  await em.flush();
  const jobs = await prepareCharges(
    em,
    await lockSubscriptionRows(em, [sub.id]),
    new Map([[sub.id, ctx.principal.clockOffsetMs]]),
    ctx.log,
    opts,
  );
  await em.findOneOrFail(Subscription, sub.id, { refresh: true });
  return jobs;
}

/** Step 2: the processor calls, with no transaction open (a few at a time). */
export async function callProcessor(
  root: EntityManager,
  jobs: ChargeJob[],
  log: Log,
  concurrency = 32,
): Promise<ChargeOutcome[]> {
  const outcomes = new Array<ChargeOutcome>(jobs.length);
  // One processor per merchant and mode for the batch (live mode looks up the merchant's account).
  const processors = new Map<string, Promise<PaymentProcessor>>();
  const processorOf = (job: ChargeJob) => {
    const key = `${job.merchantId}:${job.livemode}:${job.clockOffsetMs}`;
    let processor = processors.get(key);
    if (!processor)
      processors.set(
        key,
        (processor = processorFor(ctxFor(root, job.merchantId, job.livemode, job.clockOffsetMs, log))),
      );
    return processor;
  };
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i];
      try {
        const processor = await processorOf(job);
        const currency = job.currency.toLowerCase();
        // A renewal that needs a letter the shopper no longer holds is authorised and held, under a key of its own.
        const hold =
          job.lmn &&
          !(await letterCovers(root, {
            merchantId: job.merchantId,
            livemode: job.livemode,
            ...job.lmn,
            at: clockNow(job.clockOffsetMs),
          }));
        const result = hold
          ? await processor.holdToken(job.token, job.amount, currency, `${job.attemptId}.hold`)
          : await processor.chargeToken(job.token, job.amount, currency, job.attemptId);
        if (result.ok)
          outcomes[i] =
            'authorizationId' in result
              ? { job, ok: 'held', authorizationId: result.authorizationId }
              : { job, ok: true, captureId: result.captureId };
        else
          outcomes[i] = {
            job,
            ok: false,
            code: result.code,
            disposition: result.disposition && DISPOSITIONS.includes(result.disposition) ? result.disposition : 'retry',
          };
      } catch (error) {
        log.error(
          { err: error, attempt: job.attemptId },
          'processor call failed; the attempt is re-driven when its lease lapses',
        );
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
  const releases: { authorizationId: string; key: string; ctx: ServiceContext }[] = [];
  await root.fork().transactional(async (em) => {
    const subs = new Map(
      (await lockSubscriptionRows(em, [...new Set(decided.map((o) => o.job.subscriptionId))].sort())).map((s) => [
        s.id,
        s,
      ]),
    );
    const calling = new Map(
      (
        await readCallingAttempts(
          em,
          decided.map((o) => o.job.attemptId),
        )
      ).map((c) => [c.attempt.id, c]),
    );
    if (!calling.size) return;
    const voided = (o: ChargeOutcome) => calling.get(o.job.attemptId)!.invoice.status === 'void';
    const changed = new Set<BillingSubscription>();
    const invoices: BillingInvoice[] = [];
    const attempts: BillingAttempt[] = [];
    // Per settled charge in order: its order (numbered last, see below; completed unless held for a review) and the events after the order's.
    const settled: {
      order?: BuiltOrder;
      held?: boolean;
      principal: { merchantId: string; livemode: boolean };
      at: Date;
      events: EventRow[];
    }[] = [];
    for (const outcome of decided) {
      const found = calling.get(outcome.job.attemptId);
      if (!found) continue;
      const { attempt, invoice, pm, customer } = found;
      const sub = subs.get(outcome.job.subscriptionId)!;
      const now = clockNow(outcome.job.clockOffsetMs);
      const principal = { merchantId: sub.merchantId, livemode: sub.livemode };
      const previous = sub.status;
      changed.add(sub);
      invoices.push(invoice);
      attempts.push(attempt);
      sub.billingLeaseUntil = null;
      if (sub.status === 'cancelled') sub.nextChargeAt = null; // nothing left to re-drive
      attempt.updatedAt = now;
      invoice.updatedAt = now;
      if (outcome.ok === 'held' && voided(outcome)) {
        // Cancelled while the card was being held: nothing is kept, the hold is released after the commit.
        attempt.status = 'reversed';
        attempt.pspReference = outcome.authorizationId;
        releases.push({
          authorizationId: outcome.authorizationId,
          key: `${attempt.id}.release`,
          ctx: ctxFor(root, sub.merchantId, sub.livemode, outcome.job.clockOffsetMs, log),
        });
      } else if (outcome.ok === 'held') {
        // The letter has expired: the cycle's order waits, processing and authorised, for a clinician's
        // review; the invoice stays open and billing leaves the subscription alone until the decision.
        attempt.status = 'succeeded';
        attempt.pspReference = outcome.authorizationId;
        const order = buildOrder(
          principalScope(principal),
          renewalOrderDraft(sub, invoice, customer, pm, '', null, now),
          '',
        );
        const { review, payload } = await openRenewalReview(em, {
          ...principal,
          orderId: order.order.id,
          invoiceId: invoice.id,
          customer: {
            email: customer?.email ?? '',
            first_name: customer?.firstName ?? '',
            last_name: customer?.lastName ?? '',
          },
          item: { product_id: sub.merchantProductId ?? '', name: sub.description },
          hold: {
            authorization_id: outcome.authorizationId,
            amount: invoice.amount,
            currency: invoice.currency.toLowerCase(),
            payment_method: pm.type,
            brand: pm.brand ?? '',
            last4: pm.last4 ?? '',
            token: pm.processorToken ?? '',
          },
          at: now,
        });
        order.order.lmn = {
          items: [sub.merchantProductId ?? ''],
          review: { id: review.id, status: 'pending' },
          letter_id: null,
        };
        transitionOrder(
          order.order,
          now,
          'processing',
          `HSA/FSA card held until a clinician reviews the letter of medical necessity (${review.id})`,
          'authorized',
        );
        Object.assign(invoice, { orderId: order.order.id, nextRetryAt: null });
        setBillingState(sub, sub.status, null);
        settled.push({
          order,
          held: true,
          principal,
          at: now,
          events: [eventRow(principal, 'lmn_review.created', payload, now)],
        });
      } else if (outcome.ok && voided(outcome)) {
        // Cancelled while the processor charged: keep nothing. The reversal is journaled with this
        // settlement (both commit or neither) and refunds the capture under a key of its own.
        attempt.status = 'reversed';
        attempt.pspReference = outcome.captureId;
        const steps = [
          {
            slot: 'card' as const,
            payment_method: pm.type,
            amount: attempt.amount,
            authorization_id: null,
            capture_id: outcome.captureId,
          },
        ];
        const ctx = ctxFor(em, sub.merchantId, sub.livemode, outcome.job.clockOffsetMs, log);
        reversals.push({
          journal: await PaymentJournal.openReversal(ctx, attempt.id, steps),
          ctx: ctxFor(root, sub.merchantId, sub.livemode, outcome.job.clockOffsetMs, log),
        });
      } else if (outcome.ok) {
        attempt.status = 'succeeded';
        attempt.pspReference = outcome.captureId;
        const order = buildOrder(
          principalScope(principal),
          renewalOrderDraft(sub, invoice, customer, pm, '', outcome.captureId, now),
          '',
        );
        order.order.completedAt = now;
        transitionOrder(order.order, now, 'completed', 'payment captured', 'captured');
        Object.assign(invoice, {
          status: 'paid',
          paidAt: now,
          pspReference: outcome.captureId,
          orderId: order.order.id,
          nextRetryAt: null,
        });
        if (sub.openInvoiceId === invoice.id) sub.openInvoiceId = null;
        const decision = afterChargeSuccess(previous, outcome.job.byNewCard);
        setBillingState(
          sub,
          decision.status,
          invoice.periodEnd > sub.currentPeriodEnd ? invoice.periodEnd : sub.currentPeriodEnd,
        );
        const events = decision.events.map((type) =>
          subscriptionEventRow(
            principal,
            now,
            type,
            sub,
            customer,
            pm,
            type === 'subscription.renewed' ? { invoice: invoiceEventBody(invoice) } : {},
          ),
        );
        settled.push({ order, principal, at: now, events });
      } else {
        attempt.status = 'failed';
        attempt.disposition = outcome.disposition;
        attempt.refusalCode = outcome.code;
        const decision = afterChargeFailure(outcome.disposition, attempt.attempt, now);
        Object.assign(invoice, { lastDisposition: outcome.disposition, lastRefusalCode: outcome.code });
        if (invoice.status === 'void' || sub.status === 'cancelled') continue; // ended meanwhile: the cycle stays void
        Object.assign(invoice, {
          nextRetryAt: decision.nextRetryAt,
          status: decision.status === 'unpaid' ? 'uncollectible' : 'open',
        });
        setBillingState(sub, decision.status, decision.nextRetryAt);
        // The card is the problem: the event carries a fresh card-update link for the shopper.
        const cardUpdate =
          outcome.disposition === 'action_required'
            ? {
                card_update_url: setupLinkUrl(
                  addSetupLink(
                    ctxFor(em, sub.merchantId, sub.livemode, outcome.job.clockOffsetMs, log),
                    sub.customerId,
                    sub.id,
                  ),
                ),
              }
            : {};
        const failure = {
          disposition: outcome.disposition,
          status: decision.status,
          refusal_code: outcome.code,
          attempt: attempt.attempt,
          max_attempts: MAX_ATTEMPTS,
          next_retry_at: decision.nextRetryAt?.toISOString() ?? null,
        };
        settled.push({
          principal,
          at: now,
          events: [
            subscriptionEventRow(principal, now, 'subscription.payment_failed', sub, customer, pm, {
              failure,
              ...cardUpdate,
            }),
          ],
        });
      }
    }
    const orders = settled.flatMap((s) => (s.order ? [s.order] : []));
    await runBulk(em, [...billingWrites(em, [...changed], invoices, attempts), insertPayments(em, orders)]);
    await em.flush(); // the card-update links
    // Order numbers last: a merchant's counter stays locked until this commits, and every
    // settlement of that merchant waits for it, so only the orders and events are written under it.
    const numbers = await takeOrderNumbers(
      em,
      orders.map((o) => ({ merchantId: o.order.merchant, livemode: o.order.livemode })),
    );
    const events: EventRow[] = [];
    for (const { order, held, principal, at, events: after } of settled) {
      if (order) {
        order.order.orderNumber = numbers.shift()!;
        const payload = orderCompletedPayload(order.order);
        events.push(eventRow(principal, 'order.created', payload, at));
        if (!held) events.push(eventRow(principal, 'order.completed', payload, at));
      }
      events.push(...after);
    }
    await runBulk(em, [insertOrders(em, orders), ...insertEvents(em, events)]);
  });
  // After the commit, with no transaction open: refund what was captured for voided cycles. A
  // failure here loses nothing: the journal stays `reversing` and the reconciliation sweep retries.
  for (const { journal, ctx } of reversals) {
    await journal
      .reverse(ctx)
      .catch((err: unknown) =>
        log.error(
          { err, journal: journal.id },
          "reversal of a cancelled cycle's charge failed; the reconciliation sweep retries it",
        ),
      );
  }
  for (const { authorizationId, key, ctx } of releases) {
    await (
      await processorFor(ctx)
    )
      .void(authorizationId, key)
      .catch((err: unknown) =>
        log.error(
          { err, authorizationId },
          "release of a cancelled cycle's hold failed; the authorisation lapses by itself",
        ),
      );
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
export async function claimDue(
  root: EntityManager,
  log: Log,
  batch: number,
): Promise<{ claimed: number; jobs: ChargeJob[] }> {
  return root.fork().transactional(async (em) => {
    const rows = await lockDueSubscriptions(em, batch);
    if (!rows.length) return { claimed: 0, jobs: [] };
    const offsets = new Map(rows.map((r) => [r.sub.id, r.offsetMs]));
    return {
      claimed: rows.length,
      jobs: await prepareCharges(
        em,
        rows.map((r) => r.sub),
        offsets,
        log,
      ),
    };
  });
}

/**
 * The billing sweep: claims due subscriptions in batches, charges them, settles them, until
 * nothing is due (or `maxBatches`). Any number of workers may run it at once.
 */
export async function runBillingSweep(
  root: EntityManager,
  log: Log,
  opts: { batch?: number; maxBatches?: number } = {},
): Promise<number> {
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
