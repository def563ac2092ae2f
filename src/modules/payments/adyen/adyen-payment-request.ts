import type { Types } from '@adyen/api-library';
import { ChannelEnum, ShopperInteractionEnum } from './adyen-library.js';
import type { PaymentMethodData, PaymentMethodInput } from '../payment-method-input.js';
import type { AuthorizeResult, HealthcareAmounts, PaymentMethodType } from '../payment-processor.js';
import { refusalOf } from './adyen-refusals.js';

/** What we send to Checkout v72's `/payments` and what its answers mean, apart from any call. */

export type PaymentRequest = Types.checkout.PaymentRequest;
export type PaymentResponse = Types.checkout.PaymentResponse | Types.checkout.PaymentDetailsResponse;

/** Where a shopper lands after a redirect when the caller gave no `return_url` (Adyen requires one). */
export const FALLBACK_RETURN_URL = 'https://checkout.adyen.com/';

/**
 * The IIAS amounts of an HSA/FSA authorisation, as `additionalData` entries named after Adyen's
 * healthcare enhanced scheme data (`enhancedSchemeData.healthcare.*`, minor units): the total, and
 * its prescription, vision, clinic (`otherMedicalValue`) and dental parts; OTC items are the rest
 * of the total, which IIAS has no field for. Checkout v72's
 * `enhancedSchemeData` object has no healthcare member yet, so they travel in `additionalData`,
 * which takes any string entry.
 */
export function healthcareData(amounts: HealthcareAmounts): Record<string, string> {
  const prefix = 'enhancedSchemeData.healthcare.';
  const entries: [string, number | undefined][] = [
    ['totalHealthcareValue', amounts.total],
    ['prescriptionValue', amounts.prescription],
    ['visionPrescriptionValue', amounts.vision],
    ['otherMedicalValue', amounts.clinic],
    ['dentalValue', amounts.dental],
  ];
  // A category with nothing in it is left out (the total always goes).
  return Object.fromEntries(
    entries
      .filter(([k, v]) => v !== undefined && (v > 0 || k === 'totalHealthcareValue'))
      .map(([k, v]) => [prefix + k, String(v)]),
  );
}

/** Adyen Web's payment method object as the library's type (the library serializes what it knows of it). */
const paymentMethodOf = (data: PaymentMethodData) => data as unknown as Types.checkout.CardDetails;

/** `shopperReference/storedPaymentMethodId`: the token a renewal charges. */
export const tokenOf = (shopperReference: string, storedId: string) => `${shopperReference}/${storedId}`;

/** A `/payments` request of `merchantAccount` under the journal's `key` (its reference too): held for a manual capture. */
export function paymentRequest(
  merchantAccount: string,
  key: string,
  amount: number,
  currency: string,
  method: PaymentMethodInput,
  extra: Partial<PaymentRequest>,
): PaymentRequest {
  if (method.kind !== 'processor_data') throw new Error('Adyen takes payment_method_data, never a card number');
  return {
    merchantAccount,
    reference: key,
    amount: { value: amount, currency: currency.toUpperCase() },
    paymentMethod: paymentMethodOf(method.data),
    returnUrl: FALLBACK_RETURN_URL,
    channel: ChannelEnum.Web,
    shopperInteraction: ShopperInteractionEnum.Ecommerce,
    ...extra,
    additionalData: { manualCapture: 'true', ...extra.additionalData },
  };
}

/** What a `/payments` or `/payments/details` answer means for the checkout: held (and for how much), and the result. */
export function readPaymentResponse(
  slot: PaymentMethodType,
  requested: number,
  res: PaymentResponse,
): { held: boolean; amount: number; result: AuthorizeResult } {
  const code = res.resultCode ? String(res.resultCode) : undefined;
  const data = res.additionalData ?? {};
  const held = code === 'Authorised' || code === 'PartiallyAuthorised';
  const amount = res.amount?.value ?? (data.authorisedAmountValue ? Number(data.authorisedAmountValue) : requested);
  if (res.action)
    return {
      held,
      amount,
      result: {
        ok: false,
        code: 'action_required',
        message: 'The shopper must complete an action (3-D Secure or a redirect).',
        action: { ...res.action },
      },
    };
  if (!held) {
    const refusal = refusalOf(
      res.refusalReasonCode,
      res.refusalReason ?? (code === 'Pending' || code === 'Received' ? 'No final result yet' : undefined),
    );
    return {
      held,
      amount,
      result: { ok: false, code: refusal.code, message: refusal.message, processorCode: refusal.processorCode },
    };
  }
  const expiry = /^(\d{1,2})\/(\d{4})$/.exec(data.expiryDate ?? '');
  const storedId = data['tokenization.storedPaymentMethodId'] ?? data['recurring.recurringDetailReference'];
  const shopper = data['tokenization.shopperReference'] ?? data['recurring.shopperReference'];
  return {
    held,
    amount,
    result: {
      ok: true,
      type: slot,
      brand: data.paymentMethod ?? res.paymentMethod?.brand ?? 'card',
      last4: data.cardSummary ?? '',
      amount,
      expiry: expiry ? { month: Number(expiry[1]), year: Number(expiry[2]) } : undefined,
      authorizationId: res.pspReference!,
      token: storedId && shopper ? tokenOf(shopper, storedId) : res.pspReference!,
    },
  };
}
