/**
 * A dispute's state from the processor's chargeback notifications of one payment, as a pure
 * function of all of them: notifications arrive late, twice or out of order, and whatever the
 * order they were applied in, the same set gives the same state.
 */
import type { DisputeStage } from '../payments/payment-processor.js';

/** Adyen's dispute event codes this service applies, in the order a dispute moves through them. */
export const CHARGEBACK_EVENT_CODES = [
  'NOTIFICATION_OF_CHARGEBACK',
  'CHARGEBACK',
  'CHARGEBACK_REVERSED',
  'SECOND_CHARGEBACK',
] as const;
export type ChargebackEventCode = (typeof CHARGEBACK_EVENT_CODES)[number];

const STAGE_OF: Record<ChargebackEventCode, DisputeStage> = {
  NOTIFICATION_OF_CHARGEBACK: 'notification',
  CHARGEBACK: 'confirmed',
  CHARGEBACK_REVERSED: 'reversed',
  // The issuer disputes again after a reversal: money is taken back once more.
  SECOND_CHARGEBACK: 'confirmed',
};

/** The stage a chargeback event code puts a dispute in. */
export const stageOf = (code: ChargebackEventCode): DisputeStage => STAGE_OF[code];

/** The first event code of `stage` (the one a processor sends for it unless it disputes again). */
export const eventCodeOf = (stage: DisputeStage): ChargebackEventCode =>
  CHARGEBACK_EVENT_CODES.find((c) => STAGE_OF[c] === stage)!;

export const isChargebackEventCode = (code: string): code is ChargebackEventCode =>
  (CHARGEBACK_EVENT_CODES as readonly string[]).includes(code);

/** One stored chargeback notification of a payment. */
export interface ChargebackNotification {
  eventCode: ChargebackEventCode;
  eventDate: Date;
  /** The dispute's own reference. */
  pspReference: string;
  amount: number;
  currency: string;
  reason: string | null;
  /** Adyen's `additionalData.defensePeriodEndsAt`, when sent. */
  defensePeriodEndsAt: string | null;
  /** Adyen's `additionalData.defendable` (`true` / `false`), when sent. */
  defendable?: string | null;
}

/** What the notifications say of the dispute: the latest one's stage and figures. */
export interface DisputeState {
  stage: DisputeStage;
  eventCode: ChargebackEventCode;
  pspReference: string;
  amount: number;
  currency: string;
  reason: string | null;
  /** The latest defence deadline any of them sent. */
  defenseDueAt: Date | null;
  /** Whether it can be defended, as the latest notification that said so said (null: none did). */
  defendable: boolean | null;
}

/** Whether a stage keeps the dispute open (the order `disputed`). */
export const isOpen = (stage: DisputeStage): boolean => stage !== 'reversed';

/**
 * Notifications in the order they happened: by Adyen's event date, then (same date) by the order
 * a dispute moves through its codes, then by reference, so that the order is total.
 */
export function inDisputeOrder(notifications: readonly ChargebackNotification[]): ChargebackNotification[] {
  const rank = (n: ChargebackNotification) => CHARGEBACK_EVENT_CODES.indexOf(n.eventCode);
  return [...notifications].sort(
    (a, b) =>
      a.eventDate.getTime() - b.eventDate.getTime() ||
      rank(a) - rank(b) ||
      (a.pspReference < b.pspReference ? -1 : a.pspReference > b.pspReference ? 1 : 0),
  );
}

/** The dispute's state from all its notifications (null when there are none). */
export function disputeStateOf(notifications: readonly ChargebackNotification[]): DisputeState | null {
  const ordered = inDisputeOrder(notifications);
  const latest = ordered.at(-1);
  if (!latest) return null;
  let defenseDueAt: Date | null = null;
  let defendable: boolean | null = null;
  for (const n of ordered) {
    const due = n.defensePeriodEndsAt ? new Date(n.defensePeriodEndsAt) : null;
    if (due && !Number.isNaN(due.getTime())) defenseDueAt = due;
    if (n.defendable === 'true' || n.defendable === 'false') defendable = n.defendable === 'true';
  }
  return {
    stage: STAGE_OF[latest.eventCode],
    eventCode: latest.eventCode,
    pspReference: latest.pspReference,
    amount: latest.amount,
    currency: latest.currency,
    reason: latest.reason,
    defenseDueAt,
    defendable,
  };
}
