import { client, type Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Client;
let keys: Awaited<ReturnType<TestApp['merchant']>>;

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant());
});
afterAll(() => t.close());

const thermometer = {
  name: 'Digital Oral Thermometer',
  tagline: 'Fast, accurate readings',
  description: '**Clinically** accurate in 10 seconds',
  price: 1999,
  currency: 'usd',
  merchant_product_id: 'THERM-1',
  images: ['https://cdn.example.com/t1.png', 'https://cdn.example.com/t2.png'],
  metadata: { shelf: 'A3' },
};

describe('POST /api/v2/products', () => {
  test('creates a product with eligibility, images and a product.created event in the outbox', async () => {
    const res = await api.post('/api/v2/products', thermometer);
    expect(res.status).toBe(201);
    const p = res.body;
    expect(p).toMatchObject({
      name: 'Digital Oral Thermometer',
      tagline: 'Fast, accurate readings',
      description: '**Clinically** accurate in 10 seconds',
      price: 1999,
      currency: 'USD',
      merchant_product_id: 'THERM-1',
      upc_code_or_gtin: null,
      status: 'active',
      livemode: false,
      metadata: { shelf: 'A3' },
    });
    expect(Number.isInteger(p.id)).toBe(true);
    expect(p.eligibility.hsa_fsa_eligible).toBe(true);
    expect(p.eligibility.message).toMatch(/thermometer/i);
    expect(new Date(p.eligibility.checked_at).getTime()).not.toBeNaN();
    expect(p.images).toEqual([
      { id: expect.any(Number), url: 'https://cdn.example.com/t1.png', is_primary: true },
      { id: expect.any(Number), url: 'https://cdn.example.com/t2.png', is_primary: false },
    ]);
    const events = await t.orm.em
      .fork()
      .getConnection()
      .execute(`select type, data from events where type = 'product.created' and (data->>'id')::int = ?`, [p.id]);
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ id: p.id, name: p.name });
  });

  test('decides eligibility from a UPC listed in the data set, and rejects a bad check digit', async () => {
    const ok = await api.post('/api/v2/products', { name: 'Candy bar', price: 199, currency: 'USD' });
    expect(ok.status).toBe(201);
    expect(ok.body.eligibility.hsa_fsa_eligible).toBe(false);

    const bad = await api.post('/api/v2/products', {
      name: 'Bandages',
      price: 499,
      currency: 'USD',
      upc_code_or_gtin: '036000291453',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.details).toEqual([
      { field: 'upc_code_or_gtin', message: expect.stringMatching(/check digit/i) },
    ]);
  });

  test.each([
    [0, 'zero'],
    [-5, 'negative'],
    [9.99, 'fractional'],
    ['1000', 'a string'],
  ] as [unknown, string][])('price %p (%s) answers 400 invalid_price', async (price) => {
    const res = await api.post('/api/v2/products', { ...thermometer, merchant_product_id: undefined, price });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'invalid_price', message: expect.any(String), param: 'price' } });
  });

  test('unknown currency answers 400 invalid_currency, ahead of other validation', async () => {
    const res = await api.post('/api/v2/products', { price: 100, currency: 'XYZ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_currency', param: 'currency' });
    const priceFirst = await api.post('/api/v2/products', { price: 0, currency: 'XYZ' });
    expect(priceFirst.body.error.code).toBe('invalid_price');
  });

  test('validation_error lists every bad field', async () => {
    const res = await api.post('/api/v2/products', {
      tagline: 'x'.repeat(256),
      price: 100,
      currency: 'USD',
      images: Array.from({ length: 11 }, (_, i) => `https://cdn.example.com/${i}.png`),
      colour: 'red',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['colour', 'images', 'name', 'tagline']);
  });

  test('255 characters is the name limit', async () => {
    expect((await api.post('/api/v2/products', { name: 'n'.repeat(255), price: 1, currency: 'USD' })).status).toBe(201);
    const res = await api.post('/api/v2/products', { name: 'n'.repeat(256), price: 1, currency: 'USD' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'name', message: expect.stringMatching(/255/) }]);
  });

  test('a merchant_product_id is unique among the live catalog', async () => {
    const first = await api.post('/api/v2/products', {
      name: 'Sunscreen SPF 50',
      price: 1299,
      currency: 'USD',
      merchant_product_id: 'SUN-50',
    });
    expect(first.status).toBe(201);
    const dup = await api.post('/api/v2/products', {
      name: 'Sunscreen SPF 30',
      price: 999,
      currency: 'USD',
      merchant_product_id: 'SUN-50',
    });
    expect(dup.status).toBe(422);
    expect(dup.body.error).toMatchObject({ code: 'validation_error', param: 'merchant_product_id' });
  });

  test('malformed JSON and non-object bodies answer 400 invalid_request without internals', async () => {
    const res = await api.post('/api/v2/products', '{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    const arr = await api.post('/api/v2/products', [1, 2]);
    expect(arr.status).toBe(400);
    expect(arr.body.error.code).toBe('invalid_request');
  });
});

