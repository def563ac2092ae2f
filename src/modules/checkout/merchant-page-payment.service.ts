import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import {
  HSA_FSA_CARD_FIELD,
  hsaFsaFieldOf,
  MERCHANT_PAGE_HSA_FSA_FIELD,
  nameHsaFsaField,
} from '../shared/hsa-fsa-field.js';
import { refuseRawCardInLiveMode } from '../payments/payment-method-input.js';
import { continueCheckoutPayment, payCheckoutSession, type PayOutcome } from './checkout-payment.service.js';
import type { CheckoutSession } from './checkout-session.entity.js';
import { checkoutPaymentDetailsSchema, checkoutPaymentsSchema } from './checkout.schemas.js';
import { getCheckoutSession } from './checkout.service.js';

/**
 * `POST /api/v2/checkout/{id}/payments` (contract): a merchant that renders Adyen Web on its own
 * page pays the checkout with what Adyen Web produced (`payment_method_data`), in either mode; test
 * mode also takes the contract's test cards. The outcome is the order, a decline, or the action the
 * shopper must complete (3-D Secure) before `…/payments/details`.
 */
export async function payFromMerchantPage(ctx: ServiceContext, checkoutId: string, body: unknown): Promise<PayOutcome> {
  refuseRawCardInLiveMode(body, ctx.principal.livemode);
  const input = parseInput(checkoutPaymentsSchema, requireObject(body ?? {}, 'validation_error'));
  const session = await notOfALink(ctx, checkoutId);
  const { hsa_fsa, card, ...rest } = input;
  return namedAsSent(() => payCheckoutSession(ctx, session, { ...rest, hsa_fsa_card: hsa_fsa, card }));
}

/** `POST /api/v2/checkout/{id}/payments/details`: continues a payment after the shopper's action. */
export async function payDetailsFromMerchantPage(
  ctx: ServiceContext,
  checkoutId: string,
  body: unknown,
): Promise<PayOutcome> {
  const input = parseInput(checkoutPaymentDetailsSchema, requireObject(body ?? {}, 'validation_error'));
  await notOfALink(ctx, checkoutId);
  return namedAsSent(() => continueCheckoutPayment(ctx, checkoutId, input.details));
}

/** The session, unless a payment link owns it: a link is paid (and its 3-D Secure finished) through the link's own page, which keeps the link's rules. */
async function notOfALink(ctx: ServiceContext, checkoutId: string): Promise<CheckoutSession> {
  const session = await getCheckoutSession(ctx, checkoutId);
  if (session.paymentLinkId) {
    throw new DomainError(
      'invalid_request',
      `Checkout ${session.id} belongs to payment link ${session.paymentLinkId}: it is paid through the link's own page.`,
      { param: 'checkout_id' },
    );
  }
  return session;
}

/** An error about the HSA/FSA card names the field this route's body calls it by (`hsa_fsa`). */
function asSent(err: DomainError): DomainError {
  if (!err.param || hsaFsaFieldOf(err.param) !== HSA_FSA_CARD_FIELD) return err;
  return new DomainError(err.code, nameHsaFsaField(err.message, MERCHANT_PAGE_HSA_FSA_FIELD), {
    param: nameHsaFsaField(err.param, MERCHANT_PAGE_HSA_FSA_FIELD),
    details: err.details,
    headers: err.headers,
  });
}

async function namedAsSent(pay: () => Promise<PayOutcome>): Promise<PayOutcome> {
  try {
    const outcome = await pay();
    return outcome.ok ? outcome : { ...outcome, error: asSent(outcome.error) };
  } catch (err) {
    throw err instanceof DomainError ? asSent(err) : err;
  }
}
