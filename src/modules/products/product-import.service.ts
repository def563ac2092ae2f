import type { QueryResultRow } from 'pg';
import type { ServiceContext } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import { checkEligibility as runEngine, type EligibilityStatus } from '../eligibility/eligibility.engine.js';
import {
  changeReason,
  decideEligibility,
  decisionChanged,
  engineResultOf,
  snapshotOf,
  statusOf,
  type EligibilityColumns,
  type EligibilityOverride,
  type EligibilitySource,
  type SuggestedEligibility,
} from './product-eligibility.js';
import type { CsvRow } from './product-import.csv.js';
import type { ProductStatus } from './product.entity.js';
import type { ProductRecord } from './product.read-model.js';
import { toEligibilityChange, toProductResource } from './product.resource.js';
import type { EligibilityOverrideInput } from './product.schemas.js';
import { overrideFrom, parseNewProduct } from './product.service.js';
import { runStatement } from '../../platform/db/sql.js';

/** Who set an override the catalog import wrote. */
const SET_BY = 'import';

/** Rows per multi-row statement. */
const CHUNK = 2500;

export interface ImportRejection {
  line: number;
  merchant_product_id: string | null;
  reason: string;
}

export interface ImportReport {
  /** False when rejected rows stopped the import: nothing was written. */
  committed: boolean;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: ImportRejection[];
  /** Eligibility of the imported (created, updated or unchanged) products, by status (requires_review: the engine could not decide; not payable until checked). */
  eligibility: Record<EligibilityStatus, number>;
}

export type ImportProgress = (stage: 'validate' | 'write', done: number, total: number) => void;

interface Candidate {
  line: number;
  mpid: string;
  name: string;
  tagline: string | null;
  price: number;
  currency: string;
  upc: string | null;
  status: ProductStatus;
  images: string[];
  /** The merchant's decision; undefined when the file has no `hsa_fsa_eligibility` column (the stored one stays). */
  override: EligibilityOverrideInput | null | undefined;
}

/** A stored product as the import compares it with a row. */
type Existing = Pick<
  ProductRow,
  | 'id'
  | 'merchant_product_id'
  | 'name'
  | 'tagline'
  | 'price'
  | 'currency'
  | 'upc_code_or_gtin'
  | 'status'
  | 'hsa_fsa_eligible'
  | 'requires_lmn'
  | 'eligibility_category'
  | 'eligibility_source'
  | 'eligibility_message'
  | 'eligibility_override'
  | 'eligibility_suggested'
> & { images: string[] };

/** The eligibility cells as the API's `hsa_fsa_eligibility`: an empty flag removes the override, a file without the column leaves it alone. */
function overrideCells({ cells, columns }: CsvRow): Record<string, unknown> | null | undefined {
  if (!columns.has('hsa_fsa_eligibility')) return cells.iias_category ? { category: cells.iias_category } : undefined;
  if (cells.hsa_fsa_eligibility === '') return cells.iias_category ? { category: cells.iias_category } : null;
  return {
    status: cells.hsa_fsa_eligibility.toLowerCase(),
    ...(cells.iias_category && { category: cells.iias_category.toLowerCase() }),
  };
}

/** A CSV row as the body the products API takes (so the API's validation applies as is). */
function toBody(row: CsvRow): Record<string, unknown> {
  const { cells } = row;
  const opt = (v: string) => (v === '' ? undefined : v);
  return {
    name: cells.name,
    price: /^-?\d+$/.test(cells.price) ? Number(cells.price) : cells.price,
    currency: cells.currency,
    merchant_product_id: cells.merchant_product_id,
    upc_code_or_gtin: opt(cells.upc),
    tagline: opt(cells.tagline),
    status: opt(cells.status),
    images: cells.image_urls ? cells.image_urls.split(/[|\s]+/).filter(Boolean) : undefined,
    hsa_fsa_eligibility: overrideCells(row),
  };
}

function reasonOf(err: unknown): string {
  if (err instanceof DomainError) {
    const details = Array.isArray(err.details) ? err.details : [];
    const text = details.length
      ? details
          .map((d: { field?: string; message: string }) => (d.field ? `${d.field} ${d.message}` : d.message))
          .join('; ')
      : err.message.replace(/^Invalid request: /, '');
    return `${text} (${err.code})`;
  }
  throw err;
}

