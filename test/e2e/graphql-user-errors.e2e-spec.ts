import { createApiKey } from '../../src/modules/merchants/api-key.service.js';
import { ROLE_PERMISSIONS } from '../../src/modules/merchants/permissions.js';
import { createContext } from '../../src/platform/context.js';
import { USER_ERROR_CODES } from '../../src/platform/graphql/user-errors.js';
import { cards, checkoutBody, createProducts, openCheckout, paidOrder } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * GraphQL mutations answer the caller's input mistakes as typed `userErrors` in `data` (HTTP 200),
 * with the REST codes as one enum per domain; authentication, cost and system failures stay
 * top-level errors; a mutation answered with userErrors is never kept under an Idempotency-Key.
 */

let t: TestApp;
let api: Client;
let merchantId: string;

beforeAll(async () => {
  let keys;
  ({ t, api, keys } = await startWithMerchant('User errors'));
  merchantId = keys.id;
  await createProducts(api, [['THERM', 'Digital thermometer', 1999]]);
});
afterAll(() => t.close());

interface UserError {
  field: string[] | null;
  message: string;
  code: string;
}
const USER_ERRORS = 'userErrors { field message code }';
const gid = (type: string, id: string | number) => Buffer.from(`${type}:${id}`, 'utf8').toString('base64url');
const count = async (table: string) =>
  Number((await t.orm.em.fork().getConnection().execute(`select count(*)::int as n from ${table}`))[0].n);

const CREATE_PRODUCT = `mutation($input: CreateProductInput!) { createProduct(input: $input) { product { id name } ${USER_ERRORS} } }`;

