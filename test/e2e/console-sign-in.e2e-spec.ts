import { Secret, TOTP } from 'otpauth';
import { inviteMember } from '../../src/modules/team/team.service.js';
import { consoleClient, expectConsoleOnly, PASSWORD, teamMember } from '../helpers/console.js';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { cards, checkoutBody } from '../helpers/fixtures.js';
import { collect } from '../helpers/graphql-ws.js';
import { client } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Console sign-in: invitation link → password (policy), sign-in with the session cookie
 * (HttpOnly, SameSite=Lax, rotated at sign-in), CSRF on every state-changing request, lockout,
 * TOTP with recovery codes, roles as permissions on /graphql, sign-out ending the session.
 */

let t: TestApp;
let merchant: { id: string; test_api_key: string };
const member = (email: string, role: string, merchantId = merchant.id) => teamMember(t, merchantId, email, role);

beforeAll(async () => {
  t = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '1000' });
  await t.reset();
  merchant = await t.merchant('Console');
  await client(t.url, merchant.test_api_key).post('/api/v2/products', {
    name: 'Reading glasses',
    price: 1500,
    currency: 'USD',
  });
});

afterAll(() => t.close());

test('an invitation link sets a password once, under the password rules', async () => {
  const { setup_url, member: invited } = await inviteMember(t.orm.em.fork(), merchant.id, {
    email: 'New.Owner@Example.com',
    role: 'owner',
  });
  expect(invited).toMatchObject({
    email: 'new.owner@example.com',
    role: 'owner',
    active: false,
    two_factor_enabled: false,
  });
  expect(setup_url).toMatch(new RegExp(`^${t.url}/console/setup\\?token=`));
  const token = new URL(setup_url).searchParams.get('token');
  const anonymous = client(t.url);
  for (const [password, why] of [
    ['short', 'at least 12'],
    ['password1234', 'most common'],
    ['qwertyqwerty2024', 'most common'],
    ['new.owner@example.com', 'email'],
  ] as const) {
    const res = await anonymous.post('/console/password-setup', { token, password });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'validation_error', param: 'password' });
    expect(res.body.error.message).toContain(why);
  }
  expect((await anonymous.post('/console/password-setup', { token, password: PASSWORD })).body.member.active).toBe(
    true,
  );
  const again = await anonymous.post('/console/password-setup', { token, password: PASSWORD });
  expect(again.status).toBe(404);
  expect(again.body.error.message).toContain('used already');
  await expect(
    inviteMember(t.orm.em.fork(), merchant.id, { email: 'new.owner@example.com', role: 'viewer' }),
  ).rejects.toMatchObject({ code: 'invalid_state' });
  await expect(inviteMember(t.orm.em.fork(), merchant.id, { email: 'nope', role: 'boss' })).rejects.toMatchObject({
    code: 'validation_error',
  });
});

test('sign-in sets an HttpOnly SameSite=Lax session cookie; the session answers with a CSRF token; sign-out ends it everywhere', async () => {
  await member('owner@console.test', 'owner');
  const browser = consoleClient(t.url);
  const wrong = await browser.signIn('owner@console.test', 'not the password at all');
  expect(wrong.status).toBe(401);
  expect(wrong.body.error).toMatchObject({ code: 'unauthorized', message: 'Wrong email, password or code.' });
  expect(wrong.setCookie).toBeUndefined();
  expect((await browser.signIn('nobody@console.test')).body.error.message).toBe('Wrong email, password or code.');

  const ok = await browser.signIn('owner@console.test');
  expect(ok.status).toBe(200);
  expect(ok.setCookie).toMatch(/HttpOnly/i);
  expect(ok.setCookie).toMatch(/SameSite=Lax/i);
  expect(ok.body).toMatchObject({
    member: { email: 'owner@console.test', role: 'owner' },
    merchant: { id: merchant.id, name: 'Console' },
    livemode: false,
  });
  expect(ok.body.csrf_token).toEqual(expect.any(String));
  const session = await browser.get('/console/session');
  expect(session.body.member.email).toBe('owner@console.test');

  // a new sign-in rotates the session id
  const first = browser.cookie;
  await browser.signIn('owner@console.test');
  expect(browser.cookie).not.toBe(first);
  expect((await fetch(`${t.url}/console/session`, { headers: { cookie: first } })).status).toBe(401);

  const out = await browser.post('/console/sign-out');
  expect(out.status).toBe(200);
  expect((await browser.get('/console/session')).status).toBe(401);
  expect((await browser.graphql('{ products(first: 1) { edges { node { id } } } }')).status).toBe(401);
});

