import type { Types } from '@adyen/api-library';
import type { PaymentMethodInput } from '../payment-method-input.js';
import type {
  AuthorizeRequest,
  AuthorizeResult,
  CardDetails,
  ChargeResult,
  HoldResult,
  PaymentMethodType,
  PaymentProcessor,
  ProcessorRecord,
  ProcessorResult,
  RefundResult,
  SplitPayment,
} from '../payment-processor.js';
import { adyenApisFor, callAdyen, type AdyenAccount, type AdyenApis, type AdyenSettings } from './adyen-api.js';
import { AdyenCallLog } from './adyen-call-log.js';
import { refusalOf } from './adyen-refusals.js';
import {
  FALLBACK_RETURN_URL,
  healthcareData,
  paymentRequest,
  readPaymentResponse,
  type PaymentResponse,
} from './adyen-payment-request.js';
import { RecurringProcessingModelEnum, ShopperInteractionEnum } from './adyen-library.js';

/**
 * Live payments through Adyen's Checkout API v72 with `@adyen/api-library`. Every call sends Adyen's
 * `Idempotency-Key` header with the journal's key, and uses that key as the payment's `reference`
 * (so a notification about a call whose answer was lost still finds its key). Each answer is
 * recorded (`AdyenCallLog`) before it is returned: `lookup` answers from those records.
 *
 * Authorisations hold (manual capture); captures, cancels and refunds are asynchronous at Adyen
 * (`received`): a capture is taken as done (a CAPTURE_FAILED notification is reported), a refund
 * stays pending until its REFUND / REFUND_FAILED notification.
 */
export class AdyenProcessor implements PaymentProcessor {
  private readonly checkout: AdyenApis['checkout'];
  private readonly disputes: AdyenApis['disputes'];

  constructor(
    private readonly account: AdyenAccount,
    settings: AdyenSettings,
    private readonly calls: AdyenCallLog,
  ) {
    const apis = adyenApisFor(account, settings);
    this.checkout = apis.checkout;
    this.disputes = apis.disputes;
  }

  /** Adyen reads the card; before it answers, the slot is all there is to go by. */
  inspect(method: PaymentMethodInput, slot: PaymentMethodType): CardDetails {
    const brand = method.kind === 'processor_data' ? (method.data.brand ?? 'card') : 'card';
    return { type: slot, brand, last4: '' };
  }

  /** What a `/payments` or `/payments/details` answer means for the checkout, recorded before it is returned. */
  private async outcome(
    key: string,
    operation: ProcessorRecord['operation'],
    slot: PaymentMethodType,
    requested: number,
    currency: string,
    res: PaymentResponse,
  ): Promise<AuthorizeResult> {
    const { held, amount, result } = readPaymentResponse(slot, requested, res);
    await this.calls.record({
      key,
      operation,
      ok: held,
      pspReference: res.pspReference ?? null,
      target: null,
      amount,
      currency,
      result: res,
    });
    return result;
  }

  async authorize(r: AuthorizeRequest): Promise<AuthorizeResult> {
    const stored = r.method.kind === 'processor_data' && r.method.data.storedPaymentMethodId;
    const request = paymentRequest(this.account.merchantAccount, r.idempotencyKey, r.amount, r.currency, r.method, {
      returnUrl: r.returnUrl ?? FALLBACK_RETURN_URL,
      browserInfo: (r.browserInfo ?? undefined) as Types.checkout.BrowserInfo | undefined,
      order: r.split ? { pspReference: r.split.reference, orderData: r.split.data } : undefined,
      additionalData: {
        ...(r.healthcare ? healthcareData(r.healthcare) : {}),
        ...(r.allowPartial ? { allowPartialAuth: 'true' } : {}),
      },
      ...(r.storeFor && !stored
        ? {
            storePaymentMethod: true,
            shopperReference: r.storeFor,
            recurringProcessingModel: RecurringProcessingModelEnum.Subscription,
          }
        : {}),
    });
    const res = await callAdyen(() =>
      this.checkout.PaymentsApi.payments(request, { idempotencyKey: r.idempotencyKey }),
    );
    if (!res.ok) return res;
    return this.outcome(r.idempotencyKey, 'authorize', r.slot, r.amount, r.currency, res.value);
  }

