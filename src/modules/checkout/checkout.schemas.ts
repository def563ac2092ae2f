import { z } from 'zod';
import { MAX_AMOUNT } from '../../platform/money.js';
import { isIso4217, metadataSchema } from '../../platform/validation.js';
import { browserInfoSchema, paymentSlotSchema, returnUrlSchema } from '../payments/payment-method-input.js';

/** The one validation definition of each checkout input (REST and GraphQL). */

export const text = (max = 255) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048);
const cents = z
  .number()
  .int('must be an integer number of cents')
  .min(0, 'must not be negative')
  .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT} cents`);
export const currencySchema = z
  .string()
  .refine((c) => /^[A-Za-z]{3}$/.test(c) && isIso4217(c), 'must be an ISO 4217 currency code')
  .transform((c) => c.toLowerCase());

/** `subscription` terms come with `payment_type: subscription`, and only with it (a checkout and a payment link alike). */
export function checkSubscriptionTerms(
  body: { payment_type: string; subscription?: unknown },
  issue: { addIssue(issue: { code: 'custom'; path: string[]; message: string }): void },
): void {
  if (body.payment_type === 'subscription' && !body.subscription)
    issue.addIssue({
      code: 'custom',
      path: ['subscription'],
      message: 'is required when payment_type is subscription',
    });
  if (body.payment_type !== 'subscription' && body.subscription)
    issue.addIssue({
      code: 'custom',
      path: ['subscription'],
      message: 'is only allowed with payment_type subscription',
    });
}

/** The terms of a subscription a checkout (or a payment link's checkout) starts when it is paid. */
export const subscriptionTermsSchema = z
  .object({
    interval: z.enum(['daily', 'weekly', 'monthly', 'yearly']),
    interval_count: z.number().int().min(1).max(12).default(1),
    trial_period_days: z.number().int().min(0).max(730).default(0),
  })
  .strict();

export const addressSchema = z
  .object({
    address_line_1: text(),
    address_line_2: z.string().trim().max(255).nullish(),
    city: text(100),
    state: text(100),
    postal_code: text(20),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as US')
      .transform((c) => c.toUpperCase()),
  })
  .strict();

export const createCheckoutSchema = z
  .object({
    reference_id: text(),
    customer: z
      .object({
        email: z.email('must be an email address').max(255),
        first_name: text(),
        last_name: text(),
        phone: z.string().trim().max(32).nullish(),
      })
      .strict(),
    line_items: z
      .array(
        z
          .object({
            product_id: text().describe(
              "The merchant's product id (merchant_product_id); unmatched ids are pass-through regular items",
            ),
            name: text(),
            image_url: httpUrl.nullish(),
            price: cents.describe('Unit price in cents'),
            quantity: z.number().int().min(1, 'must be at least 1').max(1000, 'must be at most 1000'),
            currency: currencySchema,
          })
          .strict(),
      )
      .min(1, 'must have at least one item')
      .max(100, 'at most 100 items'),
    shipping_info: addressSchema,
    billing_info: addressSchema.optional(),
    shipping: cents.default(0),
    tax: cents.default(0),
    discount: cents.default(0),
    success_url: httpUrl,
    failure_url: httpUrl,
    // metadata.webhook_url is checked by the service with the webhook endpoints' URL rule (it depends on the mode).
    metadata: metadataSchema.default({}),
    payment_type: z.enum(['one_time', 'subscription']).default('one_time'),
    subscription: subscriptionTermsSchema.optional(),
  })
  .strict()
  .superRefine((body, issue) => {
    const currencies = new Set(body.line_items.map((l) => l.currency));
    if (currencies.size > 1)
      issue.addIssue({ code: 'custom', path: ['line_items'], message: 'all line items must share one currency' });
    body.line_items.forEach((l, i) => {
      if (l.price * l.quantity > MAX_AMOUNT)
        issue.addIssue({
          code: 'custom',
          path: ['line_items', i, 'quantity'],
          message: `price × quantity (${l.price * l.quantity}) must be at most ${MAX_AMOUNT} cents per line`,
        });
    });
    const subtotal = body.line_items.reduce((s, l) => s + l.price * l.quantity, 0);
    if (subtotal + body.shipping + body.tax > MAX_AMOUNT)
      issue.addIssue({
        code: 'custom',
        path: ['line_items'],
        message: `the checkout total (subtotal + shipping + tax) must be at most ${MAX_AMOUNT} cents`,
      });
    if (body.discount > subtotal)
      issue.addIssue({ code: 'custom', path: ['discount'], message: `must not exceed the subtotal (${subtotal})` });
    if (body.line_items.length && subtotal + body.shipping + body.tax - body.discount <= 0)
      issue.addIssue({ code: 'custom', path: ['line_items'], message: 'the total must be above zero' });
    checkSubscriptionTerms(body, issue);
  })
  .meta({ id: 'CreateCheckoutRequest' });

/** The short health questionnaire that approves a letter of medical necessity on the hosted page. */
export const lmnSchema = z
  .object({
    condition: text(500).describe('The condition the items treat or prevent'),
    recommended_by_provider: z.literal(true, 'a licensed provider must have recommended the items'),
    provider_name: z.string().trim().max(255).nullish(),
    attestation: z.literal(true, 'the attestation must be accepted'),
  })
  .strict();

/** The fields of a hosted page's pay request (a payment link's adds the payer's). */
export const payCheckoutFields = {
  hsa_fsa_card: paymentSlotSchema.optional(),
  card: paymentSlotSchema.optional(),
  lmn: lmnSchema.optional(),
  return_url: returnUrlSchema.optional(),
  browser_info: browserInfoSchema.optional(),
};

/** A pay request names at least one card. */
export const oneCardAtLeast: [
  (b: { hsa_fsa_card?: unknown; card?: unknown }) => boolean,
  { message: string; path: string[] },
] = [(b) => Boolean(b.hsa_fsa_card || b.card), { message: 'give a card, an hsa_fsa_card, or both', path: ['card'] }];

export const payCheckoutSchema = z
  .object(payCheckoutFields)
  .strict()
  .refine(...oneCardAtLeast)
  .meta({ id: 'PayCheckoutRequest' });

/**
 * `POST /api/v2/checkout/{id}/payments` (contract): pay from the merchant's own page. Each slot is
 * `{payment_method_data}` (Adyen Web's paymentMethod; both modes) or, in test mode, a test card.
 */
export const checkoutPaymentsSchema = z
  .object({
    hsa_fsa: paymentSlotSchema
      .optional()
      .describe('The HSA/FSA card: pays the eligible amount (partial authorisation allowed)'),
    card: paymentSlotSchema.optional().describe('The regular card: pays the rest, or everything alone'),
    lmn: lmnSchema.optional(),
    return_url: returnUrlSchema.optional(),
    browser_info: browserInfoSchema.optional(),
  })
  .strict()
  .refine((b) => b.hsa_fsa || b.card, { message: 'give a card, an hsa_fsa card, or both', path: ['card'] })
  .meta({ id: 'CheckoutPaymentsRequest' });

/** `POST /api/v2/checkout/{id}/payments/details`: what the shopper's browser returned after the action. */
export const checkoutPaymentDetailsSchema = z
  .object({
    details: z
      .record(z.string(), z.unknown())
      .describe("Adyen Web's onAdditionalDetails state.data.details (threeDSResult, redirectResult, …)"),
  })
  .strict()
  .meta({ id: 'CheckoutPaymentDetailsRequest' });

export type CreateCheckoutInput = z.output<typeof createCheckoutSchema>;
export type PayCheckoutInput = z.output<typeof payCheckoutSchema>;
