/**
 * Catalog import: 50,000 CSV rows through the real CLI (`products import`) into a running
 * service's database, first as new products, then unchanged (a re-run), then with every price
 * changed. Target: each run under 30 s on this machine.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ImportReport } from '../src/modules/products/product-import.service.js';
import { formatTable, startService } from './common.js';

const ROWS = 50_000;
const LIMIT_MS = 30_000;

const NAMES = [
  ['Adhesive bandages, assorted', ''],
  ['Digital thermometer', ''],
  ['Blood pressure monitor, upper arm', ''],
  ['Contact lens solution 12 fl oz', ''],
  ['Daily multivitamin tablets', ''],
  ['Sunscreen SPF 50 lotion', ''],
  ['Peppermint candy tin', ''],
  ['Tylenol Extra Strength Caplets, 100 ct', '9520101000118'],
  ['Centrum Adults Multivitamin Tablets, 200 ct', '9520301200141'],
  ['Maybelline Great Lash Washable Mascara', '9520401300178'],
];

function catalog(priceBump: number): string {
  const lines = ['merchant_product_id,name,price,currency,upc,tagline,status,image_urls'];
  for (let i = 0; i < ROWS; i++) {
    const [name, upc] = NAMES[i % NAMES.length];
    const images = i % 4 === 0 ? `https://images.example-pharmacy.com/p${i}.jpg` : '';
    lines.push(
      `SKU-${String(i).padStart(6, '0')},"${name} #${i}",${199 + (i % 5000) + priceBump},USD,${upc},"Pack of ${1 + (i % 12)}",active,${images}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function runImport(file: string, databaseUrl: string): Promise<{ ms: number; report: ImportReport }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['dist/src/cli/cli.js', 'products', 'import', file, '--json'],
      { env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 256 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`import failed: ${stderr}`));
        resolve({ ms: performance.now() - started, report: JSON.parse(stdout) as ImportReport });
      },
    );
  });
}

async function main(): Promise<void> {
  const service = await startService();
  const dir = await mkdtemp(path.join(tmpdir(), 'import-bench-'));
  try {
    const rows: string[][] = [];
    let slow = false;
    for (const [label, bump] of [
      ['50,000 new products', 0],
      ['re-run (unchanged)', 0],
      ['every price changed', 1],
    ] as const) {
      const file = path.join(dir, `catalog-${bump}.csv`);
      await writeFile(file, catalog(bump));
      const { ms, report } = await runImport(file, service.databaseUrl);
      slow ||= ms > LIMIT_MS;
      rows.push([
        label,
        `${(ms / 1000).toFixed(1)} s`,
        String(report.created),
        String(report.updated),
        String(report.unchanged),
        `${Math.round(ROWS / (ms / 1000))}`,
      ]);
    }
    process.stdout.write(
      `\nCatalog import, ${ROWS} rows via the CLI (target < ${LIMIT_MS / 1000} s each)\n${formatTable(['run', 'time', 'created', 'updated', 'unchanged', 'rows/s'], rows)}\n`,
    );
    if (slow) process.exitCode = 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
    await service.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
