/**
 * The permissions of the API, in one place: each resource has `read` and `write` (`write`
 * includes `read`; src/platform/permissions.ts checks them). A restricted key holds some of the
 * restrictable ones; a secret key holds every resource the API offers; a console user holds its
 * role's. Route tables and resolver classes name their resource where the app is wired
 * (src/modules/index.ts, `@Authorized` on each resolver class).
 */
export const RESTRICTABLE_RESOURCES = [
  'products',
  'checkout',
  'orders',
  'refunds',
  'payment_links',
  'customers',
  'subscriptions',
  'webhooks',
] as const;

/** Resources only a secret key or a console owner / admin reaches (restricted keys never hold them). */
export const SECRET_ONLY_RESOURCES = ['test_clock', 'processor_accounts', 'emails'] as const;

/** The console's own resources: never held by an API key, whatever its kind. */
export const CONSOLE_RESOURCES = ['api_keys', 'team', 'audit_log'] as const;

export type Resource =
  (typeof RESTRICTABLE_RESOURCES)[number] | (typeof SECRET_ONLY_RESOURCES)[number] | (typeof CONSOLE_RESOURCES)[number];

/** Every permission a restricted key may be given, in display order. */
export const RESTRICTED_KEY_PERMISSIONS: readonly string[] = RESTRICTABLE_RESOURCES.flatMap((r) => [
  `${r}:read`,
  `${r}:write`,
]);

export const ROLES = ['owner', 'admin', 'developer', 'support', 'viewer', 'clinician'] as const;
export type Role = (typeof ROLES)[number];

const all = (resources: readonly string[], access: 'read' | 'write') => resources.map((r) => `${r}:${access}`);

/**
 * What each console role may do. Owners and admins: everything, but only an owner makes,
 * changes or removes an owner (`owners:write`). Developers: keys, webhooks and the test clock, and read the rest
 * but customers. Support: orders, refunds, payment links, subscriptions and customers, and reads
 * webhooks (the events, i.e. the live activity, are that resource's; no read of it shows a signing
 * secret: a secret is only in the answer of a create or rotation, which need `webhooks:write`).
 * Viewers read everything but keys, the team and the audit log.
 */
export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<string>> = {
  owner: new Set([
    'lmn_reviews:read',
    ...all(RESTRICTABLE_RESOURCES, 'write'),
    ...all(SECRET_ONLY_RESOURCES, 'write'),
    ...all(CONSOLE_RESOURCES, 'write'),
    'owners:write',
  ]),
  admin: new Set([
    'lmn_reviews:read',
    ...all(RESTRICTABLE_RESOURCES, 'write'),
    ...all(SECRET_ONLY_RESOURCES, 'write'),
    ...all(CONSOLE_RESOURCES, 'write'),
  ]),
  developer: new Set([
    'api_keys:write',
    'webhooks:write',
    'test_clock:write',
    'processor_accounts:read',
    ...all(['products', 'checkout', 'orders', 'refunds', 'payment_links', 'subscriptions'], 'read'),
  ]),
  support: new Set([
    ...all(['orders', 'refunds', 'payment_links', 'subscriptions', 'customers'], 'write'),
    ...all(['products', 'checkout', 'webhooks'], 'read'),
  ]),
  viewer: new Set(all(RESTRICTABLE_RESOURCES, 'read')),
  // Clinicians decide letters of medical necessity (`lmn_reviews:write`, held by no other role and
  // by no API key) and read what a decision needs: orders and customers.
  clinician: new Set(['lmn_reviews:write', 'orders:read', 'customers:read']),
};
