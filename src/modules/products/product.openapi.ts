import { z } from 'zod';
import { listSchema } from '../../platform/rest/envelope.js';
import { ELIGIBILITY_STATUSES } from '../eligibility/eligibility.types.js';
import { IIAS_CATEGORIES, OVERRIDE_STATUSES } from './product-eligibility.js';
import { PRODUCT_STATUSES } from './product.entity.js';

/** Response shapes of the products routes, for the OpenAPI document. */

const eligibility = z.object({
  hsa_fsa_eligible: z.boolean().describe('True for eligible and requires_lmn'),
  requires_lmn: z.boolean().describe('Eligible only with an approved letter of medical necessity'),
  status: z
    .enum(ELIGIBILITY_STATUSES)
    .describe(
      'requires_review: the name alone cannot decide (e.g. a tinted moisturizer with SPF); not payable by HSA/FSA card until a person checks the label',
    ),
  category: z.string().nullable(),
  source: z
    .enum(['upc', 'name', 'none', 'merchant'])
    .describe("What the decision was based on (merchant: the merchant's own decision)"),
  message: z
    .string()
    .describe('The decision, the rule behind it and its source (e.g. "Rule: CARES Act 2020 (§3702): …")'),
  checked_at: z.iso.datetime(),
});

const productEligibility = eligibility
  .extend({
    iias_category: z
      .enum(IIAS_CATEGORIES)
      .nullable()
      .describe('IIAS category the eligible amount counts under; null when not eligible'),
    set_by: z.string().nullable().describe('Who set the merchant decision: api_key:<id>, import or eligibility_list'),
    set_at: z.iso.datetime().nullable(),
    suggested: z
      .object({
        status: z.enum(ELIGIBILITY_STATUSES),
        category: z.string().nullable(),
        source: z.enum(['upc', 'name', 'none']),
        message: z.string(),
      })
      .describe("The engine's own opinion, kept beside the merchant's decision"),
  })
  .meta({ id: 'ProductEligibility' });

export const productResponse = z
  .object({
    id: z.number().int(),
    object: z.literal('product'),
    livemode: z.boolean(),
    name: z.string(),
    tagline: z.string().nullable(),
    description: z.string().nullable(),
    price: z.number().int(),
    currency: z.string(),
    merchant_product_id: z.string().nullable(),
    upc_code_or_gtin: z.string().nullable(),
    status: z.enum(PRODUCT_STATUSES),
    hsa_fsa_eligibility: z
      .object({ status: z.enum(OVERRIDE_STATUSES), category: z.enum(IIAS_CATEGORIES).nullable() })
      .nullable()
      .describe("The merchant's own decision; null when the engine decides"),
    eligibility: productEligibility,
    images: z.array(z.object({ id: z.number().int(), url: z.string(), is_primary: z.boolean() })),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Product' });

export const productListResponse = z.object({
  object: z.literal('list'),
  data: z.array(productResponse),
  has_more: z.boolean(),
  next_cursor: z.number().int().nullable(),
});

export const eligibilityCheckResponse = eligibility
  .extend({
    product_id: z.number().int().nullable(),
    name: z.string().nullable(),
    upc_code_or_gtin: z.string().nullable(),
  })
  .meta({ id: 'EligibilityCheck' });

/** One check, or the list of checks of a batch (`items`), in the order asked. */
export const eligibilityCheckAnswer = z.union([
  eligibilityCheckResponse,
  listSchema(eligibilityCheckResponse, z.null()).meta({ id: 'EligibilityCheckList' }),
]);

export const eligibilityListReportResponse = z
  .object({
    object: z.literal('eligibility_list_import'),
    rows: z.number().int(),
    matched: z.number().int().describe('Rows whose barcode is on at least one product'),
    products_changed: z.number().int(),
    products_unchanged: z.number().int(),
    unmatched: z
      .array(z.object({ line: z.number().int(), upc: z.string() }))
      .describe('Rows whose barcode is on none of your products'),
  })
  .meta({ id: 'EligibilityListReport' });
