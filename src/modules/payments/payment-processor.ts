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

/**
 * The payment processor behind every charge. Test mode uses the simulated processor of the
 * contract's test cards; a live processor implements the same calls.
 */
export interface PaymentProcessor {
  /** Identifies a card (type, brand, last4) without charging it. */
  inspect(card: CardInput): CardDetails;
  /** Places a hold of `amount` cents on the card. */
  authorize(card: CardInput, amount: number, currency: string): Promise<ProcessorResult<Authorization>>;
  /** Captures a hold in full. */
  capture(authorizationId: string): Promise<ProcessorResult<{ captureId: string }>>;
  /** Releases a hold that will not be captured. */
  void(authorizationId: string): Promise<void>;
  /** Returns `amount` cents of a capture to the card. */
  refund(captureId: string, amount: number): Promise<ProcessorResult<{ refundId: string }>>;
  /**
   * Zero-amount verification of a card before it is stored (type, brand, last4 and a reusable
   * token); declines as a payment would. `idempotencyKey` makes a retried verification one call.
   */
  verify(card: CardInput, idempotencyKey: string): Promise<ProcessorResult<Authorization>>;
  /**
   * Charges a stored card token (subscription renewals). The same `idempotencyKey` always gets
   * the first call's outcome (one charge), so a call re-driven after a crash never charges twice.
   */
  chargeToken(token: string, amount: number, currency: string, idempotencyKey?: string): Promise<ProcessorResult<{ captureId: string }> & { disposition?: 'retry' | 'action_required' | 'terminal' }>;
}
