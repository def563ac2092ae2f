import { z } from 'zod';
import { metadataSchema, pageLimit, timestamp } from '../../platform/validation.js';
import {
  addressSchema,
  checkSubscriptionTerms,
  currencySchema,
  httpUrl,
  oneCardAtLeast,
  payCheckoutFields,
  subscriptionTermsSchema,
  text,
} from '../checkout/checkout.schemas.js';
import { PAYMENT_LINK_STATUSES, PAYMENT_LINK_TYPES } from './payment-link.entity.js';

/** The one validation definition of each payment links input; REST and GraphQL both go through these. */

/** A link can be paid for 7 days unless `expires_at` says otherwise, and for 90 days at most. */
export const DEFAULT_LINK_LIFETIME_DAYS = 7;
export const MAX_LINK_LIFETIME_DAYS = 90;

export const paymentLinkCustomerSchema = z
  .object({
    email: z.email('must be an email address').max(255),
    first_name: text(),
    last_name: text(),
  })
  .strict();

export const createPaymentLinkSchema = z
  .object({
    products: z
      .array(
        z
          .object({
            merchant_product_id: text().describe(
              'Your product id (merchant_product_id) of an active catalog product; its catalog price and eligibility apply',
            ),
            quantity: z
              .number()
              .int('must be an integer')
              .min(1, 'must be at least 1')
              .max(1000, 'must be at most 1000'),
          })
          .strict(),
      )
      .min(1, 'must have at least one product')
      .max(100, 'at most 100 products')
      .optional()
      .describe('Catalog products to sell; or give amount and description instead'),
    amount: z
      .number()
      .int('must be an integer number of cents')
      .positive('must be a positive integer number of cents')
      .max(99_999_999, 'must be at most 99999999')
      .optional()
      .describe('A fixed total in cents (a regular, not HSA/FSA eligible, pass-through line); needs description'),
    description: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
    currency: currencySchema,
    customer: paymentLinkCustomerSchema
      .optional()
      .describe('Who the link is for; otherwise the payer gives their name and email on the page'),
    customer_id: z
      .string()
      .max(64)
      .optional()
      .describe('A stored customer (cus_…) the link is for, instead of customer'),
    collect_shipping_address: z
      .boolean()
      .optional()
      .describe(
        'The page asks the payer for a shipping address, required to pay. Default: true for a link with products, false for an amount',
      ),
    success_url: httpUrl
      .optional()
      .describe(
        'Where the payer goes after paying (with ?payment_link_id=…&order_id=…); default: the link page, which then shows it is paid',
      ),
    cancel_url: httpUrl
      .optional()
      .describe('Where "cancel" on the page goes; without it the page shows no cancel link'),
    expires_at: timestamp
      .optional()
      .describe(`Default ${DEFAULT_LINK_LIFETIME_DAYS} days from now; at most ${MAX_LINK_LIFETIME_DAYS} days from now`),
    metadata: metadataSchema
      .default({})
      .describe('Copied to the order; metadata.webhook_url receives the link’s order and refund events'),
    payment_type: z.enum(PAYMENT_LINK_TYPES).default('one_time'),
    subscription: subscriptionTermsSchema.optional().describe('Required with payment_type subscription'),
  })
  .strict()
  .superRefine((body, issue) => {
    if (body.products && body.amount !== undefined)
      issue.addIssue({ code: 'custom', path: ['amount'], message: 'give either products or amount, not both' });
    if (!body.products && body.amount === undefined)
      issue.addIssue({
        code: 'custom',
        path: ['products'],
        message: 'is required: give products, or an amount and a description',
      });
    if (body.amount !== undefined && body.description === undefined)
      issue.addIssue({ code: 'custom', path: ['description'], message: 'is required with amount' });
    if (body.customer && body.customer_id !== undefined)
      issue.addIssue({
        code: 'custom',
        path: ['customer_id'],
        message: 'give either customer or customer_id, not both',
      });
    checkSubscriptionTerms(body, issue);
  })
  .meta({ id: 'CreatePaymentLinkRequest' });

export const cancelPaymentLinkSchema = z
  .object({ reason: z.string().trim().max(500, 'must be at most 500 characters').optional() })
  .strict()
  .meta({ id: 'CancelPaymentLinkRequest' });

/** A merchant reference the payer's link carries (`?client_reference_id=`), set on the order. */
export const clientReferenceIdSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII');

export const payPaymentLinkSchema = z
  .object({
    ...payCheckoutFields,
    client_reference_id: clientReferenceIdSchema.optional(),
    customer: paymentLinkCustomerSchema.optional().describe('The payer, when the link names no customer'),
    shipping_address: addressSchema
      .optional()
      .describe('Where to ship: required when the link has collect_shipping_address; also the billing address'),
  })
  .strict()
  .refine(...oneCardAtLeast)
  .meta({ id: 'PayPaymentLinkRequest' });

export const listPaymentLinksSchema = z
  .object({
    limit: pageLimit,
    starting_after: z
      .string()
      .max(64)
      .optional()
      .describe('A payment link id (plink_…): the next_cursor of the previous page'),
    status: z.enum(PAYMENT_LINK_STATUSES).optional(),
    customer_email: z.string().max(255).optional().describe('Case-insensitive'),
    payment_type: z.enum(PAYMENT_LINK_TYPES).optional(),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
  })
  .strict();

export type CreatePaymentLinkInput = z.output<typeof createPaymentLinkSchema>;
export type PayPaymentLinkInput = z.output<typeof payPaymentLinkSchema>;
export type PaymentLinkFilters = Omit<z.output<typeof listPaymentLinksSchema>, 'limit' | 'starting_after'>;
