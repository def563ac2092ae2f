import { z } from 'zod';
import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput } from '../../platform/validation.js';
import { payCheckoutSession, type PayOutcome } from '../checkout/checkout-payment.service.js';
import { getCheckoutSession } from '../checkout/checkout.service.js';
import { payPaymentLink } from '../payment-links/payment-link-payment.service.js';
import { advanceTestClock } from '../merchants/merchant.service.js';

function assertTestMode(ctx: ServiceContext): void {
  if (ctx.principal.livemode) throw DomainError.testModeOnly();
}

export const advanceClockSchema = z
  .object({
    seconds: z
      .number()
      .positive()
      .max(10 * 365 * 86400),
  })
  .strict();

/** Pays a checkout as the hosted page would (test mode only); a payment link's checkout is paid as its link. */
export async function testPayCheckout(ctx: ServiceContext, checkoutId: string, body: unknown): Promise<PayOutcome> {
  assertTestMode(ctx);
  const session = await getCheckoutSession(ctx, checkoutId);
  if (session.paymentLinkId) return (await payPaymentLink(ctx, session.paymentLinkId, body)).outcome;
  return payCheckoutSession(ctx, session, body);
}

/** Pays a payment link as its hosted page would (test mode only). */
export async function testPayPaymentLink(ctx: ServiceContext, linkId: string, body: unknown): Promise<PayOutcome> {
  assertTestMode(ctx);
  return (await payPaymentLink(ctx, linkId, body)).outcome;
}

/** Moves the test clock forward (test mode only); then `runDue` runs every job now due. */
export async function testAdvanceClock(
  ctx: ServiceContext,
  body: unknown,
  runDue: () => Promise<void>,
): Promise<{ now: string }> {
  assertTestMode(ctx);
  const { seconds } = parseInput(advanceClockSchema, body);
  const now = await advanceTestClock(ctx, seconds);
  await runDue();
  return { now: now.toISOString() };
}
