import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Every setting comes from the environment, parsed and validated once here. */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
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
  /** Connections per process to PostgreSQL. */
  DB_POOL_MAX: z.coerce.number().int().positive().default(10),
  /**
   * A unit of work that asks for a second pooled connection while its transaction holds one:
   * `log` it (default), `throw` (tests), or `off`.
   */
  DB_POOL_GUARD: z.enum(['throw', 'log', 'off']).default('log'),
  /** Run Agenda job processing in this process (API-only replicas set false). */
  RUN_JOBS: bool.default(true),
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
