import type { CardInput } from './card.js';

export const PAYMENT_METHOD_TYPES = ['hsa_fsa_card', 'card'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/** What may be kept of a card: never its number or cvc. */
export interface CardDetails {
  type: PaymentMethodType;
  brand: string;
  last4: string;
}

export type ProcessorResult<T> = ({ ok: true } & T) | { ok: false; code: string; message: string };

export interface Authorization extends CardDetails {
  authorizationId: string;
  /** Reusable processor token for the card (stored payment methods, later charges). */
  token: string;
}

/** How a refused later charge (a renewal) should be handled. */
/** What a refusal means for retrying: later, after the customer acts, or never. */
export const DISPOSITIONS = ['retry', 'action_required', 'terminal'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export type ChargeResult = { ok: true; captureId: string } | { ok: false; code: string; message: string; disposition: Disposition };

/** What the processor did for one idempotency key (reconciliation asks after a crash). */
export interface ProcessorRecord {
  operation: 'authorize' | 'capture' | 'void' | 'refund' | 'charge' | 'verify';
  ok: boolean;
  /** The id the call created (authorization, capture, refund), when it succeeded. */
  reference: string | null;
}

/**
 * The payment processor behind every charge. Test mode uses the simulated processor of the
 * contract's test cards; a live processor implements the same calls.
 *
 * Every call that moves money carries an idempotency key: the processor performs it at most once
 * per key and answers a repeated key with the first result. Callers journal the key before the
 * call (see PaymentJournal), so a crash between the call and its record is reconciled by `lookup`.
 * Never call the processor inside an open database transaction.
 */
export interface PaymentProcessor {
  /** Identifies a card (type, brand, last4) without charging it. */
  inspect(card: CardInput): CardDetails;
  /** Places a hold of `amount` cents on the card. */
  authorize(card: CardInput, amount: number, currency: string, idempotencyKey: string): Promise<ProcessorResult<Authorization>>;
  /** Verifies a card with a zero-amount authorization and returns a reusable token (stored payment methods). */
  verify(card: CardInput, idempotencyKey: string): Promise<ProcessorResult<Authorization>>;
  /** Captures a hold in full. */
  capture(authorizationId: string, idempotencyKey: string): Promise<ProcessorResult<{ captureId: string }>>;
  /** Releases a hold that will not be captured. */
  void(authorizationId: string, idempotencyKey: string): Promise<void>;
  /** Returns `amount` cents of a capture to the card. */
  refund(captureId: string, amount: number, idempotencyKey: string): Promise<ProcessorResult<{ refundId: string }>>;
  /** Charges a stored card token (subscription renewals); a refusal carries its disposition. */
  chargeToken(token: string, amount: number, currency: string, idempotencyKey: string): Promise<ChargeResult>;
  /** What was done under `idempotencyKey`, or null if the processor never saw that key. */
  lookup(idempotencyKey: string): Promise<ProcessorRecord | null>;
}
