import { z } from 'zod';
import { listSchema } from '../../platform/rest/envelope.js';
import { ELIGIBILITY_STATUSES } from '../eligibility/eligibility.types.js';
import { PRODUCT_STATUSES } from './product.entity.js';

/** Response shapes of the products routes, for the OpenAPI document. */

const eligibility = z.object({
  hsa_fsa_eligible: z.boolean().describe('True for eligible and requires_lmn'),
  requires_lmn: z.boolean().describe('Eligible only with an approved letter of medical necessity'),
  status: z.enum(ELIGIBILITY_STATUSES).describe('requires_review: the name alone cannot decide (e.g. a tinted moisturizer with SPF); not payable by HSA/FSA card until a person checks the label'),
  category: z.string().nullable(),
  source: z.enum(['upc', 'name', 'none']),
  message: z.string().describe('The decision, the rule behind it and its source (e.g. "Rule: CARES Act 2020 (§3702): …")'),
  checked_at: z.iso.datetime(),
});

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
    eligibility,
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
  .extend({ product_id: z.number().int().nullable(), name: z.string().nullable(), upc_code_or_gtin: z.string().nullable() })
  .meta({ id: 'EligibilityCheck' });

/** One check, or the list of checks of a batch (`items`), in the order asked. */
export const eligibilityCheckAnswer = z.union([eligibilityCheckResponse, listSchema(eligibilityCheckResponse, z.null()).meta({ id: 'EligibilityCheckList' })]);
