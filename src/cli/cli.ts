import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import { IMPORT_USAGE, LISTEN_USAGE, PROCESSOR_USAGE, TRIGGER_USAGE, USER_USAGE } from './usage.js';

// Each command loads what it needs when it runs: the usage, `listen` and `trigger` start without
// loading the service's modules.

const USAGE = `usage:
  npm run cli -- merchant create --name NAME   create a merchant, print its keys as JSON
  ${IMPORT_USAGE}
                                               upsert a catalog CSV, print a report
  ${PROCESSOR_USAGE}
  ${USER_USAGE}
  ${LISTEN_USAGE}
  ${TRIGGER_USAGE}
  npm run migrate                              apply pending migrations
  npm run migration:create                     generate a migration from entity changes
  npm run schema:emit | schema:check           write / verify schema.graphql
  npm run schema:diff                          the gate: breaking changes since the last release must be in CHANGELOG.md
  npm run schema:diff -- REF                   breaking, dangerous and safe changes since git REF
  npm run schema:release                       write schema.release.graphql on a release commit
  npm run openapi:types | openapi:check        write / verify the REST client types (test/generated/api-v2.d.ts)`;

/** Runs `fn` against the configured database, then closes everything. */
async function withOrm<T>(fn: (orm: MikroORM) => Promise<T>): Promise<T> {
  const [{ loadConfig }, { resolveDatabase }, { openOrm }] = await Promise.all([
    import('../config/config.js'),
    import('../platform/db/database.js'),
    import('../../mikro-orm.config.js'),
  ]);
  const db = await resolveDatabase(loadConfig());
  const orm = await openOrm(db.url, 2);
  try {
    return await fn(orm);
  } finally {
    await orm.close();
    await db.stop();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  switch (command) {
    case 'merchant': {
      const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
      if (sub !== 'create' || !values.name) throw new Error(USAGE);
      const [{ migrate }, { createMerchant }] = await Promise.all([
        import('../platform/db/database.js'),
        import('../modules/merchants/merchant.service.js'),
      ]);
      const created = await withOrm(async (orm) => {
        await migrate(orm);
        return createMerchant(orm.em.fork(), values.name!);
      });
      process.stdout.write(`${JSON.stringify(created)}\n`);
      return 0;
    }
    case 'products':
      if (sub !== 'import') throw new Error(USAGE);
      return (await import('./products-import.js')).productsImport(rest, withOrm);
    case 'processor':
      return (await import('./processor-commands.js')).processorCommand(sub, rest, withOrm);
    case 'user':
      return (await import('./user-commands.js')).userCommand(sub, rest, withOrm);
    case 'migrate': {
      const { migrate } = await import('../platform/db/database.js');
      const applied = await withOrm(migrate);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'no pending migrations\n');
      return 0;
    }
    case 'migration:create': {
      const { createMigration } = await import('./migration-create.js');
      process.stdout.write(`${await withOrm(createMigration)}\n`);
      return 0;
    }
    case 'schema:emit':
      return (await import('./schema-commands.js')).schemaEmit();
    case 'schema:check':
      return (await import('./schema-commands.js')).schemaCheck();
    case 'schema:diff':
      return (await import('./schema-commands.js')).schemaDiff(sub);
    case 'schema:release':
      return (await import('./schema-commands.js')).schemaRelease();
    case 'listen':
      return (await import('./webhook-listen.js')).listen(argv.slice(1));
    case 'trigger':
      return (await import('./webhook-trigger.js')).trigger(sub, rest);
    case 'openapi:types':
      return (await import('./openapi-commands.js')).openApiTypesEmit();
    case 'openapi:check':
      return (await import('./openapi-commands.js')).openApiTypesCheck();
    default:
      process.stderr.write(`${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