  async details(details: Record<string, unknown>, key: string): Promise<AuthorizeResult> {
    const res = await callAdyen(() =>
      this.checkout.PaymentsApi.paymentsDetails({ details: details }, { idempotencyKey: key }),
    );
    if (!res.ok) return res;
    const amount = res.value.amount;
    // The slot is the caller's to restore; details answer for the card that asked the shopper to act.
    return this.outcome(key, 'details', 'card', amount?.value ?? 0, amount?.currency ?? 'USD', res.value);
  }

  async openSplit(
    amount: number,
    currency: string,
    key: string,
  ): Promise<ProcessorResult<{ split: SplitPayment | null }>> {
    const res = await callAdyen(() =>
      this.checkout.OrdersApi.orders(
        {
          merchantAccount: this.account.merchantAccount,
          reference: key,
          amount: { value: amount, currency: currency.toUpperCase() },
        },
        { idempotencyKey: key },
      ),
    );
    if (!res.ok) return res;
    const order = res.value;
    await this.calls.record({
      key,
      operation: 'split',
      ok: true,
      pspReference: order.pspReference ?? null,
      target: null,
      amount,
      currency,
      result: order,
    });
    return { ok: true, split: { reference: order.pspReference!, data: order.orderData } };
  }

  async cancelSplit(split: SplitPayment, key: string): Promise<void> {
    const res = await callAdyen(() =>
      this.checkout.OrdersApi.cancelOrder(
        {
          merchantAccount: this.account.merchantAccount,
          order: { pspReference: split.reference, orderData: split.data },
        },
        { idempotencyKey: key },
      ),
    );
    const result = res.ok ? res.value : res;
    await this.calls.record({
      key,
      operation: 'cancel_split',
      ok: res.ok,
      pspReference: res.ok ? res.value.pspReference : null,
      target: split.reference,
      amount: 0,
      currency: '',
      result,
    });
  }

  async verify(method: PaymentMethodInput, shopperReference: string, key: string): Promise<AuthorizeResult> {
    const request = paymentRequest(this.account.merchantAccount, key, 0, 'USD', method, {
      storePaymentMethod: true,
      shopperReference,
      recurringProcessingModel: RecurringProcessingModelEnum.Subscription,
    });
    const res = await callAdyen(() => this.checkout.PaymentsApi.payments(request, { idempotencyKey: key }));
    if (!res.ok) return res;
    return this.outcome(key, 'verify', 'card', 0, 'USD', res.value);
  }

  async capture(authorizationId: string, key: string): Promise<ProcessorResult<{ captureId: string }>> {
    const held = await this.calls.payment(authorizationId);
    if (!held) return { ok: false, code: 'processing_error', message: `No authorisation ${authorizationId} is known.` };
    const res = await callAdyen(() =>
      this.checkout.ModificationsApi.captureAuthorisedPayment(
        authorizationId,
        {
          merchantAccount: this.account.merchantAccount,
          reference: key,
          amount: { value: held.amount, currency: held.currency.toUpperCase() },
        },
        { idempotencyKey: key },
      ),
    );
    if (!res.ok) return res;
    await this.calls.record({
      key,
      operation: 'capture',
      ok: true,
      pspReference: res.value.pspReference,
      target: authorizationId,
      amount: held.amount,
      currency: held.currency,
      result: res.value,
    });
    // Refunds name the payment, not the capture: the payment's pspReference is the capture's id here.
    return { ok: true, captureId: authorizationId };
  }

  /** Releases a hold; a hold Adyen no longer holds (already cancelled, captured or expired) is refused with 422 and counts as released. */
  async void(authorizationId: string, key: string): Promise<void> {
    const res = await callAdyen(() =>
      this.checkout.ModificationsApi.cancelAuthorisedPaymentByPspReference(
        authorizationId,
        { merchantAccount: this.account.merchantAccount, reference: key },
        { idempotencyKey: key },
      ),
    );
    const result = res.ok ? res.value : res;
    await this.calls.record({
      key,
      operation: 'void',
      ok: res.ok,
      pspReference: res.ok ? res.value.pspReference : null,
      target: authorizationId,
      amount: 0,
      currency: '',
      result,
    });
  }

