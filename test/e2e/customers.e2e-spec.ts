import type { toCustomerResource, toPaymentMethodResource } from '../../src/modules/customers/customer.resource.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process.js';
import { client, type Client, type ErrorBody, type FieldError, type Page } from '../helpers/http.js';
import { statementsOf } from '../helpers/sql.js';
import { newMerchant, startTestApp, type TestApp } from '../helpers/test-app.js';
import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';

let t: TestApp;
let keys: CreatedMerchant;
let api: Client;

beforeAll(async () => {
  t = await startTestApp();
  await t.reset();
});
// A merchant per test: lists and counts see only what the test made.
beforeEach(async () => {
  ({ keys, api } = await newMerchant(t, 'Customers'));
});
afterAll(() => t.close());

type Customer = ReturnType<typeof toCustomerResource>;
type PaymentMethod = ReturnType<typeof toPaymentMethodResource>;
const jane = { email: 'Jane.Doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+15125550100' };

/** Creates a customer (201) through `via`; its id. */
async function createCustomer(via: Client = api, body: object = jane): Promise<string> {
  const res = await via.post<Customer>('/api/v2/customers', body);
  expect(res.status).toBe(201);
  return res.body.id;
}
/** A client of a new merchant's test key. */
async function anotherMerchant(): Promise<Client> {
  return (await newMerchant(t, 'Another')).api;
}
const fieldsOf = (error: ErrorBody['error']) => (error.details as FieldError[]).map((d) => d.field).sort();
const ids = (page: Page<{ id: string }>) => page.data.map((x) => x.id);

