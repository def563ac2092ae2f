import { MAX_AMOUNT } from '../../platform/money.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { scope, withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events/events.service.js';
import type { Page, PageRequest } from '../../platform/pagination/keyset.js';
import { isIso4217, parseInput, requireObject } from '../../platform/validation.js';
import { checkEligibility as runEngine } from '../eligibility/eligibility.engine.js';
import { validateGtin } from '../eligibility/gtin.js';
import { Product, ProductImage } from './product.entity.js';
import { readProduct, readProductPage, type ProductRecord } from './product.read-model.js';
import {
  changeReason,
  decideEligibility,
  decisionChanged,
  snapshotOf,
  type EligibilityChangeReason,
  type EligibilityOverride,
} from './product-eligibility.js';
import {
  productEligibility,
  toEligibilityChange,
  toEligibilityResource,
  toProductResource,
  type EligibilityResource,
} from './product.resource.js';
import {
  checkEligibilityBatchSchema,
  checkEligibilitySchema,
  createProductSchema,
  listProductsSchema,
  productIdSchema,
  updateProductSchema,
  type CreateProductInput,
  type EligibilityOverrideInput,
  type EligibilityQuery,
  type ProductFilters,
} from './product.schemas.js';

/** Highest accepted unit price (the one amount bound). */
export const MAX_PRICE = MAX_AMOUNT;

/** Price and currency are judged before anything else, with their own codes (contract). */
function checkPriceAndCurrency(body: Record<string, unknown>): void {
  const { price, currency } = body;
  if (
    price !== undefined &&
    !(typeof price === 'number' && Number.isInteger(price) && price > 0 && price <= MAX_PRICE)
  ) {
    throw new DomainError('invalid_price', `price must be a positive integer number of cents, at most ${MAX_PRICE}`, {
      param: 'price',
    });
  }
  if (
    currency !== undefined &&
    !(typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency) && isIso4217(currency))
  ) {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the raw value as given, whatever its JSON type (an object reads [object Object])
    throw new DomainError('invalid_currency', `currency '${String(currency)}' is not a supported ISO 4217 code`, {
      param: 'currency',
    });
  }
}

/** Validates a UPC/GTIN and returns its digits, or throws 422 naming what is wrong (as `field`). */
function cleanGtin(code: string | null | undefined, field = 'upc_code_or_gtin'): string | null {
  if (code === undefined || code === null || code === '') return null;
  const check = validateGtin(code);
  if (!check.valid) {
    const message = check.reason ?? 'is not a valid UPC/GTIN';
    throw DomainError.field(field, message);
  }
  return code.replace(/[\s-]/g, '');
}

/** Who set an override through the API: the key used (its mode is the product's). */
const setByKey = (ctx: ServiceContext) => `api_key:${ctx.principal.keyId}`;

/** The override an input asks for: `null` removes it; the same status and category keep the stored one (and when it was set). */
export function overrideFrom(
  input: EligibilityOverrideInput | null,
  stored: EligibilityOverride | null,
  setBy: string,
  at: Date,
): EligibilityOverride | null {
  if (!input) return null;
  const category = input.category ?? null;
  if (stored && stored.status === input.status && stored.category === category) return stored;
  return { status: input.status, category, set_by: setBy, set_at: at.toISOString() };
}

/** Records `product.eligibility_changed` when the decision moved (status, source or IIAS category). */
export function recordEligibilityChange(
  ctx: ServiceContext,
  product: Product,
  before: ReturnType<typeof snapshotOf> | null,
  reason: EligibilityChangeReason,
): void {
  if (before && decisionChanged(before, snapshotOf(product)))
    recordEvent(ctx, 'product.eligibility_changed', toEligibilityChange(product, before, reason));
}

function setImages(em: EntityManager, product: Product, urls: string[]): void {
  product.images.removeAll();
  urls.forEach((url, position) => product.images.add(em.create(ProductImage, { product, url, position })));
}

async function assertMerchantProductIdFree(
  ctx: ServiceContext,
  em: EntityManager,
  merchantProductId: string | null,
  exceptId?: number,
) {
  if (!merchantProductId) return;
  const clash = await em.findOne(
    Product,
    { ...scope(ctx), merchantProductId, status: { $ne: 'archived' } },
    { fields: ['id'] },
  );
  if (clash && clash.id !== exceptId) throw duplicateMerchantProductId(merchantProductId, clash.id);
}

function duplicateMerchantProductId(value: string, existingId?: number): DomainError {
  const message = existingId ? `is already used by product ${existingId}` : 'is already used by another product';
  return new DomainError('validation_error', `Invalid request: merchant_product_id '${value}' ${message}`, {
    param: 'merchant_product_id',
    details: [{ field: 'merchant_product_id', message }],
  });
}

