import { inviteMember } from '../../src/modules/team/team.service.js';
import { client, type Json } from './http.js';
import type { TestApp } from './test-app.js';

/** The password every test team member sets. */
export const PASSWORD = 'correct horse battery staple';

export type ConsoleClient = ReturnType<typeof consoleClient>;

/** A browser-like console client: keeps the session cookie, sends the CSRF token the session gave it. */
export function consoleClient(base: string) {
  let cookie = '';
  let csrf = '';
  const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(cookie && { cookie }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(csrf && { 'x-csrf-token': csrf }),
        ...extra,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('glm_console='));
    if (set) cookie = set.split(';')[0];
    const text = await res.text();
    const json: Json = text ? JSON.parse(text) : null;
    if (json?.csrf_token) csrf = json.csrf_token;
    return { status: res.status, body: json, setCookie: set, headers: res.headers };
  };
  return {
    call,
    post: (path: string, body: unknown = {}, extra?: Record<string, string>) => call('POST', path, body, extra),
    get: (path: string) => call('GET', path),
    graphql: (query: string, variables?: Record<string, unknown>, extra?: Record<string, string>) =>
      call('POST', '/graphql', { query, variables }, extra),
    signIn: (email: string, password = PASSWORD) => call('POST', '/console/sign-in', { email, password }),
    get cookie() {
      return cookie;
    },
    get csrf() {
      return csrf;
    },
  };
}

/** Invites `email` to `merchantId`'s team with `role` (and a clinician's `details`) and sets its password through the invitation link. */
export async function teamMember(
  t: TestApp,
  merchantId: string,
  email: string,
  role: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { setup_url } = await inviteMember(t.orm.em.fork(), merchantId, { email, role, ...details });
  const token = new URL(setup_url).searchParams.get('token');
  const res = await client(t.url).post('/console/password-setup', { token, password: PASSWORD });
  if (res.status !== 200) throw new Error(`password setup failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A console session of a new `role` member of `merchantId`, signed in. */
export async function signedInConsole(
  t: TestApp,
  merchantId: string,
  role = 'owner',
  email = `${role}-${Math.random().toString(36).slice(2, 8)}@team.test`,
): Promise<ConsoleClient> {
  await teamMember(t, merchantId, email, role);
  const console = consoleClient(t.url);
  const res = await console.signIn(email);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return console;
}

/** A GraphQL answer that refuses the root `field` to an API key: console sessions only, 403 `insufficient_permissions` naming `permission`. */
export function expectConsoleOnly(
  body: { data: unknown; errors?: unknown[] },
  field: string,
  permission: string,
): void {
  expect(body.data).toBeNull();
  expect(body.errors).toEqual([
    expect.objectContaining({
      path: [field],
      extensions: { code: 'insufficient_permissions', details: { required_permission: permission } },
      message: expect.stringContaining('in the console'),
    }),
  ]);
}
