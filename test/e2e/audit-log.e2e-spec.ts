import { toGlobalId } from '../../src/platform/relay/global-id.js';
import {
  signedInConsole,
  consoleClient,
  expectConsoleOnly,
  teamMember,
  type ConsoleClient,
} from '../helpers/console.js';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { client, type Client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The audit log: sign-ins, keys, endpoint changes, refunds and cancellations, with who
 * (member or key, by name), when and from where; a GraphQL connection with filters, for roles
 * that hold audit_log only, of the caller's merchant only.
 */

let t: TestApp;
let api: Client;
let owner: ConsoleClient;
let merchantId: string;

interface Entry {
  action: string;
  actorKind: string;
  actorId: string | null;
  actorLabel: string | null;
  ipAddress: string | null;
  objectId: string | null;
  details: Record<string, unknown> | null;
}

const ENTRY = 'action actorKind actorId actorLabel ipAddress objectId details createdAt';
async function auditLog(as: ConsoleClient, args = 'first: 50'): Promise<Entry[]> {
  const res = await as.graphql(`{ auditLog(${args}) { edges { node { ${ENTRY} } } } }`);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.auditLog.edges.map((e: { node: Entry }) => e.node);
}

beforeAll(async () => {
  t = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '1000' });
  await t.reset();
  const merchant = await t.merchant('Audited');
  merchantId = merchant.id;
  api = client(t.url, merchant.test_api_key);
  owner = await signedInConsole(t, merchantId, 'owner', 'owner@audited.test');
});

afterAll(() => t.close());

describe('what members and keys change is recorded with who, what, which object and from where', () => {
  let apiKeyId: string;
  let refundId: string;
  let endpointId: string;
  let entries: Entry[];
  const find = (action: string) => entries.find((e) => e.action === action);

  beforeAll(async () => {
    // a failed sign-in of a member
    await consoleClient(t.url).signIn('owner@audited.test', 'not my password at all');
    // a key created in the console, then a refund made with it
    const created = await owner.graphql(
      'mutation { createApiKey(input: { name: "Refund bot", permissions: ["orders:read", "refunds:write", "checkout:write"] }) { secret apiKey { id } } }',
    );
    const { secret, apiKey } = created.body.data.createApiKey;
    apiKeyId = apiKey.id;
    const bot = client(t.url, secret);
    const session = (await api.post('/api/v2/checkout', checkoutBody([['SOCKS', 'Socks', 500, 2]]))).body.data;
    const order = (await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { card: cards.visa }))
      .body;
    const refund = (await bot.post('/api/v2/refunds', { order_id: order.id, amount: 300, reason: 'customer_request' }))
      .body.data;
    expect(refund.id).toMatch(/^re_/);
    refundId = refund.id;
    // an endpoint created with the secret key, then disabled by the owner in the console
    endpointId = (
      await api.post('/api/v2/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['order.completed'] })
    ).body.id as string;
    const disabled = await owner.graphql(
      'mutation($i: DisableWebhookEndpointInput!) { disableWebhookEndpoint(input: $i) { __typename } }',
      { i: { id: toGlobalId('WebhookEndpoint', endpointId) } },
    );
    expect(disabled.body.errors).toBeUndefined();
    entries = await auditLog(owner);
  });

  test('a sign-in and a failed sign-in, with the member and the address', () => {
    expect(find('CONSOLE_SIGNED_IN')).toMatchObject({
      actorKind: 'USER',
      actorLabel: 'owner@audited.test',
      ipAddress: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(find('CONSOLE_SIGN_IN_FAILED')).toMatchObject({ actorKind: 'USER', actorLabel: 'owner@audited.test' });
  });

  test('a key created in the console, with the member, the key and its name', () => {
    expect(find('API_KEY_CREATED')).toMatchObject({
      actorKind: 'USER',
      actorLabel: 'owner@audited.test',
      objectId: apiKeyId,
      details: { name: 'Refund bot', type: 'restricted' },
    });
  });

  test('a refund made with that key, with the key by name and the amount', () => {
    expect(find('REFUND_CREATED')).toMatchObject({
      actorKind: 'KEY',
      actorId: apiKeyId,
      actorLabel: expect.stringMatching(/^Refund bot \(glm_test_/),
      objectId: refundId,
      details: { amount: 300 },
    });
  });

  test('an endpoint created with the secret key and disabled by the owner, each with its actor', () => {
    expect(find('WEBHOOK_ENDPOINT_CREATED')).toMatchObject({
      actorKind: 'KEY',
      actorLabel: expect.stringMatching(/^Secret key \(glm_test_/),
      objectId: endpointId,
    });
    expect(find('WEBHOOK_ENDPOINT_DISABLED')).toMatchObject({ actorKind: 'USER', objectId: endpointId });
  });

  test('newest first, in pages', async () => {
    expect(entries[0].action).toBe('WEBHOOK_ENDPOINT_DISABLED');
    const page = await owner.graphql(
      '{ auditLog(first: 2) { pageInfo { hasNextPage endCursor } edges { node { action } } } }',
    );
    expect(page.body.data.auditLog.pageInfo.hasNextPage).toBe(true);
    const next = await owner.graphql(
      'query($after: String) { auditLog(first: 50, after: $after) { edges { node { action } } } }',
      { after: page.body.data.auditLog.pageInfo.endCursor },
    );
    expect(next.body.data.auditLog.edges.length).toBe(entries.length - 2);
  });

  test('filtered by action, by actor and by object', async () => {
    expect((await auditLog(owner, 'first: 50, action: REFUND_CREATED')).map((e) => e.objectId)).toEqual([refundId]);
    expect((await auditLog(owner, `first: 50, actorId: "${apiKeyId}"`)).map((e) => e.action)).toEqual([
      'REFUND_CREATED',
    ]);
    expect((await auditLog(owner, `first: 50, objectId: "${endpointId}"`)).map((e) => e.action)).toEqual([
      'WEBHOOK_ENDPOINT_DISABLED',
      'WEBHOOK_ENDPOINT_CREATED',
    ]);
  });
});

test('only roles holding audit_log read it, and only their own merchant', async () => {
  const viewer = await signedInConsole(t, merchantId, 'viewer');
  expect(
    (await viewer.graphql('{ auditLog(first: 1) { edges { node { action } } } }')).body.errors[0].extensions.code,
  ).toBe('insufficient_permissions');
  const other = await t.merchant('Other');
  await teamMember(t, other.id, 'owner@other.test', 'owner');
  const stranger = consoleClient(t.url);
  await stranger.signIn('owner@other.test');
  expect((await auditLog(stranger)).map((e) => e.action)).toEqual(['CONSOLE_SIGNED_IN', 'TEAM_MEMBER_INVITED']);
});

test('an API key, even a secret key, does not read the audit log', async () => {
  expectConsoleOnly(
    (await api.graphql('{ auditLog(first: 5) { edges { node { action actorLabel } } } }')).body,
    'auditLog',
    'audit_log:read',
  );
});
