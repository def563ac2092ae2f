import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

/** `DATABASE_URL` when set, otherwise the embedded PostgreSQL in `DATA_DIR` (started or joined). */
export async function resolveDatabase(config: Config): Promise<EmbeddedDatabase> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, direct: false, stop: () => Promise.resolve() };
  return startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
}

/** The advisory lock every migration run holds (transaction-scoped: it works through a transaction pooler). */
const MIGRATION_LOCK = 4242002;

/**
 * Applies pending migrations; returns their names. The whole run is one transaction holding an
 * advisory lock, so processes starting together apply each migration once: the first takes the
 * lock and migrates, the others wait for its commit and then find nothing pending. Needs two
 * pooled connections (the migrator checks that the database exists on a second one).
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const migrator = orm.getMigrator();
  const storage = migrator.getStorage();
  return orm.em
    .getConnection()
    .getKnex()
    .transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
      // The migrations table is created (when missing) and read in this transaction, under the lock.
      storage.setMasterMigration(trx);
      try {
        const applied = await migrator.up({ transaction: trx });
        return applied.map((m) => m.name);
      } finally {
        storage.unsetMasterMigration();
      }
    });
}

/** The migrations this build knows that the database has not applied (all of them when it has none). */
export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const known = (orm.config.get('migrations').migrationsList ?? []).map((m) => m.name);
  const applied = await orm.em
    .getConnection()
    .execute<{ name: string }[]>('select name from mikro_orm_migrations')
    .catch((err: { code?: string }) => {
      if (err.code === '42P01') return []; // no migrations table yet
      throw err;
    });
  const done = new Set(applied.map((r) => r.name));
  return known.filter((name) => !done.has(name));
}
