import { cards, checkoutBody } from '../helpers/fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { client, type Client } from '../helpers/http.js';
import { statementsOf } from '../helpers/sql.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

let t: TestApp;
let keys: CreatedMerchant;
let api: Client;

beforeAll(async () => {
  ({ t, keys, api } = await startWithMerchant('Customers'));
});
afterAll(() => t.close());

const jane = { email: 'Jane.Doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+15125550100' };

describe('customers (REST)', () => {
  test('create, get, update; unknown ids are 404 not_found', async () => {
    const created = await api.post('/api/v2/customers', { ...jane, metadata: { crm: 'A1' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^cus_/),
      object: 'customer',
      livemode: false,
      email: 'Jane.Doe@example.com',
      first_name: 'Jane',
      last_name: 'Doe',
      phone: '+15125550100',
      metadata: { crm: 'A1' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id;
    expect((await api.get(`/api/v2/customers/${id}`)).body).toEqual(created.body);

    const updated = await api.put(`/api/v2/customers/${id}`, { last_name: 'Roe', phone: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, first_name: 'Jane', last_name: 'Roe', phone: null, metadata: { crm: 'A1' } });
    expect((await api.get(`/api/v2/customers/${id}`)).body.last_name).toBe('Roe');

    for (const res of [await api.get('/api/v2/customers/cus_nope'), await api.put('/api/v2/customers/cus_nope', { first_name: 'X' })]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', param: 'id' });
    }
  });

  test('bad input lists every bad field', async () => {
    const res = await api.post('/api/v2/customers', { email: 'not-an-email', first_name: '', extra: 1 });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'extra', 'first_name', 'last_name']);
    const badUpdate = await api.put(`/api/v2/customers/${(await api.post('/api/v2/customers', jane)).body.id}`, { email: 'x' });
    expect(badUpdate.status).toBe(422);
    expect(badUpdate.body.error.details).toEqual([{ field: 'email', message: expect.any(String) }]);
  });

  test('list: newest first, keyset pages, email (case-insensitive) and created filters', async () => {
    const other = await startWithMerchantKeys();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await other.post('/api/v2/customers', { ...jane, email: i % 2 ? 'odd@example.com' : `even${i}@example.com` })).body.id);
    const first = await other.get('/api/v2/customers?limit=3');
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: ids[2] });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3], ids[2]]);
    const second = await other.get(`/api/v2/customers?limit=3&starting_after=${first.body.next_cursor}`);
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual([ids[1], ids[0]]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect((await other.get('/api/v2/customers?email=ODD@Example.com')).body.data.map((c: { id: string }) => c.id)).toEqual([ids[3], ids[1]]);
    expect((await other.get(`/api/v2/customers?created_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.data).toEqual([]);
    expect((await other.get(`/api/v2/customers?created_before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=100`)).body.data).toHaveLength(5);
    const bad = await other.get('/api/v2/customers?limit=500');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    const foreignCursor = await other.get(`/api/v2/customers?starting_after=${(await api.post('/api/v2/customers', jane)).body.id}`);
    expect(foreignCursor.status).toBe(400);
    expect(foreignCursor.body.error).toMatchObject({ code: 'invalid_request', param: 'starting_after' });
  });

  test('test and live objects never see each other; a foreign merchant’s customer is not found', async () => {
    const test = (await api.post('/api/v2/customers', jane)).body.id;
    const live = client(t.url, keys.live_api_key);
    expect((await live.get(`/api/v2/customers/${test}`)).status).toBe(404);
    const liveId = (await live.post('/api/v2/customers', jane)).body.id;
    expect((await live.get(`/api/v2/customers/${liveId}`)).body.livemode).toBe(true);
    expect((await live.get('/api/v2/customers?limit=100')).body.data.map((c: { id: string }) => c.id)).toEqual([liveId]);
    expect((await api.get(`/api/v2/customers/${liveId}`)).status).toBe(404);
    const other = await startWithMerchantKeys();
    const foreign = await other.get(`/api/v2/customers/${test}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const attach = await other.post(`/api/v2/customers/${test}/payment-methods`, { card: cards.visa });
    expect(attach.status).toBe(404);
    expect(attach.body.error.code).toBe('not_found');
  });

  test('POST with an Idempotency-Key runs once and replays', async () => {
    const key = crypto.randomUUID();
    const a = await api.post('/api/v2/customers', jane, { 'idempotency-key': key });
    const b = await api.post('/api/v2/customers', jane, { 'idempotency-key': key });
    expect(b.body.id).toBe(a.body.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const reused = await api.post('/api/v2/customers', { ...jane, first_name: 'Other' }, { 'idempotency-key': key });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });
});

async function startWithMerchantKeys() {
  return client(t.url, (await t.merchant('Another')).test_api_key);
}

describe('payment methods (REST)', () => {
  let customer: string;
  beforeAll(async () => {
    customer = (await api.post('/api/v2/customers', jane)).body.id;
  });

  test('a verified card is stored with type, brand, last4 and expiry', async () => {
    const visa = await api.post(`/api/v2/customers/${customer}/payment-methods`, { card: cards.visa });
    expect(visa.status).toBe(201);
    expect(visa.body).toEqual({
      id: expect.stringMatching(/^pm_/),
      object: 'payment_method',
      livemode: false,
      customer_id: customer,
      type: 'card',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2030,
      created_at: expect.any(String),
      detached_at: null,
    });
    const hsa = await api.post(`/api/v2/customers/${customer}/payment-methods`, { card: cards.hsaMastercard });
    expect(hsa.body).toMatchObject({ type: 'hsa_fsa_card', brand: 'mastercard', last4: '0010' });
    const list = await api.get(`/api/v2/customers/${customer}/payment-methods`);
    expect(list.body.data.map((pm: { id: string }) => pm.id)).toEqual([hsa.body.id, visa.body.id]);
    const page = await api.get(`/api/v2/customers/${customer}/payment-methods?limit=1`);
    expect(page.body).toMatchObject({ has_more: true, next_cursor: hsa.body.id });
    expect((await api.get(`/api/v2/customers/${customer}/payment-methods/${visa.body.id}`)).body).toEqual(visa.body);
  });

  test('declined cards are 400 invalid_payment_method with the processor’s reason; nothing is stored', async () => {
    const other = (await api.post('/api/v2/customers', jane)).body.id;
    const declined = await api.post(`/api/v2/customers/${other}/payment-methods`, { card: cards.declined });
    expect(declined.status).toBe(400);
    expect(declined.body.error).toMatchObject({ code: 'invalid_payment_method', param: 'card', details: { decline_code: 'card_declined' } });
    expect(declined.body.error.message).toContain('The card was declined.');
    const insufficient = await api.post(`/api/v2/customers/${other}/payment-methods`, { card: cards.hsaInsufficient });
    expect(insufficient.body.error).toMatchObject({ code: 'invalid_payment_method', details: { decline_code: 'insufficient_funds' } });
    expect((await api.get(`/api/v2/customers/${other}/payment-methods`)).body.data).toEqual([]);
  });

  test('Luhn-invalid, expired and malformed cards are validation errors per field', async () => {
    const luhn = await api.post(`/api/v2/customers/${customer}/payment-methods`, { card: { ...cards.visa, number: '4242424242424241' } });
    expect(luhn.status).toBe(422);
    expect(luhn.body.error).toMatchObject({ code: 'validation_error', param: 'card.number', details: [{ field: 'card.number', message: expect.stringContaining('Luhn') }] });
    const expired = await api.post(`/api/v2/customers/${customer}/payment-methods`, { card: { ...cards.visa, exp_year: 2020 } });
    expect(expired.status).toBe(422);
    expect(expired.body.error.details).toEqual([{ field: 'card.exp_year', message: 'the card has expired' }]);
    const malformed = await api.post(`/api/v2/customers/${customer}/payment-methods`, { card: { number: '4242', exp_month: 13, cvc: '1' } });
    expect(malformed.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['card.cvc', 'card.exp_month', 'card.exp_year', 'card.number']);
    expect((await api.post(`/api/v2/customers/${customer}/payment-methods`, {})).body.error.details).toEqual([{ field: 'card', message: 'is required' }]);
  });

  test('detach: no longer listed; twice is harmless; unknown ids are 404', async () => {
    const pm = (await api.post(`/api/v2/customers/${customer}/payment-methods`, { card: cards.mastercard })).body;
    const detached = await api.delete(`/api/v2/customers/${customer}/payment-methods/${pm.id}`);
    expect(detached.status).toBe(200);
    expect(detached.body).toMatchObject({ id: pm.id, detached_at: expect.any(String) });
    expect((await api.get(`/api/v2/customers/${customer}/payment-methods?limit=100`)).body.data.map((p: { id: string }) => p.id)).not.toContain(pm.id);
    expect((await api.delete(`/api/v2/customers/${customer}/payment-methods/${pm.id}`)).body.detached_at).toBe(detached.body.detached_at);
    const unknownPm = await api.delete(`/api/v2/customers/${customer}/payment-methods/pm_nope`);
    expect(unknownPm.status).toBe(404);
    expect(unknownPm.body.error).toMatchObject({ code: 'not_found', param: 'payment_method_id' });
    const unknownCustomer = await api.get('/api/v2/customers/cus_nope/payment-methods');
    expect(unknownCustomer.body.error).toMatchObject({ code: 'not_found', param: 'id' });
    const otherCustomer = (await api.post('/api/v2/customers', jane)).body.id;
    expect((await api.get(`/api/v2/customers/${otherCustomer}/payment-methods/${pm.id}`)).status).toBe(404);
  });

  test('live mode cannot verify cards without a processor (503), and never sees test methods', async () => {
    const live = client(t.url, keys.live_api_key);
    const liveCustomer = (await live.post('/api/v2/customers', jane)).body.id;
    const encrypted = { type: 'scheme', encryptedCardNumber: 'adyenjs_0_1_25$abc', encryptedExpiryMonth: 'adyenjs_0_1_25$def', encryptedExpiryYear: 'adyenjs_0_1_25$ghi' };
    const res = await live.post(`/api/v2/customers/${liveCustomer}/payment-methods`, { card: { payment_method_data: encrypted } });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('service_unavailable');
  });

  test('live mode refuses a raw card number (400 invalid_request), even one that fails validation', async () => {
    const live = client(t.url, keys.live_api_key);
    const liveCustomer = (await live.post('/api/v2/customers', jane)).body.id;
    for (const card of [cards.visa, { number: '4242', exp_month: 13 }]) {
      const res = await live.post(`/api/v2/customers/${liveCustomer}/payment-methods`, { card });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'card' });
      expect(JSON.stringify(res.body)).not.toContain(card.number);
    }
  });
});

