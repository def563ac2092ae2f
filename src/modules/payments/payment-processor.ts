import type { PaymentMethodInput } from './payment-method-input.js';

export const PAYMENT_METHOD_TYPES = ['hsa_fsa_card', 'card'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/** What may be kept of a card: never its number or cvc. */
export interface CardDetails {
  type: PaymentMethodType;
  brand: string;
  last4: string;
}

/** A refusal carries the spec's decline code and, from a real processor, its own code (Adyen's `refusalReasonCode`). */
export type ProcessorResult<T> =
  ({ ok: true } & T) | { ok: false; code: string; message: string; processorCode?: string | null };

export interface Authorization extends CardDetails {
  authorizationId: string;
  /** Reusable processor token for the card (stored payment methods, later charges). */
  token: string;
  /** Cents held: less than requested when the issuer authorised only part (an HSA/FSA card's balance). */
  amount: number;
  /** The card's expiry when the processor reports it (a card entered through the processor's own fields). */
  expiry?: { month: number; year: number };
}

/** The shopper must act (3-D Secure, a redirect) before the processor answers; `/details` continues. */
export interface ActionRequired {
  ok: false;
  code: 'action_required';
  message: string;
  /** The processor's action object, handed to the shopper's browser unchanged (Adyen Web's `handleAction`). */
  action: Record<string, unknown>;
}

export type AuthorizeResult = ProcessorResult<Authorization> | ActionRequired;

/** True when a result asks the shopper to act rather than refusing. */
export const needsAction = (r: AuthorizeResult): r is ActionRequired => !r.ok && r.code === 'action_required';

/**
 * The IIAS amounts an HSA/FSA card's authorisation carries: the healthcare-eligible total and its
 * prescription, vision, clinic and dental parts from the checkout's breakdown (cents; the rest of
 * the total is OTC items).
 */
export interface HealthcareAmounts {
  total: number;
  prescription?: number;
  vision?: number;
  clinic?: number;
  dental?: number;
}

/** A processor-side grouping of the partial payments of one split checkout (an Adyen order). */
export interface SplitPayment {
  reference: string;
  data: string;
}

/** One authorisation of a checkout part. */
export interface AuthorizeRequest {
  method: PaymentMethodInput;
  amount: number;
  currency: string;
  idempotencyKey: string;
  /** The slot the card was entered in: an HSA/FSA card's authorisation carries `healthcare`. */
  slot: PaymentMethodType;
  healthcare?: HealthcareAmounts | null;
  /** The issuer may authorise less than `amount` (the remainder then moves to the other card). */
  allowPartial?: boolean;
  split?: SplitPayment | null;
  /** Keep the card for later merchant-initiated charges under this shopper reference (subscriptions). */
  storeFor?: string | null;
  returnUrl?: string | null;
  browserInfo?: Record<string, unknown> | null;
}

/** How a refused later charge (a renewal) should be handled. */
/** What a refusal means for retrying: later, after the customer acts, or never. */
export const DISPOSITIONS = ['retry', 'action_required', 'terminal'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/**
 * The stage of a dispute (chargeback) as the spec names it: `notification` (opened, no money
 * moved), `confirmed` (money taken back), `reversed` (resolved in the merchant's favour).
 */
export const DISPUTE_STAGES = ['notification', 'confirmed', 'reversed'] as const;
export type DisputeStage = (typeof DISPUTE_STAGES)[number];

export type ChargeResult =
  { ok: true; captureId: string } | { ok: false; code: string; message: string; disposition: Disposition };
/** A stored card authorised and held, not captured (a renewal waiting for a letter of medical necessity). */
export type HoldResult =
  { ok: true; authorizationId: string } | { ok: false; code: string; message: string; disposition: Disposition };

/** A refund the processor took: settled at once, or (`pending`) settled later by its notification. */
export type RefundResult = ProcessorResult<{ refundId: string; pending?: boolean }>;

/** What the processor did for one idempotency key (reconciliation asks after a crash). */
export interface ProcessorRecord {
  operation:
    | 'authorize'
    | 'capture'
    | 'void'
    | 'refund'
    | 'charge'
    | 'verify'
    | 'details'
    | 'split'
    | 'cancel_split'
    | 'accept_dispute'
    | 'defend_dispute';
  ok: boolean;
  /** The id the call created (authorization, capture, refund), when it succeeded. */
  reference: string | null;
}

/**
 * The payment processor behind every charge. Test mode uses the simulated processor of the
 * contract's test cards; live mode uses Adyen (see adyen/adyen-processor.ts).
 *
 * Every call that moves money carries an idempotency key: the processor performs it at most once
 * per key and answers a repeated key with the first result. Callers journal the key before the
 * call (see PaymentJournal), so a crash between the call and its record is reconciled by `lookup`.
 * Never call the processor inside an open database transaction.
 */
export interface PaymentProcessor {
  /** Identifies a card (type, brand, last4) without charging it; `slot` is where it was entered (all a processor that never sees the number can go by). */
  inspect(method: PaymentMethodInput, slot: PaymentMethodType): CardDetails;
  /** Places a hold on the card; may answer that the shopper must act first (3-D Secure). */
  authorize(request: AuthorizeRequest): Promise<AuthorizeResult>;
  /** Continues an authorisation that asked the shopper to act, with what the shopper's browser returned. */
  details(details: Record<string, unknown>, idempotencyKey: string): Promise<AuthorizeResult>;
  /** Opens a split payment for `amount` (an Adyen order); null when the processor needs none. */
  openSplit(
    amount: number,
    currency: string,
    idempotencyKey: string,
  ): Promise<ProcessorResult<{ split: SplitPayment | null }>>;
  /** Cancels a split payment and releases every hold in it. */
  cancelSplit(split: SplitPayment, idempotencyKey: string): Promise<void>;
  /** Verifies a card with a zero-amount authorization and returns a reusable token (stored payment methods). */
  verify(method: PaymentMethodInput, shopperReference: string, idempotencyKey: string): Promise<AuthorizeResult>;
  /** Captures a hold in full. */
  capture(authorizationId: string, idempotencyKey: string): Promise<ProcessorResult<{ captureId: string }>>;
  /** Releases a hold that will not be captured. */
  void(authorizationId: string, idempotencyKey: string): Promise<void>;
  /** Returns `amount` cents of a capture to the card. */
  refund(captureId: string, amount: number, idempotencyKey: string): Promise<RefundResult>;
  /** Charges a stored card token (subscription renewals); a refusal carries its disposition. */
  chargeToken(token: string, amount: number, currency: string, idempotencyKey: string): Promise<ChargeResult>;
  /** Authorises a stored card token without capturing it (captured or voided later); a refusal carries its disposition. */
  holdToken(token: string, amount: number, currency: string, idempotencyKey: string): Promise<HoldResult>;
  /** Accepts a dispute (the chargeback stands, no defence), named by the dispute's own reference. */
  acceptDispute(disputePspReference: string, idempotencyKey: string): Promise<ProcessorResult<object>>;
  /** Defends a dispute with one of the processor's defence reason codes (documents may follow). */
  defendDispute(
    disputePspReference: string,
    defenseReasonCode: string,
    idempotencyKey: string,
  ): Promise<ProcessorResult<object>>;
  /** What was done under `idempotencyKey`, or null if the processor never saw that key. */
  lookup(idempotencyKey: string): Promise<ProcessorRecord | null>;
}