/** Validates every row with the products API's own definitions; duplicates of an earlier row's merchant_product_id are rejected. */
export function validateCatalogRows(
  rows: CsvRow[],
  progress?: ImportProgress,
): { candidates: Candidate[]; rejected: ImportRejection[] } {
  const candidates: Candidate[] = [];
  const rejected: ImportRejection[] = [];
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const mpid = row.cells.merchant_product_id || null;
    try {
      if (row.problem) throw new DomainError('invalid_request', `row ${row.problem}`);
      if (!mpid)
        throw new DomainError(
          'validation_error',
          'Invalid request: merchant_product_id is required to import (it is the key rows are matched on)',
          {
            details: [{ field: 'merchant_product_id', message: 'is required to import (rows are matched on it)' }],
          },
        );
      const { input, upc } = parseNewProduct(toBody(row));
      const earlier = seen.get(input.merchant_product_id!);
      if (earlier !== undefined)
        throw new DomainError(
          'validation_error',
          `Invalid request: merchant_product_id '${mpid}' is already on line ${earlier}`,
          {
            details: [{ field: 'merchant_product_id', message: `'${mpid}' is already on line ${earlier}` }],
          },
        );
      seen.set(input.merchant_product_id!, row.line);
      candidates.push({
        line: row.line,
        mpid: input.merchant_product_id!,
        name: input.name,
        tagline: input.tagline ?? null,
        price: input.price,
        currency: input.currency.toUpperCase(),
        upc,
        status: input.status,
        images: input.images,
        override: input.hsa_fsa_eligibility,
      });
    } catch (err) {
      rejected.push({ line: row.line, merchant_product_id: mpid, reason: reasonOf(err) });
    }
    if (progress && (i % 1000 === 999 || i === rows.length - 1)) progress('validate', i + 1, rows.length);
  });
  return { candidates, rejected };
}

const sameImages = (a: string[], b: string[]) => a.length === b.length && a.every((u, i) => u === b[i]);

/**
 * Imports catalog rows for the caller's merchant and mode: every row validated as the API
 * validates a new product, then upserted on `merchant_product_id` in multi-row statements in one
 * transaction (a row equal to the stored product is left alone, so a re-run changes nothing),
 * eligibility decided by the engine for new names and UPCs, `product.created` /
 * `product.updated` recorded for each change. With rejected rows nothing is written unless
 * `continueOnError`, which imports the valid rows.
 */
