import { z } from 'zod';
import { HttpResult, type RouteSpec } from '../../platform/rest/routes.js';
import type { ServiceContext } from '../../platform/context.js';
import type { PayOutcome } from '../checkout/checkout-payment.service.js';
import { payCheckoutSchema } from '../checkout/checkout.schemas.js';
import { orderResponse } from '../orders/order.openapi.js';
import { presentOrder } from '../orders/order.presenter.js';
import { payPaymentLinkSchema } from '../payment-links/payment-link.schemas.js';
import { advanceClockSchema, testAdvanceClock, testPayCheckout, testPayPaymentLink } from './test-helpers.service.js';

const tags = ['Test helpers'];

/** A test pay's answer: the order it made, or the decline (402) or other refusal. */
const payAnswer = (ctx: ServiceContext, outcome: PayOutcome) =>
  outcome.ok ? presentOrder(ctx, outcome.order, outcome) : new HttpResult(outcome.error.status, outcome.error.toBody());

/** The contract's test helpers (test mode only: live keys get 403 `test_mode_only`). */
export const testHelperRoutes: RouteSpec[] = [
  {
    method: 'POST',
    url: '/api/v2/test-helpers/checkout/:checkout_id/pay',
    operationId: 'testPayCheckout',
    resource: 'checkout',
    summary: 'Pay a checkout as the hosted page does (split: both cards); returns the order',
    tags,
    params: z.object({ checkout_id: z.string() }),
    body: payCheckoutSchema,
    response: orderResponse,
    ownTransactions: true,
    handler: async (ctx, req) =>
      payAnswer(ctx, await testPayCheckout(ctx, (req.params as { checkout_id: string }).checkout_id, req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/test-helpers/payment-links/:id/pay',
    operationId: 'testPayPaymentLink',
    resource: 'payment_links',
    summary: 'Pay a payment link as its hosted page does (client_reference_id lands on the order); returns the order',
    tags,
    params: z.object({ id: z.string().describe('Payment link id (plink_…)') }),
    body: payPaymentLinkSchema,
    response: orderResponse,
    ownTransactions: true,
    handler: async (ctx, req) =>
      payAnswer(ctx, await testPayPaymentLink(ctx, (req.params as { id: string }).id, req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/test-helpers/advance-clock',
    operationId: 'testAdvanceClock',
    resource: 'test_clock',
    summary: "Move this merchant's test clock forward and run every job now due; returns {now}",
    tags,
    body: advanceClockSchema,
    response: z.object({ now: z.iso.datetime().describe("This merchant's test clock after the move") }),
    idempotent: false,
    handler: (ctx, req) => testAdvanceClock(ctx, req.body, () => req.server.jobs.runDue(new Date())),
  },
];
