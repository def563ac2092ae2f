import { execFile } from 'node:child_process';
import { mkdtemp, open, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let keys: CreatedMerchant;
let api: Client;
let dir: string;
beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant('Import Pharmacy'));
  dir = await mkdtemp(join(tmpdir(), 'catalog-import-'));
});
afterAll(() => t.close());

const HEADER = 'merchant_product_id,name,price,currency,upc,tagline,status,image_urls';
const SAMPLE = 'examples/pharmacy-catalog.csv';

/** Runs the real CLI (the program `npm run cli --` starts) against the test database. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'node',
      ['dist/src/cli/cli.js', 'products', 'import', ...args],
      { env: { ...process.env, LOG_LEVEL: 'silent' }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function csvFile(name: string, body: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, body);
  return path;
}

const countEvents = async (type: string) => {
  const [row] = await t.orm.em
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from events where merchant_id = ? and type = ?`, [keys.id, type]);
  return Number(row.n);
};
const countProducts = async () => {
  const [row] = await t.orm.em
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from products where merchant_id = ? and livemode = false`, [
      keys.id,
    ]);
  return Number(row.n);
};

test('the sample pharmacy catalog imports with eligibility from the engine; a re-run changes nothing', async () => {
  const lines = (await readFile(SAMPLE, 'utf8')).trim().split('\n');
  expect(lines[0]).toBe(HEADER);
  const rows = lines.length - 1;

  const first = await cli(SAMPLE, '--merchant', keys.id, '--json');
  expect(first.code).toBe(0);
  const report = JSON.parse(first.stdout);
  expect(report).toMatchObject({ committed: true, rows, created: rows, updated: 0, unchanged: 0, rejected: [] });
  expect(
    report.eligibility.eligible +
      report.eligibility.not_eligible +
      report.eligibility.requires_lmn +
      report.eligibility.requires_review,
  ).toBe(rows);
  expect(report.eligibility.eligible).toBeGreaterThan(0);
  expect(report.eligibility.not_eligible).toBeGreaterThan(0);
  expect(report.eligibility.requires_lmn).toBeGreaterThan(0);
  expect(first.stderr).toMatch(new RegExp(`validated ${rows}/${rows} rows\\nwritten ${rows}/${rows} rows`)); // plain lines when not a terminal
  expect(await countEvents('product.created')).toBe(rows);

  // Stored exactly as the API would have created them, eligibility included.
  const listed = await api.get('/api/v2/products?merchant_product_id=RX-1001');
  const tylenol = listed.body.data[0];
  expect(tylenol).toMatchObject({
    name: 'Tylenol Extra Strength Caplets, 100 ct',
    price: 1149,
    currency: 'USD',
    upc_code_or_gtin: '9520101000118',
    tagline: 'Fast pain relief, 500 mg',
    status: 'active',
  });
  expect(tylenol.images.map((i: { url: string }) => i.url)).toEqual([
    'https://images.example-pharmacy.com/rx-1001.jpg',
    'https://images.example-pharmacy.com/rx-1001-back.jpg',
  ]);
  for (const mpid of ['RX-1001', 'VT-6001', 'GR-8001', 'FA-2004']) {
    const [p] = (await api.get(`/api/v2/products?merchant_product_id=${mpid}`)).body.data;
    const check = await api.post('/api/v2/products/check-eligibility', {
      name: p.name,
      ...(p.upc_code_or_gtin && { upc_code_or_gtin: p.upc_code_or_gtin }),
    });
    const { product_id: _id, name: _name, upc_code_or_gtin: _upc, checked_at: _at, ...engine } = check.body;
    expect({ mpid, ...p.eligibility }).toMatchObject({
      mpid,
      ...engine,
      suggested: { status: engine.status, category: engine.category, source: engine.source, message: engine.message },
    });
  }

  const again = await cli(SAMPLE, '--merchant', keys.id);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`created    0\n  updated    0\n  unchanged  ${rows}\n  rejected   0`);
  expect(again.stdout).toMatch(
    /eligibility: \d+ HSA\/FSA eligible, \d+ not eligible, \d+ need a letter of medical necessity, \d+ to review \(not payable until checked\)/,
  );
  expect(await countEvents('product.created')).toBe(rows);
  expect(await countEvents('product.updated')).toBe(0);
  expect(await countProducts()).toBe(rows);

  // Two rows changed: one price, one name (eligibility decided again); product.updated for each.
  const edited = lines.map((l) =>
    l
      .replace('FA-2004,"Sterile gauze pads 4x4 in, 25 ct",649', 'FA-2004,"Sterile gauze pads 4x4 in, 25 ct",699')
      .replace('GR-8001,Peppermint candy tin', 'GR-8001,Digital thermometer'),
  );
  const path = await csvFile('edited.csv', `${edited.join('\n')}\n`);
  const third = JSON.parse((await cli(path, '--merchant', keys.id, '--json')).stdout);
  expect(third).toMatchObject({ created: 0, updated: 2, unchanged: rows - 2 });
  const [renamed] = (await api.get('/api/v2/products?merchant_product_id=GR-8001')).body.data;
  expect(renamed.eligibility.hsa_fsa_eligible).toBe(true);
  expect(await countEvents('product.updated')).toBe(2);
}, 60_000);

test('a bad row (price -1) is reported with its line number and nothing is imported, unless --continue-on-error', async () => {
  const before = await countProducts();
  const path = await csvFile(
    'bad-row.csv',
    [
      HEADER,
      'NEW-1,Saline nasal spray,899,USD,,,,',
      'NEW-2,Cold pack,-1,USD,,,,',
      '"NEW-3","Ankle brace, universal",1999,usd,,,,',
      'NEW-4,Test strips,500,USD,9520206105191,,,',
      'NEW-5,Thermometer,12.99,USD,,,,',
      'NEW-1,Duplicate,100,USD,,,,',
      '',
    ].join('\n'),
  );
  const refused = await cli(path, '--merchant', keys.id);
  expect(refused.code).toBe(1);
  expect(refused.stdout).toContain('Nothing imported');
  expect(refused.stdout).toMatch(
    /line 3 \(NEW-2\): price must be a positive integer number of cents.*\(invalid_price\)/,
  );
  expect(refused.stdout).toMatch(/line 6 \(NEW-5\): .*\(invalid_price\)/);
  expect(refused.stdout).toMatch(/line 7 \(NEW-1\): merchant_product_id 'NEW-1' is already on line 2/);
  // The API's own words for the same bad UPC.
  const viaApi = await api.post('/api/v2/products', {
    name: 'Test strips',
    price: 500,
    currency: 'USD',
    upc_code_or_gtin: '9520206105191',
  });
  expect(viaApi.status).toBe(422);
  expect(refused.stdout).toContain(
    `line 5 (NEW-4): upc_code_or_gtin ${viaApi.body.error.details[0].message} (validation_error)`,
  );
  expect(await countProducts()).toBe(before);

  const partial = JSON.parse((await cli(path, '--merchant', keys.id, '--continue-on-error', '--json')).stdout);
  expect(partial).toMatchObject({ committed: true, created: 2, updated: 0 });
  expect(partial.rejected.map((r: { line: number }) => r.line)).toEqual([3, 5, 6, 7]);
  expect(await countProducts()).toBe(before + 2);
  const [ankle] = (await api.get('/api/v2/products?merchant_product_id=NEW-3')).body.data;
  expect(ankle).toMatchObject({ name: 'Ankle brace, universal', currency: 'USD' });
}, 60_000);

test('bad files are refused with a clear error before anything is written', async () => {
  const before = await countProducts();
  const wrongHeader = await cli(
    await csvFile('header.csv', 'sku,title,price,currency\nA,B,100,USD\n'),
    '--merchant',
    keys.id,
  );
  expect(wrongHeader.code).toBe(1);
  expect(wrongHeader.stderr).toMatch(
    /wrong header row \(unknown columns 'sku', 'title'; missing 'merchant_product_id', 'name'\)\. Expected: merchant_product_id,name,price,currency,upc,tagline,status,image_urls/,
  );

  const latin1 = Buffer.concat([
    Buffer.from(`${HEADER}\nL-1,Caf`),
    Buffer.from([0xe9]),
    Buffer.from(' thermometer,100,USD,,,,\n'),
  ]);
  const encoding = await cli(await csvFile('latin1.csv', latin1), '--merchant', keys.id);
  expect(encoding.code).toBe(1);
  expect(encoding.stderr).toMatch(/is not UTF-8 text \(first bad byte on line 2\); save it as CSV UTF-8/);

  const huge = join(dir, 'huge.csv');
  const handle = await open(huge, 'w');
  await handle.truncate(2 * 1024 ** 3); // a sparse 2 GB file: refused by its size, never read
  await handle.close();
  const tooBig = await cli(huge, '--merchant', keys.id);
  expect(tooBig.code).toBe(1);
  expect(tooBig.stderr).toMatch(
    /is 2048 MB; a catalog import takes files up to 100 MB\. Split it into several files\.\nNothing was imported\./,
  );
  expect(tooBig.stdout).toBe(''); // no row was read, let alone reported

  const cells = await cli(await csvFile('cells.csv', `${HEADER}\nC-1,Bandages,100\n`), '--merchant', keys.id, '--json');
  expect(JSON.parse(cells.stdout).rejected).toEqual([
    { line: 2, merchant_product_id: 'C-1', reason: expect.stringMatching(/has 3 cells, the header has 8/) },
  ]);
  expect(await countProducts()).toBe(before);

  const usage = await cli('--merchant', keys.id);
  expect(usage.code).toBe(1);
  expect(usage.stderr).toMatch(/usage: npm run cli -- products import FILE.csv/);
}, 60_000);