describe('customers (REST)', () => {
  test('create answers the customer; get reads it back', async () => {
    const created = await api.post<Customer>('/api/v2/customers', { ...jane, metadata: { crm: 'A1' } });
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
    expect((await api.get(`/api/v2/customers/${created.body.id}`)).body).toEqual(created.body);
  });

  test('update changes the given fields only (null clears one)', async () => {
    const id = await createCustomer(api, { ...jane, metadata: { crm: 'A1' } });
    const updated = await api.put<Customer>(`/api/v2/customers/${id}`, { last_name: 'Roe', phone: null });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      first_name: 'Jane',
      last_name: 'Roe',
      phone: null,
      metadata: { crm: 'A1' },
    });
    expect((await api.get<Customer>(`/api/v2/customers/${id}`)).body.last_name).toBe('Roe');
  });

  test('unknown ids are 404 not_found on get and update', async () => {
    for (const res of [
      await api.get<ErrorBody>('/api/v2/customers/cus_nope'),
      await api.put<ErrorBody>('/api/v2/customers/cus_nope', { first_name: 'X' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'not_found', param: 'id' });
    }
  });

  test('bad input on create lists every bad field', async () => {
    const res = await api.post<ErrorBody>('/api/v2/customers', { email: 'not-an-email', first_name: '', extra: 1 });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(fieldsOf(res.body.error)).toEqual(['email', 'extra', 'first_name', 'last_name']);
  });

  test('bad input on update names the field', async () => {
    const badUpdate = await api.put<ErrorBody>(`/api/v2/customers/${await createCustomer()}`, { email: 'x' });
    expect(badUpdate.status).toBe(422);
    expect(badUpdate.body.error.details).toEqual([{ field: 'email', message: expect.any(String) }]);
  });

  describe('list', () => {
    /** Five customers (odd ones odd@example.com); their ids oldest first. */
    async function fiveCustomers() {
      const made: string[] = [];
      for (let i = 0; i < 5; i++)
        made.push(await createCustomer(api, { ...jane, email: i % 2 ? 'odd@example.com' : `even${i}@example.com` }));
      return made;
    }
    const list = async (query: string) => (await api.get<Page<Customer>>(`/api/v2/customers?${query}`)).body;
    const aMinuteFromNow = () => encodeURIComponent(new Date(Date.now() + 60_000).toISOString());

    test('newest first, in keyset pages', async () => {
      const made = await fiveCustomers();
      const first = await list('limit=3');
      expect(first).toMatchObject({ object: 'list', has_more: true, next_cursor: made[2] });
      expect(ids(first)).toEqual([made[4], made[3], made[2]]);
      const second = await list(`limit=3&starting_after=${first.next_cursor}`);
      expect(ids(second)).toEqual([made[1], made[0]]);
      expect(second).toMatchObject({ has_more: false, next_cursor: null });
    });

    test('email (case-insensitive) and created filters', async () => {
      const made = await fiveCustomers();
      expect(ids(await list('email=ODD@Example.com'))).toEqual([made[3], made[1]]);
      expect((await list(`created_after=${aMinuteFromNow()}`)).data).toEqual([]);
      expect((await list(`created_before=${aMinuteFromNow()}&limit=100`)).data).toHaveLength(5);
    });

    test('a limit over the cap is 400 invalid_request on limit', async () => {
      const bad = await api.get<ErrorBody>('/api/v2/customers?limit=500');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    });

    test("another merchant's customer is no cursor (400 invalid_request on starting_after)", async () => {
      const foreign = await createCustomer(await anotherMerchant());
      const foreignCursor = await api.get<ErrorBody>(`/api/v2/customers?starting_after=${foreign}`);
      expect(foreignCursor.status).toBe(400);
      expect(foreignCursor.body.error).toMatchObject({ code: 'invalid_request', param: 'starting_after' });
    });
  });

  test('test and live objects never see each other', async () => {
    const test = await createCustomer();
    const live = client(t.url, keys.live_api_key);
    expect((await live.get(`/api/v2/customers/${test}`)).status).toBe(404);
    const liveId = await createCustomer(live);
    expect((await live.get<Customer>(`/api/v2/customers/${liveId}`)).body.livemode).toBe(true);
    expect(ids((await live.get<Page<Customer>>('/api/v2/customers?limit=100')).body)).toEqual([liveId]);
    expect((await api.get(`/api/v2/customers/${liveId}`)).status).toBe(404);
  });

  test('a foreign merchant’s customer is not found, nor can a card be attached to it', async () => {
    const test = await createCustomer();
    const other = await anotherMerchant();
    const foreign = await other.get<ErrorBody>(`/api/v2/customers/${test}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('not_found');
    const attach = await other.post<ErrorBody>(`/api/v2/customers/${test}/payment-methods`, { card: cards.visa });
    expect(attach.status).toBe(404);
    expect(attach.body.error.code).toBe('not_found');
  });

  test('POST with an Idempotency-Key runs once and replays; the key with another body is refused', async () => {
    const key = crypto.randomUUID();
    const a = await api.post<Customer>('/api/v2/customers', jane, { 'idempotency-key': key });
    const b = await api.post<Customer>('/api/v2/customers', jane, { 'idempotency-key': key });
    expect(b.body.id).toBe(a.body.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const reused = await api.post<ErrorBody>(
      '/api/v2/customers',
      { ...jane, first_name: 'Other' },
      { 'idempotency-key': key },
    );
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('payment methods (REST)', () => {
  let customer: string;
  beforeEach(async () => {
    customer = await createCustomer();
  });
  const methods = (query = '') => `/api/v2/customers/${customer}/payment-methods${query}`;
  /** Attaches `card` to the customer; the answer. */
  const attach = (card: object, to = customer) =>
    api.post<PaymentMethod & ErrorBody>(`/api/v2/customers/${to}/payment-methods`, { card });
  /** A visa, then an HSA/FSA mastercard, attached. */
  async function twoCards() {
    const visa = (await attach(cards.visa)).body;
    const hsa = (await attach(cards.hsaMastercard)).body;
    return { visa, hsa };
  }

  test('a verified card is stored with type, brand, last4 and expiry', async () => {
    const visa = await attach(cards.visa);
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
  });

  test('an HSA/FSA card is stored as hsa_fsa_card', async () => {
    const hsa = await attach(cards.hsaMastercard);
    expect(hsa.body).toMatchObject({ type: 'hsa_fsa_card', brand: 'mastercard', last4: '0010' });
  });

  test('stored cards are listed newest first, in pages, and read one by one', async () => {
    const { visa, hsa } = await twoCards();
    expect(ids((await api.get<Page<PaymentMethod>>(methods())).body)).toEqual([hsa.id, visa.id]);
    expect((await api.get(methods('?limit=1'))).body).toMatchObject({ has_more: true, next_cursor: hsa.id });
    expect((await api.get(methods(`/${visa.id}`))).body).toEqual(visa);
  });

  test('declined cards are 400 invalid_payment_method with the processor’s reason; nothing is stored', async () => {
    const declined = await attach(cards.declined);
    expect(declined.status).toBe(400);
    expect(declined.body.error).toMatchObject({
      code: 'invalid_payment_method',
      param: 'card',
      details: { decline_code: 'card_declined' },
    });
    expect(declined.body.error.message).toContain('The card was declined.');
    const insufficient = await attach(cards.hsaInsufficient);
    expect(insufficient.body.error).toMatchObject({
      code: 'invalid_payment_method',
      details: { decline_code: 'insufficient_funds' },
    });
    expect((await api.get<Page<PaymentMethod>>(methods())).body.data).toEqual([]);
  });

  describe('cards refused as validation errors, per field', () => {
    test('a Luhn-invalid number', async () => {
      const luhn = await attach({ ...cards.visa, number: '4242424242424241' });
      expect(luhn.status).toBe(422);
      const details = [{ field: 'card.number', message: expect.stringContaining('Luhn') }];
      expect(luhn.body.error).toMatchObject({ code: 'validation_error', param: 'card.number', details });
    });

    test('an expired card', async () => {
      const expired = await attach({ ...cards.visa, exp_year: 2020 });
      expect(expired.status).toBe(422);
      expect(expired.body.error.details).toEqual([{ field: 'card.exp_year', message: 'the card has expired' }]);
    });

    test('a malformed card names each field', async () => {
      const malformed = await attach({ number: '4242', exp_month: 13, cvc: '1' });
      expect(fieldsOf(malformed.body.error)).toEqual(['card.cvc', 'card.exp_month', 'card.exp_year', 'card.number']);
    });

    test('no card at all', async () => {
      expect((await api.post<ErrorBody>(methods(), {})).body.error.details).toEqual([
        { field: 'card', message: 'is required' },
      ]);
    });
  });

  describe('detach', () => {
    /** A mastercard attached and then detached: the card and the detach answer. */
    async function detached() {
      const pm = (await attach(cards.mastercard)).body;
      const res = await api.delete<PaymentMethod>(methods(`/${pm.id}`));
      expect(res.status).toBe(200);
      return { pm, res };
    }

    test('a detached card carries detached_at and is no longer listed', async () => {
      const { pm, res } = await detached();
      expect(res.body).toMatchObject({ id: pm.id, detached_at: expect.any(String) });
      expect(ids((await api.get<Page<PaymentMethod>>(methods('?limit=100'))).body)).not.toContain(pm.id);
    });

    test('detaching twice is harmless: the same detached_at', async () => {
      const { pm, res } = await detached();
      expect((await api.delete<PaymentMethod>(methods(`/${pm.id}`))).body.detached_at).toBe(res.body.detached_at);
    });

    test('unknown payment methods and customers are 404', async () => {
      const unknownPm = await api.delete<ErrorBody>(methods('/pm_nope'));
      expect(unknownPm.status).toBe(404);
      expect(unknownPm.body.error).toMatchObject({ code: 'not_found', param: 'payment_method_id' });
      const unknownCustomer = await api.get<ErrorBody>('/api/v2/customers/cus_nope/payment-methods');
      expect(unknownCustomer.body.error).toMatchObject({ code: 'not_found', param: 'id' });
    });

    test("a card is not found under another customer's path", async () => {
      const pm = (await attach(cards.mastercard)).body;
      const otherCustomer = await createCustomer();
      expect((await api.get(`/api/v2/customers/${otherCustomer}/payment-methods/${pm.id}`)).status).toBe(404);
    });
  });

  test('live mode cannot verify cards without a processor (503), and never sees test methods', async () => {
    const live = client(t.url, keys.live_api_key);
    const liveCustomer = await createCustomer(live);
    const encrypted = {
      type: 'scheme',
      encryptedCardNumber: 'adyenjs_0_1_25$abc',
      encryptedExpiryMonth: 'adyenjs_0_1_25$def',
      encryptedExpiryYear: 'adyenjs_0_1_25$ghi',
    };
    const res = await live.post<ErrorBody>(`/api/v2/customers/${liveCustomer}/payment-methods`, {
      card: { payment_method_data: encrypted },
    });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('service_unavailable');
  });

  test('live mode refuses a raw card number (400 invalid_request), even one that fails validation', async () => {
    const live = client(t.url, keys.live_api_key);
    const liveCustomer = await createCustomer(live);
    for (const card of [cards.visa, { number: '4242', exp_month: 13 }]) {
      const res = await live.post<ErrorBody>(`/api/v2/customers/${liveCustomer}/payment-methods`, { card });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', param: 'card' });
      expect(JSON.stringify(res.body)).not.toContain(card.number);
    }
  });
});

describe('customers (GraphQL)', () => {
  /** A customer as createCustomer selects it. */
  interface GraphQLCustomer {
    id: string;
    customerId: string;
    email: string;
  }
  /** A stored card as attachPaymentMethod selects it. */
  interface GraphQLPaymentMethod {
    id: string;
    paymentMethodId: string;
  }
  const gqlCard = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: '123' });
  async function createGia() {
    const created = await api.graphql<{ createCustomer: { customer: GraphQLCustomer } }>(
      `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customer { id customerId email firstName phone } } }`,
      { input: { email: 'g@example.com', firstName: 'Gia', lastName: 'Q', phone: '+1555' } },
    );
    expect(created.body.errors).toBeUndefined();
    return created.body.data.createCustomer.customer;
  }
  const PM = 'id paymentMethodId customerId type brand last4 expMonth expYear';
  const attachMutation = `mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { ${PM} } userErrors { field message code } } }`;
  const attach = (customerId: string, card: object) =>
    api.graphql<{
      attachPaymentMethod: {
        paymentMethod: GraphQLPaymentMethod;
        userErrors: { field: string[] | null; message: string; code: string }[];
      };
    }>(attachMutation, {
      input: { customerId, card },
    });
  /** Gia with an HSA/FSA card attached. */
  async function giaWithCard() {
    const c = await createGia();
    const pm = (await attach(c.id, gqlCard(cards.hsa.number))).body.data.attachPaymentMethod.paymentMethod;
    return { c, pm };
  }

  test('createCustomer answers the customer', async () => {
    const c = await createGia();
    expect(c).toMatchObject({
      customerId: expect.stringMatching(/^cus_/),
      email: 'g@example.com',
      firstName: 'Gia',
      phone: '+1555',
    });
  });

  test('updateCustomer changes the given fields', async () => {
    const c = await createGia();
    const mutation = `mutation($input: UpdateCustomerInput!) { updateCustomer(input: $input) { customer { lastName phone } } }`;
    const updated = await api.graphql<{ updateCustomer: { customer: unknown } }>(mutation, {
      input: { id: c.id, lastName: 'R', phone: null },
    });
    expect(updated.body.data.updateCustomer.customer).toEqual({ lastName: 'R', phone: null });
  });

  test('attachPaymentMethod stores a verified card', async () => {
    const { c, pm } = await giaWithCard();
    expect(pm).toMatchObject({
      paymentMethodId: expect.stringMatching(/^pm_/),
      customerId: c.customerId,
      type: 'HSA_FSA_CARD',
      brand: 'visa',
      last4: '0013',
      expMonth: 12,
      expYear: 2030,
    });
  });

  test('attachPaymentMethod refuses a declined card and a Luhn-invalid number', async () => {
    const c = await createGia();
    const declined = await attach(c.id, gqlCard(cards.declined.number));
    expect(declined.body.data.attachPaymentMethod).toEqual({
      paymentMethod: null,
      userErrors: [
        {
          field: ['input', 'card'],
          message: expect.stringContaining('could not be verified'),
          code: 'INVALID_PAYMENT_METHOD',
        },
      ],
    });
    const luhn = await attach(c.id, gqlCard('4242424242424241'));
    expect(luhn.body.data.attachPaymentMethod.userErrors).toEqual([
      {
        field: ['input', 'card', 'number'],
        message: expect.stringMatching(/^card\.number /),
        code: 'VALIDATION_ERROR',
      },
    ]);
  });

  test('nodes(ids:) resolves customers and payment methods', async () => {
    const { c, pm } = await giaWithCard();
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Customer { email paymentMethods { last4 } } ... on PaymentMethod { brand } } }`;
    const nodes = await api.graphql<{ nodes: unknown[] }>(query, {
      ids: [c.id, pm.id],
    });
    expect(nodes.body.data.nodes).toEqual([
      { __typename: 'Customer', email: 'g@example.com', paymentMethods: [{ last4: '0013' }] },
      { __typename: 'PaymentMethod', brand: 'visa' },
    ]);
  });

  test("detachPaymentMethod: the card leaves the customer's list", async () => {
    const { c, pm } = await giaWithCard();
    const detached = await api.graphql<{ detachPaymentMethod: { paymentMethod: { detachedAt: string } } }>(
      `mutation($input: DetachPaymentMethodInput!) { detachPaymentMethod(input: $input) { paymentMethod { detachedAt } } }`,
      { input: { id: pm.id } },
    );
    expect(detached.body.data.detachPaymentMethod.paymentMethod.detachedAt).toEqual(expect.any(String));
    const after = await api.graphql<{ customer: { paymentMethods: unknown[] } }>(
      `query($id: ID!) { customer(id: $id) { paymentMethods { id } } }`,
      { id: c.id },
    );
    expect(after.body.data.customer.paymentMethods).toEqual([]);
  });

  test('an unknown customer is not_found', async () => {
    const unknown = await api.graphql(
      `{ customer(id: "${Buffer.from('Customer:cus_nope').toString('base64url')}") { id } }`,
    );
    expect(unknown.body.errors?.[0].extensions.code).toBe('not_found');
  });

  describe('the customers connection', () => {
    /** Four buyers, each with a stored visa and one paid order (500 + i cents). */
    async function fourBuyers() {
      for (let i = 0; i < 4; i++) {
        const email = `buyer${i}@example.com`;
        const id = await createCustomer(api, { ...jane, email });
        await api.post(`/api/v2/customers/${id}/payment-methods`, { card: cards.visa });
        const body = checkoutBody([['X', 'Gift', 500 + i, 1]], {
          customer: { email: email.toUpperCase(), first_name: 'B', last_name: 'C' },
        });
        const s = (await api.post<{ data: { checkout_id: string } }>('/api/v2/checkout', body)).body.data;
        expect(
          (await api.post(`/api/v2/test-helpers/checkout/${s.checkout_id}/pay`, { card: cards.visa })).status,
        ).toBe(200);
      }
    }

    test('payment methods and orders are batched: 50 customers cost what 1 costs', async () => {
      await fourBuyers();
      const node =
        'email paymentMethods { last4 type } orders(first: 5) { nodes { orderId amount } pageInfo { hasNextPage } }';
      const query = `{ customers(first: 50) { edges { cursor node { ${node} } } pageInfo { hasNextPage } } }`;
      const res = await api.graphql<{ customers: { edges: { node: unknown }[] } }>(query);
      const statements = await statementsOf(() => api.graphql(query));
      expect(await statementsOf(() => api.graphql(query.replace('first: 50', 'first: 1')))).toBe(statements);
      expect(res.body.errors).toBeUndefined();
      const nodes = res.body.data.customers.edges.map((e) => e.node);
      expect(nodes).toHaveLength(4);
      expect(nodes[0]).toEqual({
        email: 'buyer3@example.com',
        paymentMethods: [{ last4: '4242', type: 'CARD' }],
        orders: { nodes: [{ orderId: expect.stringMatching(/^ord_/), amount: 503 }], pageInfo: { hasNextPage: false } },
      });
      // customers + payment methods + orders: no N+1 (the rate limit spends leased tokens).
      expect(statements).toBe(3);
    });

    test('filters by email, in any case', async () => {
      await fourBuyers();
      const filtered = await api.graphql<{ customers: { nodes: unknown[] } }>(
        `{ customers(first: 10, email: "BUYER1@example.com") { nodes { email } } }`,
      );
      expect(filtered.body.data.customers.nodes).toEqual([{ email: 'buyer1@example.com' }]);
    });
  });
});

