import type { ClassType, NonEmptyArray } from 'type-graphql';
import type { Config } from '../config/config.js';
import { NodeResolver } from '../platform/relay/node.js';
import { housekeepingSweep } from '../platform/jobs/housekeeping.jobs.js';
import type { Sweep } from '../platform/jobs/jobs.js';
import type { PublicRoute } from '../platform/rest/public-routes.js';
import { guardedBy, type RouteSpec } from '../platform/rest/routes.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { hostedCardSetupRoutes } from './hosted-pages/hosted-card-setup.routes.js';
import { hostedCheckoutRoutes } from './hosted-pages/hosted-checkout.routes.js';
import { hostedPaymentLinkRoutes } from './hosted-pages/hosted-payment-link.routes.js';
import { cardEntryAssets } from './hosted-pages/card-entry-page.js';
import { hostedPageAssets } from './hosted-pages/hosted-page-assets.js';
import { ApiKeyResolver } from './merchants/api-key.resolver.js';
import { AuditLogResolver } from './audit/audit-log.resolver.js';
import { TeamResolver } from './team/team.resolver.js';
import { RefundPreviewResolver } from './refunds/refund-preview.resolver.js';
import { CustomerResolver } from './customers/customer.resolver.js';
import { customerRoutes } from './customers/customer.routes.js';
import { detachPaymentMethodsByToken } from './customers/payment-method.service.js';
import { onCardUpdateLinkUsed } from './customers/payment-method-setup-link.service.js';
import { paymentLinkExpirySweep } from './payment-links/payment-link.jobs.js';
import { eligibilityRecheckSweep } from './products/product.jobs.js';
import { OrderPaymentLinkResolver, PaymentLinkResolver } from './payment-links/payment-link.resolver.js';
import { paymentLinkRoutes } from './payment-links/payment-link.routes.js';
import { failOrderOfFailedCapture } from './checkout/capture-failure.service.js';
import { onCheckoutPaid } from './checkout/checkout-payment.service.js';
import { checkoutExpirySweep } from './checkout/checkout.jobs.js';
import { CheckoutLineItemResolver, CheckoutResolver, OrderCheckoutResolver } from './checkout/checkout.resolver.js';
import { checkoutRoutes } from './checkout/checkout.routes.js';
import { CHARGEBACK_EVENT_CODES } from './disputes/dispute-stage.js';
import { DisputeResolver } from './disputes/dispute.resolver.js';
import { disputeRoutes } from './disputes/dispute.routes.js';
import { applyChargebackNotification } from './disputes/dispute.service.js';
import { OrderLineItemResolver, OrderResolver } from './orders/order.resolver.js';
import { orderRoutes } from './orders/order.routes.js';
import { receiptRoutes } from './orders/receipt.routes.js';
import { processorNotificationRoutes } from './payments/adyen/adyen-notification.routes.js';
import { recordAuthorisation, recordCapture } from './payments/authorisation-events.js';
import {
  paymentRecordsRetentionSweep,
  paymentReconciliationSweep,
  processorNotificationRetentionSweep,
  processorNotificationSweep,
} from './payments/payment.jobs.js';
import { consoleSessionSweep } from './team/team.jobs.js';
import { tokenOf } from './payments/adyen/adyen-payment-request.js';
import { onProcessorEvent } from './payments/processor-events.js';
import { useLivePayments } from './payments/processor-registry.js';
import { settleRefundPart } from './refunds/refund-processing.service.js';
import {
  adyenAccountsByMerchantAccount,
  adyenCredentialsFor,
  configureProcessorAccounts,
} from './processor-accounts/processor-account.service.js';
import { ProcessorConfigurationResolver } from './processor-accounts/processor-account.resolver.js';
import { processorAccountRoutes } from './processor-accounts/processor-account.routes.js';
import { ProductResolver } from './products/product.resolver.js';
import { productRoutes } from './products/product.routes.js';
import { refundProcessingSweep } from './refunds/refund.jobs.js';
import { OrderRefundsResolver, RefundResolver } from './refunds/refund.resolver.js';
import { refundRoutes } from './refunds/refund.routes.js';
import { startSubscriptionFromCheckout } from './subscriptions/subscription-checkout.js';
import { subscriptionBillingSweep } from './subscriptions/subscription.jobs.js';
import { SubscriptionContractResolver, SubscriptionInvoiceResolver } from './subscriptions/subscription.resolver.js';
import { subscriptionRoutes } from './subscriptions/subscription.routes.js';
import { replacePaymentMethod } from './subscriptions/subscription.service.js';
import { consoleRoutes } from './team/console.routes.js';
import { configureLmn } from './lmn/lmn-review.service.js';
import { lmnReviewTimeoutSweep } from './lmn/lmn.jobs.js';
import { lmnLetterPdfRoutes, lmnRoutes } from './lmn/lmn.routes.js';
import { CustomerLettersResolver, LmnReviewResolver, OrderLmnReviewResolver } from './lmn/lmn.resolver.js';
import { configureTeam } from './team/console-sign-in.js';
import { parseSecretsKey } from '../platform/secrets.js';
import { testHelperRoutes } from './test-helpers/test-helpers.routes.js';
import { EventResolver } from './webhooks/event.resolver.js';
import { WebhookDeliveryResolver, WebhookEndpointResolver } from './webhooks/webhook.resolver.js';
import { webhookRoutes } from './webhooks/webhook.routes.js';
import { webhookSweeps } from './webhooks/webhook.jobs.js';
import { EmailResolver } from './email/email.resolver.js';
import { emailSweep } from './email/email.jobs.js';
import { configureEmail } from './email/email-transport.js';
import './email/email-events.js'; // which events write which messages (registered at load)
import './orders/order-emails.js'; // receipts' figures and PDF, read when sent
import './refunds/refund-emails.js';
import './refunds/refund-receipt.js'; // receipts list the refunds
import './team/team-emails.js'; // who team messages go to
import './lmn/lmn-emails.js'; // the letter approved (PDF attached) or declined
import './subscriptions/subscription-lmn.js'; // a renewal held for a letter moves on when its review is decided