test('/graphql takes the session with its CSRF token; the role is the permission set', async () => {
  await member('dev@console.test', 'developer');
  await member('viewer@console.test', 'viewer');
  await member('support@console.test', 'support');
  const dev = consoleClient(t.url);
  await dev.signIn('dev@console.test');
  expect(
    (await dev.graphql('{ products(first: 5) { edges { node { name } } } }')).body.data.products.edges,
  ).toHaveLength(1);

  // a state-changing request without the CSRF token is refused
  const noCsrf = await dev.graphql('mutation { createApiKey(input: { name: "CI" }) { secret } }', undefined, {
    'x-csrf-token': 'forged',
  });
  expect(noCsrf.status).toBe(403);
  expect(noCsrf.body.errors[0].extensions.code).toBe('invalid_csrf_token');

  const created = await dev.graphql(
    'mutation { createApiKey(input: { name: "CI", permissions: ["products:read"] }) { secret apiKey { id type permissions } } }',
  );
  expect(created.body.errors).toBeUndefined();
  const { secret, apiKey } = created.body.data.createApiKey;
  expect(apiKey).toMatchObject({ type: 'RESTRICTED', permissions: ['products:read'] });
  const ci = client(t.url, secret);
  expect((await ci.get('/api/v2/products')).status).toBe(200);
  expect((await ci.post('/api/v2/products', { name: 'X', price: 1, currency: 'USD' })).body.error.code).toBe(
    'insufficient_permissions',
  );
  const listed = await dev.graphql('{ apiKeys { id name status } }');
  expect(listed.body.data.apiKeys.map((k: { id: string }) => k.id)).toContain(apiKey.id);
  const revoked = await dev.graphql('mutation($id: ID!) { revokeApiKey(id: $id) { apiKey { status } } }', {
    id: apiKey.id,
  });
  expect(revoked.body.data.revokeApiKey.apiKey.status).toBe('REVOKED');
  expect((await ci.get('/api/v2/products')).status).toBe(401);
  // developers do not read customers
  expect((await dev.graphql('{ customers(first: 1) { edges { node { id } } } }')).body.errors[0].extensions.code).toBe(
    'insufficient_permissions',
  );

  const viewer = consoleClient(t.url);
  await viewer.signIn('viewer@console.test');
  expect((await viewer.graphql('{ orders(first: 1) { edges { node { id } } } }')).body.errors).toBeUndefined();
  const refund = await viewer.graphql(
    'mutation { createRefund(input: { orderId: "T3JkZXI6b3JkX25vcGU=", amount: 100, reason: CUSTOMER_REQUEST }) { refund { id } } }',
  );
  expect(refund.body.errors[0].extensions).toMatchObject({ code: 'insufficient_permissions' });
  expect(refund.body.errors[0].message).toContain('Your role lacks the refunds:write permission');
  expect((await viewer.graphql('{ apiKeys { id } }')).body.errors[0].extensions.code).toBe('insufficient_permissions');

  const support = consoleClient(t.url);
  await support.signIn('support@console.test');
  expect((await support.graphql('{ apiKeys { id } }')).body.errors[0].extensions.code).toBe('insufficient_permissions');
  expect((await support.graphql('{ customers(first: 1) { edges { node { id } } } }')).body.errors).toBeUndefined();
  // support reads the webhooks resource (its events are the live activity) and changes none of it; no read of it has a secret
  expect(
    (await support.graphql('{ events(first: 1) { nodes { eventId } } webhookEndpoints(first: 1) { nodes { url } } }'))
      .body.errors,
  ).toBeUndefined();
  const secretFields = await support.graphql('{ __type(name: "WebhookEndpoint") { fields { name } } }');
  expect(
    secretFields.body.data.__type.fields.map((f: { name: string }) => f.name).filter((n: string) => /secret/i.test(n)),
  ).toEqual(['previousSecretExpiresAt']);
  for (const mutation of [
    'rotateWebhookEndpointSecret(input: { id: "x" }) { secret }',
    'createWebhookEndpoint(input: { url: "https://example.com/h", events: ["*"] }) { secret }',
  ]) {
    const refused = await support.graphql(`mutation { ${mutation} }`);
    expect(refused.body.errors[0]).toMatchObject({
      extensions: { code: 'insufficient_permissions' },
      message: expect.stringContaining('webhooks:write'),
    });
  }

  // the console's mode switch: live mode data through the same session
  expect((await support.post('/console/mode', { livemode: true })).body).toEqual({ livemode: true });
  expect(
    (await support.graphql('{ products(first: 5) { edges { node { id } } } }')).body.data.products.edges,
  ).toHaveLength(0);
});