describe('customers (GraphQL)', () => {
  test('create, update, attach and detach through mutations; node(id:) resolves both types', async () => {
    const created = await api.graphql(`mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customer { id customerId email firstName phone } } }`, {
      input: { email: 'g@example.com', firstName: 'Gia', lastName: 'Q', phone: '+1555' },
    });
    expect(created.body.errors).toBeUndefined();
    const c = created.body.data.createCustomer.customer;
    expect(c).toMatchObject({ customerId: expect.stringMatching(/^cus_/), email: 'g@example.com', firstName: 'Gia', phone: '+1555' });
    const updated = await api.graphql(`mutation($input: UpdateCustomerInput!) { updateCustomer(input: $input) { customer { lastName phone } } }`, { input: { id: c.id, lastName: 'R', phone: null } });
    expect(updated.body.data.updateCustomer.customer).toEqual({ lastName: 'R', phone: null });

    const attach = (card: object) =>
      api.graphql(`mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { id paymentMethodId customerId type brand last4 expMonth expYear } } }`, {
        input: { customerId: c.id, card },
      });
    const pm = (await attach({ number: cards.hsa.number, expMonth: 12, expYear: 2030, cvc: '123' })).body.data.attachPaymentMethod.paymentMethod;
    expect(pm).toMatchObject({ paymentMethodId: expect.stringMatching(/^pm_/), customerId: c.customerId, type: 'HSA_FSA_CARD', brand: 'visa', last4: '0013', expMonth: 12, expYear: 2030 });
    const declined = await attach({ number: cards.declined.number, expMonth: 12, expYear: 2030, cvc: '123' });
    expect(declined.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_payment_method', details: { decline_code: 'card_declined' } });
    const luhn = await attach({ number: '4242424242424241', expMonth: 12, expYear: 2030, cvc: '123' });
    expect(luhn.body.errors?.[0].extensions).toMatchObject({ code: 'validation_error', details: [{ field: 'card.number', message: expect.any(String) }] });

    const nodes = await api.graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Customer { email paymentMethods { last4 } } ... on PaymentMethod { brand } } }`, {
      ids: [c.id, pm.id],
    });
    expect(nodes.body.data.nodes).toEqual([
      { __typename: 'Customer', email: 'g@example.com', paymentMethods: [{ last4: '0013' }] },
      { __typename: 'PaymentMethod', brand: 'visa' },
    ]);
    const detached = await api.graphql(`mutation($input: DetachPaymentMethodInput!) { detachPaymentMethod(input: $input) { paymentMethod { detachedAt } } }`, { input: { id: pm.id } });
    expect(detached.body.data.detachPaymentMethod.paymentMethod.detachedAt).toEqual(expect.any(String));
    const after = await api.graphql(`query($id: ID!) { customer(id: $id) { paymentMethods { id } } }`, { id: c.id });
    expect(after.body.data.customer.paymentMethods).toEqual([]);
    const unknown = await api.graphql(`{ customer(id: "${Buffer.from('Customer:cus_nope').toString('base64url')}") { id } }`);
    expect(unknown.body.errors?.[0].extensions.code).toBe('not_found');
  });

  test('customers connection with filters; payment methods and orders batched: 50 cost what 1 costs', async () => {
    const gql = await startWithMerchantKeys();
    for (let i = 0; i < 4; i++) {
      const email = `buyer${i}@example.com`;
      const id = (await gql.post('/api/v2/customers', { ...jane, email })).body.id;
      await gql.post(`/api/v2/customers/${id}/payment-methods`, { card: cards.visa });
      const s = (await gql.post('/api/v2/checkout', checkoutBody([['X', 'Gift', 500 + i, 1]], { customer: { email: email.toUpperCase(), first_name: 'B', last_name: 'C' } }))).body.data;
      expect((await gql.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { card: cards.visa })).status).toBe(200);
    }
    const query = `{ customers(first: 50) { edges { cursor node { email paymentMethods { last4 type } orders(first: 5) { nodes { orderId amount } pageInfo { hasNextPage } } } } pageInfo { hasNextPage } } }`;
    const res = await gql.graphql(query);
    const statements = await statementsOf(() => gql.graphql(query));
    expect(await statementsOf(() => gql.graphql(query.replace('first: 50', 'first: 1')))).toBe(statements);
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.customers.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toHaveLength(4);
    expect(nodes[0]).toEqual({
      email: 'buyer3@example.com',
      paymentMethods: [{ last4: '4242', type: 'CARD' }],
      orders: { nodes: [{ orderId: expect.stringMatching(/^ord_/), amount: 503 }], pageInfo: { hasNextPage: false } },
    });
    // customers + payment methods + orders: no N+1 (the rate limit spends leased tokens).
    expect(statements).toBe(3);
    const filtered = await gql.graphql(`{ customers(first: 10, email: "BUYER1@example.com") { nodes { email } } }`);
    expect(filtered.body.data.customers.nodes).toEqual([{ email: 'buyer1@example.com' }]);
  });
});

describe('card numbers and cvcs are never kept', () => {
  let service: ServiceProcess | undefined;
  afterAll(() => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
  });

  test('not in any table, not in the logs (trace level, SQL included), not in idempotency records', async () => {
    // A second API process on the same database, logging everything, so its output can be searched.
    service = await startServiceProcess({ RUN_JOBS: 'false', LOG_LEVEL: 'trace', SQL_DEBUG: 'true', RATE_LIMIT_MAX: '100000' }, { capture: true });
    const base = service.url;
    const other = client(base, keys.test_api_key);

    const secret = { number: '5555555555554444', exp_month: 11, exp_year: 2031, cvc: '987' };
    const secretHsa = { number: '5111110000000010', exp_month: 10, exp_year: 2032, cvc: '8642' };
    const declinedCvc = '7531';
    const customer = (await other.post('/api/v2/customers', jane, { 'idempotency-key': crypto.randomUUID() })).body.id;
    const rest = await other.post(`/api/v2/customers/${customer}/payment-methods`, { card: secret }, { 'idempotency-key': crypto.randomUUID() });
    expect(rest.status).toBe(201);
    const gid = Buffer.from(`Customer:${customer}`).toString('base64url');
    const gql = await other.graphql(
      `mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { last4 } } }`,
      { input: { customerId: gid, card: { number: secretHsa.number, expMonth: secretHsa.exp_month, expYear: secretHsa.exp_year, cvc: secretHsa.cvc } } },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(gql.body.data.attachPaymentMethod.paymentMethod.last4).toBe('0010');
    const declined = await other.post(`/api/v2/customers/${customer}/payment-methods`, { card: { ...cards.declined, cvc: declinedCvc } }, { 'idempotency-key': crypto.randomUUID() });
    expect(declined.status).toBe(400);
    await new Promise((r) => setTimeout(r, 300)); // let the child flush its log lines
    const output = service.output();
    expect(output).toContain(customer); // the logs did record the requests…
    expect(output).toMatch(/insert into "payment_methods"/); // …and their SQL with its parameters

    // Every row of every table as text.
    const tables = await t.orm.em.getConnection().execute<{ tablename: string }[]>(`select tablename from pg_tables where schemaname = 'public'`);
    let dump = '';
    for (const { tablename } of tables) {
      const rows = await t.orm.em.getConnection().execute<{ row: string }[]>(`select t::text as row from "${tablename}" t`);
      dump += rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain(customer);
    const idempotency = await t.orm.em.getConnection().execute<{ row: string }[]>(`select t::text as row from idempotency_keys t where merchant_id = ?`, [keys.id]);
    expect(idempotency.length).toBeGreaterThanOrEqual(3);
    for (const needle of [secret.number, secretHsa.number, cards.declined.number]) {
      expect(dump).not.toContain(needle);
      expect(output).not.toContain(needle);
      expect(idempotency.map((r) => r.row).join('\n')).not.toContain(needle);
    }
    // A 3- or 4-digit cvc could appear inside any id or timestamp: look for it as a JSON value or SQL parameter instead.
    for (const needle of [secret.cvc, secretHsa.cvc, declinedCvc].flatMap((cvc) => [`"${cvc}"`, `'${cvc}'`])) {
      expect(dump).not.toContain(needle);
      expect(output).not.toContain(needle);
    }
  }, 60_000);
});
