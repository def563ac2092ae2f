import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, type Log } from '../platform/context.js';
import { Merchant } from '../modules/merchants/merchant.entity.js';
import { ImportFileError, readCatalogCsv } from '../modules/products/product-import.csv.js';
import { importCatalog, type ImportReport } from '../modules/products/product-import.service.js';
import type { ImportProgress } from '../modules/products/product-import.validation.js';
import { IMPORT_USAGE } from './usage.js';

export { IMPORT_USAGE };

const noop = () => undefined;
const silent: Log = { info: noop, warn: noop, error: noop, debug: noop };

/** The merchant named by --merchant, or the only one there is. */
async function resolveMerchant(orm: MikroORM, id: string | undefined): Promise<Merchant> {
  const em = orm.em.fork();
  if (id) {
    const merchant = await em.findOne(Merchant, { id });
    if (!merchant) throw new ImportFileError(`no merchant ${id}`);
    return merchant;
  }
  const merchants = await em.find(Merchant, {}, { limit: 2 });
  if (merchants.length !== 1)
    throw new ImportFileError(
      `${merchants.length ? 'several merchants exist' : 'no merchant exists'}: pass --merchant ID`,
    );
  return merchants[0];
}

/** A progress bar on a terminal, plain lines otherwise (both on stderr, the report goes to stdout). */
function progressReporter(): { progress: ImportProgress; stop: () => void } {
  const verbs = { validate: 'validated', write: 'written' } as const;
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: process.stderr, format: '{stage} [{bar}] {percentage}% {value}/{total} rows', hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let stage = '';
    return {
      progress: (s, done, total) => {
        if (s !== stage) {
          if (stage) bar.stop();
          stage = s;
          bar.start(total, 0, { stage: s === 'validate' ? 'validating' : 'writing   ' });
        }
        bar.update(done);
      },
      stop: () => stage && bar.stop(),
    };
  }
  let last = 0;
  return {
    progress: (s, done, total) => {
      if (done === total || done - last >= 10_000 || done < last) {
        process.stderr.write(`${verbs[s]} ${done}/${total} rows\n`);
        last = done === total ? 0 : done;
      }
    },
    stop: noop,
  };
}

/** The report as people read it. */
export function formatReport(report: ImportReport, file: string, merchant: string, livemode: boolean): string {
  const lines = [
    report.committed
      ? `Imported ${file} into ${merchant} (${livemode ? 'live' : 'test'} mode): ${report.rows} rows`
      : `Nothing imported from ${file}: ${report.rejected.length} of ${report.rows} rows rejected (pass --continue-on-error to import the others)`,
    `  created    ${report.created}`,
    `  updated    ${report.updated}`,
    `  unchanged  ${report.unchanged}`,
    `  rejected   ${report.rejected.length}`,
    ...report.rejected
      .slice(0, 50)
      .map((r) => `    line ${r.line}${r.merchant_product_id ? ` (${r.merchant_product_id})` : ''}: ${r.reason}`),
    ...(report.rejected.length > 50 ? [`    … and ${report.rejected.length - 50} more (use --json for all)`] : []),
  ];
  if (report.committed) {
    const e = report.eligibility;
    lines.push(
      `  eligibility: ${e.eligible} HSA/FSA eligible, ${e.not_eligible} not eligible, ${e.requires_lmn} need a letter of medical necessity, ${e.requires_review} to review (not payable until checked)`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `products import FILE.csv …`: exit 0 when the import committed, 1 when the file or a row stopped it. */
export async function productsImport(
  args: string[],
  withOrm: <T>(fn: (orm: MikroORM) => Promise<T>) => Promise<T>,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      merchant: { type: 'string' },
      mode: { type: 'string', default: 'test' },
      'continue-on-error': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1 || !['test', 'live'].includes(values.mode)) throw new Error(`usage: ${IMPORT_USAGE}`);
  const file = positionals[0];
  const livemode = values.mode === 'live';
  try {
    const rows = await readCatalogCsv(file); // size, encoding and header are judged before the database is touched
    const { report, merchant } = await withOrm(async (orm) => {
      const merchant = await resolveMerchant(orm, values.merchant);
      const ctx = systemContext(orm.em, merchant.id, livemode, Number(merchant.testClockOffsetMs), silent);
      const bar = progressReporter();
      try {
        return {
          report: await importCatalog(ctx, rows, {
            continueOnError: values['continue-on-error'],
            progress: bar.progress,
          }),
          merchant,
        };
      } finally {
        bar.stop();
      }
    });
    process.stdout.write(
      values.json ? `${JSON.stringify(report)}\n` : formatReport(report, file, merchant.id, livemode),
    );
    return report.committed ? 0 : 1;
  } catch (err) {
    if (!(err instanceof ImportFileError)) throw err;
    process.stderr.write(`import refused: ${err.message}\nNothing was imported.\n`);
    if (values.json) process.stdout.write(`${JSON.stringify({ committed: false, error: err.message })}\n`);
    return 1;
  }
}
