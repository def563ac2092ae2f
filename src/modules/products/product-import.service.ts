import type { QueryResultRow } from 'pg';
import type { ServiceContext } from '../../platform/context.js';
import { bulkInsert, bulkRows, runBulk } from '../../platform/db/bulk.js';
import { prefixedId } from '../../platform/db/ids.js';
import { runStatement } from '../../platform/db/sql.js';
import { Event } from '../../platform/events/event.entity.js';
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
import {
  validateCatalogRows,
  type Candidate,
  type ImportProgress,
  type ImportRejection,
} from './product-import.validation.js';
import { Product, ProductImage, type ProductStatus } from './product.entity.js';
import type { ProductRecord } from './product.read-model.js';
import { toEligibilityChange, toProductResource } from './product.resource.js';
import { overrideFrom } from './product.service.js';

/** Who set an override the catalog import wrote. */
const SET_BY = 'import';

/** Rows per multi-row statement. */
const CHUNK = 2500;

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

/** A stored product as the import compares it with a row (its columns as the select names them). */
interface Existing {
  id: number;
  merchant_product_id: string;
  name: string;
  tagline: string | null;
  price: number;
  currency: string;
  upc_code_or_gtin: string | null;
  status: ProductStatus;
  hsa_fsa_eligible: boolean;
  requires_lmn: boolean;
  eligibility_category: string | null;
  eligibility_source: EligibilitySource;
  eligibility_message: string;
  eligibility_override: EligibilityOverride | null;
  eligibility_suggested: SuggestedEligibility;
  images: string[];
}

/** A product as the upsert answers it. */
type WrittenProduct = Omit<ProductRecord, 'livemode' | 'images'> & { merchantProductId: string; inserted: boolean };

/** The columns a changed row sets, as the upsert writes them (and a stored product takes on conflict). */
const PRODUCT_CHANGES = [
  'name',
  'tagline',
  'price',
  'currency',
  'upcCodeOrGtin',
  'status',
  'hsaFsaEligible',
  'requiresLmn',
  'eligibilityCategory',
  'eligibilitySource',
  'eligibilityMessage',
  'eligibilityOverride',
  'eligibilitySuggested',
  'updatedAt',
] as const satisfies readonly (keyof Product)[];

/** What the upsert answers for each product written. */
const PRODUCT_ANSWER = [
  'id',
  'merchantProductId',
  ...PRODUCT_CHANGES,
  'description',
  'eligibilityCheckedAt',
  'metadata',
  'createdAt',
] as const satisfies readonly (keyof Product)[];

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
      const products = await bulkRows<WrittenProduct>(
        em,
        bulkInsert(
          em,
          Product,
          chunk.map(({ c, eligibility: e }) => ({
            name: c.name,
            tagline: c.tagline,
            price: c.price,
            currency: c.currency,
            merchantProductId: c.mpid,
            upcCodeOrGtin: c.upc,
            status: c.status,
            hsaFsaEligible: e.hsaFsaEligible,
            requiresLmn: e.requiresLmn,
            eligibilityCategory: e.eligibilityCategory,
            eligibilitySource: e.eligibilitySource,
            eligibilityMessage: e.eligibilityMessage,
            eligibilityOverride: e.eligibilityOverride,
            eligibilitySuggested: e.eligibilitySuggested,
          })),
          {
            constants: {
              merchant: merchantId,
              livemode,
              eligibilityCheckedAt: now,
              metadata: {},
              createdAt: now,
              updatedAt: now,
            },
            onConflict: {
              target: ['merchant', 'livemode', 'merchantProductId'],
              where: `status <> 'archived'`,
              update: PRODUCT_CHANGES,
              // Checked again only when what the decision rests on moved.
              set: {
                eligibilityCheckedAt: `case when t.name is distinct from excluded.name or t.upc_code_or_gtin is distinct from excluded.upc_code_or_gtin
                  or t.eligibility_override is distinct from excluded.eligibility_override then excluded.eligibility_checked_at else t.eligibility_checked_at end`,
              },
            },
            returning: PRODUCT_ANSWER,
            returningSql: '(t.xmax = 0) as inserted',
          },
        ),
      );
      const byMpid = new Map(products.map((p) => [p.merchantProductId, p]));
      const withNewImages = chunk
        .filter((x) => x.imagesChanged)
        .map((x) => ({ id: byMpid.get(x.c.mpid)!.id, urls: x.c.images, inserted: byMpid.get(x.c.mpid)!.inserted }));
      const images = new Map<number, Image[]>();
      if (withNewImages.length) {
        const replaced = withNewImages.filter((p) => !p.inserted).map((p) => p.id);
        if (replaced.length)
          await sql(
            `delete from product_images where product_id in (select jsonb_array_elements_text(?::jsonb)::int)`,
            [JSON.stringify(replaced)],
          );
        const rows = withNewImages.flatMap((p) => p.urls.map((url, position) => ({ product: p.id, url, position })));
        const inserted = await bulkRows<Image>(
          em,
          bulkInsert(em, ProductImage, rows, { returning: ['id', 'product', 'url', 'position'] }),
        );
        for (const img of inserted) images.set(img.product, [...(images.get(img.product) ?? []), img]);
      }
      const unchangedImages = chunk
        .filter((x) => !x.imagesChanged && x.c.images.length)
        .map((x) => byMpid.get(x.c.mpid)!.id);
      if (unchangedImages.length) {
        const kept = await sql<Image>(
          `select id, product_id as product, url, position from product_images where product_id in (select jsonb_array_elements_text(?::jsonb)::int)`,
          [JSON.stringify(unchangedImages)],
        );
        for (const img of kept) images.set(img.product, [...(images.get(img.product) ?? []), img]);
      }

      const byMpidChange = new Map(chunk.map((x) => [x.c.mpid, x]));
      const events = products.flatMap((p) => {
        if (p.inserted) report.created++;
        else report.updated++;
        const own = (images.get(p.id) ?? []).sort((a, b) => a.position - b.position);
        const record = fieldsOf(p, livemode, own);
        const event = (type: string, data: Record<string, unknown>) => ({ id: prefixedId('evt'), type, data });
        const out = [event(p.inserted ? 'product.created' : 'product.updated', toProductResource(record))];
        const { before, overrideMoved } = byMpidChange.get(p.merchantProductId)!;
        const was = before && snapshotOf(existingColumns(before));
        if (!p.inserted && was && decisionChanged(was, snapshotOf(record))) {
          const reason = changeReason({
            override: overrideMoved,
            barcode: before.upc_code_or_gtin !== p.upcCodeOrGtin,
            overrideNow: p.eligibilityOverride,
          });
          out.unshift(event('product.eligibility_changed', toEligibilityChange(record, was, reason)));
        }
        return out;
      });
      // On the merchant's clock, like every event.
      await runBulk(em, [
        bulkInsert(em, Event, events, {
          constants: { merchant: merchantId, livemode, createdAt: now, updatedAt: now },
        }),
      ]);
      written += chunk.length;
      opts.progress?.('write', written, changes.length);
    }
  });
  report.committed = true;
  return report;
}

/** A product image as written or kept. */
interface Image {
  id: number;
  product: number;
  url: string;
  position: number;
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

function fieldsOf({ inserted: _inserted, ...p }: WrittenProduct, livemode: boolean, images: Image[]): ProductRecord {
  return {
    ...p,
    livemode,
    eligibilityCheckedAt: new Date(p.eligibilityCheckedAt),
    createdAt: new Date(p.createdAt),
    updatedAt: new Date(p.updatedAt),
    images,
  };
}
