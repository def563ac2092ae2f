import { ApiKey, Merchant } from './merchants/merchant.entity.js';
import { Product, ProductImage } from './products/product.entity.js';
import { CheckoutSession } from './checkout/checkout-session.entity.js';
import { Order } from './orders/order.entity.js';
import { OrderNumberCounter } from './orders/order-number-counter.entity.js';
import { Payment } from './payments/payment.entity.js';
import { PaymentAttempt } from './payments/payment-attempt.entity.js';
import { Refund } from './refunds/refund.entity.js';
import { Event } from '../platform/events/event.entity.js';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from './webhooks/webhook.entity.js';
import { Customer, PaymentMethod } from './customers/customer.entity.js';
import { PaymentMethodSetupLink } from './customers/payment-method-setup-link.entity.js';
import { Subscription, SubscriptionInvoice, SubscriptionInvoiceAttempt } from './subscriptions/subscription.entity.js';
import { PaymentLink } from './payment-links/payment-link.entity.js';
import { ProcessorAccount } from './processor-accounts/processor-account.entity.js';
import { Dispute } from './disputes/dispute.entity.js';
import { ConsoleSession, TeamMember } from './team/team-member.entity.js';
import { AuditLogEntry } from './audit/audit-log.entity.js';
import { EmailMessage, EmailSettings } from './email/email-message.entity.js';
import { LmnLetter, LmnReview } from './lmn/lmn.entity.js';
import { IdempotencyKey } from '../platform/idempotency/idempotency-key.entity.js';

/** Every entity, listed explicitly (no folder scanning: the same list works compiled and under jest). */
export const entities = [
  Merchant,
  ApiKey,
  TeamMember,
  ConsoleSession,
  AuditLogEntry,
  Product,
  ProductImage,
  Event,
  IdempotencyKey,
  CheckoutSession,
  Order,
  OrderNumberCounter,
  Payment,
  PaymentAttempt,
  Refund,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  Customer,
  PaymentMethod,
  PaymentMethodSetupLink,
  Subscription,
  SubscriptionInvoice,
  SubscriptionInvoiceAttempt,
  PaymentLink,
  ProcessorAccount,
  Dispute,
  EmailMessage,
  EmailSettings,
  LmnReview,
  LmnLetter,
];
