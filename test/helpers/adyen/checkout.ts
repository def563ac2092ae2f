import { randomBytes } from 'node:crypto';
import {
  ADYEN_TEST_CARDS,
  NOT_AUTHENTICATED,
  NOT_ENOUGH_BALANCE,
  readCard,
  type AdyenTestCard,
  type CardBrand,
  type Refusal,
} from './cards.js';
import type { NotificationItem, Notifier } from './notifications.js';

export interface Amount {
  currency: string;
  value: number;
}

/** Where a payment stands, as Adyen's books would say it. */
export type PaymentStatus =
  | 'pending' // waiting for /payments/details (3-D Secure challenge or redirect)
  | 'authorised'
  | 'partially_authorised'
  | 'refused'
  | 'cancelled'
  | 'captured'
  | 'refunded'
  | 'partly_refunded';

/** A capture, cancel or refund: answered `received`, settled by its notification. */
export interface Modification {
  kind: 'capture' | 'cancel' | 'refund';
  pspReference: string;
  paymentPspReference: string;
  amount?: Amount;
  reference?: string;
  status: 'succeeded' | 'failed';
  /** The notification's event code (CAPTURE, CAPTURE_FAILED, CANCELLATION, REFUND, REFUND_FAILED). */
  eventCode: string;
  reason?: string;
}

export interface StandInPayment {
  pspReference: string;
  merchantAccount: string;
  merchantReference: string;
  amountRequested: Amount;
  /** What the issuer authorised (0 when refused or pending). */
  amountAuthorised: Amount;
  captured: number;
  refunded: number;
  status: PaymentStatus;
  resultCode: string;
  refusal?: Refusal;
  brand: CardBrand;
  lastFour: string;
  expiry: string;
  testCard: AdyenTestCard;
  shopperInteraction?: string;
  recurringProcessingModel?: string;
  shopperReference?: string;
  /** The token this payment charged, or the one it stored. */
  storedPaymentMethodId?: string;
  orderPspReference?: string;
  /** `additionalData` as the request sent it (IIAS healthcare amounts, allowPartialAuth...). */
  requestAdditionalData: Record<string, string>;
  /** The /payments request as received. */
  request: Record<string, unknown>;
  modifications: Modification[];
  manualCapture: boolean;
  pending?: {
    type: 'threeDS2' | 'redirect';
    authorisationToken: string;
    redirectToken: string;
    paymentData: string;
    returnUrl: string;
  };
}

export interface StandInOrder {
  pspReference: string;
  merchantAccount: string;
  reference: string;
  amount: Amount;
  remainingAmount: Amount;
  expiresAt: string;
  /** Every orderData issued for the order (each payment answers a new one). */
  orderData: string[];
  status: 'open' | 'paid' | 'cancelled';
  payments: string[];
}

export interface StoredToken {
  id: string;
  merchantAccount: string;
  shopperReference: string;
  number: string;
  brand: CardBrand;
  expiryMonth: string;
  expiryYear: string;
  testCard: AdyenTestCard;
  firstPspReference: string;
  recurringProcessingModel: string;
  disabled: boolean;
}

