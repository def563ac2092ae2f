import { z } from 'zod';
import { metadataSchema, pageLimit, queryBoolean, timestamp } from '../../platform/validation.js';
import { IIAS_CATEGORIES, OVERRIDE_STATUSES } from './product-eligibility.js';
import { PRODUCT_STATUSES } from './product.entity.js';

/** The one validation definition of each products input; REST and GraphQL both go through these. */

const imageUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2048, 'must be at most 2048 characters');

/** The merchant's own HSA/FSA decision: authoritative while set; `null` hands the decision back to the engine. */
export const eligibilityOverrideSchema = z
  .object({
    status: z.enum(OVERRIDE_STATUSES),
    category: z
      .enum(IIAS_CATEGORIES)
      .nullish()
      .describe("IIAS category of the eligible amount; defaults to the engine's category (else otc)"),
  })
  .strict()
  .meta({ id: 'EligibilityOverride' });

const text255 = z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

// `price` and `currency` are checked first by the service (400 invalid_price / invalid_currency);
// here they only need the right type.
const productFields = {
  name: text255,
  tagline: text255.nullish(),
  description: z.string().max(20000, 'must be at most 20000 characters').nullish(),
  price: z.number().int(),
  currency: z.string(),
  merchant_product_id: text255.nullish(),
  upc_code_or_gtin: z.string().trim().max(32).nullish(),
  images: z.array(imageUrl).max(10, 'at most 10 images'),
  metadata: metadataSchema,
  hsa_fsa_eligibility: eligibilityOverrideSchema.nullish(),
};

export const createProductSchema = z
  .object({
    ...productFields,
    images: productFields.images.default([]),
    metadata: productFields.metadata.default({}),
    status: z.enum(['active', 'inactive']).default('active'),
  })
  .strict()
  .meta({ id: 'CreateProductRequest' });

export const updateProductSchema = z
  .object({
    name: productFields.name.optional(),
    tagline: productFields.tagline,
    description: productFields.description,
    price: productFields.price.optional(),
    currency: productFields.currency.optional(),
    merchant_product_id: productFields.merchant_product_id,
    upc_code_or_gtin: productFields.upc_code_or_gtin,
    images: productFields.images.optional(),
    metadata: productFields.metadata.optional(),
    status: z.enum(PRODUCT_STATUSES).optional(),
    hsa_fsa_eligibility: productFields.hsa_fsa_eligibility,
  })
  .strict()
  .meta({ id: 'UpdateProductRequest' });

export const listProductsSchema = z
  .object({
    limit: pageLimit,
    starting_after: z.coerce.number().int().positive().optional(),
    status: z.enum(PRODUCT_STATUSES).optional(),
    hsa_fsa_eligible: queryBoolean.optional(),
    merchant_product_id: z.string().max(255).optional(),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
  })
  .strict();

export const productIdSchema = z.coerce.number().int().positive().max(2147483647);

export const checkEligibilitySchema = z
  .object({
    name: z.string().trim().min(1).max(255).optional(),
    upc_code_or_gtin: z.string().trim().min(1).max(32).optional(),
    product_id: z.number().int().positive().optional(),
  })
  .strict()
  .refine((b) => b.name !== undefined || b.upc_code_or_gtin !== undefined || b.product_id !== undefined, {
    message: 'give a name, a upc_code_or_gtin or a product_id',
    path: ['name'],
  })
  .meta({ id: 'CheckEligibilityRequest' });

/** Most checks in one `check-eligibility` call. */
export const MAX_ELIGIBILITY_BATCH = 100;

export const checkEligibilityBatchSchema = z
  .object({
    items: z
      .array(checkEligibilitySchema)
      .min(1, 'give at least one item')
      .max(MAX_ELIGIBILITY_BATCH, `at most ${MAX_ELIGIBILITY_BATCH} items per call`)
      .describe('Names, barcodes or product ids to check, each in the single form; answered in the same order'),
  })
  .strict()
  .meta({ id: 'CheckEligibilityBatchRequest' });

/** The body of `POST /products/check-eligibility` (documentation): one check, or up to 100 under `items`. */
export const checkEligibilityRequestSchema = z.union([checkEligibilitySchema, checkEligibilityBatchSchema]);

export type EligibilityOverrideInput = z.output<typeof eligibilityOverrideSchema>;
export type CreateProductInput = z.output<typeof createProductSchema>;
export type UpdateProductInput = z.output<typeof updateProductSchema>;
export type EligibilityQuery = z.output<typeof checkEligibilitySchema>;
export type ListProductsQuery = z.output<typeof listProductsSchema>;
export type ProductFilters = Omit<ListProductsQuery, 'limit' | 'starting_after'>;