/** Flushes, turning a lost race on the merchant_product_id index into the same 422. */
async function flushProduct(em: EntityManager, product: Product): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && product.merchantProductId)
      throw duplicateMerchantProductId(product.merchantProductId);
    throw err;
  }
}

/** Validates a new product exactly as create does: price and currency first, then the fields, then the UPC/GTIN check digit. */
export function parseNewProduct(body: unknown): { input: CreateProductInput; upc: string | null } {
  const raw = requireObject(body);
  checkPriceAndCurrency(raw);
  const input = parseInput(createProductSchema, raw);
  return { input, upc: cleanGtin(input.upc_code_or_gtin) };
}

/** Creates a product, decides its eligibility and records `product.created` in the same transaction. */
export async function createProduct(ctx: ServiceContext, body: unknown): Promise<Product> {
  const { input, upc } = parseNewProduct(body);
  return ctx.em.transactional(async (em) => {
    await assertMerchantProductIdFree(ctx, em, input.merchant_product_id ?? null);
    const now = ctx.now();
    const product = em.create(Product, {
      ...scope(ctx),
      name: input.name,
      tagline: input.tagline ?? null,
      description: input.description ?? null,
      price: input.price,
      currency: input.currency.toUpperCase(),
      merchantProductId: input.merchant_product_id ?? null,
      upcCodeOrGtin: upc,
      status: input.status,
      metadata: input.metadata,
      ...decideEligibility(
        runEngine({ name: input.name, upc_code_or_gtin: upc }),
        overrideFrom(input.hsa_fsa_eligibility ?? null, null, setByKey(ctx), now),
        now,
      ),
      createdAt: now,
      updatedAt: now,
    });
    setImages(em, product, input.images);
    await flushProduct(em, product);
    recordEvent(withEm(ctx, em), 'product.created', toProductResource(product));
    await em.flush();
    return product;
  });
}

function parseProductId(id: unknown): number {
  const parsed = productIdSchema.safeParse(id);
  if (!parsed.success) throw DomainError.notFound('product', String(id));
  return parsed.data;
}

/** Loads one product entity of the caller by its numeric id (any status) to change it, or 404 `not_found`. */
export async function getProduct(ctx: ServiceContext, id: unknown): Promise<Product> {
  const productId = parseProductId(id);
  const product = await ctx.em.findOne(Product, { id: productId, ...scope(ctx) }, { populate: ['images'] });
  if (!product) throw DomainError.notFound('product', productId);
  return product;
}

/** Updates the given fields (omitted fields are kept, `null` clears an optional one); name or UPC changes re-run the eligibility check. */
export async function updateProduct(ctx: ServiceContext, id: unknown, body: unknown): Promise<Product> {
  const raw = requireObject(body);
  checkPriceAndCurrency(raw);
  const input = parseInput(updateProductSchema, raw);
  const upc = input.upc_code_or_gtin === undefined ? undefined : cleanGtin(input.upc_code_or_gtin);
  return ctx.em.transactional(async (em) => {
    const product = await getProduct(withEm(ctx, em), id);
    if (product.status === 'archived') {
      throw new DomainError(
        'invalid_state',
        `Product ${product.id} is archived and can no longer be changed; create a new product instead.`,
        { param: 'id' },
      );
    }
    if (
      input.merchant_product_id !== undefined &&
      input.merchant_product_id !== product.merchantProductId &&
      input.status !== 'archived'
    ) {
      await assertMerchantProductIdFree(ctx, em, input.merchant_product_id, product.id);
    }
    const now = ctx.now();
    const upcBefore = product.upcCodeOrGtin;
    if (input.name !== undefined) product.name = input.name;
    if (input.tagline !== undefined) product.tagline = input.tagline;
    if (input.description !== undefined) product.description = input.description;
    if (input.price !== undefined) product.price = input.price;
    if (input.currency !== undefined) product.currency = input.currency.toUpperCase();
    if (input.merchant_product_id !== undefined) product.merchantProductId = input.merchant_product_id;
    if (upc !== undefined) product.upcCodeOrGtin = upc;
    if (input.metadata !== undefined) product.metadata = input.metadata;
    if (input.status !== undefined) product.status = input.status;
    if (input.images !== undefined) setImages(em, product, input.images);
    const before = snapshotOf(product);
    const stored = product.eligibilityOverride;
    const override =
      input.hsa_fsa_eligibility === undefined
        ? stored
        : overrideFrom(input.hsa_fsa_eligibility, stored, setByKey(ctx), now);
    if (input.name !== undefined || upc !== undefined || override !== stored) {
      Object.assign(
        product,
        decideEligibility(runEngine({ name: product.name, upc_code_or_gtin: product.upcCodeOrGtin }), override, now),
      );
    }
    product.updatedAt = now;
    await flushProduct(em, product);
    const reason = changeReason({
      override: override !== stored,
      barcode: upc !== undefined && upc !== upcBefore,
      overrideNow: override,
    });
    recordEligibilityChange(withEm(ctx, em), product, before, reason);
    recordEvent(
      withEm(ctx, em),
      product.status === 'archived' ? 'product.archived' : 'product.updated',
      toProductResource(product),
    );
    await em.flush();
    return product;
  });
}

