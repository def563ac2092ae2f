import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gs1CheckDigit } from '../../src/modules/eligibility/gtin.js';
import { toGlobalId } from '../../src/platform/relay/global-id.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import { allSettled } from '../helpers/events.js';
import { checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { newMerchant, startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * The merchant's own HSA/FSA decision: an override on create, PUT, GraphQL and the
 * catalog import; the bulk eligibility list matched by barcode; `product.eligibility_changed`
 * whenever a product's decision moves, and never when it does not.
 */

let t: TestApp;
let keys: CreatedMerchant;
let api: Client;
beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant('Override Pharmacy'));
});
afterAll(() => t.close());

/** A valid UPC-A from 11 digits (the check digit computed). */
const upcA = (body: string) => body + gs1CheckDigit(body);

interface ChangeEvent {
  type: string;
  data: Record<string, unknown> & { product_id: number };
}

/** The caller's `product.eligibility_changed` events about `productId`, oldest first (the events API). */
async function changes(client: Client, productId: number): Promise<ChangeEvent['data'][]> {
  await allSettled(t); // the log read oldest first returns settled events only
  const res = await client.graphql(
    `{ events(first: 100, order: OLDEST_FIRST, types: ["product.eligibility_changed"]) { edges { node { type data } } } }`,
  );
  expect(res.body.errors).toBeUndefined();
  const events = (res.body.data.events.edges as { node: ChangeEvent }[]).map((e) => e.node);
  return events.filter((e) => e.data.product_id === productId).map((e) => e.data);
}

const csvPost = (client: Client, text: string, headers: Record<string, string> = {}) =>
  client.post('/api/v2/products/eligibility-list', text, { 'content-type': 'text/csv', ...headers });

