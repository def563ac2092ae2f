import { Entity, Enum, Index, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';
import type { Address } from '../shared/address.js';
import type { SplitAmounts } from '../shared/amounts.js';

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'cancelled',
  'refunded',
  'disputed',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_STATUSES = [
  'pending',
  'authorized',
  'captured',
  'failed',
  'partially_refunded',
  'refunded',
  'disputed',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface OrderLineItem {
  id: string;
  /** Numeric catalog product id, null for a pass-through item. */
  product_id: number | null;
  /** The merchant's product id the item was submitted with. */
  merchant_product_id: string;
  name: string;
  quantity: number;
  /** Unit price in cents. */
  price: number;
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  is_recurring: boolean;
}

export interface OrderCustomer {
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  /** Null when none was collected (a payment link that ships nothing, a subscription renewal). */
  shipping_address: Address | null;
  billing_address: Address | null;
}

export interface StatusChange {
  status: OrderStatus;
  timestamp: string;
  reason: string;
}

/**
 * How an order's items that need a letter of medical necessity are covered when an HSA/FSA card
 * pays them: a clinician's review (`lmn_review`, its status kept in step by the lmn module) and,
 * once issued, the letter (`letter_id`). `items` are the merchant product ids concerned.
 */
export interface OrderLmn {
  items: string[];
  review: { id: string; status: 'pending' | 'approved' | 'declined' | 'expired' } | null;
  letter_id: string | null;
}

@Entity({ tableName: 'orders' })
@Index({ name: 'orders_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({ name: 'orders_checkout_idx', properties: ['checkoutId'] })
@Index({
  name: 'orders_payment_link_idx',
  expression: `create index "orders_payment_link_idx" on "orders" ("payment_link_id") where "payment_link_id" is not null`,
})
@Unique({
  name: 'orders_merchant_id_livemode_order_number_unique',
  properties: ['merchant', 'livemode', 'orderNumber'],
})
@Index({
  name: 'orders_one_paid_per_checkout_uq',
  expression: `create unique index "orders_one_paid_per_checkout_uq" on "orders" ("checkout_id") where "payment_status" <> 'failed'`,
})
export class Order extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('ord');

  /** Human-friendly number, per merchant and mode, gap-free (see order-numbers.ts). */
  @Property({ type: 'string' })
  orderNumber!: string;

  @Property({ type: 'string', nullable: true })
  checkoutId: string | null = null;

  @Property({ type: 'string', nullable: true })
  referenceId: string | null = null;

  @Property({ type: 'string', nullable: true })
  paymentLinkId: string | null = null;

  @Property({ type: 'string', nullable: true })
  clientReferenceId: string | null = null;

  @Enum({ items: [...ORDER_STATUSES], type: 'string' })
  status!: OrderStatus;

  @Enum({ items: [...PAYMENT_STATUSES], type: 'string' })
  paymentStatus!: PaymentStatus;

  @Property({ type: 'boolean', default: false })
  isRecurring: Opt<boolean> = false;

  /** Total in cents. */
  @Property({ type: 'integer' })
  amount!: number;

  /** Lowercase ISO code. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'json' })
  customer!: OrderCustomer;

  /** Customer email, lower-cased, for filtering. */
  @Index({ name: 'orders_customer_email_idx' })
  @Property({ type: 'string' })
  customerEmail!: string;

  @Property({ type: 'json' })
  lineItems!: OrderLineItem[];

  @Property({ type: 'json' })
  amounts!: SplitAmounts;

  @Property({ type: 'json' })
  statusHistory: Opt<StatusChange[]> = [];

  @Property({ type: 'json', nullable: true })
  lmn: OrderLmn | null = null;

  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Property({ type: 'json' })
  metadata: Opt<Record<string, unknown>> = {};

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  completedAt: Date | null = null;

  /** Sets status (and payment status) and records the change in `status_history`. */
  transition(at: Date, status: OrderStatus, reason: string, paymentStatus?: PaymentStatus): void {
    transitionOrder(this, at, status, reason, paymentStatus);
  }
}

/** `Order.transition` for an order's values not (yet) an entity (a batch of renewals). */
export function transitionOrder(
  order: Pick<Order, 'status' | 'paymentStatus' | 'statusHistory'>,
  at: Date,
  status: OrderStatus,
  reason: string,
  paymentStatus?: PaymentStatus,
): void {
  order.status = status;
  if (paymentStatus) order.paymentStatus = paymentStatus;
  order.statusHistory = [...order.statusHistory, { status, timestamp: at.toISOString(), reason }];
}
