import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../../mikro-orm.config.js';
import type { Config } from '../../config/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

/** `DATABASE_URL` when set, otherwise the embedded PostgreSQL in `DATA_DIR` (started or joined). */
export async function resolveDatabase(config: Config): Promise<EmbeddedDatabase> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => undefined };
  return startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
}

/** Connects MikroORM to `url`. */
export async function openOrm(url: string, poolMax = 10): Promise<MikroORM> {
  return MikroORM.init(ormConfig(url, poolMax));
}

/** Applies pending migrations; returns their names. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
