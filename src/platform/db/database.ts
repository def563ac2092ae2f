import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

/** `DATABASE_URL` when set, otherwise the embedded PostgreSQL in `DATA_DIR` (started or joined). */
export async function resolveDatabase(config: Config): Promise<EmbeddedDatabase> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: () => Promise.resolve() };
  return startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
}

/** Applies pending migrations; returns their names. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