test('a mode switch survives the requests of the same session that were in flight (their rolling save only moves the expiry)', async () => {
  await member('racer@console.test', 'admin');
  const browser = consoleClient(t.url);
  await browser.signIn('racer@console.test');
  for (let round = 0; round < 3; round++) {
    const livemode = round % 2 === 0;
    const reads = Array.from({ length: 20 }, () =>
      browser.graphql('{ products(first: 50) { edges { node { id name eligibility { message } } } } }'),
    );
    const switched = browser.post('/console/mode', { livemode });
    const more = Array.from({ length: 20 }, () => browser.graphql('{ products(first: 50) { edges { node { id } } } }'));
    expect((await switched).body).toEqual({ livemode });
    await Promise.all([...reads, ...more]);
    expect((await browser.get('/console/session')).body.livemode).toBe(livemode);
  }
  // the session is still rolled: its expiry moved with the reads
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ expires_at: Date; cookie_expires: string }[]>(
      `select expires_at, data->'cookie'->>'expires' as cookie_expires from console_sessions where data->>'memberId' = (select id from team_members where email = 'racer@console.test')`,
    );
  expect(new Date(row.cookie_expires).getTime()).toBe(new Date(row.expires_at).getTime());
  expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 11.9 * 3_600_000);
});

test('a member of another merchant sees nothing of this one', async () => {
  const other = await t.merchant('Elsewhere');
  await member('owner@elsewhere.test', 'owner', other.id);
  const browser = consoleClient(t.url);
  await browser.signIn('owner@elsewhere.test');
  expect(
    (await browser.graphql('{ products(first: 5) { edges { node { id } } } }')).body.data.products.edges,
  ).toHaveLength(0);
  expect((await browser.get('/console/session')).body.merchant.id).toBe(other.id);

  // this merchant's keys, members and audit entries are out of reach by id
  const home = consoleClient(t.url);
  await member('tenant@console.test', 'owner');
  await home.signIn('tenant@console.test');
  const keyId = (await home.graphql('mutation { createApiKey(input: { name: "Mine" }) { apiKey { id } } }')).body.data
    .createApiKey.apiKey.id as string;
  const members = (await home.graphql('{ teamMembers { id email } }')).body.data.teamMembers as {
    id: string;
    email: string;
  }[];
  const memberId = members.find((m) => m.email === 'tenant@console.test')!.id;
  for (const [field, query, variables] of [
    ['rollApiKey', 'mutation($id: ID!) { rollApiKey(id: $id) { secret userErrors { code } } }', { id: keyId }],
    [
      'revokeApiKey',
      'mutation($id: ID!) { revokeApiKey(id: $id) { apiKey { id } userErrors { code } } }',
      { id: keyId },
    ],
    [
      'changeTeamMemberRole',
      'mutation($id: ID!) { changeTeamMemberRole(id: $id, role: VIEWER) { member { id } userErrors { code } } }',
      { id: memberId },
    ],
    [
      'removeTeamMember',
      'mutation($id: ID!) { removeTeamMember(id: $id) { removedId userErrors { code } } }',
      { id: memberId },
    ],
  ] as const) {
    const res = await browser.graphql(query, variables);
    expect(res.body.data[field].userErrors).toEqual([{ code: 'NOT_FOUND' }]);
  }
  expect(
    (await browser.graphql('{ apiKeys { id } }')).body.data.apiKeys.map((k: { id: string }) => k.id),
  ).not.toContain(keyId);
  expect(
    (await browser.graphql('{ teamMembers { email } }')).body.data.teamMembers.map((m: { email: string }) => m.email),
  ).toEqual(['owner@elsewhere.test']);
  expect(
    (await browser.graphql(`{ auditLog(first: 50, objectId: "${keyId}") { edges { node { action } } } }`)).body.data
      .auditLog.edges,
  ).toEqual([]);
  expect(
    (await home.graphql('{ apiKeys { id status } }')).body.data.apiKeys.find((k: { id: string }) => k.id === keyId)
      .status,
  ).toBe('ACTIVE');
});

