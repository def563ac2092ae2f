import type { EntityManager } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log, type ServiceContext } from '../../platform/context.js';
import type { Disposition, SubscriptionStatus } from './subscription-lifecycle.js';
import type { BillingAttempt, BillingMethod, BillingSubscription } from './subscription-billing-rows.js';

/**
 * A renewal charge as the billing engine's steps pass it on (subscription-billing.ts): the job a
 * claim makes, the outcome the processor gave, and the rules every step applies to a subscription
 * (its lease, when it is due next, its state after an outcome).
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

export type ChargeOutcome =
  | { job: ChargeJob; ok: true; captureId: string }
  | { job: ChargeJob; ok: 'held'; authorizationId: string }
  | { job: ChargeJob; ok: false; code: string; disposition: Disposition }
  | { job: ChargeJob; ok: null; error: unknown };

const noop = () => undefined;
export const silent: Log = { info: noop, warn: noop, error: noop, debug: noop };

/** A context on the caller's transaction for a merchant and mode (no fork: one per row would cost a unit of work each). */
export function ctxFor(
  em: EntityManager,
  merchantId: string,
  livemode: boolean,
  clockOffsetMs: number,
  log: Log,
): ServiceContext {
  return withEm(systemContext(em, merchantId, livemode, clockOffsetMs, log, 'job_billing'), em);
}

export const clockNow = (offsetMs: number) => new Date(Date.now() + offsetMs);
export const principalScope = (p: { merchantId: string; livemode: boolean }) => ({
  merchant: p.merchantId,
  livemode: p.livemode,
});

/** When the sweep must next look at `sub` after billing decided `next` (a scheduled end comes first). */
export function dueAt(sub: BillingSubscription, next: Date | null): Date | null {
  if (!sub.cancelAtPeriodEnd) return next;
  return next && next < sub.currentPeriodEnd ? next : sub.currentPeriodEnd;
}

/** Applies a billing outcome, unless the subscription ended meanwhile or a dispute holds it (then it is what a reversal restores). */
export function setBillingState(sub: BillingSubscription, status: SubscriptionStatus, next: Date | null): void {
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
export function leaseCharge(
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