describe('an input mistake is data, not an error', () => {
  test('products: HTTP 200, the payload null but for userErrors with field, message and code; nothing created', async () => {
    const before = await count('products');
    const res = await api.graphql<{ createProduct: { product: null; userErrors: UserError[] } }>(CREATE_PRODUCT, {
      input: { name: 'Ice pack', price: 0, currency: 'USD' },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createProduct).toEqual({
      product: null,
      userErrors: [
        {
          field: ['input', 'price'],
          message: 'price must be a positive integer number of cents, at most 99999999',
          code: 'INVALID_PRICE',
        },
      ],
    });
    // The same mistake over REST: the same code, in lower case.
    const rest = await api.post('/api/v2/products', { name: 'Ice pack', price: 0, currency: 'USD' });
    expect([rest.status, rest.body.error.code]).toEqual([400, 'invalid_price']);
    expect(await count('products')).toBe(before);
  });

  test('products: one userError per bad field; the other root fields of the operation still run', async () => {
    const res = await api.graphql<{
      bad: { product: null; userErrors: UserError[] };
      good: { product: { name: string }; userErrors: UserError[] };
    }>(
      `mutation { bad: createProduct(input: { name: "", price: 10, currency: "USD", images: ["ftp://x"] }) { product { id } ${USER_ERRORS} }
                  good: createProduct(input: { name: "Gauze", price: 10, currency: "USD" }) { product { name } ${USER_ERRORS} } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.bad.product).toBeNull();
    expect(res.body.data.bad.userErrors).toEqual(
      expect.arrayContaining([
        { field: ['input', 'name'], message: expect.stringMatching(/^name /), code: 'VALIDATION_ERROR' },
        { field: ['input', 'images', '0'], message: expect.stringMatching(/^images\.0 /), code: 'VALIDATION_ERROR' },
      ]),
    );
    expect(res.body.data.bad.userErrors).toHaveLength(2);
    expect(res.body.data.good).toEqual({ product: { name: 'Gauze' }, userErrors: [] });
  });

  test('checkout: the field path goes down into lists, in GraphQL names', async () => {
    const body = checkoutBody([['THERM', 'Digital thermometer', 1999, 1]]);
    const input = {
      referenceId: body.reference_id,
      customer: { email: 'jane@example.com', firstName: 'Jane', lastName: 'Doe' },
      lineItems: [{ productId: 'THERM', name: 'Digital thermometer', price: -5, quantity: 1, currency: 'USD' }],
      shippingInfo: { addressLine1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      successUrl: body.success_url,
      failureUrl: body.failure_url,
    };
    const res = await api.graphql<{ createCheckoutSession: { checkoutSession: null; userErrors: UserError[] } }>(
      `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession { id } ${USER_ERRORS} } }`,
      { input },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.createCheckoutSession.checkoutSession).toBeNull();
    // The bad price, and what follows from it (a negative total), each a user error of its own.
    expect(res.body.data.createCheckoutSession.userErrors).toContainEqual({
      field: ['input', 'lineItems', '0', 'price'],
      message: expect.stringMatching(/^lineItems\.0\.price /),
      code: 'VALIDATION_ERROR',
    });
  });

  test('refunds: an unknown order is NOT_FOUND on input.orderId; too much is INVALID_AMOUNT on input.amount', async () => {
    const M = `mutation($input: CreateRefundInput!) { createRefund(input: $input) { refund { id } ${USER_ERRORS} } }`;
    const unknown = await api.graphql<{ createRefund: { refund: null; userErrors: UserError[] } }>(M, {
      input: { orderId: gid('Order', 'ord_nope'), amount: 100, reason: 'OTHER' },
    });
    expect(unknown.body.data.createRefund).toEqual({
      refund: null,
      userErrors: [{ field: ['input', 'orderId'], message: expect.any(String), code: 'NOT_FOUND' }],
    });

    const checkout = await openCheckout(api, [['THERM', 'Digital thermometer', 1999, 1]]);
    const order = await paidOrder(api, checkout.checkout_id, { hsa_fsa_card: cards.hsa });
    const over = await api.graphql<{ createRefund: { refund: null; userErrors: UserError[] } }>(M, {
      input: { orderId: gid('Order', order.id), amount: order.amount + 1, reason: 'OTHER' },
    });
    expect(over.status).toBe(200);
    expect(over.body.data.createRefund).toEqual({
      refund: null,
      userErrors: [{ field: ['input', 'amount'], message: expect.stringContaining('exceeds'), code: 'INVALID_AMOUNT' }],
    });
    expect(await count('refunds')).toBe(0);
  });

  test('customers and webhooks: the domain enums carry the REST codes', async () => {
    const update = await api.graphql<{ updateCustomer: { customer: null; userErrors: UserError[] } }>(
      `mutation($input: UpdateCustomerInput!) { updateCustomer(input: $input) { customer { id } ${USER_ERRORS} } }`,
      { input: { id: gid('Customer', 'cus_nope'), firstName: 'X' } },
    );
    expect(update.body.data.updateCustomer).toEqual({
      customer: null,
      userErrors: [{ field: ['input', 'id'], message: "No such customer: 'cus_nope'", code: 'NOT_FOUND' }],
    });
    const endpoint = await api.graphql<{
      createWebhookEndpoint: { secret: null; webhookEndpoint: null; userErrors: UserError[] };
    }>(
      `mutation { createWebhookEndpoint(input: { url: "ftp://example.com/hook", events: ["*"] }) { secret webhookEndpoint { id } ${USER_ERRORS} } }`,
    );
    expect(endpoint.body.data.createWebhookEndpoint).toEqual({
      secret: null,
      webhookEndpoint: null,
      userErrors: [{ field: ['input', 'url'], message: expect.stringMatching(/^url /), code: 'VALIDATION_ERROR' }],
    });
  });

  test('a success answers an empty userErrors list', async () => {
    const res = await api.graphql<{ createProduct: { product: { name: string }; userErrors: UserError[] } }>(
      CREATE_PRODUCT,
      { input: { name: 'Heating pad', price: 3999, currency: 'USD' } },
    );
    expect(res.body.data.createProduct).toEqual({
      product: { id: expect.any(String), name: 'Heating pad' },
      userErrors: [],
    });
  });
});

describe('top-level errors stay for what is not an input mistake', () => {
  test('no API key: 401 unauthorized at the top level, no data', async () => {
    const res = await client(t.url).graphql(CREATE_PRODUCT, { input: { name: 'Ice pack', price: 0, currency: 'USD' } });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0].extensions.code).toBe('unauthorized');
    expect(res.body.data).toBeUndefined();
  });

  test('a key without the permission: 403 insufficient_permissions at the top level, even for an input that is also wrong', async () => {
    const quiet = {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      debug: () => undefined,
    } as never;
    const owner = createContext(
      t.orm.em,
      {
        merchantId,
        livemode: false,
        clockOffsetMs: 0,
        keyId: 'usr_owner',
        actor: { kind: 'user', id: 'usr_owner' },
        permissions: ROLE_PERMISSIONS.owner,
      },
      'req_test',
      quiet,
    );
    const { secret } = await createApiKey(owner, { name: 'Catalog reader', permissions: ['products:read'] });
    const res = await client(t.url, secret).graphql(CREATE_PRODUCT, {
      input: { name: 'Ice pack', price: 0, currency: 'USD' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.[0]).toMatchObject({
      path: ['createProduct'],
      extensions: { code: 'insufficient_permissions' },
    });
  });

  test('a request that never ran (a variable of the wrong type) is a 400 invalid_request at the top level', async () => {
    const res = await api.graphql(CREATE_PRODUCT, { input: { name: 'Ice pack', price: 'free', currency: 'USD' } });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].extensions.code).toBe('invalid_request');
  });
});

describe('Idempotency-Key', () => {
  test('a mutation answered with userErrors is not kept under the key, even when userErrors is not selected', async () => {
    const k = crypto.randomUUID();
    const unselected = 'mutation($input: CreateProductInput!) { createProduct(input: $input) { product { name } } }';
    const failed = await api.graphql(
      unselected,
      { input: { name: 'Cold pack', price: -1, currency: 'USD' } },
      { 'idempotency-key': k },
    );
    expect(failed.status).toBe(200);
    expect(failed.body.data).toEqual({ createProduct: { product: null } });
    expect(failed.body.errors).toBeUndefined();
    const [kept] = await t.orm.em
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from idempotency_keys where key = ?', [k]);
    expect(kept.n).toBe(0);
    // The same failed call again is not a replay: it runs again and fails again.
    const again = await api.graphql(
      unselected,
      { input: { name: 'Cold pack', price: -1, currency: 'USD' } },
      { 'idempotency-key': k },
    );
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    // The key is free for the corrected call, which is then kept and replayed.
    const fixed = await api.graphql(
      CREATE_PRODUCT,
      { input: { name: 'Cold pack', price: 499, currency: 'USD' } },
      { 'idempotency-key': k },
    );
    expect(fixed.body.data.createProduct).toMatchObject({ product: { name: 'Cold pack' }, userErrors: [] });
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    const replay = await api.graphql(
      CREATE_PRODUCT,
      { input: { name: 'Cold pack', price: 499, currency: 'USD' } },
      { 'idempotency-key': k },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(fixed.body);
  });

  test('a mutation that calls the processor (its own transactions) with userErrors is not kept either', async () => {
    const k = crypto.randomUUID();
    const customer = (
      await api.post('/api/v2/customers', { email: 'idem@example.com', first_name: 'I', last_name: 'D' })
    ).body as { id: string };
    const M = `mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { last4 } ${USER_ERRORS} } }`;
    const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: '123' });
    const declined = await api.graphql<{ attachPaymentMethod: { userErrors: UserError[] } }>(
      M,
      { input: { customerId: gid('Customer', customer.id), card: card(cards.declined.number) } },
      { 'idempotency-key': k },
    );
    expect(declined.body.data.attachPaymentMethod.userErrors).toEqual([
      expect.objectContaining({ code: 'INVALID_PAYMENT_METHOD', field: ['input', 'card'] }),
    ]);
    const [kept] = await t.orm.em
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from idempotency_keys where key = ?', [k]);
    expect(kept.n).toBe(0);
  });
});

describe('the schema', () => {
  interface TypeRef {
    kind: string;
    name: string | null;
    ofType: TypeRef | null;
  }
  interface Type {
    name: string;
    kind: string;
    fields: { name: string; type: TypeRef }[] | null;
    enumValues: { name: string }[] | null;
  }

  test('every mutation answers a payload with userErrors: [<Domain>UserError!]!, whose code is an enum of REST codes', async () => {
    const res = await api.graphql<{ __schema: { mutationType: { name: string }; types: Type[] } }>(
      `{ __schema { mutationType { name } types { name kind fields { name type { ...T } } enumValues { name } } } }
       fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }`,
    );
    const types = new Map(res.body.data.__schema.types.map((ty) => [ty.name, ty]));
    const named = (ty: TypeRef): TypeRef => (ty.ofType ? named(ty.ofType) : ty);
    const spelled = (ty: TypeRef): string =>
      ty.kind === 'NON_NULL' ? `${spelled(ty.ofType!)}!` : ty.kind === 'LIST' ? `[${spelled(ty.ofType!)}]` : ty.name!;
    const allowed = USER_ERROR_CODES.map((c) => c.toUpperCase());
    const mutations = types.get(res.body.data.__schema.mutationType.name)!.fields!;
    expect(mutations.length).toBeGreaterThan(25);
    for (const mutation of mutations) {
      const payload = types.get(named(mutation.type).name!)!;
      const userErrors = payload.fields?.find((f) => f.name === 'userErrors');
      expect([mutation.name, userErrors && spelled(userErrors.type)]).toEqual([
        mutation.name,
        expect.stringMatching(/^\[[A-Za-z]+UserError!\]!$/),
      ]);
      const errorType = types.get(named(userErrors!.type).name!)!;
      expect(errorType.fields!.map((f) => `${f.name}: ${spelled(f.type)}`).sort()).toEqual([
        `code: ${errorType.name}Code!`,
        'field: [String!]',
        'message: String!',
      ]);
      const codes = types.get(`${errorType.name}Code`)!.enumValues!.map((v) => v.name);
      expect(codes.filter((c) => !allowed.includes(c))).toEqual([]);
      // With userErrors, every other field of the payload is null: so each is nullable.
      expect([
        mutation.name,
        payload.fields!.filter((f) => f.name !== 'userErrors' && f.type.kind === 'NON_NULL').map((f) => f.name),
      ]).toEqual([mutation.name, []]);
    }
  });
});
