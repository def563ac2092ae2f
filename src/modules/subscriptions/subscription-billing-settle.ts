import type { EntityManager } from '@mikro-orm/postgresql';
import type { Log, ServiceContext } from '../../platform/context.js';
import { runBulk } from '../../platform/db/bulk.js';
import { eventRow, insertEvents, type EventRow } from '../../platform/events/events.service.js';
import { setupLinkUrl } from '../customers/customer.resource.js';
import { addSetupLink } from '../customers/payment-method-setup-link.service.js';
import { takeOrderNumbers } from '../orders/order-numbers.js';
import { transitionOrder } from '../orders/order.entity.js';
import { orderCompletedPayload } from '../orders/order.resource.js';
import { buildOrder, insertOrders, insertPayments, type BuiltOrder } from '../orders/order.service.js';
import { PaymentJournal } from '../payments/payment-journal.js';
import { processorFor } from '../payments/processor-registry.js';
import { afterChargeFailure, afterChargeSuccess, MAX_ATTEMPTS } from './subscription-lifecycle.js';
import {
  billingWrites,
  lockSubscriptionRows,
  readCallingAttempts,
  type BillingAttempt,
  type BillingInvoice,
  type BillingSubscription,
} from './subscription-billing-rows.js';
import { subscriptionEventRow } from './subscription-events.js';
import { renewalOrderDraft } from './subscription-renewal.js';
import { openRenewalReview } from '../lmn/lmn-renewal.js';
import { invoiceEventBody } from './subscription.resource.js';
import { clockNow, ctxFor, principalScope, setBillingState, type ChargeOutcome } from './subscription-charge.js';

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