test('five failed sign-ins lock the account for 15 minutes with a clear message, the right password included', async () => {
  await member('locked@console.test', 'viewer');
  const browser = consoleClient(t.url);
  for (let i = 0; i < 4; i++)
    expect((await browser.signIn('locked@console.test', `wrong password ${i}`)).status).toBe(401);
  const fifth = await browser.signIn('locked@console.test', 'wrong password 5');
  expect(fifth.status).toBe(429);
  expect(fifth.body.error.code).toBe('rate_limit_exceeded');
  expect(fifth.body.error.message).toMatch(/locked for 15 more minute/);
  expect(Number(fifth.headers.get('retry-after'))).toBeGreaterThan(800);
  const right = await browser.signIn('locked@console.test');
  expect(right.status).toBe(429);
  expect(right.body.error.message).toContain('locked');
});

/** A member with two-factor sign-in on (enrolled with a code): their signed-out browser, authenticator and recovery codes. */
async function twoFactorMember(email: string) {
  await member(email, 'admin');
  const browser = consoleClient(t.url);
  await browser.signIn(email);
  const enrol = await browser.post('/console/two-factor/enroll');
  expect(enrol.status).toBe(200);
  expect(enrol.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
  const totp = new TOTP({ secret: Secret.fromBase32(enrol.body.secret), digits: 6, period: 30 });
  expect(
    (await browser.post('/console/two-factor/confirm', { code: '000000' === totp.generate() ? '111111' : '000000' }))
      .status,
  ).toBe(422);
  const confirmed = await browser.post('/console/two-factor/confirm', { code: totp.generate() });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.recovery_codes).toHaveLength(10);
  expect((await browser.get('/console/session')).body.member.two_factor_enabled).toBe(true);
  await browser.post('/console/sign-out');
  return { browser, totp, recoveryCodes: confirmed.body.recovery_codes as string[] };
}

/** `n` browsers whose password step for `email` passed, each waiting for its code. */
async function pendingSessions(email: string, n: number) {
  const browsers = Array.from({ length: n }, () => consoleClient(t.url));
  for (const browser of browsers) expect((await browser.signIn(email)).body).toEqual({ two_factor_required: true });
  return browsers;
}

/** The statuses of the code step sent by every pending browser at once. */
const raceCode = async (browsers: ReturnType<typeof consoleClient>[], code: string) =>
  (await Promise.all(browsers.map((b) => b.post('/console/sign-in/two-factor', { code })))).map((r) => r.status).sort();

/** How many audit entries of `action` the member `email` has. */
async function auditCount(email: string, action: string): Promise<number> {
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ n: string }[]>(
      `select count(*) as n from audit_log_entries where action = ? and object_id = (select id from team_members where email = ?)`,
      [action, email],
    );
  return Number(row.n);
}

