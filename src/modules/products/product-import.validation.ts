import { DomainError } from '../../platform/errors.js';
import type { CsvRow } from './product-import.csv.js';
import type { ProductStatus } from './product.entity.js';
import type { EligibilityOverrideInput } from './product.schemas.js';
import { parseNewProduct } from './product.service.js';

/**
 * The catalog import's first half: each CSV row checked as the products API checks a new product
 * (its own definitions), before anything is written (product-import.service.ts).
 */

export interface ImportRejection {
  line: number;
  merchant_product_id: string | null;
  reason: string;
}

export type ImportProgress = (stage: 'validate' | 'write', done: number, total: number) => void;

export interface Candidate {
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