/** Every GraphQL resolver of the graph. */
export const resolvers: NonEmptyArray<ClassType> = [
  NodeResolver,
  ProductResolver,
  CheckoutResolver,
  CheckoutLineItemResolver,
  OrderResolver,
  OrderCheckoutResolver,
  OrderLineItemResolver,
  DisputeResolver,
  RefundResolver,
  OrderRefundsResolver,
  WebhookEndpointResolver,
  WebhookDeliveryResolver,
  EventResolver,
  CustomerResolver,
  SubscriptionContractResolver,
  SubscriptionInvoiceResolver,
  PaymentLinkResolver,
  OrderPaymentLinkResolver,
  ProcessorConfigurationResolver,
  ApiKeyResolver,
  AuditLogResolver,
  TeamResolver,
  RefundPreviewResolver,
  EmailResolver,
  LmnReviewResolver,
  OrderLmnReviewResolver,
  CustomerLettersResolver,
];

/** Every REST route of `/api/v2` (and `/v1`), guarded by its resource's permissions (see merchants/permissions.ts). */
export const restRoutes: RouteSpec[] = [
  ...guardedBy('products', productRoutes),
  ...guardedBy('checkout', checkoutRoutes),
  ...guardedBy('orders', orderRoutes),
  ...guardedBy('orders', disputeRoutes),
  ...guardedBy('refunds', refundRoutes),
  ...testHelperRoutes, // each names its resource
  ...guardedBy('subscriptions', subscriptionRoutes),
  ...guardedBy('webhooks', webhookRoutes),
  ...guardedBy('customers', customerRoutes),
  ...lmnRoutes, // each names its resource
  ...guardedBy('payment_links', paymentLinkRoutes),
  ...guardedBy('processor_accounts', processorAccountRoutes),
];