/** Archives (soft-deletes) a product: it leaves lists and checkout matching but stays readable by id. */
export async function archiveProduct(ctx: ServiceContext, id: unknown): Promise<Product> {
  return updateProduct(ctx, id, { status: 'archived' });
}

/** Validates list query parameters (400 `invalid_request` on a bad one). */
export function parseListProductsQuery(query: unknown) {
  const q = parseInput(listProductsSchema, query, 'invalid_request');
  if (q.created_after && q.created_before && q.created_after > q.created_before) {
    throw new DomainError('invalid_request', 'created_after must be before created_before', { param: 'created_after' });
  }
  const { limit, starting_after, ...filters } = q;
  return { filters, page: { limit, after: starting_after } satisfies PageRequest<number> };
}

/** One product of the caller to read (any status), or 404 `not_found`: the read model, one statement. */
export async function findProduct(ctx: ServiceContext, id: unknown): Promise<ProductRecord> {
  return readProduct(ctx, parseProductId(id));
}

/** A page of the caller's products, newest first; archived ones only when asked for by status (the read model: one statement). */
export async function listProducts(
  ctx: ServiceContext,
  filters: ProductFilters,
  page: PageRequest<number>,
  cursorParam = 'starting_after',
): Promise<Page<ProductRecord>> {
  return readProductPage(ctx, filters, page, cursorParam);
}

export type EligibilityCheck = EligibilityResource & {
  product_id: number | null;
  upc_code_or_gtin: string | null;
  name: string | null;
};

/** One check: the stored decision of `product` when only its id was given, else the engine on the given (or stored) name and UPC. */
function checkOne(
  ctx: ServiceContext,
  input: EligibilityQuery,
  product: Product | undefined,
  field = '',
): EligibilityCheck {
  if (product && input.name === undefined && input.upc_code_or_gtin === undefined) {
    return {
      ...toEligibilityResource(productEligibility(product), product.eligibilityCheckedAt),
      product_id: product.id,
      name: product.name,
      upc_code_or_gtin: product.upcCodeOrGtin,
    };
  }
  const name = input.name ?? product?.name;
  const upc = cleanGtin(input.upc_code_or_gtin ?? product?.upcCodeOrGtin, `${field}upc_code_or_gtin`);
  const result = runEngine({ name: name ?? null, upc_code_or_gtin: upc });
  return {
    ...toEligibilityResource(result, ctx.now()),
    product_id: input.product_id ?? null,
    name: name ?? null,
    upc_code_or_gtin: upc,
  };
}

/** Checks eligibility of a name and/or UPC/GTIN, or of a stored product, without saving anything. */
export async function checkEligibility(ctx: ServiceContext, body: unknown): Promise<EligibilityCheck> {
  const input = parseInput(checkEligibilitySchema, requireObject(body));
  return checkOne(ctx, input, input.product_id === undefined ? undefined : await getProduct(ctx, input.product_id));
}

/** Checks up to 100 items (`{items: [...]}`, each in the single form) in the order given, reading the products named by id in one query; saves nothing. */
export async function checkEligibilityBatch(ctx: ServiceContext, body: unknown): Promise<EligibilityCheck[]> {
  const { items } = parseInput(checkEligibilityBatchSchema, requireObject(body));
  const ids = [...new Set(items.flatMap((item) => item.product_id ?? []))];
  const products = new Map(
    (ids.length ? await ctx.em.find(Product, { id: { $in: ids }, ...scope(ctx) }) : []).map((p) => [p.id, p]),
  );
  return items.map((item, i) => {
    const product = item.product_id === undefined ? undefined : products.get(item.product_id);
    if (item.product_id !== undefined && !product)
      throw DomainError.notFound('product', item.product_id, `items.${i}.product_id`);
    return checkOne(ctx, item, product, `items.${i}.`);
  });
}

/** `POST /products/check-eligibility`: a list of checks when the body has `items`, else the single check. */
export async function checkEligibilityRequest(ctx: ServiceContext, body: unknown) {
  const object = requireObject(body);
  if (!('items' in object)) return checkEligibility(ctx, object);
  return {
    object: 'list' as const,
    data: await checkEligibilityBatch(ctx, object),
    has_more: false,
    next_cursor: null,
  };
}