test('TOTP: enrolment with a code, recovery codes shown once, sign-in in two steps, no code accepted twice', async () => {
  const { browser, totp, recoveryCodes } = await twoFactorMember('totp@console.test');

  const step1 = await browser.signIn('totp@console.test');
  expect(step1.body).toEqual({ two_factor_required: true });
  expect((await browser.get('/console/session')).status).toBe(401); // not signed in yet
  expect((await browser.post('/console/sign-in/two-factor', { code: '12345x' })).status).toBe(401);
  const next = totp.generate({ timestamp: Date.now() + 30_000 });
  const step2 = await browser.post('/console/sign-in/two-factor', { code: next });
  expect(step2.status).toBe(200);
  expect(step2.body.member.email).toBe('totp@console.test');
  await browser.post('/console/sign-out');

  // the same code again: refused; a recovery code works once
  await browser.signIn('totp@console.test');
  expect((await browser.post('/console/sign-in/two-factor', { code: next })).status).toBe(401);
  const recovery = recoveryCodes[0];
  expect((await browser.post('/console/sign-in/two-factor', { code: recovery })).status).toBe(200);
  await browser.post('/console/sign-out');
  await browser.signIn('totp@console.test');
  expect((await browser.post('/console/sign-in/two-factor', { code: recovery })).status).toBe(401);
});

test('thirty wrong passwords in concurrent bursts lock the account after at most five are checked', async () => {
  await member('burst@console.test', 'viewer');
  const statuses: number[] = [];
  for (let burst = 0; burst < 3; burst++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        consoleClient(t.url).signIn('burst@console.test', `wrong password ${burst}.${i}`),
      ),
    );
    statuses.push(...answers.map((a) => a.status));
  }
  expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
  expect(await auditCount('burst@console.test', 'console.sign_in_failed')).toBeLessThanOrEqual(5);
  expect(await auditCount('burst@console.test', 'console.locked_out')).toBe(1);
});

test('after concurrent bursts of wrong passwords the right password is refused while the account is locked', async () => {
  await member('burst.right@console.test', 'viewer');
  for (let burst = 0; burst < 3; burst++) {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        consoleClient(t.url).signIn('burst.right@console.test', `wrong password ${burst}.${i}`),
      ),
    );
  }
  const right = await consoleClient(t.url).signIn('burst.right@console.test');
  expect(right.status).toBe(429);
  expect(right.body.error.message).toContain('locked');
});

test('one TOTP code raced by several pending sessions signs in exactly one of them', async () => {
  const { totp } = await twoFactorMember('totp.race@console.test');
  const browsers = await pendingSessions('totp.race@console.test', 4);
  // the next time step's code: enrolment spent the current one
  expect(await raceCode(browsers, totp.generate({ timestamp: Date.now() + 30_000 }))).toEqual([200, 401, 401, 401]);
});

test('one recovery code raced by several pending sessions signs in exactly one of them', async () => {
  const { recoveryCodes } = await twoFactorMember('recovery.race@console.test');
  const browsers = await pendingSessions('recovery.race@console.test', 4);
  expect(await raceCode(browsers, recoveryCodes[0])).toEqual([200, 401, 401, 401]);
});

