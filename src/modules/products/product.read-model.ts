import type { QueryConfig } from 'pg';
import type { ServiceContext } from '../../platform/context.js';
import { epochMs, queryRows, runStatement, withDates, type EpochRow } from '../../platform/db/sql.js';
import { DomainError } from '../../platform/errors.js';
import { keysetPageQuery, readModelPage, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import type { EligibilityColumns } from './product-eligibility.js';
import type { ProductStatus } from './product.entity.js';
import type { ProductFilters } from './product.schemas.js';

/**
 * The hot read path of products (REST get/list, GraphQL product/products, line-item products):
 * one statement that selects exactly the resource's columns, images aggregated in the same
 * statement, rows mapped straight to the resource. No entity hydration, identity map or query
 * builder; writes keep the ORM and its unit of work. `bench/baseline.ts` runs these same statements.
 */

export interface ProductImageRecord {
  id: number;
  url: string;
  position: number;
}

/** A product as the read model returns it: the entity's fields, images as a plain array. */
export interface ProductRecord extends EligibilityColumns {
  id: number;
  livemode: boolean;
  name: string;
  tagline: string | null;
  description: string | null;
  price: number;
  currency: string;
  merchantProductId: string | null;
  upcCodeOrGtin: string | null;
  status: ProductStatus;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  images: ProductImageRecord[];
}

/** The row as PostgreSQL sends it: timestamps as epoch milliseconds (no string parsing). */
export type ProductRow = EpochRow<ProductRecord, 'eligibilityCheckedAt' | 'createdAt' | 'updatedAt'>;

const ms = (column: string) => epochMs(`p.${column}`);

/** The columns of the Product resource (timestamps in epoch ms, images ordered by position). */
export const PRODUCT_COLUMNS = `p.id, p.livemode, p.name, p.tagline, p.description, p.price, p.currency,
  p.merchant_product_id as "merchantProductId", p.upc_code_or_gtin as "upcCodeOrGtin", p.status,
  p.hsa_fsa_eligible as "hsaFsaEligible", p.requires_lmn as "requiresLmn", p.eligibility_category as "eligibilityCategory",
  p.eligibility_source as "eligibilitySource", p.eligibility_message as "eligibilityMessage",
  ${ms('eligibility_checked_at')} as "eligibilityCheckedAt", p.eligibility_override as "eligibilityOverride",
  p.eligibility_suggested as "eligibilitySuggested", p.metadata,
  ${ms('created_at')} as "createdAt", ${ms('updated_at')} as "updatedAt",
  coalesce((select json_agg(json_build_object('id', i.id, 'url', i.url, 'position', i.position) order by i.position)
    from product_images i where i.product_id = p.id), '[]'::json) as images`;

/** One product of a merchant and mode by id (any status). */
export function productByIdQuery(id: number, merchantId: string, livemode: boolean): QueryConfig {
  return {
    name: 'product_by_id',
    text: `select ${PRODUCT_COLUMNS} from products p where p.id = $1 and p.merchant_id = $2 and p.livemode = $3`,
    values: [id, merchantId, livemode],
  };
}

/** Products of a merchant and mode by ids (any status), for DataLoaders. */
export function productsByIdsQuery(ids: readonly number[], merchantId: string, livemode: boolean): QueryConfig {
  return {
    name: 'products_by_ids',
    text: `select ${PRODUCT_COLUMNS} from products p where p.id = any($1::int[]) and p.merchant_id = $2 and p.livemode = $3`,
    values: [ids, merchantId, livemode],
  };
}

/**
 * A keyset page of a merchant's products, newest first by `(created_at, id)` (oldest first when
 * reading backwards), one row more than the page to tell `hasMore`; the cursor row is looked up
 * in the same statement. The statement text depends only on which filters are present, so each
 * shape is prepared once per connection.
 */
export function productPageQuery(
  merchantId: string,
  livemode: boolean,
  filters: ProductFilters,
  page: PageRequest<number>,
): QueryConfig {
  return keysetPageQuery({
    name: 'product_page',
    table: 'products',
    alias: 'p',
    columns: PRODUCT_COLUMNS,
    merchantId,
    livemode,
    page,
    // Archived products are listed only when asked for by status.
    always: filters.status === undefined ? [`p.status <> 'archived'`] : [],
    filters: [
      { column: 'p.status', value: filters.status, letter: 's' },
      { column: 'p.hsa_fsa_eligible', value: filters.hsa_fsa_eligible, letter: 'e' },
      { column: 'p.merchant_product_id', value: filters.merchant_product_id, letter: 'm' },
      { column: 'p.created_at', value: filters.created_after || undefined, letter: 'a', op: '>=' },
      { column: 'p.created_at', value: filters.created_before || undefined, letter: 'b', op: '<=' },
    ],
  });
}

const toRecord = (row: ProductRow) => withDates<ProductRecord>(row, ['eligibilityCheckedAt', 'createdAt', 'updatedAt']);

/** One product of the caller by numeric id (any status), or 404 `not_found`. */
export async function readProduct(ctx: ServiceContext, id: number): Promise<ProductRecord> {
  const [row] = await queryRows<ProductRow>(
    ctx,
    productByIdQuery(id, ctx.principal.merchantId, ctx.principal.livemode),
  );
  if (!row) throw DomainError.notFound('product', id);
  return toRecord(row);
}

/** Products of the caller by ids (missing ones are simply absent). */
export async function readProductsByIds(ctx: ServiceContext, ids: readonly number[]): Promise<ProductRecord[]> {
  const rows = await queryRows<ProductRow>(
    ctx,
    productsByIdsQuery(ids, ctx.principal.merchantId, ctx.principal.livemode),
  );
  return rows.map(toRecord);
}

/** A page of the caller's products (the keyset rules of `paginate`, one statement; a second only when a cursor page is empty). */
export async function readProductPage(
  ctx: ServiceContext,
  filters: ProductFilters,
  page: PageRequest<number>,
  cursorParam: string,
): Promise<Page<ProductRecord>> {
  const { merchantId, livemode } = ctx.principal;
  const rows = await queryRows<ProductRow>(ctx, productPageQuery(merchantId, livemode, filters, page));
  return readModelPage(ctx, 'products', rows.map(toRecord), page, cursorParam);
}

/** What a checkout line item takes from the catalog product it names. */
export type LineItemProduct = Pick<
  ProductRecord,
  | 'id'
  | 'merchantProductId'
  | 'status'
  | 'hsaFsaEligible'
  | 'requiresLmn'
  | 'eligibilityOverride'
  | 'eligibilitySuggested'
>;

/** The caller's products that are not archived with these merchant product ids (in the caller's transaction if it holds one). */
export async function readProductsByMerchantIds(
  ctx: ServiceContext,
  merchantProductIds: readonly string[],
): Promise<LineItemProduct[]> {
  return runStatement<LineItemProduct>(
    ctx.em,
    `select p.id, p.merchant_product_id as "merchantProductId", p.status, p.hsa_fsa_eligible as "hsaFsaEligible", p.requires_lmn as "requiresLmn",
       p.eligibility_override as "eligibilityOverride", p.eligibility_suggested as "eligibilitySuggested"
     from products p where p.merchant_id = ? and p.livemode = ? and p.merchant_product_id in (select jsonb_array_elements_text(?::jsonb)) and p.status <> 'archived'`,
    [ctx.principal.merchantId, ctx.principal.livemode, JSON.stringify(merchantProductIds)],
  );
}