describe('card numbers and cvcs are never kept', () => {
  let service: ServiceProcess | undefined;
  afterAll(() => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
  });

  test('not in any table, not in the logs (trace level, SQL included), not in idempotency records', async () => {
    // A second API process on the same database, logging everything, so its output can be searched.
    service = await startServiceProcess(
      { RUN_JOBS: 'false', LOG_LEVEL: 'trace', SQL_DEBUG: 'true', RATE_LIMIT_MAX: '100000' },
      { capture: true },
    );
    const base = service.url;
    const other = client(base, keys.test_api_key);

    const secret = { number: '5555555555554444', exp_month: 11, exp_year: 2031, cvc: '987' };
    const secretHsa = { number: '5111110000000010', exp_month: 10, exp_year: 2032, cvc: '8642' };
    const declinedCvc = '7531';
    const once = () => ({ 'idempotency-key': crypto.randomUUID() });
    const customer = (await other.post<Customer>('/api/v2/customers', jane, once())).body.id;
    const rest = await other.post(`/api/v2/customers/${customer}/payment-methods`, { card: secret }, once());
    expect(rest.status).toBe(201);
    const gid = Buffer.from(`Customer:${customer}`).toString('base64url');
    const gql = await other.graphql(
      `mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { last4 } } }`,
      {
        input: {
          customerId: gid,
          card: {
            number: secretHsa.number,
            expMonth: secretHsa.exp_month,
            expYear: secretHsa.exp_year,
            cvc: secretHsa.cvc,
          },
        },
      },
      once(),
    );
    expect(gql.body.data.attachPaymentMethod.paymentMethod.last4).toBe('0010');
    const declinedCard = { ...cards.declined, cvc: declinedCvc };
    const declined = await other.post(`/api/v2/customers/${customer}/payment-methods`, { card: declinedCard }, once());
    expect(declined.status).toBe(400);
    await new Promise((r) => setTimeout(r, 300)); // let the child flush its log lines
    const output = service.output();
    expect(output).toContain(customer); // the logs did record the requests…
    expect(output).toMatch(/insert into \\?"payment_methods\\?"/); // …and their SQL (a JSON log line escapes its quotes)

    // Every row of every table as text.
    const tables = await t.orm.em
      .getConnection()
      .execute<{ tablename: string }[]>(`select tablename from pg_tables where schemaname = 'public'`);
    let dump = '';
    for (const { tablename } of tables) {
      const rows = await t.orm.em
        .getConnection()
        .execute<{ row: string }[]>(`select t::text as row from "${tablename}" t`);
      dump += rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain(customer);
    const idempotency = await t.orm.em
      .getConnection()
      .execute<{ row: string }[]>(`select t::text as row from idempotency_keys t where merchant_id = ?`, [keys.id]);
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
