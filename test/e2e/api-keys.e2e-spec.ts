import type { ChildProcess } from 'node:child_process';
import { createContext, type ServiceContext } from '../../src/platform/context.js';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from '../../src/modules/merchants/api-key.service.js';
import { recordKeyUse } from '../../src/modules/merchants/merchant.service.js';
import { ROLE_PERMISSIONS, type Role } from '../../src/modules/merchants/permissions.js';
import { client, type Client } from '../helpers/http.js';
import { startServiceProcess } from '../helpers/service-process.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * Settings → API keys: several named keys per mode, restricted keys refused with 403
 * `insufficient_permissions` on REST and GraphQL alike, roll with an overlap, revoke seen by every
 * API process within a second, last use recorded.
 */

let t: TestApp;
let api: Client;
let merchantId: string;
let other: ChildProcess | undefined;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;

/** The context a signed-in console user of `role` calls the key service with (test mode). */
const asUser = (role: Role): ServiceContext =>
  createContext(
    t.orm.em,
    {
      merchantId,
      livemode: false,
      clockOffsetMs: 0,
      keyId: `usr_${role}`,
      actor: { kind: 'user', id: `usr_${role}` },
      permissions: ROLE_PERMISSIONS[role],
    },
    'req_test',
    quiet,
  );

beforeAll(async () => {
  const started = await startWithMerchant('Keys');
  t = started.t;
  api = started.api;
  merchantId = started.keys.id;
  await api.post('/api/v2/products', { name: 'Reading glasses', price: 1500, currency: 'USD' });
});

afterAll(async () => {
  other?.kill('SIGKILL');
  await t.close();
});

test('a restricted key reads what it may and is refused the rest with 403 insufficient_permissions naming the permission (REST and GraphQL)', async () => {
  const { secret, api_key } = await createApiKey(asUser('developer'), {
    name: 'Catalog reader',
    permissions: ['products:read', 'orders:write'],
  });
  expect(secret).toMatch(/^glm_test_[0-9A-Za-z]{32}$/);
  expect(api_key).toMatchObject({
    name: 'Catalog reader',
    type: 'restricted',
    permissions: ['products:read', 'orders:write'],
    status: 'active',
    redacted_key: `${secret.slice(0, 13)}…`,
  });
  const restricted = client(t.url, secret);

  expect((await restricted.get('/api/v2/products')).status).toBe(200);
  const write = await restricted.post('/api/v2/products', { name: 'Bandages', price: 500, currency: 'USD' });
  expect(write.status).toBe(403);
  expect(write.body.error).toMatchObject({
    code: 'insufficient_permissions',
    details: { required_permission: 'products:write' },
  });
  expect(write.body.error.message).toContain('products:write');
  // write includes read
  expect((await restricted.get('/api/v2/orders')).status).toBe(200);
  const refunds = await restricted.get('/api/v2/refunds');
  expect(refunds.status).toBe(403);
  expect(refunds.body.error.details.required_permission).toBe('refunds:read');
  // a POST that only reads needs read
  expect((await restricted.post('/api/v2/products/check-eligibility', { name: 'Digital thermometer' })).status).toBe(
    200,
  );
  // the test clock is a secret key's
  expect((await restricted.post('/api/v2/test-helpers/advance-clock', { seconds: 1 })).body.error.code).toBe(
    'insufficient_permissions',
  );

  const read = await restricted.graphql('{ products(first: 5) { edges { node { id name } } } }');
  expect(read.body.errors).toBeUndefined();
  expect(read.body.data.products.edges).toHaveLength(1);
  const id = read.body.data.products.edges[0].node.id as string;
  expect((await restricted.graphql('query($id: ID!) { node(id: $id) { id } }', { id })).body.data.node.id).toBe(id);
  const mutation = await restricted.graphql(
    'mutation { createProduct(input: { name: "Gauze", price: 300, currency: "USD" }) { product { id } } }',
  );
  expect(mutation.body.errors?.[0].extensions).toMatchObject({ code: 'insufficient_permissions' });
  expect(mutation.body.errors?.[0].message).toContain('products:write');
  const customers = await restricted.graphql('{ customers(first: 1) { edges { node { id } } } }');
  expect(customers.body.errors?.[0].extensions?.code).toBe('insufficient_permissions');
  // node() checks the type's resource too
  const webhooksNode = await restricted.graphql('{ webhookEndpoints(first: 1) { edges { node { id } } } }');
  expect(webhooksNode.body.errors?.[0].extensions?.code).toBe('insufficient_permissions');
});

