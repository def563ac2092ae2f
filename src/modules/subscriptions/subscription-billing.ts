import type { EntityManager } from '@mikro-orm/postgresql';
import { type Log, type ServiceContext } from '../../platform/context.js';
import { runBulk } from '../../platform/db/bulk.js';
import { prefixedId } from '../../platform/db/ids.js';
import type { PaymentProcessor } from '../payments/payment-processor.js';
import { processorFor } from '../payments/processor-registry.js';
import { periodAt } from './subscription-calendar.js';
import { Subscription } from './subscription.entity.js';
import { DISPOSITIONS, isBillable } from './subscription-lifecycle.js';
import {
  billingWrites,
  lockDueSubscriptions,
  lockSubscriptionRows,
  readInvoices,
  mergeIntoHeld,
  readCustomers,
  readMethods,
  type BillingAttempt,
  type BillingInvoice,
  type BillingMethod,
  type BillingSubscription,
} from './subscription-billing-rows.js';
import { endSubscription } from './subscription-ending.js';
import { letterCovers } from '../lmn/lmn-renewal.js';
import { settleCharges } from './subscription-billing-settle.js';
import {
  clockNow,
  ctxFor,
  dueAt,
  leaseCharge,
  silent,
  type ChargeJob,
  type ChargeOutcome,
} from './subscription-charge.js';

export { setBillingLeaseMs, type ChargeJob } from './subscription-charge.js';

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

/**
 * Ends the subscriptions whose scheduled end has come (`endSubscription` on their rows, which the
 * caller writes with the batch); their `subscription.canceled` events go through the unit of work.
 */
async function endScheduled(
  em: EntityManager,
  subs: BillingSubscription[],
  methods: Map<string, BillingMethod>,
  offsets: Map<string, number>,
  log: Log,
): Promise<void> {
  if (!subs.length) return;
  const customers = await readCustomers(
    em,
    subs.map((s) => s.customerId),
  );
  for (const sub of subs) {
    const ctx = ctxFor(em, sub.merchantId, sub.livemode, offsets.get(sub.id) ?? 0, log);
    const pm = methods.get(sub.paymentMethodId) ?? null;
    await endSubscription(ctx, sub, sub.currentPeriodEnd, customers.get(sub.customerId) ?? null, pm);
  }
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
  await endScheduled(em, ending, methods, offsets, log);
  await runBulk(em, billingWrites(em, [...changed, ...ending], invoices, attempts));
  if (ending.length) await em.flush();
  return jobs;
}

/**
 * Step 1 for one subscription the caller holds as an entity, locked (or created) in its
 * transaction `em`: flushes it, prepares its charge as `prepareCharges` does, and brings the
 * entity up to the row written.
 */
export async function prepareChargeOf(
  ctx: ServiceContext,
  em: EntityManager,
  sub: Subscription,
  opts: { byNewCard?: boolean } = {},
): Promise<ChargeJob[]> {
  await em.flush();
  const rows = await lockSubscriptionRows(em, [sub.id]);
  const jobs = await prepareCharges(em, rows, new Map([[sub.id, ctx.principal.clockOffsetMs]]), ctx.log, opts);
  mergeIntoHeld(em, rows);
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
