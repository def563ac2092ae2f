import { ApiKey, Merchant } from '../../modules/merchants/merchant.entity.js';
import { Product, ProductImage } from '../../modules/products/product.entity.js';
import { CheckoutSession } from '../../modules/checkout/checkout-session.entity.js';
import { Order } from '../../modules/orders/order.entity.js';
import { Payment } from '../../modules/payments/payment.entity.js';
import { PaymentAttempt } from '../../modules/payments/payment-attempt.entity.js';
import { Refund } from '../../modules/refunds/refund.entity.js';
import { Event } from '../events/event.entity.js';
import { WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint } from '../../modules/webhooks/webhook.entity.js';
import { Customer, PaymentMethod } from '../../modules/customers/customer.entity.js';
import { Subscription, SubscriptionInvoice, SubscriptionInvoiceAttempt } from '../../modules/subscriptions/subscription.entity.js';
import { PaymentLink } from '../../modules/payment-links/payment-link.entity.js';
import { IdempotencyKey } from '../idempotency/idempotency-key.entity.js';

/** Every entity, listed explicitly (no folder scanning: the same list works compiled and under jest). */
export const entities = [Merchant, ApiKey, Product, ProductImage, Event, IdempotencyKey, CheckoutSession, Order, Payment, PaymentAttempt, Refund, WebhookEndpoint, WebhookDelivery, WebhookDeliveryAttempt, Customer, PaymentMethod, Subscription, SubscriptionInvoice, SubscriptionInvoiceAttempt, PaymentLink];
