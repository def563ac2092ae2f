import { LockMode } from '@mikro-orm/core';
import { scope, withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { validateGtin } from '../eligibility/gtin.js';
import {
  decideEligibility,
  engineResultOf,
  IIAS_CATEGORIES,
  snapshotOf,
  type EligibilityOverride,
  type IiasCategory,
} from './product-eligibility.js';
import { ImportFileError, parseCsvTable, type CsvTableRow } from './product-import.csv.js';
import { Product } from './product.entity.js';
import { toProductResource } from './product.resource.js';
import { overrideFrom, recordEligibilityChange } from './product.service.js';

/**
 * The bulk eligibility list (a SIG-IS Eligible Product List extract, or the merchant's own): CSV
 * rows of barcode → flag (and optionally an IIAS category), matched to the caller's products by
 * barcode (every form of one GTIN compares equal), each match taking the row as its merchant
 * override. Authoritative for what it lists; products it does not list keep their decision.
 */

export const ELIGIBILITY_LIST_COLUMNS = ['upc', 'hsa_fsa_eligibility', 'iias_category', 'description'] as const;
type ListColumn = (typeof ELIGIBILITY_LIST_COLUMNS)[number];

/** Most rows one call takes (the request body is at most 1 MB anyway). */
export const MAX_LIST_ROWS = 50_000;

/** Who set an override an eligibility list wrote. */
const SET_BY = 'eligibility_list';

// SIG-IS extracts and spreadsheets write the flag as Y/N as often as in words.
const FLAGS: Record<string, EligibilityOverride['status']> = {
  eligible: 'eligible',
  y: 'eligible',
  yes: 'eligible',
  true: 'eligible',
  '1': 'eligible',
  requires_lmn: 'requires_lmn',
  lmn: 'requires_lmn',
  not_eligible: 'not_eligible',
  ineligible: 'not_eligible',
  n: 'not_eligible',
  no: 'not_eligible',
  false: 'not_eligible',
  '0': 'not_eligible',
};

export interface EligibilityListReport {
  object: 'eligibility_list_import';
  rows: number;
  /** Rows whose barcode is on at least one product. */
  matched: number;
  /** Products whose decision the list changed, and those it left as they were. */
  products_changed: number;
  products_unchanged: number;
  /** Rows whose barcode is on none of the caller's (non-archived) products. */
  unmatched: { line: number; upc: string }[];
}

interface ListRow {
  line: number;
  upc: string;
  gtin: string;
  status: EligibilityOverride['status'];
  category: IiasCategory | null;
}

/** Validates every row; any bad row refuses the whole list (422 naming each line), as the catalog import does. */
function parseList(text: string): ListRow[] {
  let table: CsvTableRow<ListColumn>[];
  try {
    table = parseCsvTable(text, 'The eligibility list', ELIGIBILITY_LIST_COLUMNS, ['upc', 'hsa_fsa_eligibility']);
  } catch (err) {
    if (err instanceof ImportFileError) throw new DomainError('invalid_request', err.message, { param: 'body' });
    throw err;
  }
  if (table.length > MAX_LIST_ROWS) {
    throw new DomainError(
      'invalid_request',
      `The eligibility list has ${table.length} rows; one call takes up to ${MAX_LIST_ROWS}. Send it in parts.`,
      { param: 'body' },
    );
  }
  const rows: ListRow[] = [];
  const details: { field: string; message: string }[] = [];
  const seen = new Map<string, number>();
  for (const { line, cells, problem } of table) {
    const fail = (message: string) => details.push({ field: `line ${line}`, message });
    if (problem) {
      fail(`row ${problem}`);
      continue;
    }
    const check = validateGtin(cells.upc);
    const status = FLAGS[cells.hsa_fsa_eligibility.toLowerCase()];
    const category = cells.iias_category.toLowerCase();
    if (!check.valid || !check.normalized) fail(`upc ${check.reason ?? 'is not a valid UPC/GTIN'}`);
    else if (!status)
      fail(
        `hsa_fsa_eligibility '${cells.hsa_fsa_eligibility}' is not one of eligible, requires_lmn, not_eligible (or Y/N)`,
      );
    else if (category && !(IIAS_CATEGORIES as readonly string[]).includes(category))
      fail(`iias_category '${cells.iias_category}' is not one of ${IIAS_CATEGORIES.join(', ')}`);
    else if (seen.has(check.normalized)) fail(`upc ${cells.upc} is already on line ${seen.get(check.normalized)}`);
    else {
      seen.set(check.normalized, line);
      rows.push({
        line,
        upc: cells.upc,
        gtin: check.normalized,
        status,
        category: (category || null) as IiasCategory | null,
      });
    }
  }
  if (details.length) {
    throw new DomainError(
      'validation_error',
      `Invalid request: ${details.length} row(s) of the eligibility list are invalid; nothing was changed`,
      { param: 'body', details },
    );
  }
  return rows;
}

/**
 * Applies an eligibility list (CSV text) to the caller's products in one transaction: each
 * product whose barcode a row names takes the row as its override (`set_by` `eligibility_list`),
 * recording `product.updated` and, when its decision moved, `product.eligibility_changed`.
 */
export async function importEligibilityList(ctx: ServiceContext, body: unknown): Promise<EligibilityListReport> {
  if (typeof body !== 'string' || body.trim() === '') {
    throw new DomainError(
      'invalid_request',
      'Send the eligibility list as CSV text (Content-Type: text/csv) with a header row: upc,hsa_fsa_eligibility[,iias_category][,description].',
      {
        param: 'body',
      },
    );
  }
  const rows = parseList(body);
  return ctx.em.transactional(async (em) => {
    const now = ctx.now();
    // Locked in id order: two lists applied at once take turns instead of deadlocking.
    const products = await em.find(
      Product,
      { ...scope(ctx), upcCodeOrGtin: { $ne: null }, status: { $ne: 'archived' } },
      { populate: ['images'], orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['p0'] },
    );
    const byGtin = new Map<string, Product[]>();
    for (const p of products) {
      const gtin = validateGtin(p.upcCodeOrGtin!).normalized;
      if (gtin) byGtin.set(gtin, [...(byGtin.get(gtin) ?? []), p]);
    }
    const report: EligibilityListReport = {
      object: 'eligibility_list_import',
      rows: rows.length,
      matched: 0,
      products_changed: 0,
      products_unchanged: 0,
      unmatched: [],
    };
    const tx = withEm(ctx, em);
    for (const row of rows) {
      const matches = byGtin.get(row.gtin);
      if (!matches) {
        report.unmatched.push({ line: row.line, upc: row.upc });
        continue;
      }
      report.matched++;
      for (const product of matches) {
        const stored = product.eligibilityOverride;
        const override = overrideFrom({ status: row.status, category: row.category }, stored, SET_BY, now);
        if (override === stored) {
          report.products_unchanged++;
          continue;
        }
        const before = snapshotOf(product);
        Object.assign(product, decideEligibility(engineResultOf(product.eligibilitySuggested), override, now));
        product.updatedAt = now;
        report.products_changed++;
        recordEligibilityChange(tx, product, before, 'override_set');
        recordEvent(tx, 'product.updated', toProductResource(product));
      }
    }
    await em.flush();
    return report;
  });
}