export async function importCatalog(
  ctx: ServiceContext,
  rows: CsvRow[],
  opts: { continueOnError: boolean; progress?: ImportProgress },
): Promise<ImportReport> {
  const { candidates, rejected } = validateCatalogRows(rows, opts.progress);
  const report: ImportReport = {
    committed: false,
    rows: rows.length,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected,
    eligibility: { eligible: 0, not_eligible: 0, requires_lmn: 0, requires_review: 0 },
  };
  if (rejected.length && !opts.continueOnError) return report;

  await ctx.em.transactional(async (em) => {
    const sql = <T extends QueryResultRow>(query: string, params: unknown[]) => runStatement<T>(em, query, params);
    const { merchantId, livemode } = ctx.principal;
    const existing = new Map<string, Existing>();
    for (let i = 0; i < candidates.length; i += 4 * CHUNK) {
      const ids = candidates.slice(i, i + 4 * CHUNK).map((c) => c.mpid);
      const found = await sql<Existing>(
        `select p.id, p.merchant_product_id, p.name, p.tagline, p.price, p.currency, p.upc_code_or_gtin, p.status, p.hsa_fsa_eligible, p.requires_lmn,
                p.eligibility_category, p.eligibility_source, p.eligibility_message, p.eligibility_override, p.eligibility_suggested,
                coalesce((select json_agg(i.url order by i.position) from product_images i where i.product_id = p.id), '[]') as images
           from products p
          where p.merchant_id = ? and p.livemode = ? and p.status <> 'archived' and p.merchant_product_id in (select jsonb_array_elements_text(?::jsonb))`,
        [merchantId, livemode, JSON.stringify(ids)],
      );
      for (const row of found) existing.set(row.merchant_product_id, row);
    }

    const now = ctx.now();
    const changes: {
      c: Candidate;
      eligibility: EligibilityColumns;
      recheck: boolean;
      imagesChanged: boolean;
      before: Existing | undefined;
      overrideMoved: boolean;
    }[] = [];
    for (const c of candidates) {
      const old = existing.get(c.mpid);
      const stored = old?.eligibility_override ?? null;
      const override = c.override === undefined ? stored : overrideFrom(c.override, stored, SET_BY, now);
      const overrideMoved = override !== stored;
      const renamed = !old || old.name !== c.name || old.upc_code_or_gtin !== c.upc;
      const recheck = renamed || overrideMoved;
      const eligibility =
        old && !renamed
          ? decideEligibility(engineResultOf(old.eligibility_suggested), override, now)
          : decideEligibility(runEngine({ name: c.name, upc_code_or_gtin: c.upc }), override, now);
      report.eligibility[statusOf(eligibility)]++;
      const imagesChanged = !old ? c.images.length > 0 : !sameImages(old.images, c.images);
      const same =
        old &&
        !recheck &&
        !imagesChanged &&
        old.tagline === c.tagline &&
        old.price === c.price &&
        old.currency === c.currency &&
        old.status === c.status;
      if (same) report.unchanged++;
      else changes.push({ c, eligibility, recheck, imagesChanged, before: old, overrideMoved });
    }

    let written = 0;
    for (let i = 0; i < changes.length; i += CHUNK) {
      const chunk = changes.slice(i, i + CHUNK);
      const products = await sql<ProductRow>(
        `insert into products as p (merchant_id, livemode, name, tagline, price, currency, merchant_product_id, upc_code_or_gtin, status,
                                    hsa_fsa_eligible, requires_lmn, eligibility_category, eligibility_source, eligibility_message, eligibility_checked_at, eligibility_override, eligibility_suggested, metadata, created_at, updated_at)
         select ?::text, ?::boolean, x.name, x.tagline, x.price, x.currency, x.mpid, x.upc, x.status, x.eligible, x.lmn, x.category, x.source, x.message, ?::timestamptz, x.override, x.suggested, '{}', ?::timestamptz, ?::timestamptz
           from jsonb_to_recordset(?::jsonb) as x(name text, tagline text, price int, currency text, mpid text, upc text, status text, eligible boolean, lmn boolean, category text, source text, message text, override jsonb, suggested jsonb)
         on conflict (merchant_id, livemode, merchant_product_id) where status <> 'archived' do update set
           name = excluded.name, tagline = excluded.tagline, price = excluded.price, currency = excluded.currency, upc_code_or_gtin = excluded.upc_code_or_gtin,
           status = excluded.status, hsa_fsa_eligible = excluded.hsa_fsa_eligible, requires_lmn = excluded.requires_lmn, eligibility_category = excluded.eligibility_category,
           eligibility_source = excluded.eligibility_source, eligibility_message = excluded.eligibility_message, updated_at = excluded.updated_at,
           eligibility_override = excluded.eligibility_override, eligibility_suggested = excluded.eligibility_suggested,
           eligibility_checked_at = case when p.name is distinct from excluded.name or p.upc_code_or_gtin is distinct from excluded.upc_code_or_gtin
                                          or p.eligibility_override is distinct from excluded.eligibility_override then excluded.eligibility_checked_at else p.eligibility_checked_at end
         returning p.id, p.merchant_product_id, (p.xmax = 0) as inserted, p.name, p.tagline, p.description, p.price, p.currency, p.upc_code_or_gtin, p.status, p.hsa_fsa_eligible, p.requires_lmn,
                   p.eligibility_category, p.eligibility_source, p.eligibility_message, p.eligibility_checked_at, p.eligibility_override, p.eligibility_suggested, p.metadata, p.created_at, p.updated_at`,
        [
          merchantId,
          livemode,
          now,
          now,
          now,
          JSON.stringify(
            chunk.map(({ c, eligibility: e }) => ({
              name: c.name,
              tagline: c.tagline,
              price: c.price,
              currency: c.currency,
              mpid: c.mpid,
              upc: c.upc,
              status: c.status,
              eligible: e.hsaFsaEligible,
              lmn: e.requiresLmn,
              category: e.eligibilityCategory,
              source: e.eligibilitySource,
              message: e.eligibilityMessage,
              override: e.eligibilityOverride,
              suggested: e.eligibilitySuggested,
            })),
          ),
        ],
      );
      const byMpid = new Map(products.map((p) => [p.merchant_product_id, p]));
      const withNewImages = chunk
        .filter((x) => x.imagesChanged)
        .map((x) => ({ id: byMpid.get(x.c.mpid)!.id, urls: x.c.images, inserted: byMpid.get(x.c.mpid)!.inserted }));
      const images = new Map<number, { id: number; url: string; position: number }[]>();
      if (withNewImages.length) {
        const replaced = withNewImages.filter((p) => !p.inserted).map((p) => p.id);
        if (replaced.length)
          await sql(
            `delete from product_images where product_id in (select jsonb_array_elements_text(?::jsonb)::int)`,
            [JSON.stringify(replaced)],
          );
        const rows = withNewImages.flatMap((p) => p.urls.map((url, position) => ({ product_id: p.id, url, position })));
        const inserted = rows.length
          ? await sql<{ id: number; product_id: number; url: string; position: number }>(
              `insert into product_images (product_id, url, position) select x.product_id, x.url, x.position from jsonb_to_recordset(?::jsonb) as x(product_id int, url text, position smallint) returning id, product_id, url, position`,
              [JSON.stringify(rows)],
            )
          : [];
        for (const img of inserted) images.set(img.product_id, [...(images.get(img.product_id) ?? []), img]);
      }
      const unchangedImages = chunk
        .filter((x) => !x.imagesChanged && x.c.images.length)
        .map((x) => byMpid.get(x.c.mpid)!.id);
      if (unchangedImages.length) {
        const kept = await sql<{ id: number; product_id: number; url: string; position: number }>(
          `select id, product_id, url, position from product_images where product_id in (select jsonb_array_elements_text(?::jsonb)::int)`,
          [JSON.stringify(unchangedImages)],
        );
        for (const img of kept) images.set(img.product_id, [...(images.get(img.product_id) ?? []), img]);
      }

      const byMpidChange = new Map(chunk.map((x) => [x.c.mpid, x]));
      const events = products.flatMap((p) => {
        if (p.inserted) report.created++;
        else report.updated++;
        const own = (images.get(p.id) ?? []).sort((a, b) => a.position - b.position);
        const record = fieldsOf(p, livemode, own);
        const event = (type: string, data: Record<string, unknown>) => ({ id: prefixedId('evt'), type, data });
        const out = [event(p.inserted ? 'product.created' : 'product.updated', toProductResource(record))];
        const { before, overrideMoved } = byMpidChange.get(p.merchant_product_id)!;
        const was = before && snapshotOf(existingColumns(before));
        if (!p.inserted && was && decisionChanged(was, snapshotOf(record))) {
          const reason = changeReason({
            override: overrideMoved,
            barcode: before.upc_code_or_gtin !== p.upc_code_or_gtin,
            overrideNow: p.eligibility_override,
          });
          out.unshift(event('product.eligibility_changed', toEligibilityChange(record, was, reason)));
        }
        return out;
      });
      await sql(
        `insert into events (id, merchant_id, livemode, type, data, created_at, updated_at)
         select x.id, ?, ?, x.type, x.data, ?::timestamptz, ?::timestamptz from jsonb_to_recordset(?::jsonb) as x(id text, type text, data jsonb)`,
        [merchantId, livemode, now, now, JSON.stringify(events)], // the merchant's clock, like every event
      );
      written += chunk.length;
      opts.progress?.('write', written, changes.length);
    }
  });
  report.committed = true;
  return report;
}

