import { storedStatus, type EligibilityResult } from '../eligibility/eligibility.engine.js';
import type { Product } from './product.entity.js';
import type { ProductRecord } from './product.read-model.js';

/** The spec's eligibility object (plus `requires_lmn`, `category` and `source`). */
export interface EligibilityResource {
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  status: EligibilityResult['status'];
  category: string | null;
  source: EligibilityResult['source'];
  message: string;
  checked_at: string;
}

export function toEligibilityResource(result: EligibilityResult, checkedAt: Date): EligibilityResource {
  return {
    hsa_fsa_eligible: result.hsa_fsa_eligible,
    requires_lmn: result.requires_lmn,
    status: result.status,
    category: result.category,
    source: result.source,
    message: result.message,
    checked_at: checkedAt.toISOString(),
  };
}

/** The stored eligibility of `product` in the result shape of the engine. */
export function productEligibility(product: Product | ProductRecord): EligibilityResult {
  return {
    hsa_fsa_eligible: product.hsaFsaEligible,
    requires_lmn: product.requiresLmn,
    status: storedStatus(product.hsaFsaEligible, product.requiresLmn, product.eligibilityCategory),
    category: product.eligibilityCategory,
    source: product.eligibilitySource as EligibilityResult['source'],
    message: product.eligibilityMessage,
  };
}

/** The images of an entity (loaded) or of a read-model record, by position. */
export function productImages(product: Product | ProductRecord): readonly { id: number; url: string; position: number }[] {
  return Array.isArray(product.images) ? product.images : product.images.getItems();
}

/** The spec's Product object: REST responses and event payloads (from the entity with images loaded, or a read-model record). */
export function toProductResource(product: Product | ProductRecord) {
  return {
    id: product.id,
    object: 'product' as const,
    livemode: product.livemode,
    name: product.name,
    tagline: product.tagline,
    description: product.description,
    price: product.price,
    currency: product.currency,
    merchant_product_id: product.merchantProductId,
    upc_code_or_gtin: product.upcCodeOrGtin,
    status: product.status,
    eligibility: toEligibilityResource(productEligibility(product), product.eligibilityCheckedAt),
    images: productImages(product).map((image) => ({ id: image.id, url: image.url, is_primary: image.position === 0 })),
    metadata: product.metadata,
    created_at: product.createdAt.toISOString(),
    updated_at: product.updatedAt.toISOString(),
  };
}

export type ProductResource = ReturnType<typeof toProductResource>;
