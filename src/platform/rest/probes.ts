import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import type { DatabaseHealth } from '../db/database-health.js';
import { pendingMigrations } from '../db/database.js';
import type { PgListener } from '../pubsub/pg-listener.js';

/**
 * `/livez`: the process is up and serving HTTP (no database involved: a liveness probe must not
 * restart processes because PostgreSQL is away). `/readyz`: this process can do its work: the
 * database answers (through the same URL as requests), every migration this build knows is
 * applied, and the LISTEN connection hears notifications. 503 with what is missing otherwise.
 */
export function registerProbes(
  http: FastifyInstance,
  orm: MikroORM,
  health: DatabaseHealth,
  listener: PgListener,
): void {
  const route = { config: { public: true, withoutDatabase: true }, schema: { hide: true } };
  http.get('/livez', route, () => ({ status: 'ok' }));

  // Once every migration is seen applied it stays so (a build never loses migrations).
  let migrated = false;
  const migrationsApplied = async (): Promise<boolean | undefined> => {
    if (!migrated) migrated = await pendingMigrations(orm).then((pending) => pending.length === 0);
    return migrated;
  };
  http.get('/readyz', route, async (_req, reply) => {
    const database = health.available && (await health.probe());
    if (!database) health.suspect();
    const migrations = database ? await migrationsApplied().catch(() => undefined) : undefined;
    const hearing = listener.hearing;
    const body = {
      status: database && migrations && hearing ? 'ready' : 'not_ready',
      database: database ? 'ok' : 'unreachable',
      migrations: migrations === undefined ? 'unknown' : migrations ? 'applied' : 'pending',
      listener: hearing ? 'hearing' : listener.connected ? 'deaf' : 'disconnected',
    };
    if (body.status === 'ready') return body;
    return reply.code(503).header('Retry-After', '1').send(body);
  });
}
