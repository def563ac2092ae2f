import { z } from 'zod';
import { metadataSchema, pageLimit, timestamp } from '../../platform/validation.js';
import { browserInfoSchema, paymentSlotSchema, returnUrlSchema } from '../payments/payment-method-input.js';

/** The one validation definition of each customers input; REST and GraphQL both go through these. */

const name = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');
const email = z.email('must be an email address').max(255, 'must be at most 255 characters');
const phone = z.string().trim().max(32, 'must be at most 32 characters');

export const createCustomerSchema = z
  .object({
    email,
    first_name: name,
    last_name: name,
    phone: phone.nullish(),
    metadata: metadataSchema.default({}),
  })
  .strict()
  .meta({ id: 'CreateCustomerRequest' });

export const updateCustomerSchema = z
  .object({
    email: email.optional(),
    first_name: name.optional(),
    last_name: name.optional(),
    phone: phone.nullish().describe('null clears it'),
    metadata: metadataSchema.optional().describe('Replaces the stored metadata'),
  })
  .strict()
  .meta({ id: 'UpdateCustomerRequest' });

export const listCustomersSchema = z
  .object({
    limit: pageLimit,
    starting_after: z
      .string()
      .max(64)
      .optional()
      .describe('A customer id (cus_…): the next_cursor of the previous page'),
    email: z.string().max(255).optional().describe('Exact email, case-insensitive'),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
  })
  .strict();

export const attachPaymentMethodSchema = z
  .object({
    card: paymentSlotSchema.describe(
      'A test card (test mode) or {payment_method_data} from Adyen Web. Verified with a zero-amount authorization; only its token, brand, last4, expiry and type are kept',
    ),
  })
  .strict()
  .meta({ id: 'AttachPaymentMethodRequest' });

/**
 * A card setup link page's submit call: the card, and what the page's script sends with every live
 * card (the shopper's browser, where it returns). A card check does not hand 3-D Secure to the
 * shopper (it is refused), so these two are accepted and not used.
 */
export const useSetupLinkSchema = attachPaymentMethodSchema
  .extend({ return_url: returnUrlSchema.optional(), browser_info: browserInfoSchema.optional() })
  .strict();

export const listPaymentMethodsSchema = z
  .object({
    limit: pageLimit,
    starting_after: z.string().max(64).optional().describe('A payment method id (pm_…)'),
  })
  .strict();

export type CreateCustomerInput = z.output<typeof createCustomerSchema>;
export type UpdateCustomerInput = z.output<typeof updateCustomerSchema>;
export type CustomerFilters = Omit<z.output<typeof listCustomersSchema>, 'limit' | 'starting_after'>;