test('keys are managed by console users with the api_keys permission, never with an API key', async () => {
  const listed = await api.graphql('{ apiKeys { id } }');
  expect(listed.body.errors?.[0].extensions?.code).toBe('insufficient_permissions');
  expect(listed.body.errors?.[0].message).toContain('console');
  await expect(createApiKey(asUser('support'), { name: 'x' })).rejects.toMatchObject({
    code: 'insufficient_permissions',
  });
  await expect(listApiKeys(asUser('viewer'))).rejects.toMatchObject({ code: 'insufficient_permissions' });
  await expect(createApiKey(asUser('admin'), { name: '', permissions: ['orders:delete'] })).rejects.toMatchObject({
    code: 'validation_error',
    details: expect.arrayContaining([
      expect.objectContaining({ field: 'name' }),
      expect.objectContaining({ field: 'permissions.0' }),
    ]),
  });
  const keys = await listApiKeys(asUser('developer'));
  expect(keys.every((k) => k.mode === 'test')).toBe(true);
  expect(keys.some((k) => k.type === 'secret' && k.name === 'Secret key')).toBe(true);
});

test('a rolled key keeps working for its overlap beside its successor; 0 hours stops it at once', async () => {
  const { secret, api_key } = await createApiKey(asUser('admin'), { name: 'Server' });
  expect((await client(t.url, secret).get('/api/v2/products')).status).toBe(200);
  const rolled = await rollApiKey(asUser('admin'), api_key.id, { expires_in_hours: 24 });
  expect(rolled.previous).toMatchObject({ id: api_key.id, status: 'expiring' });
  expect(new Date(rolled.previous.expires_at!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
  expect(rolled.api_key).toMatchObject({ name: 'Server', type: 'secret', status: 'active' });
  expect((await client(t.url, secret).get('/api/v2/products')).status).toBe(200);
  expect((await client(t.url, rolled.secret).get('/api/v2/products')).status).toBe(200);
  // one roll per key: the successor is the one to roll next
  await expect(rollApiKey(asUser('admin'), api_key.id, {})).rejects.toMatchObject({ code: 'invalid_state' });

  const again = await rollApiKey(asUser('admin'), rolled.api_key.id, { expires_in_hours: 0 });
  const refused = await client(t.url, rolled.secret).get('/api/v2/products');
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('unauthorized');
  expect((await client(t.url, again.secret).get('/api/v2/products')).status).toBe(200);
  await expect(rollApiKey(asUser('admin'), rolled.api_key.id, {})).rejects.toMatchObject({ code: 'invalid_state' });
  await expect(rollApiKey(asUser('admin'), 'key_nope', {})).rejects.toMatchObject({ code: 'not_found' });
});

test('a revoked key is refused by another API process within a second; last use is recorded', async () => {
  const { secret, api_key } = await createApiKey(asUser('owner'), { name: 'Worker' });
  const started = await startServiceProcess({
    DATABASE_URL: process.env.DATABASE_URL!,
    RUN_JOBS: 'false',
    LOG_LEVEL: 'silent',
  });
  other = started.child;
  const there = client(started.url, secret);
  expect((await there.get('/api/v2/products')).status).toBe(200); // cached there now
  expect((await client(t.url, secret).get('/api/v2/products')).status).toBe(200);
  await recordKeyUse(t.orm.em.fork());
  expect((await listApiKeys(asUser('owner'))).find((k) => k.id === api_key.id)?.last_used_at).not.toBeNull();

  await revokeApiKey(asUser('owner'), api_key.id);
  expect((await client(t.url, secret).get('/api/v2/products')).status).toBe(401);
  const until = Date.now() + 1000;
  let status = 200;
  while (status !== 401 && Date.now() < until) status = (await there.get('/api/v2/products')).status;
  expect(status).toBe(401);
  expect((await listApiKeys(asUser('owner'))).find((k) => k.id === api_key.id)?.status).toBe('revoked');
});