  async refund(captureId: string, amount: number, key: string): Promise<RefundResult> {
    const paid = await this.calls.payment(captureId);
    if (!paid) return { ok: false, code: 'refund_failed', message: `No payment ${captureId} is known.` };
    const res = await callAdyen(() =>
      this.checkout.ModificationsApi.refundCapturedPayment(
        captureId,
        {
          merchantAccount: this.account.merchantAccount,
          reference: key,
          amount: { value: amount, currency: paid.currency.toUpperCase() },
        },
        { idempotencyKey: key },
      ),
    );
    if (!res.ok) return { ok: false, code: 'refund_failed', message: res.message };
    await this.calls.record({
      key,
      operation: 'refund',
      ok: true,
      pspReference: res.value.pspReference,
      target: captureId,
      amount,
      currency: paid.currency,
      result: res.value,
    });
    return { ok: true, refundId: res.value.pspReference, pending: true };
  }

  async chargeToken(token: string, amount: number, currency: string, key: string): Promise<ChargeResult> {
    const held = await this.authorizeStored(token, amount, currency, key, 'charge');
    if (!held.ok) return held;
    const captured = await this.capture(held.authorizationId, `${key}.capture`);
    return captured.ok ? captured : { ...captured, disposition: 'retry' };
  }

  /** A stored card authorised with manual capture and left held (captured or cancelled later by its pspReference). */
  holdToken(token: string, amount: number, currency: string, key: string): Promise<HoldResult> {
    return this.authorizeStored(token, amount, currency, key, 'authorize');
  }

  /** A merchant-initiated authorisation of a stored card (a subscription's), recorded as `operation`. */
  private async authorizeStored(
    token: string,
    amount: number,
    currency: string,
    key: string,
    operation: 'charge' | 'authorize',
  ): Promise<HoldResult> {
    const [shopperReference, storedPaymentMethodId] = token.split('/');
    const request = paymentRequest(
      this.account.merchantAccount,
      key,
      amount,
      currency,
      { kind: 'processor_data', data: { type: 'scheme', storedPaymentMethodId } },
      {
        shopperReference,
        shopperInteraction: ShopperInteractionEnum.ContAuth,
        recurringProcessingModel: RecurringProcessingModelEnum.Subscription,
      },
    );
    const res = await callAdyen(() => this.checkout.PaymentsApi.payments(request, { idempotencyKey: key }));
    if (!res.ok) return { ...res, disposition: 'action_required' };
    const payment = res.value;
    const held = String(payment.resultCode) === 'Authorised';
    await this.calls.record({
      key,
      operation,
      ok: held,
      pspReference: payment.pspReference ?? null,
      target: null,
      amount,
      currency,
      result: payment,
    });
    if (held) return { ok: true, authorizationId: payment.pspReference! };
    const refusal = refusalOf(payment.refusalReasonCode, payment.refusalReason);
    return { ok: false, code: refusal.code, message: refusal.message, disposition: refusal.disposition };
  }

  /**
   * One Disputes API call (DisputeService v30), recorded like every call. Adyen answers a refusal
   * either as an error status or as `disputeServiceResult.success: false` with its `errorMessage`.
   */
  private async disputeCall(
    key: string,
    operation: 'accept_dispute' | 'defend_dispute',
    disputePspReference: string,
    send: () => Promise<{ disputeServiceResult: { success: boolean; errorMessage?: string } }>,
  ): Promise<ProcessorResult<object>> {
    const res = await callAdyen(send);
    const result = res.ok ? res.value.disputeServiceResult : null;
    const ok = result?.success === true;
    await this.calls.record({
      key,
      operation,
      ok,
      pspReference: null,
      target: disputePspReference,
      amount: 0,
      currency: '',
      result: res.ok ? res.value : res,
    });
    if (ok) return { ok: true };
    return {
      ok: false,
      code: 'dispute_refused',
      message: (res.ok ? result?.errorMessage : res.message) ?? 'Adyen refused the request.',
    };
  }

  acceptDispute(disputePspReference: string, key: string): Promise<ProcessorResult<object>> {
    return this.disputeCall(key, 'accept_dispute', disputePspReference, () =>
      this.disputes.acceptDispute(
        { merchantAccountCode: this.account.merchantAccount, disputePspReference },
        { idempotencyKey: key },
      ),
    );
  }

  defendDispute(disputePspReference: string, defenseReasonCode: string, key: string): Promise<ProcessorResult<object>> {
    return this.disputeCall(key, 'defend_dispute', disputePspReference, () =>
      this.disputes.defendDispute(
        { merchantAccountCode: this.account.merchantAccount, disputePspReference, defenseReasonCode },
        { idempotencyKey: key },
      ),
    );
  }

  lookup(key: string): Promise<ProcessorRecord | null> {
    return this.calls.lookup(key);
  }
}