interface ProductRow {
  id: number;
  merchant_product_id: string;
  inserted: boolean;
  name: string;
  tagline: string | null;
  description: string | null;
  price: number;
  currency: string;
  upc_code_or_gtin: string | null;
  status: ProductStatus;
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  eligibility_category: string | null;
  eligibility_source: EligibilitySource;
  eligibility_message: string;
  eligibility_checked_at: Date;
  eligibility_override: EligibilityOverride | null;
  eligibility_suggested: SuggestedEligibility;
  metadata: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** A stored row's decision columns, for its before-snapshot. */
function existingColumns(old: Existing) {
  return {
    hsaFsaEligible: old.hsa_fsa_eligible,
    requiresLmn: old.requires_lmn,
    eligibilityCategory: old.eligibility_category,
    eligibilitySource: old.eligibility_source,
    eligibilityOverride: old.eligibility_override,
    eligibilitySuggested: old.eligibility_suggested,
  };
}

function fieldsOf(
  p: ProductRow,
  livemode: boolean,
  images: { id: number; url: string; position: number }[],
): ProductRecord {
  return {
    id: p.id,
    livemode,
    name: p.name,
    tagline: p.tagline,
    description: p.description,
    price: p.price,
    currency: p.currency,
    merchantProductId: p.merchant_product_id,
    upcCodeOrGtin: p.upc_code_or_gtin,
    status: p.status,
    hsaFsaEligible: p.hsa_fsa_eligible,
    requiresLmn: p.requires_lmn,
    eligibilityCategory: p.eligibility_category,
    eligibilitySource: p.eligibility_source,
    eligibilityMessage: p.eligibility_message,
    eligibilityCheckedAt: new Date(p.eligibility_checked_at),
    eligibilityOverride: p.eligibility_override,
    eligibilitySuggested: p.eligibility_suggested,
    metadata: p.metadata,
    createdAt: new Date(p.created_at),
    updatedAt: new Date(p.updated_at),
    images,
  };
}
