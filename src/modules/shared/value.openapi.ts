import { z } from 'zod';

/** Response shapes of the shared values, for the OpenAPI document (components `Address` and `Amounts`). */

export const addressResponse = z
  .object({
    address_line_1: z.string(),
    address_line_2: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    postal_code: z.string(),
    country: z.string(),
  })
  .meta({ id: 'Address' });

export const amountsResponse = z
  .object({
    subtotal: z.number().int(),
    hsa_amount: z.number().int(),
    regular_amount: z.number().int(),
    shipping: z.number().int(),
    tax: z.number().int(),
    discount: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'Amounts' });

/** A checkout's amounts: the split plus `healthcare`, the HSA/FSA amount by IIAS category. */
export const checkoutAmountsResponse = amountsResponse
  .extend({
    healthcare: z
      .object({
        rx: z.number().int(),
        vision: z.number().int(),
        clinic: z.number().int(),
        dental: z.number().int(),
        otc: z.number().int(),
      })
      .describe('hsa_amount by IIAS category (cents); the five add up to hsa_amount exactly'),
  })
  .meta({ id: 'CheckoutAmounts' });

/** The fields of a catalog product priced into an order or onto a payment link (`PricedLineFields`). */
export const pricedLineFields = {
  merchant_product_id: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  price: z.number().int(),
  hsa_fsa_eligible: z.boolean(),
  requires_lmn: z.boolean(),
};