describe('GET, PUT and archive', () => {
  test('get returns the product; unknown, other-mode and other-merchant ids are 404 not_found', async () => {
    const created = (
      await api.post('/api/v2/products', { name: 'Blood Pressure Monitor', price: 4999, currency: 'USD' })
    ).body;
    const got = await api.get(`/api/v2/products/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);

    for (const res of [
      await api.get('/api/v2/products/999999'),
      await api.get('/api/v2/products/abc'),
      await client(t.url, keys.live_api_key).get(`/api/v2/products/${created.id}`),
      await client(t.url, (await t.merchant('Other')).test_api_key).get(`/api/v2/products/${created.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  test('PUT changes given fields, clears nulls, re-decides eligibility on a new name', async () => {
    const created = (
      await api.post('/api/v2/products', { name: 'Chocolate bar', tagline: 'Sweet', price: 300, currency: 'USD' })
    ).body;
    expect(created.eligibility.hsa_fsa_eligible).toBe(false);
    const res = await api.put(`/api/v2/products/${created.id}`, {
      name: 'Adhesive bandages, 30 count',
      tagline: null,
      price: 450,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Adhesive bandages, 30 count', tagline: null, price: 450, currency: 'USD' });
    expect(res.body.eligibility.hsa_fsa_eligible).toBe(true);
    expect(new Date(res.body.updated_at) >= new Date(created.updated_at)).toBe(true);

    const invalid = await api.put(`/api/v2/products/${created.id}`, { price: -1 });
    expect(invalid.body.error.code).toBe('invalid_price');
  });

  test('archive soft-deletes: still readable, gone from the default list, no longer editable', async () => {
    const created = (
      await api.post('/api/v2/products', {
        name: 'First aid kit',
        price: 2500,
        currency: 'USD',
        merchant_product_id: 'KIT-1',
      })
    ).body;
    const archived = await api.delete(`/api/v2/products/${created.id}`);
    expect(archived.status).toBe(200);
    expect(archived.body.status).toBe('archived');
    expect((await api.get(`/api/v2/products/${created.id}`)).body.status).toBe('archived');
    const list = await api.get('/api/v2/products?limit=100');
    expect(list.body.data.map((p: { id: number }) => p.id)).not.toContain(created.id);
    const onlyArchived = await api.get('/api/v2/products?status=archived');
    expect(onlyArchived.body.data.map((p: { id: number }) => p.id)).toContain(created.id);
    const edit = await api.put(`/api/v2/products/${created.id}`, { name: 'Back' });
    expect(edit.status).toBe(400);
    expect(edit.body.error.code).toBe('invalid_state');
    // The merchant_product_id is free again for a new product.
    expect(
      (
        await api.post('/api/v2/products', {
          name: 'First aid kit v2',
          price: 2600,
          currency: 'USD',
          merchant_product_id: 'KIT-1',
        })
      ).status,
    ).toBe(201);
  });
});

describe('POST /api/v2/products/check-eligibility', () => {
  test('answers by name, by UPC/GTIN and by product id with the product eligibility shape', async () => {
    const byName = await api.post('/api/v2/products/check-eligibility', { name: 'Pregnancy test, 2 pack' });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({
      hsa_fsa_eligible: true,
      source: 'name',
      message: expect.any(String),
      checked_at: expect.any(String),
    });

    const cosmetic = await api.post('/api/v2/products/check-eligibility', { name: 'Matte lipstick' });
    expect(cosmetic.body).toMatchObject({ hsa_fsa_eligible: false, status: 'not_eligible' });

    const vitamins = await api.post('/api/v2/products/check-eligibility', { name: 'Daily multivitamin tablets' });
    expect(vitamins.body).toMatchObject({ requires_lmn: true, status: 'requires_lmn' });

    const product = (await api.post('/api/v2/products', { name: 'Contact lens solution', price: 899, currency: 'USD' }))
      .body;
    const byId = await api.post('/api/v2/products/check-eligibility', { product_id: product.id });
    expect(byId.body).toMatchObject({
      product_id: product.id,
      hsa_fsa_eligible: true,
      message: product.eligibility.message,
    });

    const empty = await api.post('/api/v2/products/check-eligibility', {});
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe('validation_error');
    const badUpc = await api.post('/api/v2/products/check-eligibility', { upc_code_or_gtin: '12345' });
    expect(badUpc.status).toBe(422);
  });

  test('the message names the rule and its source; a name that cannot decide is requires_review, not payable', async () => {
    const advil = await api.post('/api/v2/products/check-eligibility', {
      name: 'Advil Ibuprofen Tablets 200 mg, 100 ct',
    });
    expect(advil.body.message).toContain(
      'Rule: CARES Act 2020 (§3702): over-the-counter medicines are eligible without a prescription',
    );
    const tinted = await api.post('/api/v2/products/check-eligibility', {
      name: 'Tinted Moisturizer with SPF 30, Light',
    });
    expect(tinted.body).toMatchObject({
      status: 'requires_review',
      hsa_fsa_eligible: false,
      requires_lmn: false,
      category: 'cosmetics-with-spf',
    });
    expect(tinted.body.message).toMatch(
      /^Needs review \(not eligible until checked\): .*Rule: Plan administrators' eligibility lists: /,
    );

    // Stored, it reads back as requires_review, and it is not in the eligible list.
    const product = (
      await api.post('/api/v2/products', {
        name: 'Tinted Moisturizer with SPF 30, Light',
        price: 2400,
        currency: 'USD',
      })
    ).body;
    expect(product.eligibility).toMatchObject({ status: 'requires_review', hsa_fsa_eligible: false });
    expect((await api.get(`/api/v2/products/${product.id}`)).body.eligibility.status).toBe('requires_review');
    const eligible = (await api.get('/api/v2/products?hsa_fsa_eligible=true&limit=100')).body.data.map(
      (p: { id: number }) => p.id,
    );
    expect(eligible).not.toContain(product.id);
  });

  test('checks up to 100 names, barcodes or products in one call, answered in order in the list envelope', async () => {
    const stored = (await api.post('/api/v2/products', { name: 'Reading glasses +2.00', price: 1299, currency: 'USD' }))
      .body;
    const res = await api.post('/api/v2/products/check-eligibility', {
      items: [
        { name: 'KN95 Face Masks, 20 Pack' },
        { upc_code_or_gtin: '9520301200141' },
        { product_id: stored.id },
        { name: 'Oral-B Pro 1000 Electric Toothbrush' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data.map((c: { status: string; source: string }) => [c.status, c.source])).toEqual([
      ['eligible', 'name'],
      ['requires_lmn', 'upc'],
      ['eligible', 'name'],
      ['not_eligible', 'name'],
    ]);
    expect(res.body.data[2]).toMatchObject({
      product_id: stored.id,
      name: 'Reading glasses +2.00',
      message: stored.eligibility.message,
    });
    expect(res.body.data[1]).toMatchObject({ upc_code_or_gtin: '9520301200141', product_id: null, name: null });

    const hundred = await api.post('/api/v2/products/check-eligibility', {
      items: Array.from({ length: 100 }, (_, i) => ({ name: `Adhesive bandages #${i}` })),
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.data).toHaveLength(100);
    expect(hundred.body.data[99]).toMatchObject({ name: 'Adhesive bandages #99', status: 'eligible' });
  });

  test('a batch of 101, an empty batch, a bad item or an unknown product is refused with the item named', async () => {
    const tooMany = await api.post('/api/v2/products/check-eligibility', {
      items: Array.from({ length: 101 }, () => ({ name: 'Bandages' })),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error).toMatchObject({
      code: 'validation_error',
      param: 'items',
      details: [{ field: 'items', message: 'at most 100 items per call' }],
    });

    const empty = await api.post('/api/v2/products/check-eligibility', { items: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.error.details).toEqual([{ field: 'items', message: 'give at least one item' }]);

    const badUpc = await api.post('/api/v2/products/check-eligibility', {
      items: [{ name: 'Bandages' }, { upc_code_or_gtin: '036000291453' }],
    });
    expect(badUpc.status).toBe(422);
    expect(badUpc.body.error).toMatchObject({ code: 'validation_error', param: 'items.1.upc_code_or_gtin' });

    const unknownField = await api.post('/api/v2/products/check-eligibility', { items: [{ title: 'Bandages' }] });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.error.details).toContainEqual({
      field: 'items.0.title',
      message: 'is not a recognised field',
    });

    const missing = await api.post('/api/v2/products/check-eligibility', {
      items: [{ name: 'Bandages' }, { product_id: 999999 }],
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', param: 'items.1.product_id' });
  });

  test('the OpenAPI document shows both request forms and both answers', async () => {
    const doc = (await api.get('/api/v2/openapi.json')).body;
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'CheckEligibilityRequest',
        'CheckEligibilityBatchRequest',
        'EligibilityCheck',
        'EligibilityCheckList',
      ]),
    );
    expect(doc.components.schemas.CheckEligibilityBatchRequest.properties.items.maxItems).toBe(100);
  });
});

describe('reads from the read model', () => {
  const raw = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${keys.test_api_key}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.text();
  };

  test('GET and list answer byte for byte what the write (through the ORM) answered, after create and after update', async () => {
    // Metadata keys in jsonb's own order (shorter first), which every read returns, ORM or not.
    const created = await raw('POST', '/api/v2/products', {
      ...thermometer,
      merchant_product_id: 'BYTES-1',
      upc_code_or_gtin: null,
      metadata: { tags: ['x', 1], shelf: 'B1' },
    });
    const id = JSON.parse(created).id;
    expect(await raw('GET', `/api/v2/products/${id}`)).toBe(created);
    const updated = await raw('PUT', `/api/v2/products/${id}`, {
      tagline: null,
      images: ['https://cdn.example.com/3.png', 'https://cdn.example.com/1.png', 'https://cdn.example.com/2.png'],
    });
    expect(await raw('GET', `/api/v2/products/${id}`)).toBe(updated);
    const list = await raw('GET', '/api/v2/products?limit=1');
    expect(list).toBe(`{"object":"list","data":[${updated}],"has_more":true,"next_cursor":${id}}`);
  });

  test('the same numeric id of another merchant or mode is not found, and a bad id is a 404', async () => {
    const id = (await api.post('/api/v2/products', { name: 'Bandages', price: 499, currency: 'USD' })).body.id;
    const other = await t.merchant('Other');
    expect((await client(t.url, other.test_api_key).get(`/api/v2/products/${id}`)).status).toBe(404);
    expect((await client(t.url, keys.live_api_key).get(`/api/v2/products/${id}`)).status).toBe(404);
    expect((await api.get('/api/v2/products/abc')).body.error.code).toBe('not_found');
  });
});
