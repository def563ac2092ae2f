import type { ServiceContext } from '../../platform/context.js';
import type { DomainError } from '../../platform/errors.js';
import type { Authorization, SplitPayment } from '../payments/payment-processor.js';
import type { Payment } from '../payments/payment.entity.js';
import type { PaymentJournal } from '../payments/payment-journal.js';
import type { LmnAnswers, LmnItem } from '../lmn/lmn.entity.js';
import type { Order, OrderLmn } from '../orders/order.entity.js';
import type { HealthcareBreakdown } from '../shared/amounts.js';
import type { Part, Slot } from './checkout-payment-plan.js';
import type { CheckoutSession } from './checkout-session.entity.js';

/* The shapes one pay passes between its steps (plan, authorise/capture, park, commit). */

/** A pay's outcome: the order it made (with its payments, as made) or the decline, or the shopper's action. */
export type PayOutcome =
  { ok: true; order: Order; payments: Payment[] } | { ok: false; order: Order; error: DomainError } | ActionOutcome;

/** The shopper must act (3-D Secure, a redirect) before the payment goes on: `POST …/payments/details` continues it. */
export interface ActionOutcome {
  ok: false;
  order: null;
  action: Record<string, unknown>;
  /** What a caller that cannot hand the action to the shopper answers (402 `authentication_required`). */
  error: DomainError;
}

/**
 * What a caller paying through a checkout session adds to the order (payment links).
 *
 * Lock order: whatever owns the session (a payment link) first, then the checkout session.
 * Every transaction that locks both (a link's prepare step and its cancel lock the link then the
 * session) must keep it, or concurrent pays deadlock: so the settle step takes `lockFirst`'s
 * locks before it locks the session.
 */
export interface PayOptions {
  /** The payer's reference (a payment link's `?client_reference_id=`), kept on link orders. */
  clientReferenceId?: string | null;
  /** Runs first in the transaction that commits the order, before the session is locked: takes the owner's lock (see the lock order above). */
  lockFirst?: (tx: ServiceContext) => Promise<void>;
  /** Runs inside the transaction that commits the order, after its events (e.g. marks a payment link paid). */
  onPaid?: PaidHook;
}

/** A card that paid part of a checkout, as the processor answered it. */
export interface PaidCard {
  slot: Slot;
  type: Authorization['type'];
  brand: string;
  last4: string;
  token: string;
  captureId: string;
  /** The card's expiry as entered (test cards) or as the processor reported it. */
  expiry: { month: number; year: number };
}

/** A checkout just paid, as the work that runs in its order's transaction sees it. */
export interface PaidCheckout {
  session: CheckoutSession;
  order: Order;
  payments: Payment[];
  cards: PaidCard[];
}

/** Work that runs in the transaction committing a paid checkout's order. */
export type PaidHook = (tx: ServiceContext, paid: PaidCheckout) => Promise<void>;

/** An authorised part. */
export interface Held {
  i: number;
  part: Part;
  auth: Authorization;
}

/** An authorised part, captured. */
export type Captured = Held & { captureId: string };

/** One payment attempt in flight: what it charges and what the processor has answered so far. */
export interface Run {
  sessionId: string;
  /** The session as this pay read it (a payment taken up again after the shopper acted reads it afresh). */
  session?: CheckoutSession;
  currency: string;
  total: number;
  /** The checkout's IIAS breakdown of its HSA/FSA amount. */
  healthcare: HealthcareBreakdown;
  storeFor: string | null;
  parts: Part[];
  reserve: Part | null;
  held: Held[];
  split: SplitPayment | null;
  /** Cents a partial HSA/FSA authorisation moved to the regular card. */
  moved: number;
  /** How the items that need a letter are covered when a valid letter covers them (no review). */
  lmn: OrderLmn | null;
  /** A clinician's review this pay opens: the HSA/FSA part is authorised and held, not captured. */
  review: { answers: LmnAnswers; items: LmnItem[] } | null;
  now: Date;
  returnUrl: string | null;
  browserInfo: Record<string, unknown> | null;
  /** Rounds of `/details` so far (each round is a call of its own, under a key of its own). */
  rounds: number;
  journal: PaymentJournal;
  opts: PayOptions;
}
