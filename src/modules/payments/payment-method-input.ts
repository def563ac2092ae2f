import { z } from 'zod';
import { DomainError } from '../../platform/errors.js';
import { cardSchema, type CardInput } from './card.js';

const encrypted = z.string().min(1).max(10_000);

/**
 * The fields a card's `paymentMethod` may carry (Adyen's `CardDetails`), as Adyen Web 6's Card
 * component produces them (`state.data.paymentMethod`): the card's fields encrypted in the
 * shopper's browser with the merchant's client key (the KCP password too), or a stored card's id;
 * the holder's name and brands it picked; what Adyen Web adds to every payment method (its
 * checkout attempt id and `sdkData`). Nothing else: `CardDetails`' raw `number`, `expiryMonth`,
 * `expiryYear` and `cvc` (only Adyen can read a card) and any other field are refused.
 */
const paymentMethodFields = {
  type: z.literal('scheme', 'must be "scheme" (a card)'),
  encryptedCardNumber: encrypted.optional(),
  encryptedExpiryMonth: encrypted.optional(),
  encryptedExpiryYear: encrypted.optional(),
  encryptedSecurityCode: encrypted.optional(),
  encryptedPassword: encrypted.optional(),
  storedPaymentMethodId: z.string().min(1).max(64).optional(),
  holderName: z.string().max(255).optional(),
  brand: z.string().max(50).optional(),
  fundingSource: z.enum(['credit', 'debit', 'prepaid']).optional(),
  checkoutAttemptId: z.string().max(255).optional(),
  sdkData: z.string().max(10_000).optional(),
};

/** The fields `payment_method_data` may hold (the keys of `paymentMethodFields`). */
const PAYMENT_METHOD_FIELDS = new Set(Object.keys(paymentMethodFields));

/**
 * The `paymentMethod` object Adyen Web produces for a card: only `paymentMethodFields`. Never a
 * card number: only Adyen can read it.
 */
export const paymentMethodDataSchema = z
  .strictObject(paymentMethodFields)
  .refine(
    (d) => d.storedPaymentMethodId || (d.encryptedCardNumber && d.encryptedExpiryMonth && d.encryptedExpiryYear),
    {
      message:
        'needs encryptedCardNumber, encryptedExpiryMonth and encryptedExpiryYear (from Adyen Web), or a storedPaymentMethodId',
    },
  )
  .meta({ id: 'PaymentMethodData' });

export type PaymentMethodData = z.output<typeof paymentMethodDataSchema>;

/** A slot of a pay request: the contract's test-card object (test mode), or `{payment_method_data}` (both modes). */
export const paymentSlotSchema = z
  .union([cardSchema, z.object({ payment_method_data: paymentMethodDataSchema }).strict()])
  .meta({ id: 'PaymentSlot' });

/** Where the shopper's browser returns after a redirect (3-D Secure); defaults to Adyen's own page. */
export const returnUrlSchema = z
  .url()
  .max(1024)
  .describe('Where the shopper returns after a redirect (3-D Secure); finish with POST …/payments/details');
/** The shopper's browser, as Adyen Web reports it (`state.data.browserInfo`), for 3-D Secure 2. */
export const browserInfoSchema = z
  .record(z.string(), z.union([z.string().max(1024), z.number(), z.boolean()]))
  .describe("The shopper's browser (Adyen Web's state.data.browserInfo), for 3-D Secure 2");
export type PaymentSlotInput = z.output<typeof paymentSlotSchema>;

/** What pays for one part: a test card (test mode only) or the processor's own payment method data. */
export type PaymentMethodInput =
  { kind: 'card'; card: CardInput } | { kind: 'processor_data'; data: PaymentMethodData };

/** A payment method as a parked payment keeps it in its table row (see `parkedMethod`). */
export type ParkedMethod = PaymentMethodInput | { kind: 'sealed'; sealed: string };

/**
 * What a payment parked for the shopper (3-D Secure) keeps of a method in its row: once sent to
 * the processor, nothing of Adyen Web's encrypted fields (the processor holds the payment); still
 * to send, those fields sealed by `seal` (with SECRETS_KEY), or as they are when it cannot seal
 * (no key: test mode only). Test cards are test mode's and stay as they are.
 */
export function parkedMethod(
  method: PaymentMethodInput,
  sent: boolean,
  seal: (plain: string) => string | null,
): ParkedMethod {
  if (method.kind !== 'processor_data') return method;
  const { type, brand } = method.data;
  if (sent) return { kind: 'processor_data', data: { type, ...(brand ? { brand } : {}) } };
  const sealed = seal(JSON.stringify(method.data));
  return sealed === null ? method : { kind: 'sealed', sealed };
}

/** The method `parkedMethod` kept, opened again with `open`. */
export function unparkedMethod(method: ParkedMethod, open: (sealed: string) => string): PaymentMethodInput {
  return method.kind === 'sealed'
    ? { kind: 'processor_data', data: JSON.parse(open(method.sealed)) as PaymentMethodData }
    : method;
}

/**
 * The payment method a slot names. A raw card number is refused in live mode (400
 * `invalid_request`): live card data only ever reaches Adyen, encrypted in the shopper's browser.
 * The refusal never repeats the number.
 */
export function paymentMethodOf(slot: PaymentSlotInput, livemode: boolean, param: string): PaymentMethodInput {
  if ('payment_method_data' in slot) return { kind: 'processor_data', data: slot.payment_method_data };
  if (livemode) {
    throw new DomainError(
      'invalid_request',
      'Live mode never takes a card number: send payment_method_data, the paymentMethod object Adyen Web produces (encrypted card fields), or a storedPaymentMethodId.',
      { param },
    );
  }
  return { kind: 'card', card: slot };
}

/** The body fields that carry a card in the pay requests of either surface. */
const CARD_FIELDS = ['card', 'hsa_fsa_card', 'hsa_fsa'] as const;

/**
 * Refuses a live-mode body holding a raw card number before anything reads, validates, stores or
 * logs it (400 `invalid_request`, whatever else is wrong with the body): a test card object, or a
 * `payment_method_data` with any field but Adyen Web's (`paymentMethodFields`). The refusal names
 * no field it was given and repeats no value.
 */
export function refuseRawCardInLiveMode(body: unknown, livemode: boolean): void {
  if (!livemode || !body || typeof body !== 'object') return;
  for (const field of CARD_FIELDS) {
    const slot = (body as Record<string, unknown>)[field];
    if (!slot || typeof slot !== 'object') continue;
    if (!('payment_method_data' in slot)) paymentMethodOf(slot as CardInput, true, field);
    const data = (slot as { payment_method_data: unknown }).payment_method_data;
    if (data && typeof data === 'object' && Object.keys(data).some((key) => !PAYMENT_METHOD_FIELDS.has(key))) {
      throw new DomainError(
        'invalid_request',
        `Live mode never takes card data of its own: payment_method_data holds only the fields Adyen Web produces (${[...PAYMENT_METHOD_FIELDS].join(', ')}).`,
        {
          param: `${field}.payment_method_data`,
        },
      );
    }
  }
}
