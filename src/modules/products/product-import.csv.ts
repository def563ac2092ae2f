import { open, stat } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';

/** The columns of a catalog CSV, in the documented order (the header row names them, any order). */
export const IMPORT_COLUMNS = [
  'merchant_product_id',
  'name',
  'price',
  'currency',
  'upc',
  'tagline',
  'status',
  'image_urls',
  'hsa_fsa_eligibility',
  'iias_category',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
const REQUIRED: ImportColumn[] = ['merchant_product_id', 'name', 'price', 'currency'];

/** Largest file the import reads (checked before reading a byte). */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

/** The file cannot be imported at all (size, encoding, header, CSV syntax): nothing is written. */
export class ImportFileError extends Error {}

/**
 * One data row: its line number in the file, its cells by column (absent columns are ''), the
 * columns the header named (a column left out keeps what it sets where that matters: the
 * merchant's eligibility) and, when it cannot be read as cells of the header, the problem.
 */
export type CsvRow = CsvTableRow<ImportColumn>;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes >= 10 * 1024 * 1024 ? 0 : 1)} MB`;

/** Reads and checks a catalog CSV: size first, then UTF-8, then the header; rows keep their line numbers. */
export async function readCatalogCsv(path: string): Promise<CsvRow[]> {
  const info = await stat(path).catch(() => {
    throw new ImportFileError(`${path}: no such file`);
  });
  if (!info.isFile()) throw new ImportFileError(`${path} is not a file`);
  if (info.size > MAX_IMPORT_BYTES) {
    throw new ImportFileError(
      `${path} is ${mb(info.size)}; a catalog import takes files up to ${mb(MAX_IMPORT_BYTES)}. Split it into several files.`,
    );
  }
  const handle = await open(path, 'r');
  const bytes = await handle.readFile().finally(() => handle.close());
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ImportFileError(`${path} is UTF-16 text; save it as CSV UTF-8 and import again.`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8Line(bytes);
    throw new ImportFileError(
      `${path} is not UTF-8 text (first bad byte on line ${at}); save it as CSV UTF-8 (e.g. not Windows-1252/Latin-1) and import again.`,
    );
  }
  return parseCsvTable(text, path, IMPORT_COLUMNS, REQUIRED);
}

/** A CSV table's data rows: cells by column, the header's columns, each row's line number. */
export interface CsvTableRow<C extends string> {
  line: number;
  cells: Record<C, string>;
  columns: ReadonlySet<C>;
  problem?: string;
}

/**
 * Parses CSV text whose header row names columns of `known` (any order, `required` ones present,
 * none unknown or repeated); refuses broken quoting. `name` is how messages call the input.
 */
export function parseCsvTable<C extends string>(
  text: string,
  name: string,
  known: readonly C[],
  required: readonly C[],
): CsvTableRow<C>[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // csv-parse's types do not model `info: true`: each record then comes as `{ record, info }`.
    records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (err) {
    throw new ImportFileError(`${name} is not valid CSV: ${(err as Error).message}`);
  }
  if (records.length === 0) throw new ImportFileError(`${name} is empty: expected a header row (${known.join(',')})`);
  const header = records[0].record.map((h) => h.trim().toLowerCase());
  const unknown = header.filter((h) => !(known as readonly string[]).includes(h));
  const missing = required.filter((c) => !header.includes(c));
  const repeated = header.filter((h, i) => header.indexOf(h) !== i);
  if (unknown.length || missing.length || repeated.length) {
    const problems = [
      unknown.length && `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `'${c}'`).join(', ')}`,
      missing.length && `missing ${missing.map((c) => `'${c}'`).join(', ')}`,
      repeated.length && `repeated ${repeated.map((c) => `'${c}'`).join(', ')}`,
    ].filter(Boolean);
    throw new ImportFileError(
      `${name}: wrong header row (${problems.join('; ')}). Expected: ${known.join(',')} (${required.map((c) => `'${c}'`).join(', ')} required, any order).`,
    );
  }
  const columns = new Set(header as C[]);
  return records.slice(1).map(({ record, info: { lines } }) => {
    const cells = Object.fromEntries(known.map((c) => [c, ''])) as Record<C, string>;
    header.forEach((column, i) => (cells[column as C] = record[i] ?? ''));
    const problem =
      record.length !== header.length ? `has ${record.length} cells, the header has ${header.length}` : undefined;
    return { line: lines, cells, columns, problem };
  });
}

function firstInvalidUtf8Line(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 0x0a) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, i));
      } catch {
        return line;
      }
      line++;
      start = i + 1;
    }
  }
  return line;
}
