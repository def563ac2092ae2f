import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** An optional variable: set to an empty string, it is unset. */
const optional = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (v === '' ? undefined : v), inner.optional());
const noTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** Every setting comes from the environment, parsed and validated once here. */
const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(4000),
    /** Interface to listen on: loopback unless set, so a laptop's `npm start` is not served to its network (production sets `HOST=0.0.0.0`). */
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z.string().url().optional(),
    DATA_DIR: z.string().default('.data'),
    /** Port of the embedded PostgreSQL (only without DATABASE_URL). */
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    PUBLIC_URL: z.string().url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    GRAPHQL_INTROSPECTION: bool.default(true),
    /** Requests allowed per API key per window (REST and GraphQL together). */
    RATE_LIMIT_MAX: z.coerce.number().int().positive().default(100),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(1000),
    /** Console sign-in attempts allowed per network address per 15 minutes (each account also locks after 5 failures in a row). */
    CONSOLE_SIGN_IN_LIMIT: z.coerce.number().int().positive().default(20),
    /** Hours a letter-of-medical-necessity review waits for a clinician before it expires and the HSA/FSA hold is released (inside the hold's validity: 6.95 days). */
    LMN_REVIEW_TIMEOUT_HOURS: z.coerce.number().positive().max(166).default(144),
    /** Days events (and their webhook deliveries) are kept: `GET /api/v2/events`, catch-up cursors and `recover` reach that far back. */
    EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
    /** Days applied processor notifications are kept (disputes read a payment's chargeback history from them). */
    PROCESSOR_NOTIFICATION_RETENTION_DAYS: z.coerce.number().int().min(30).default(730),
    /** Days failed and reversed payment attempts are kept (succeeded ones stay: late processor notifications are matched through them). */
    PAYMENT_ATTEMPT_RETENTION_DAYS: z.coerce.number().int().min(30).default(90),
    /**
     * Days the processors' call logs are kept: Adyen's answers (`processor_calls`) except the
     * successful authorisations and charges (captures and refunds read their amount, for the
     * payment's life), and the test-mode simulated processor's ledger (`processor_ledger`).
     */
    PROCESSOR_CALL_RETENTION_DAYS: z.coerce.number().int().min(30).default(90),
    /** Points in each API key's GraphQL query-cost bucket (`throttleStatus.maximumAvailable`); also caps one operation's cost. */
    GRAPHQL_COST_BUCKET: z.coerce.number().int().positive().max(1_000_000_000).default(20_000),
    /** Points restored to a query-cost bucket per second (`throttleStatus.restoreRate`). */
    GRAPHQL_COST_RESTORE_RATE: z.coerce.number().int().positive().max(1_000_000_000).default(1_000),
    /**
     * Direct PostgreSQL connection (not through a transaction pooler) for LISTEN/NOTIFY and the
     * start-up migration lock. Default: DATABASE_URL.
     */
    DATABASE_LISTEN_URL: optional(z.string().url()),
    /**
     * Keep hot statements prepared per connection under a name (`true`): PostgreSQL parses and plans
     * each once per connection instead of at every execution, but only with direct connections or
     * PgBouncer 1.21+ with `max_prepared_statements`. `false`: every statement unnamed, so any
     * pooler in transaction mode works. Unset: `true` with the embedded database (a direct
     * connection by construction), `false` with DATABASE_URL (it may point at a pooler).
     */
    DATABASE_PREPARED_STATEMENTS: optional(bool),
    /** Apply pending migrations at start (`false`: the deploy runs `npm run migrate` as a step of its own). */
    MIGRATE_ON_START: bool.default(true),
    /** Connections per process to PostgreSQL. */
    DB_POOL_MAX: z.coerce.number().int().positive().default(10),
    /**
     * A unit of work that asks for a second pooled connection while its transaction holds one:
     * `log` it (default), `throw` (tests), or `off`.
     */
    DB_POOL_GUARD: z.enum(['throw', 'log', 'off']).default('log'),
    /**
     * Port of a listener of its own serving Prometheus `GET /metrics` without a token (reach it
     * only from the scraper's network; never publish it beside the API). Unset: no such listener.
     */
    METRICS_PORT: optional(z.coerce.number().int().min(0).max(65535)),
    /**
     * Bearer token for `GET /metrics` on the API port (`Authorization: Bearer <token>`), at least
     * 16 characters. Unset: the API port serves no `/metrics` (404). Neither set: no metrics endpoint.
     */
    METRICS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
    /** Run Agenda job processing in this process (API-only replicas set false). */
    RUN_JOBS: bool.default(true),
    /**
     * Key of the secrets stored at rest (merchants' processor API and HMAC keys): 32 bytes as 64
     * hex characters (`openssl rand -hex 32`). Optional until a processor configuration is stored;
     * from then on the service refuses to start without the key that stored it. Empty is unset.
     */
    SECRETS_KEY: optional(
      z
        .string()
        .regex(
          /^[0-9a-fA-F]{64}$/,
          'must be exactly 64 hexadecimal characters (32 bytes); generate one with: openssl rand -hex 32',
        ),
    ),
    /** Adyen platform live-mode payments go to: `test` (Adyen's test platform) or `live`. */
    ADYEN_ENVIRONMENT: z.enum(['test', 'live'], 'must be test or live').default('test'),
    /**
     * Adyen Web's environment on the live-mode hosted pages: the live region of the merchant
     * accounts (`live`, `live-us`, `live-au`, `live-apse`, `live-in`, `live-nea`). Default: ADYEN_ENVIRONMENT.
     */
    ADYEN_WEB_ENVIRONMENT: optional(
      z.enum(
        ['test', 'live', 'live-us', 'live-au', 'live-apse', 'live-in', 'live-nea'],
        'must be test, live or live-<region>',
      ),
    ),
    /** Base URL of Adyen's Checkout API instead of the environment's (a local stand-in in tests), e.g. `http://127.0.0.1:9000/v72`. */
    ADYEN_CHECKOUT_URL: optional(z.url('must be a URL').transform(noTrailingSlash)),
    /** Base URL of Adyen's Disputes API instead of the environment's (our addition beside ADYEN_CHECKOUT_URL). */
    ADYEN_DISPUTES_URL: optional(z.url('must be a URL').transform(noTrailingSlash)),
    /**
     * `user:password` Adyen sends with its notifications (Customer Area → Developers → Webhooks →
     * Basic authentication): when set, `POST /processor-notifications/adyen` answers 401 without it.
     */
    ADYEN_NOTIFICATION_BASIC_AUTH: optional(z.string().regex(/^[^:]+:.+$/, 'must be user:password')),
    /**
     * Where email goes: `smtp://user:pass@host:port` or `smtps://…` (nodemailer). Unset (the
     * default): nothing leaves the machine; every message stays in the outbox, readable in the
     * console (Settings → Emails) and through GraphQL `emails`.
     */
    SMTP_URL: optional(z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be smtp://user:pass@host:port or smtps://…')),
    /** The From of every message (`Name <address>` or an address); its domain names each message's Message-ID. */
    MAIL_FROM: z.string().min(3).default('Health Commerce <no-reply@localhost>'),
  })
  .superRefine((c, ctx) => {
    // Buckets untouched for an hour are purged as full ones.
    if (c.GRAPHQL_COST_BUCKET / c.GRAPHQL_COST_RESTORE_RATE > 3600)
      ctx.addIssue({
        code: 'custom',
        path: ['GRAPHQL_COST_RESTORE_RATE'],
        message: 'must refill GRAPHQL_COST_BUCKET within an hour (at least GRAPHQL_COST_BUCKET / 3600)',
      });
    // Live mode stores and reads merchants' processor keys sealed with SECRETS_KEY: no key, no start.
    if (c.ADYEN_ENVIRONMENT === 'live' && !c.SECRETS_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['SECRETS_KEY'],
        message: 'is required when ADYEN_ENVIRONMENT is live (generate one with: openssl rand -hex 32)',
      });
    if (c.ADYEN_WEB_ENVIRONMENT && (c.ADYEN_WEB_ENVIRONMENT === 'test') !== (c.ADYEN_ENVIRONMENT === 'test'))
      ctx.addIssue({
        code: 'custom',
        path: ['ADYEN_WEB_ENVIRONMENT'],
        message: `must be ${c.ADYEN_ENVIRONMENT === 'test' ? 'test' : 'live or live-<region>'} when ADYEN_ENVIRONMENT is ${c.ADYEN_ENVIRONMENT}`,
      });
  });

export type Config = z.infer<typeof schema> & { publicUrl: string };

/** Parses `env` (default `process.env`); throws one readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return { ...c, publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '') };
}