describe('REST', () => {
  test("an override on create decides; the engine's opinion stays visible as suggested", async () => {
    const res = await api.post('/api/v2/products', {
      name: 'Matte Lipstick Ruby',
      price: 1200,
      currency: 'USD',
      hsa_fsa_eligibility: { status: 'eligible', category: 'vision' },
    });
    expect(res.status).toBe(201);
    expect(res.body.hsa_fsa_eligibility).toEqual({ status: 'eligible', category: 'vision' });
    expect(res.body.eligibility).toMatchObject({
      hsa_fsa_eligible: true,
      requires_lmn: false,
      status: 'eligible',
      source: 'merchant',
      iias_category: 'vision',
      set_by: expect.stringMatching(/^api_key:/),
      set_at: res.body.created_at,
      suggested: { status: 'not_eligible', category: 'cosmetics', source: 'name' },
    });
    expect(res.body.eligibility.message).toMatch(/set by the merchant/);
    const got = await api.get(`/api/v2/products/${res.body.id}`);
    expect(got.body.eligibility).toEqual(res.body.eligibility);
    const listed = await api.get('/api/v2/products?hsa_fsa_eligible=true&limit=100');
    expect(listed.body.data.map((p: { id: number }) => p.id)).toContain(res.body.id);
    expect(await changes(api, res.body.id)).toEqual([]); // a new product has no earlier decision
  });

  test('PUT sets, keeps and removes the override; each move is one product.eligibility_changed', async () => {
    const p = (await api.post('/api/v2/products', { name: 'Digital Thermometer', price: 1500, currency: 'USD' })).body;
    expect(p.eligibility).toMatchObject({
      source: 'name',
      status: 'eligible',
      iias_category: 'otc',
      set_by: null,
      set_at: null,
    });
    expect(p.hsa_fsa_eligibility).toBeNull();

    const set = await api.put(`/api/v2/products/${p.id}`, { hsa_fsa_eligibility: { status: 'not_eligible' } });
    expect(set.status).toBe(200);
    expect(set.body.eligibility).toMatchObject({
      source: 'merchant',
      status: 'not_eligible',
      hsa_fsa_eligible: false,
      iias_category: null,
      suggested: { status: 'eligible' },
    });

    const again = await api.put(`/api/v2/products/${p.id}`, {
      hsa_fsa_eligibility: { status: 'not_eligible' },
      price: 1600,
    });
    expect(again.body.eligibility.set_at).toBe(set.body.eligibility.set_at); // the same decision: still set when it was

    const removed = await api.put(`/api/v2/products/${p.id}`, { hsa_fsa_eligibility: null });
    expect(removed.body.hsa_fsa_eligibility).toBeNull();
    expect(removed.body.eligibility).toMatchObject({
      source: 'name',
      status: 'eligible',
      category: 'thermometers',
      set_by: null,
    });

    expect(await changes(api, p.id)).toEqual([
      expect.objectContaining({
        reason: 'override_set',
        previous_status: 'eligible',
        status: 'not_eligible',
        previous_source: 'name',
        source: 'merchant',
        merchant_product_id: null,
      }),
      expect.objectContaining({
        reason: 'override_removed',
        previous_status: 'not_eligible',
        status: 'eligible',
        previous_source: 'merchant',
        source: 'name',
        iias_category: 'otc',
      }),
    ]);
  });

  test("a rename fires the event only when the engine's answer moves the decision", async () => {
    const p = (await api.post('/api/v2/products', { name: 'Matte Lipstick', price: 900, currency: 'USD' })).body;
    await api.put(`/api/v2/products/${p.id}`, { name: 'Matte Lipstick Coral' }); // still cosmetics: nothing to re-badge
    const renamed = await api.put(`/api/v2/products/${p.id}`, { name: 'Ibuprofen 200 mg Tablets' });
    expect(renamed.body.eligibility).toMatchObject({ status: 'eligible', source: 'name' });
    expect(await changes(api, p.id)).toEqual([
      expect.objectContaining({
        reason: 'name_changed',
        previous_status: 'not_eligible',
        status: 'eligible',
        eligibility: expect.objectContaining({ status: 'eligible' }),
      }),
    ]);

    // Under an override a rename changes only the suggestion, never the decision.
    await api.put(`/api/v2/products/${p.id}`, { hsa_fsa_eligibility: { status: 'requires_lmn' } });
    const under = await api.put(`/api/v2/products/${p.id}`, { name: 'Matte Lipstick Coral' });
    expect(under.body.eligibility).toMatchObject({
      status: 'requires_lmn',
      source: 'merchant',
      suggested: { status: 'not_eligible', category: 'cosmetics' },
    });
    expect((await changes(api, p.id)).map((c) => c.reason)).toEqual(['name_changed', 'override_set']);
  });

  test('a barcode change that changes the answer says so', async () => {
    const p = (await api.post('/api/v2/products', { name: 'Item 7', price: 500, currency: 'USD' })).body;
    expect(p.eligibility.status).toBe('not_eligible');
    const res = await api.put(`/api/v2/products/${p.id}`, { upc_code_or_gtin: '9520213111023' }); // the demo table's reading glasses
    expect(res.body.eligibility).toMatchObject({ status: 'eligible', source: 'upc', iias_category: 'vision' });
    expect(await changes(api, p.id)).toEqual([
      expect.objectContaining({
        reason: 'barcode_changed',
        previous_status: 'not_eligible',
        status: 'eligible',
        iias_category: 'vision',
      }),
    ]);
  });

  test("the engine's requires_review survives storage as the decision and as suggested; a merchant decides over it, and cannot answer requires_review", async () => {
    const p = (
      await api.post('/api/v2/products', {
        name: 'Tinted Moisturizer with SPF 30, Light',
        price: 2400,
        currency: 'USD',
      })
    ).body;
    const review = {
      status: 'requires_review',
      hsa_fsa_eligible: false,
      requires_lmn: false,
      source: 'name',
      category: 'cosmetics-with-spf',
      iias_category: null,
    };
    expect(p.eligibility).toMatchObject({
      ...review,
      suggested: { status: 'requires_review', category: 'cosmetics-with-spf' },
    });
    expect((await api.get(`/api/v2/products/${p.id}`)).body.eligibility).toEqual(p.eligibility);

    const set = await api.put(`/api/v2/products/${p.id}`, { hsa_fsa_eligibility: { status: 'eligible' } });
    expect(set.body.eligibility).toMatchObject({
      status: 'eligible',
      source: 'merchant',
      hsa_fsa_eligible: true,
      iias_category: 'otc',
      suggested: { status: 'requires_review' },
    });
    expect(set.body.eligibility.message).toContain('Our own check asks for a review against the product label');
    const removed = await api.put(`/api/v2/products/${p.id}`, { hsa_fsa_eligibility: null });
    expect(removed.body.eligibility).toMatchObject(review);
    expect(await changes(api, p.id)).toEqual([
      expect.objectContaining({
        reason: 'override_set',
        previous_status: 'requires_review',
        status: 'eligible',
        previous_iias_category: null,
        iias_category: 'otc',
      }),
      expect.objectContaining({
        reason: 'override_removed',
        previous_status: 'eligible',
        status: 'requires_review',
        source: 'name',
      }),
    ]);

    const refused = await api.put(`/api/v2/products/${p.id}`, { hsa_fsa_eligibility: { status: 'requires_review' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.map((d: { field: string }) => d.field)).toEqual(['hsa_fsa_eligibility.status']);
  });

  test('a bad override is a 422 in the spec error shape; nothing is stored', async () => {
    const bad = await api.post('/api/v2/products', {
      name: 'Gauze',
      price: 300,
      currency: 'USD',
      hsa_fsa_eligibility: { status: 'maybe', category: 'pharmacy' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'hsa_fsa_eligibility.category',
      'hsa_fsa_eligibility.status',
    ]);
    const unknownField = await api.post('/api/v2/products', {
      name: 'Gauze',
      price: 300,
      currency: 'USD',
      hsa_fsa_eligibility: { status: 'eligible', by: 'me' },
    });
    expect(unknownField.status).toBe(422);
  });
});

describe('GraphQL', () => {
  const FIELDS = `productId hsaFsaEligibility { status category } eligibility { status source iiasCategory setBy setAt suggested { status category source } }`;

  test('createProduct and updateProduct take hsaFsaEligibility; null hands back to the engine', async () => {
    const created = await api.graphql(
      `mutation($i: CreateProductInput!) { createProduct(input: $i) { product { ${FIELDS} } } }`,
      {
        i: {
          name: 'Daily Multivitamin',
          price: 1999,
          currency: 'USD',
          hsaFsaEligibility: { status: 'ELIGIBLE', category: 'DENTAL' },
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const p = created.body.data.createProduct.product;
    expect(p).toMatchObject({
      hsaFsaEligibility: { status: 'ELIGIBLE', category: 'DENTAL' },
      eligibility: {
        status: 'ELIGIBLE',
        source: 'MERCHANT',
        iiasCategory: 'DENTAL',
        setBy: expect.stringMatching(/^api_key:/),
        suggested: { status: 'REQUIRES_LMN', category: 'vitamins-minerals', source: 'NAME' },
      },
    });
    const id = (await api.get(`/api/v2/products/${p.productId}`)).body.id as number;
    const gid = (
      await api.graphql(`{ products(first: 100) { edges { node { id productId } } } }`)
    ).body.data.products.edges.find((e: { node: { productId: number } }) => e.node.productId === id).node.id;
    const updated = await api.graphql(
      `mutation($id: ID!) { updateProduct(id: $id, input: { hsaFsaEligibility: null }) { product { ${FIELDS} } } }`,
      { id: gid },
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateProduct.product).toMatchObject({
      hsaFsaEligibility: null,
      eligibility: { status: 'REQUIRES_LMN', source: 'NAME', setBy: null, setAt: null, iiasCategory: 'OTC' },
    });
    expect(await changes(api, id)).toEqual([
      expect.objectContaining({ reason: 'override_removed', previous_status: 'eligible', status: 'requires_lmn' }),
    ]);
  });
});

describe('eligibility list (SIG-IS extract)', () => {
  test('rows match products by barcode in any GTIN form; unmatched rows are reported; decisions and events follow', async () => {
    const { api: shop } = await newMerchant(t, 'List Shop');
    const glasses = upcA('01234500001');
    const strips = upcA('01234500002');
    const wipes = upcA('01234500003');
    const a = (
      await shop.post('/api/v2/products', {
        name: 'Blue light glasses',
        price: 2500,
        currency: 'USD',
        upc_code_or_gtin: glasses,
      })
    ).body;
    const b = (
      await shop.post('/api/v2/products', {
        name: 'Glucose test strips',
        price: 2900,
        currency: 'USD',
        upc_code_or_gtin: strips,
        merchant_product_id: 'STRIPS',
      })
    ).body;
    const c = (
      await shop.post('/api/v2/products', { name: 'Baby wipes', price: 400, currency: 'USD', upc_code_or_gtin: wipes })
    ).body;
    const missing = upcA('01234500009');
    // EAN-13 of the glasses (a leading 0), the strips as printed, a Y/N flag, a code on no product.
    const list = [
      'UPC,HSA_FSA_Eligibility,IIAS_Category,Description',
      `0${glasses},Y,Vision,Blue light glasses`,
      `${strips},eligible,,Glucose strips`,
      `${wipes},not_eligible,,Wipes`,
      `${missing},eligible,otc,Not ours`,
    ].join('\n');
    const res = await csvPost(shop, list);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'eligibility_list_import',
      rows: 4,
      matched: 3,
      products_changed: 3,
      products_unchanged: 0,
      unmatched: [{ line: 5, upc: missing }],
    });

    const after = async (id: number) => (await shop.get(`/api/v2/products/${id}`)).body;
    expect((await after(a.id)).eligibility).toMatchObject({
      status: 'eligible',
      source: 'merchant',
      set_by: 'eligibility_list',
      iias_category: 'vision',
    });
    expect((await after(b.id)).eligibility).toMatchObject({
      status: 'eligible',
      source: 'merchant',
      iias_category: 'otc',
      suggested: { status: 'eligible' },
    });
    expect((await after(c.id)).eligibility).toMatchObject({
      status: 'not_eligible',
      source: 'merchant',
      suggested: { status: 'not_eligible' },
    });
    expect((await changes(shop, a.id))[0]).toMatchObject({
      reason: 'override_set',
      previous_status: a.eligibility.status,
      status: 'eligible',
      source: 'merchant',
    });
    expect(await changes(shop, b.id)).toHaveLength(1); // eligible before and after, but the merchant decides now

    // The same list again changes nothing and records nothing.
    const rerun = await csvPost(shop, list);
    expect(rerun.body).toMatchObject({ matched: 3, products_changed: 0, products_unchanged: 3 });
    expect(await changes(shop, a.id)).toHaveLength(1);

    // GraphQL takes the same text.
    const gql = await shop.graphql(
      `mutation($csv: String!) { importEligibilityList(csv: $csv) { rows matched productsChanged productsUnchanged unmatched { line upc } } }`,
      {
        csv: `upc,hsa_fsa_eligibility\n${glasses},requires_lmn\n`,
      },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.importEligibilityList).toEqual({
      rows: 1,
      matched: 1,
      productsChanged: 1,
      productsUnchanged: 0,
      unmatched: [],
    });
    expect((await after(a.id)).eligibility).toMatchObject({ status: 'requires_lmn', iias_category: 'otc' });
  });

  test('a bad row refuses the whole list (422 naming each line); a wrong header or non-CSV body is 400', async () => {
    const { api: shop } = await newMerchant(t, 'Bad List Shop');
    const code = upcA('01234500011');
    const p = (
      await shop.post('/api/v2/products', { name: 'Bandages', price: 300, currency: 'USD', upc_code_or_gtin: code })
    ).body;
    const bad = await csvPost(
      shop,
      `upc,hsa_fsa_eligibility,iias_category\n${code},not_eligible,\n123,eligible,\n${code},eligible,\n${upcA('01234500012')},perhaps,\n${upcA('01234500013')},eligible,pharmacy\n`,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', param: 'body' });
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'line 3',
      'line 4',
      'line 5',
      'line 6',
    ]);
    expect(bad.body.error.details[1].message).toMatch(/already on line 2/);
    expect((await shop.get(`/api/v2/products/${p.id}`)).body.eligibility.source).toBe('name');

    const header = await csvPost(shop, `gtin,flag\n${code},Y\n`);
    expect(header.status).toBe(400);
    expect(header.body.error.code).toBe('invalid_request');
    expect(header.body.error.message).toMatch(/wrong header row/);
    const json = await shop.post('/api/v2/products/eligibility-list', { upc: code });
    expect(json.status).toBe(400);
    expect(json.body.error.code).toBe('invalid_request');
  });
});

describe('catalog import', () => {
  function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        'node',
        ['dist/src/cli/cli.js', 'products', 'import', ...args],
        { env: { ...process.env, LOG_LEVEL: 'silent' } },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  test('hsa_fsa_eligibility and iias_category columns set overrides; a file without them keeps them; an empty cell removes one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'override-import-'));
    const file = async (name: string, text: string) => {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    };
    const withFlags = await file(
      'a.csv',
      'merchant_product_id,name,price,currency,hsa_fsa_eligibility,iias_category\nLIP-1,Matte Lipstick,900,USD,eligible,dental\nTHERM-1,Digital Thermometer,1500,USD,,\n',
    );
    const first = await cli(withFlags, '--merchant', keys.id, '--json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 2, eligibility: { eligible: 2 } });
    const byRef = async (ref: string) => (await api.get(`/api/v2/products?merchant_product_id=${ref}`)).body.data[0];
    const lip = await byRef('LIP-1');
    expect(lip.eligibility).toMatchObject({
      source: 'merchant',
      set_by: 'import',
      status: 'eligible',
      iias_category: 'dental',
      suggested: { status: 'not_eligible' },
    });
    expect((await byRef('THERM-1')).eligibility).toMatchObject({ source: 'name', set_by: null });

    const without = await cli(
      await file('b.csv', 'merchant_product_id,name,price,currency\nLIP-1,Matte Lipstick,900,USD\n'),
      '--merchant',
      keys.id,
      '--json',
    );
    expect(JSON.parse(without.stdout)).toMatchObject({ unchanged: 1, updated: 0 });
    expect((await byRef('LIP-1')).eligibility.source).toBe('merchant');

    const cleared = await cli(
      await file(
        'c.csv',
        'merchant_product_id,name,price,currency,hsa_fsa_eligibility\nLIP-1,Matte Lipstick,900,USD,\n',
      ),
      '--merchant',
      keys.id,
      '--json',
    );
    expect(JSON.parse(cleared.stdout)).toMatchObject({ updated: 1 });
    expect((await byRef('LIP-1')).eligibility).toMatchObject({ source: 'name', status: 'not_eligible' });
    expect(await changes(api, lip.id)).toEqual([
      expect.objectContaining({
        reason: 'override_removed',
        previous_status: 'eligible',
        status: 'not_eligible',
        previous_iias_category: 'dental',
      }),
    ]);

    // The engine's requires_review is counted as such, and a re-run that leaves the row alone keeps it.
    const tinted = await file(
      'e.csv',
      'merchant_product_id,name,price,currency\nTINT-1,"Tinted Moisturizer with SPF 30, Light",2400,USD\n',
    );
    expect(JSON.parse((await cli(tinted, '--merchant', keys.id, '--json')).stdout)).toMatchObject({
      created: 1,
      eligibility: { eligible: 0, not_eligible: 0, requires_lmn: 0, requires_review: 1 },
    });
    const rerun = await cli(tinted, '--merchant', keys.id);
    expect(rerun.stdout).toContain('unchanged  1');
    expect(rerun.stdout).toContain(
      '0 not eligible, 0 need a letter of medical necessity, 1 to review (not payable until checked)',
    );
    expect((await byRef('TINT-1')).eligibility).toMatchObject({
      status: 'requires_review',
      hsa_fsa_eligible: false,
      suggested: { status: 'requires_review' },
    });

    const bad = await cli(
      await file(
        'd.csv',
        'merchant_product_id,name,price,currency,hsa_fsa_eligibility,iias_category\nX-1,Gauze,300,USD,sometimes,\nX-2,Gauze,300,USD,,vision\n',
      ),
      '--merchant',
      keys.id,
      '--json',
    );
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).rejected.map((r: { line: number }) => r.line)).toEqual([2, 3]);
  });
});

describe("a checkout's healthcare breakdown (amounts.healthcare)", () => {
  test('splits hsa_amount by IIAS category from the catalog and follows the overrides', async () => {
    const { api: shop } = await newMerchant(t, 'Breakdown Shop');
    const product = async (
      merchant_product_id: string,
      name: string,
      price: number,
      extra: Record<string, unknown> = {},
    ) =>
      (await shop.post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id, ...extra })).body as {
        id: number;
      };
    const glasses = await product('GLASSES', 'Reading Glasses +2.00', 2500); // the engine: eyeglasses → vision
    await product('DENTURE', 'Denture adhesive cream', 800); // denture care → dental
    await product('REFILL', 'Matte Lipstick', 1200, { hsa_fsa_eligibility: { status: 'eligible', category: 'rx' } }); // the merchant's word
    const thermometer = await product('THERM', 'Digital Thermometer', 1000); // any other eligible item → otc
    await product('MUG', 'Coffee Mug', 1700);
    const cart: [string, string, number, number][] = [
      ['GLASSES', 'Reading Glasses', 2500, 1],
      ['DENTURE', 'Denture cream', 800, 1],
      ['REFILL', 'Refill', 1200, 1],
      ['THERM', 'Thermometer', 1000, 1],
      ['MUG', 'Mug', 1700, 1],
    ];
    const open = async (extra: Record<string, unknown> = {}) =>
      (await shop.post('/api/v2/checkout', checkoutBody(cart, extra))).body.data;

    const first = await open({ shipping: 500 });
    expect(first.amounts).toMatchObject({
      hsa_amount: 5500,
      regular_amount: 2200,
      healthcare: { rx: 1200, vision: 2500, clinic: 0, dental: 800, otc: 1000 },
    });
    const got = await shop.get(`/api/v2/checkout/${first.checkout_id}`);
    expect((got.body.data ?? got.body).amounts.healthcare).toEqual(first.amounts.healthcare);

    await shop.put(`/api/v2/products/${glasses.id}`, {
      hsa_fsa_eligibility: { status: 'eligible', category: 'clinic' },
    });
    await shop.put(`/api/v2/products/${thermometer.id}`, { hsa_fsa_eligibility: { status: 'not_eligible' } });
    const second = await open({ tax: 290, discount: 100 });
    const h = second.amounts.healthcare;
    expect(h).toMatchObject({ vision: 0, otc: 0 });
    expect(h.rx + h.vision + h.clinic + h.dental + h.otc).toBe(second.amounts.hsa_amount);
    // 4500 eligible of 7200: discount share ceil(100*4500/7200) = 63, tax floor(290*4437/7100) = 181 → 4618,
    // shared 1200:2500:800 → 1231.47, 2565.56, 820.98 rounded down, the 2 cents left to dental then clinic.
    expect(second.amounts.hsa_amount).toBe(4618);
    expect(h).toEqual({ rx: 1231, vision: 0, clinic: 2566, dental: 821, otc: 0 });

    const gql = await shop.graphql(
      `query($id: ID!) { checkoutSession(id: $id) { amounts { hsaAmount healthcare { rx vision clinic dental otc } } } }`,
      {
        id: toGlobalId('CheckoutSession', second.checkout_id),
      },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.checkoutSession.amounts).toEqual({ hsaAmount: 4618, healthcare: h });
  });
});