/** Every route served without an API key: hosted pages, receipt links, the dashboard. */
export const publicRoutes: PublicRoute[] = [
  ...hostedCheckoutRoutes,
  ...hostedPaymentLinkRoutes,
  ...hostedCardSetupRoutes,
  cardEntryAssets,
  hostedPageAssets,
  ...receiptRoutes,
  ...lmnLetterPdfRoutes,
  ...dashboardRoutes,
  ...processorNotificationRoutes,
  ...consoleRoutes,
];

/** Every recurring sweep Agenda runs. */
export const sweeps: Sweep[] = [
  housekeepingSweep,
  checkoutExpirySweep,
  paymentLinkExpirySweep,
  eligibilityRecheckSweep,
  paymentReconciliationSweep,
  processorNotificationSweep,
  processorNotificationRetentionSweep,
  paymentRecordsRetentionSweep,
  consoleSessionSweep,
  refundProcessingSweep,
  subscriptionBillingSweep,
  lmnReviewTimeoutSweep,
  ...webhookSweeps,
  emailSweep,
]; // webhook sweeps, then email, last: they send what the others record (a failing endpoint's warning among them)

/** The email sweep's name, kicked when a new message is committed (`NOTIFY emails`). */
export const EMAIL_SWEEP = emailSweep.name;

// What a paid checkout starts, in its order's transaction: checkout knows the hook, not the module.
onCheckoutPaid('subscription', startSubscriptionFromCheckout);

// A card entered on a card-update link replaces its subscription's card as the payment-method route does; the link is used in that change's transaction.
onCardUpdateLinkUsed(async (ctx, subscriptionId, paymentMethodId, consume) => {
  await replacePaymentMethod(ctx, subscriptionId, { payment_method_id: paymentMethodId }, { inTransaction: consume });
});

// What processor notifications do, in the module each concerns.
onProcessorEvent(['AUTHORISATION'], recordAuthorisation);
onProcessorEvent(['CAPTURE'], recordCapture);
onProcessorEvent(['CAPTURE_FAILED'], failOrderOfFailedCapture);
onProcessorEvent(['recurring.token.disabled'], async (tx, event) => {
  if (event.merchantReference && event.originalReference)
    await detachPaymentMethodsByToken(tx, tokenOf(event.merchantReference, event.originalReference));
});
onProcessorEvent(['REFUND', 'REFUND_FAILED'], async (tx, event) => {
  if (event.merchantReference)
    await settleRefundPart(tx, event.merchantReference, event.eventCode === 'REFUND' && event.success, event.reason);
});
onProcessorEvent([...CHARGEBACK_EVENT_CODES], applyChargebackNotification);

/**
 * Live mode (`glm_live_` keys) pays through Adyen with each merchant's own stored account
 * (processor-accounts), on the platform and base URLs the configuration names; the console
 * seals its members' TOTP secrets with the same SECRETS_KEY; email goes out through SMTP_URL (if set) from MAIL_FROM.
 */
export function configureLivePayments(config: Config): void {
  configureEmail(config);
  configureProcessorAccounts(config);
  configureLmn({ reviewTimeoutHours: config.LMN_REVIEW_TIMEOUT_HOURS });
  configureTeam({
    secretsKey: config.SECRETS_KEY ? parseSecretsKey(config.SECRETS_KEY) : undefined,
    signInLimit: config.CONSOLE_SIGN_IN_LIMIT,
  });
  useLivePayments({
    settings: {
      environment: config.ADYEN_ENVIRONMENT,
      checkoutUrl: config.ADYEN_CHECKOUT_URL,
      disputesUrl: config.ADYEN_DISPUTES_URL,
      notificationBasicAuth: config.ADYEN_NOTIFICATION_BASIC_AUTH,
    },
    accountFor: (ctx) => adyenCredentialsFor(ctx.em, ctx.principal.merchantId),
    notificationAccounts: async (em, merchantAccount) =>
      (await adyenAccountsByMerchantAccount(em, merchantAccount)).map(({ merchantId, credentials }) => ({
        merchantId,
        hmacKey: credentials.hmacKey,
      })),
  });
}