test('Settings → Team: owners and admins invite and manage members; only owners manage owners; a team keeps one owner', async () => {
  const other = await t.merchant('Team');
  await teamMember(t, other.id, 'boss@team.test', 'owner');
  const owner = consoleClient(t.url);
  await owner.signIn('boss@team.test');
  const invited = await owner.graphql(
    'mutation { inviteTeamMember(input: { email: "Ada@Team.test", role: ADMIN }) { setupUrl member { id email role active } } }',
  );
  expect(invited.body.errors).toBeUndefined();
  const { setupUrl, member: ada } = invited.body.data.inviteTeamMember;
  expect(ada).toMatchObject({ email: 'ada@team.test', role: 'ADMIN', active: false });
  const token = new URL(setupUrl).searchParams.get('token');
  expect((await client(t.url).post('/console/password-setup', { token, password: PASSWORD })).status).toBe(200);
  const admin = consoleClient(t.url);
  await admin.signIn('ada@team.test');

  const ownerInvite = await admin.graphql(
    'mutation { inviteTeamMember(input: { email: "second@team.test", role: OWNER }) { setupUrl } }',
  );
  expect(ownerInvite.body.errors[0]).toMatchObject({ extensions: { code: 'insufficient_permissions' } });
  expect(ownerInvite.body.errors[0].message).toContain('owners:write');
  const dev = await admin.graphql(
    'mutation { inviteTeamMember(input: { email: "dev@team.test", role: DEVELOPER }) { member { id } } }',
  );
  const devId = dev.body.data.inviteTeamMember.member.id as string;
  expect(
    (
      await admin.graphql('mutation($id: ID!) { changeTeamMemberRole(id: $id, role: SUPPORT) { member { role } } }', {
        id: devId,
      })
    ).body.data.changeTeamMemberRole.member.role,
  ).toBe('SUPPORT');
  const members = (await admin.graphql('{ teamMembers { email role active } }')).body.data.teamMembers;
  expect(members.map((m: { email: string }) => m.email)).toEqual(['boss@team.test', 'ada@team.test', 'dev@team.test']);

  // the last owner stays one
  const bossId = (await owner.graphql('{ teamMembers { id email } }')).body.data.teamMembers.find(
    (m: { email: string }) => m.email === 'boss@team.test',
  )?.id as string;
  const demote = await owner.graphql(
    'mutation($id: ID!) { changeTeamMemberRole(id: $id, role: ADMIN) { member { role } userErrors { field code } } }',
    { id: bossId },
  );
  expect(demote.body.data.changeTeamMemberRole).toEqual({
    member: null,
    userErrors: [{ field: ['id'], code: 'INVALID_STATE' }],
  });

  // a removed member's session ends at the next request
  expect(
    (await owner.graphql('mutation($id: ID!) { removeTeamMember(id: $id) { removedId } }', { id: ada.id })).body.data
      .removeTeamMember.removedId,
  ).toBe(ada.id);
  expect((await admin.get('/console/session')).status).toBe(401);
  expect((await admin.graphql('{ teamMembers { id } }')).status).toBe(401);

  // an API key never manages the team
  const byKey = await client(t.url, other.test_api_key).graphql(
    'mutation { inviteTeamMember(input: { email: "x@team.test", role: VIEWER }) { setupUrl } }',
  );
  expect(byKey.body.errors?.[0].extensions?.code).toBe('insufficient_permissions');
});

test('an API key, even a secret key, does not read the team', async () => {
  expectConsoleOnly(
    (await client(t.url, merchant.test_api_key).graphql('{ teamMembers { email } }')).body,
    'teamMembers',
    'team:read',
  );
});

test('the live dashboard streams over graphql-ws with the session cookie and its CSRF token', async () => {
  await member('live@console.test', 'support');
  const browser = consoleClient(t.url);
  await browser.signIn('live@console.test');
  const socket = (csrfToken?: string) => {
    const cookie = browser.cookie;
    class CookieSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie } });
      }
    }
    return createClient({
      url: `${t.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: CookieSocket,
      connectionParams: { csrfToken },
      retryAttempts: 0,
      lazy: true,
    });
  };
  const forged = collect(socket('forged'), 'subscription { orderEvents { type } }');
  await forged.done;
  expect(forged.errors[0]).toMatchObject({ code: 4401 });

  const ws = socket(browser.csrf);
  const live = collect<{ orderEvents: { type: string } }>(ws, 'subscription { orderEvents { type } }');
  await new Promise((r) => setTimeout(r, 300));
  const api = client(t.url, merchant.test_api_key);
  const session = (await api.post('/api/v2/checkout', checkoutBody([['SOCKS', 'Socks', 500, 1]]))).body.data;
  expect(
    (await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, { card: cards.visa })).status,
  ).toBe(200);
  const [first] = await live.waitFor(1);
  expect(first.orderEvents.type).toMatch(/^order\./);
  live.unsubscribe();
  await ws.dispose();
});

// Last: the limit is a process-wide setting, and this app sets it low.
test('sign-in attempts per network address are limited with their own message', async () => {
  const limited = await startTestApp({ CONSOLE_SIGN_IN_LIMIT: '3' });
  await limited.orm.em.getConnection().execute('truncate rate_limit_counters'); // this file's earlier sign-ins came from the same address
  try {
    const browser = consoleClient(limited.url);
    for (let i = 0; i < 3; i++) expect((await browser.signIn(`someone${i}@nowhere.test`)).status).toBe(401);
    const refused = await browser.signIn('someone@nowhere.test');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain('from this network');
  } finally {
    await limited.close();
  }
});
