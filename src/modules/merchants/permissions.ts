/**
 * The permissions of the API, in one place: each resource has `read` and `write` (src/platform/
 * permissions.ts checks them). A restricted key holds some of `RESTRICTABLE_RESOURCES`; a secret
 * key holds them all plus the rest (the test clock, the processor configuration). Route tables
 * and resolver classes name their resource where the app is wired (src/modules/index.ts,
 * `@Authorized` on each resolver class).
 */
export const RESTRICTABLE_RESOURCES = ['products', 'checkout', 'orders', 'refunds', 'payment_links', 'customers', 'subscriptions', 'webhooks'] as const;

export type RestrictableResource = (typeof RESTRICTABLE_RESOURCES)[number];

/** Resources only a secret key (or a console owner / admin) reaches. */
export const SECRET_ONLY_RESOURCES = ['test_clock', 'processor_accounts'] as const;

export type Resource = RestrictableResource | (typeof SECRET_ONLY_RESOURCES)[number];