/** An answer: HTTP status and JSON body (undefined: no body). */
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A 16-character uppercase alphanumeric reference, like Adyen's pspReference. */
export function newPspReference(): string {
  return Array.from(randomBytes(16), (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');
}

const opaque = () => randomBytes(24).toString('base64url');

/** Adyen's ServiceError body. */
export function serviceError(
  status: number,
  errorCode: string,
  message: string,
  errorType: string,
  pspReference = newPspReference(),
): Answer {
  return { status, body: { status, errorCode, message, errorType, pspReference } };
}

const money = (a: Amount) => `${a.currency} ${(a.value / 100).toFixed(2)}`;

/** The Checkout API's state and endpoints: payments, modifications, orders, tokens. */
export class CheckoutBook {
  readonly payments = new Map<string, StandInPayment>();
  readonly orders = new Map<string, StandInOrder>();
  readonly tokens = new Map<string, StoredToken>();
  private readonly byAuthorisationToken = new Map<string, string>();
  private readonly byRedirectToken = new Map<string, string>();

  constructor(
    private readonly notifier: Notifier,
    private readonly opts: { baseUrl: () => string; captureMode: 'manual' | 'immediate'; now: () => Date },
  ) {}

  /** POST /payments */
  payments_(body: Record<string, unknown>): Answer {
    const merchantAccount = String(body.merchantAccount);
    const amount = body.amount as Amount;
    const paymentMethod = (body.paymentMethod ?? {}) as Record<string, unknown>;
    const additionalData = (body.additionalData ?? {}) as Record<string, string>;
    const shopperReference = body.shopperReference as string | undefined;
    const shopperInteraction = body.shopperInteraction as string | undefined;
    if (paymentMethod.type !== 'scheme')
      return serviceError(
        422,
        '000',
        `The stand-in takes scheme cards only, not ${String(paymentMethod.type)}`,
        'validation',
      );

    let order: StandInOrder | undefined;
    const orderRef = body.order as { pspReference: string; orderData: string } | undefined;
    if (orderRef) {
      order = this.orders.get(orderRef.pspReference);
      if (!order || !order.orderData.includes(orderRef.orderData))
        return serviceError(422, '000', 'Invalid order', 'validation');
      if (order.status !== 'open') return serviceError(422, '000', `Order is ${order.status}`, 'validation');
      if (amount.value > order.remainingAmount.value || amount.currency !== order.amount.currency) {
        return serviceError(422, '000', 'Amount exceeds the remaining amount of the order', 'validation');
      }
    }

    let card: { number: string; expiryMonth: string; expiryYear: string; testCard: AdyenTestCard; token?: StoredToken };
    let refusal: Refusal | undefined;
    const tokenId = (paymentMethod.storedPaymentMethodId ?? paymentMethod.recurringDetailReference) as
      string | undefined;
    if (tokenId) {
      const token = this.tokens.get(tokenId);
      if (
        !token ||
        token.disabled ||
        token.shopperReference !== shopperReference ||
        token.merchantAccount !== merchantAccount
      ) {
        return serviceError(422, '803', 'PaymentDetail not found', 'validation');
      }
      card = { ...token, token };
      if (shopperInteraction === 'ContAuth') refusal = token.testCard.refuseContAuth;
    } else {
      const read = readCard(paymentMethod, this.opts.now());
      if ('error' in read) return serviceError(422, read.error.errorCode, read.error.message, 'validation');
      if ('refusal' in read) {
        const number = String(paymentMethod.encryptedCardNumber).slice('test_'.length);
        card = {
          number,
          expiryMonth: '',
          expiryYear: '',
          testCard: ADYEN_TEST_CARDS[number] ?? { brand: 'visa', fundingSource: 'CREDIT' },
        };
        refusal = read.refusal;
      } else card = { ...read, testCard: read.card };
    }

    const payment: StandInPayment = {
      pspReference: newPspReference(),
      merchantAccount,
      merchantReference: String(body.reference),
      amountRequested: amount,
      amountAuthorised: { currency: amount.currency, value: 0 },
      captured: 0,
      refunded: 0,
      status: 'pending',
      resultCode: 'Received',
      brand: card.testCard.brand,
      lastFour: card.number.slice(-4),
      expiry: card.expiryMonth ? `${Number(card.expiryMonth)}/${card.expiryYear}` : '',
      testCard: card.testCard,
      shopperInteraction,
      recurringProcessingModel: body.recurringProcessingModel as string | undefined,
      shopperReference,
      storedPaymentMethodId: card.token?.id,
      orderPspReference: order?.pspReference,
      requestAdditionalData: additionalData,
      request: body,
      modifications: [],
      manualCapture:
        additionalData.manualCapture === 'true' || (this.opts.captureMode === 'manual' && body.captureDelayHours !== 0),
    };
    this.payments.set(payment.pspReference, payment);
    if (order) order.payments.push(payment.pspReference);

    refusal ??= card.testCard.refuse;
    if (!refusal && card.testCard.threeDS && shopperInteraction !== 'ContAuth')
      return this.askAuthentication(payment, card.testCard.threeDS, String(body.returnUrl));
    if (!refusal && card.testCard.balance !== undefined && amount.value > card.testCard.balance) {
      if (additionalData.allowPartialAuth !== 'true') refusal = NOT_ENOUGH_BALANCE;
      else return this.settle(payment, { partial: card.testCard.balance });
    }
    return this.settle(payment, refusal ? { refusal } : {});
  }

  /** POST /payments/details */
  details(body: Record<string, unknown>): Answer {
    const details = (body.details ?? {}) as Record<string, string>;
    let psp: string | undefined;
    let refusal: Refusal | undefined;
    if (details.redirectResult) psp = this.byRedirectToken.get(details.redirectResult);
    else if (details.threeDSResult) {
      const result = decodeThreeDSResult(details.threeDSResult);
      psp = result.authorisationToken ? this.byAuthorisationToken.get(result.authorisationToken) : undefined;
      if (result.transStatus !== 'Y') refusal = NOT_AUTHENTICATED;
    }
    const payment = psp ? this.payments.get(psp) : undefined;
    if (!payment) return serviceError(422, '000', 'Invalid payload provided', 'validation');
    if (payment.status !== 'pending') return { status: 200, body: this.paymentResponse(payment) };
    return this.settle(payment, refusal ? { refusal } : {});
  }

  /** The `threeDSResult` Adyen's 3-D Secure 2 component would post after the shopper's challenge. */
  threeDSResult(authorisationToken: string, transStatus: 'Y' | 'N' = 'Y'): string {
    return Buffer.from(JSON.stringify({ transStatus, authorisationToken })).toString('base64');
  }

  /** GET <stand-in>/3ds/redirect?token=…: the issuer page sends the shopper back with a redirectResult. */
  redirectPage(token: string): Answer {
    const psp = this.byRedirectToken.get(token);
    const payment = psp ? this.payments.get(psp) : undefined;
    if (!payment?.pending) return { status: 404, body: { message: 'unknown redirect' } };
    const back = new URL(payment.pending.returnUrl);
    back.searchParams.set('redirectResult', token);
    return { status: 302, headers: { location: back.toString() } };
  }

  /** POST /payments/{psp}/captures */
  capture(paymentPsp: string, body: Record<string, unknown>): Answer {
    return this.modify('capture', paymentPsp, body, (payment) => {
      const amount = body.amount as Amount;
      const authorised = payment.amountAuthorised.value;
      if (
        payment.status !== 'authorised' &&
        payment.status !== 'partially_authorised' &&
        payment.status !== 'captured'
      ) {
        return { ok: false, eventCode: 'CAPTURE', reason: `Payment is ${payment.status}` };
      }
      if (!payment.manualCapture && payment.status === 'captured')
        return { ok: false, eventCode: 'CAPTURE', reason: 'Payment was captured automatically' };
      if (amount.value + payment.captured > authorised)
        return { ok: false, eventCode: 'CAPTURE', reason: 'Insufficient balance on payment' };
      if (payment.testCard.captureFails) return { ok: false, eventCode: 'CAPTURE_FAILED', reason: 'Capture Failed' };
      payment.captured += amount.value;
      payment.status = 'captured';
      return { ok: true, eventCode: 'CAPTURE' };
    });
  }

  /** POST /payments/{psp}/cancels */
  cancel(paymentPsp: string, body: Record<string, unknown>): Answer {
    return this.modify('cancel', paymentPsp, body, (payment) => this.cancelPayment(payment));
  }

  /** POST /payments/{psp}/refunds */
  refund(paymentPsp: string, body: Record<string, unknown>): Answer {
    return this.modify('refund', paymentPsp, body, (payment) => {
      const amount = body.amount as Amount;
      if (payment.captured === 0) return { ok: false, eventCode: 'REFUND', reason: 'Payment is not captured' };
      if (amount.value + payment.refunded > payment.captured)
        return { ok: false, eventCode: 'REFUND', reason: 'Insufficient balance on payment' };
      if (payment.testCard.refundFails) return { ok: false, eventCode: 'REFUND_FAILED', reason: 'Refund Failed' };
      payment.refunded += amount.value;
      payment.status = payment.refunded === payment.captured ? 'refunded' : 'partly_refunded';
      return { ok: true, eventCode: 'REFUND' };
    });
  }

  /** POST /orders */
  createOrder(body: Record<string, unknown>): Answer {
    const amount = body.amount as Amount;
    const order: StandInOrder = {
      pspReference: newPspReference(),
      merchantAccount: String(body.merchantAccount),
      reference: String(body.reference),
      amount,
      remainingAmount: { ...amount },
      expiresAt:
        typeof body.expiresAt === 'string'
          ? body.expiresAt
          : adyenDate(new Date(this.opts.now().getTime() + 24 * 3600_000)),
      orderData: [opaque()],
      status: 'open',
      payments: [],
    };
    this.orders.set(order.pspReference, order);
    this.notify({
      eventCode: 'ORDER_OPENED',
      pspReference: order.pspReference,
      merchantAccountCode: order.merchantAccount,
      merchantReference: order.reference,
      amount,
      success: 'true',
      reason: '',
    });
    return {
      status: 200,
      body: {
        pspReference: order.pspReference,
        resultCode: 'Success',
        amount,
        remainingAmount: order.remainingAmount,
        expiresAt: order.expiresAt,
        orderData: order.orderData[0],
        reference: order.reference,
      },
    };
  }

  /** POST /orders/cancel: cancels the order's authorised payments, then closes it. */
  cancelOrder(body: Record<string, unknown>): Answer {
    const ref = body.order as { pspReference: string; orderData: string };
    const order = this.orders.get(ref.pspReference);
    if (!order || !order.orderData.includes(ref.orderData))
      return serviceError(422, '000', 'Invalid order', 'validation');
    const pspReference = newPspReference();
    if (order.status === 'open') {
      order.status = 'cancelled';
      for (const psp of order.payments) {
        const payment = this.payments.get(psp)!;
        if (payment.status === 'authorised' || payment.status === 'partially_authorised') {
          this.modify('cancel', psp, { merchantAccount: order.merchantAccount }, (p) => this.cancelPayment(p));
        }
      }
      this.closeOrder(order, false);
    }
    return { status: 200, body: { pspReference, resultCode: 'Received' } };
  }

  /** POST /paymentMethods/balance: the balance of a card with one (the $20.00 HSA/FSA card). */
  balance(body: Record<string, unknown>): Answer {
    const amount = body.amount as Amount;
    const read = readCard((body.paymentMethod ?? {}) as Record<string, unknown>, this.opts.now());
    if ('error' in read) return serviceError(422, read.error.errorCode, read.error.message, 'validation');
    const value = 'card' in read ? read.card.balance : undefined;
    if (value === undefined)
      return {
        status: 200,
        body: {
          pspReference: newPspReference(),
          resultCode: 'Failed',
          balance: { currency: amount.currency, value: 0 },
        },
      };
    return {
      status: 200,
      body: {
        pspReference: newPspReference(),
        resultCode: value >= amount.value ? 'Success' : 'NotEnoughBalance',
        balance: { currency: amount.currency, value },
      },
    };
  }

  /** GET /storedPaymentMethods?shopperReference&merchantAccount */
  listTokens(query: URLSearchParams): Answer {
    const shopperReference = query.get('shopperReference') ?? '';
    const merchantAccount = query.get('merchantAccount') ?? '';
    const storedPaymentMethods = [...this.tokens.values()]
      .filter((t) => !t.disabled && t.shopperReference === shopperReference && t.merchantAccount === merchantAccount)
      .map((t) => ({
        id: t.id,
        type: 'scheme',
        brand: t.brand,
        lastFour: t.number.slice(-4),
        expiryMonth: t.expiryMonth,
        expiryYear: t.expiryYear,
        shopperReference: t.shopperReference,
        supportedRecurringProcessingModels: [t.recurringProcessingModel],
      }));
    return { status: 200, body: { merchantAccount, shopperReference, storedPaymentMethods } };
  }

  /** DELETE /storedPaymentMethods/{id}?shopperReference&merchantAccount */
  disableToken(id: string, query: URLSearchParams): Answer {
    const token = this.tokens.get(id);
    if (!token || token.disabled || token.shopperReference !== query.get('shopperReference'))
      return serviceError(422, '803', 'PaymentDetail not found', 'validation');
    token.disabled = true;
    return { status: 204 };
  }

  private askAuthentication(payment: StandInPayment, type: 'challenge' | 'redirect', returnUrl: string): Answer {
    const pending = {
      type: type === 'challenge' ? ('threeDS2' as const) : ('redirect' as const),
      authorisationToken: opaque(),
      redirectToken: opaque(),
      paymentData: opaque(),
      returnUrl,
    };
    payment.pending = pending;
    payment.resultCode = type === 'challenge' ? 'ChallengeShopper' : 'RedirectShopper';
    this.byAuthorisationToken.set(pending.authorisationToken, payment.pspReference);
    this.byRedirectToken.set(pending.redirectToken, payment.pspReference);
    const action =
      type === 'challenge'
        ? {
            type: 'threeDS2',
            subtype: 'challenge',
            paymentMethodType: 'scheme',
            paymentData: pending.paymentData,
            authorisationToken: pending.authorisationToken,
            token: Buffer.from(
              JSON.stringify({
                acsTransID: opaque(),
                acsURL: `${this.opts.baseUrl()}/3ds/challenge`,
                messageVersion: '2.2.0',
                threeDSServerTransID: opaque(),
              }),
            ).toString('base64'),
          }
        : {
            type: 'redirect',
            method: 'GET',
            paymentMethodType: 'scheme',
            url: `${this.opts.baseUrl()}/3ds/redirect?token=${pending.redirectToken}`,
          };
    return { status: 200, body: { ...this.paymentResponse(payment), action } };
  }

  /** Ends a payment: Authorised (in full or `partial`) or Refused; stores a token, moves its order, notifies. */
  private settle(payment: StandInPayment, outcome: { refusal?: Refusal; partial?: number }): Answer {
    delete payment.pending;
    const currency = payment.amountRequested.currency;
    if (outcome.refusal) {
      payment.status = 'refused';
      payment.resultCode = 'Refused';
      payment.refusal = outcome.refusal;
    } else {
      const value = outcome.partial ?? payment.amountRequested.value;
      payment.amountAuthorised = { currency, value };
      payment.resultCode = outcome.partial === undefined ? 'Authorised' : 'PartiallyAuthorised';
      payment.status = outcome.partial === undefined ? 'authorised' : 'partially_authorised';
      if (!payment.manualCapture && value > 0) {
        payment.captured = value;
        payment.status = 'captured';
      }
    }
    const authorised = !outcome.refusal;
    const token =
      authorised && payment.request.storePaymentMethod === true && payment.shopperReference
        ? this.storeToken(payment)
        : undefined;
    this.notify({
      eventCode: 'AUTHORISATION',
      pspReference: payment.pspReference,
      merchantAccountCode: payment.merchantAccount,
      merchantReference: payment.merchantReference,
      amount: authorised ? payment.amountAuthorised : payment.amountRequested,
      success: authorised ? 'true' : 'false',
      paymentMethod: payment.brand,
      reason: authorised ? `${authCode(payment)}:${payment.lastFour}:${payment.expiry}` : outcome.refusal!.reason,
      ...(authorised ? { operations: payment.manualCapture ? ['CANCEL', 'CAPTURE', 'REFUND'] : ['REFUND'] } : {}),
      additionalData: this.notificationData(payment, token),
    });
    if (token) {
      this.notify({
        eventCode: 'RECURRING_CONTRACT',
        pspReference: token.id,
        originalReference: payment.pspReference,
        originalPsp: payment.pspReference,
        merchantAccountCode: payment.merchantAccount,
        merchantReference: payment.merchantReference,
        amount: payment.amountAuthorised,
        success: 'true',
        paymentMethod: payment.brand,
        reason: '',
        additionalData: {
          'recurring.recurringDetailReference': token.id,
          'recurring.shopperReference': token.shopperReference,
          shopperReference: token.shopperReference,
          cardSummary: payment.lastFour,
          expiryDate: payment.expiry,
        },
      });
    }
    const order = payment.orderPspReference ? this.orders.get(payment.orderPspReference) : undefined;
    if (order && authorised) {
      order.remainingAmount = { currency, value: order.remainingAmount.value - payment.amountAuthorised.value };
      order.orderData.push(opaque());
      if (order.remainingAmount.value === 0) this.closeOrder(order, true);
    }
    return { status: 200, body: this.paymentResponse(payment, token) };
  }

  private storeToken(payment: StandInPayment): StoredToken {
    const existing = payment.storedPaymentMethodId ? this.tokens.get(payment.storedPaymentMethodId) : undefined;
    if (existing) return existing;
    const [expiryMonth, expiryYear] = payment.expiry.split('/');
    const token: StoredToken = {
      id: newPspReference(),
      merchantAccount: payment.merchantAccount,
      shopperReference: payment.shopperReference!,
      number: String((payment.request.paymentMethod as Record<string, unknown>).encryptedCardNumber).slice(
        'test_'.length,
      ),
      brand: payment.brand,
      expiryMonth: expiryMonth.padStart(2, '0'),
      expiryYear: expiryYear,
      testCard: payment.testCard,
      firstPspReference: payment.pspReference,
      recurringProcessingModel: payment.recurringProcessingModel ?? 'CardOnFile',
      disabled: false,
    };
    this.tokens.set(token.id, token);
    payment.storedPaymentMethodId = token.id;
    return token;
  }

  private paymentResponse(payment: StandInPayment, token?: StoredToken): Record<string, unknown> {
    const additionalData: Record<string, string> = {
      ...this.resultData(payment, token),
      paymentMethod: payment.brand,
      merchantReference: payment.merchantReference,
    };
    if (token)
      additionalData['tokenization.store.operationType'] =
        token.firstPspReference === payment.pspReference ? 'created' : 'alreadyExisting';
    const order = payment.orderPspReference ? this.orders.get(payment.orderPspReference) : undefined;
    const authorised = payment.status !== 'refused' && payment.status !== 'pending';
    return {
      pspReference: payment.pspReference,
      resultCode: payment.resultCode,
      merchantReference: payment.merchantReference,
      amount: authorised ? payment.amountAuthorised : payment.amountRequested,
      paymentMethod: { type: 'scheme', brand: payment.brand },
      additionalData,
      ...(payment.refusal ? { refusalReason: payment.refusal.reason, refusalReasonCode: payment.refusal.code } : {}),
      ...(order
        ? {
            order: {
              pspReference: order.pspReference,
              orderData: order.orderData.at(-1),
              amount: order.amount,
              remainingAmount: order.remainingAmount,
              expiresAt: order.expiresAt,
              reference: order.reference,
            },
          }
        : {}),
    };
  }

  private notificationData(payment: StandInPayment, token?: StoredToken): Record<string, string> {
    return { ...this.resultData(payment, token), paymentMethodVariant: payment.brand };
  }

  /** The `additionalData` an authorisation's answer and its AUTHORISATION notification share. */
  private resultData(payment: StandInPayment, token?: StoredToken): Record<string, string> {
    const data: Record<string, string> = {
      cardSummary: payment.lastFour,
      fundingSource: payment.testCard.fundingSource,
    };
    if (payment.expiry) data.expiryDate = payment.expiry;
    if (payment.status === 'refused') data.refusalReasonRaw = payment.refusal!.reason.toUpperCase();
    else if (payment.status !== 'pending') data.authCode = authCode(payment);
    if (payment.resultCode === 'PartiallyAuthorised') {
      data.authorisedAmountValue = String(payment.amountAuthorised.value);
      data.authorisedAmountCurrency = payment.amountAuthorised.currency;
    }
    if (payment.shopperReference) data.shopperReference = payment.shopperReference;
    if (payment.recurringProcessingModel) data.recurringProcessingModel = payment.recurringProcessingModel;
    if (token) {
      data['recurring.recurringDetailReference'] = token.id;
      data['recurring.shopperReference'] = token.shopperReference;
      data['tokenization.storedPaymentMethodId'] = token.id;
      data['tokenization.shopperReference'] = token.shopperReference;
    }
    return data;
  }

  private cancelPayment(payment: StandInPayment): { ok: boolean; eventCode: string; reason?: string } {
    if (payment.status !== 'authorised' && payment.status !== 'partially_authorised')
      return { ok: false, eventCode: 'CANCELLATION', reason: `Payment is ${payment.status}` };
    payment.status = 'cancelled';
    return { ok: true, eventCode: 'CANCELLATION' };
  }

  /** Answers a modification `received` with its own pspReference, then settles it and notifies. */
  private modify(
    kind: Modification['kind'],
    paymentPsp: string,
    body: Record<string, unknown>,
    apply: (payment: StandInPayment) => { ok: boolean; eventCode: string; reason?: string },
  ): Answer {
    const payment = this.payments.get(paymentPsp);
    if (!payment || payment.merchantAccount !== body.merchantAccount)
      return serviceError(422, '167', 'Original pspReference required for this operation', 'validation');
    const amount = body.amount as Amount | undefined;
    const pspReference = newPspReference();
    const result = apply(payment);
    const modification: Modification = {
      kind,
      pspReference,
      paymentPspReference: paymentPsp,
      ...(amount ? { amount } : {}),
      ...(typeof body.reference === 'string' ? { reference: body.reference } : {}),
      status: result.ok ? 'succeeded' : 'failed',
      eventCode: result.eventCode,
      ...(result.reason ? { reason: result.reason } : {}),
    };
    payment.modifications.push(modification);
    // REFUND_FAILED / CAPTURE_FAILED report that the event happened (success "true"), as Adyen's examples do.
    const success = result.ok || result.eventCode.endsWith('_FAILED') ? 'true' : 'false';
    this.notify({
      eventCode: result.eventCode,
      pspReference,
      originalReference: paymentPsp,
      merchantAccountCode: payment.merchantAccount,
      merchantReference: payment.merchantReference,
      amount: amount ?? payment.amountAuthorised,
      success,
      paymentMethod: payment.brand,
      reason: result.reason ?? '',
      additionalData: { paymentMethodVariant: payment.brand },
    });
    const answer: Record<string, unknown> = {
      merchantAccount: payment.merchantAccount,
      paymentPspReference: paymentPsp,
      pspReference,
      status: 'received',
    };
    if (amount) answer.amount = amount;
    if (typeof body.reference === 'string') answer.reference = body.reference;
    return { status: 201, body: answer };
  }

  private closeOrder(order: StandInOrder, paid: boolean): void {
    order.status = paid ? 'paid' : 'cancelled';
    const additionalData: Record<string, string> = {};
    order.payments.forEach((psp, i) => {
      const p = this.payments.get(psp)!;
      additionalData[`order-${i + 1}-pspReference`] = psp;
      additionalData[`order-${i + 1}-paymentAmount`] = money(
        p.amountAuthorised.value > 0 ? p.amountAuthorised : p.amountRequested,
      );
      additionalData[`order-${i + 1}-paymentMethod`] = p.brand;
      additionalData[`order-${i + 1}-success`] = p.status === 'refused' ? 'false' : 'true';
    });
    this.notify({
      eventCode: 'ORDER_CLOSED',
      pspReference: order.pspReference,
      merchantAccountCode: order.merchantAccount,
      merchantReference: order.reference,
      amount: order.amount,
      success: paid ? 'true' : 'false',
      reason: '',
      additionalData,
    });
  }

  private notify(item: Omit<NotificationItem, 'eventDate'>): void {
    this.notifier.emit({ ...item, eventDate: adyenDate(this.opts.now()) });
  }
}

/** ISO 8601 with a zone offset, as Adyen writes dates: 2021-07-17T13:42:40+00:00. */
export function adyenDate(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`;
}

/** A stable 6-digit authorisation code per payment. */
function authCode(payment: StandInPayment): string {
  let h = 0;
  for (const c of payment.pspReference) h = (h * 31 + c.charCodeAt(0)) % 1_000_000;
  return String(h).padStart(6, '0');
}

/** Reads a `threeDSResult`: base64 JSON `{transStatus, authorisationToken}`; a raw value saying `transStatus N` fails. */
function decodeThreeDSResult(value: string): { transStatus?: string; authorisationToken?: string } {
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as {
      transStatus?: string;
      authorisationToken?: string;
    };
    if (parsed && typeof parsed === 'object') return parsed;
  } catch {
    // not Adyen's encoding: look for the words
  }
  const status = /transStatus\W*([A-Z])/.exec(value)?.[1];
  const token = /authorisationToken\W*([A-Za-z0-9_-]+)/.exec(value)?.[1];
  return { transStatus: status, authorisationToken: token };
}
