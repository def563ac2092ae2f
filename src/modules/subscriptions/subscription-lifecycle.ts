/**
 * The subscription state machine as pure functions: what a failed charge, a successful one, a
 * cancellation or a dispute stage does to a subscription. The billing engine and the services
 * apply these decisions; nothing here touches the database.
 */

// A refusal's disposition and a dispute's stage are the processor's words (one type each, in payments).
import { DISPOSITIONS, DISPUTE_STAGES, type Disposition, type DisputeStage } from '../payments/payment-processor.js';
export { DISPOSITIONS, DISPUTE_STAGES, type Disposition, type DisputeStage };

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'action_required',
  'unpaid',
  'disputed',
  'cancelled',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const HOUR = 3_600_000;
/**
 * Retries of a cycle refused with disposition `retry`, after the failed attempt: 1 day, then
 * 3 days, then 5 days (attempts 2, 3, 4 at +1 d, +4 d, +9 d from the first); the 4th failure
 * makes the subscription `unpaid`.
 */
export const RETRY_DELAYS_MS = [24 * HOUR, 72 * HOUR, 120 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Statuses in which the sweep charges due cycles (renewals and retries). */
export function isBillable(status: SubscriptionStatus): boolean {
  return status === 'trialing' || status === 'active' || status === 'past_due';
}

/** Statuses a new card rescues at once (the open cycle is charged on replacement). */
export function isRescuable(status: SubscriptionStatus): boolean {
  return status === 'past_due' || status === 'action_required';
}

export interface FailureDecision {
  status: Extract<SubscriptionStatus, 'past_due' | 'action_required' | 'unpaid'>;
  /** When the next attempt runs; null when no further attempt is made. */
  nextRetryAt: Date | null;
}

/**
 * A cycle charge refused with `disposition` on attempt `attempt` (1-based) at `failedAt`:
 * `retry` → `past_due` with the next retry on the widening schedule, or `unpaid` once the
 * attempts are exhausted; `action_required` → stops retrying; `terminal` → `unpaid` at once.
 */
export function afterChargeFailure(disposition: Disposition, attempt: number, failedAt: Date): FailureDecision {
  if (disposition === 'terminal') return { status: 'unpaid', nextRetryAt: null };
  if (disposition === 'action_required') return { status: 'action_required', nextRetryAt: null };
  if (attempt >= MAX_ATTEMPTS) return { status: 'unpaid', nextRetryAt: null };
  return { status: 'past_due', nextRetryAt: new Date(failedAt.getTime() + RETRY_DELAYS_MS[attempt - 1]) };
}

/** Events after a cycle is paid: a rescue by a new card also announces the way back to billing. */
export function afterChargeSuccess(
  previous: SubscriptionStatus,
  byNewCard: boolean,
): { status: 'active'; events: string[] } {
  const rescued = byNewCard && isRescuable(previous);
  return {
    status: 'active',
    events: rescued ? ['subscription.resumed', 'subscription.renewed'] : ['subscription.renewed'],
  };
}

/** Whether a cancellation is possible, and what it does. */
export function cancelDecision(
  status: SubscriptionStatus,
  atPeriodEnd: boolean,
): { ok: false } | { ok: true; endsNow: boolean } {
  if (status === 'cancelled') return { ok: false };
  // A subscription that is not billing (unpaid, action_required, disputed) has nothing left to
  // run to the period end for only when asked to end now; a scheduled end is honoured either way.
  return { ok: true, endsNow: !atPeriodEnd };
}

export interface DisputeSnapshot {
  status: SubscriptionStatus;
  nextChargeAt: Date | null;
  /** Status and next charge saved when billing was held (null when not held). */
  priorStatus: SubscriptionStatus | null;
  priorNextChargeAt: Date | null;
}

export interface DisputeDecision extends DisputeSnapshot {
  billingHeld: boolean;
}

/**
 * A dispute stage reported by the processor, decided by `stage` whatever the `event_code`:
 * `notification` changes nothing; `confirmed` holds billing (`disputed`, the prior status and
 * next charge kept aside); `reversed` restores exactly the prior status and next charge (a
 * mid-retry `past_due` keeps its `next_retry_at`). A cancelled subscription stays cancelled.
 */
export function applyDisputeStage(s: DisputeSnapshot, stage: DisputeStage): DisputeDecision {
  const held = s.status === 'disputed';
  if (stage === 'notification' || s.status === 'cancelled') return { ...s, billingHeld: held };
  if (stage === 'confirmed') {
    if (held) return { ...s, billingHeld: true };
    return {
      status: 'disputed',
      nextChargeAt: null,
      priorStatus: s.status,
      priorNextChargeAt: s.nextChargeAt,
      billingHeld: true,
    };
  }
  if (!held) return { ...s, billingHeld: false };
  return {
    status: s.priorStatus ?? 'active',
    nextChargeAt: s.priorNextChargeAt,
    priorStatus: null,
    priorNextChargeAt: null,
    billingHeld: false,
  };
}
