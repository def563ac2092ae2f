import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config.js';
import { migrate, resolveDatabase } from '../platform/db/database.js';
import { openOrm } from '../../mikro-orm.config.js';
import { createMerchant } from '../modules/merchants/merchant.service.js';
import { createMigration } from './migration-create.js';
import { IMPORT_USAGE, productsImport } from './products-import.js';
import { PROCESSOR_USAGE, processorCommand } from './processor-commands.js';
import { openApiTypesCheck, openApiTypesEmit } from './openapi-commands.js';
import { schemaCheck, schemaDiff, schemaEmit } from './schema-commands.js';
import { USER_USAGE, userCommand } from './user-commands.js';
import { LISTEN_USAGE, listen } from './webhook-listen.js';
import { TRIGGER_USAGE, trigger } from './webhook-trigger.js';

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
  npm run schema:diff -- REF                   breaking, dangerous and safe changes since git REF
  npm run openapi:types | openapi:check        write / verify the REST client types (test/generated/api-v2.d.ts)`;

/** Runs `fn` against the configured database, then closes everything. */
async function withOrm<T>(fn: (orm: Awaited<ReturnType<typeof openOrm>>) => Promise<T>): Promise<T> {
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
      const created = await withOrm(async (orm) => {
        await migrate(orm);
        return createMerchant(orm.em.fork(), values.name!);
      });
      process.stdout.write(`${JSON.stringify(created)}\n`);
      return 0;
    }
    case 'products':
      if (sub !== 'import') throw new Error(USAGE);
      return productsImport(rest, withOrm);
    case 'processor':
      return processorCommand(sub, rest, withOrm);
    case 'user':
      return userCommand(sub, rest, withOrm);
    case 'migrate': {
      const applied = await withOrm(migrate);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'no pending migrations\n');
      return 0;
    }
    case 'migration:create':
      process.stdout.write(`${await withOrm(createMigration)}\n`);
      return 0;
    case 'schema:emit':
      return schemaEmit();
    case 'schema:check':
      return schemaCheck();
    case 'schema:diff':
      return schemaDiff(sub);
    case 'listen':
      return listen(argv.slice(1));
    case 'trigger':
      return trigger(sub, rest);
    case 'openapi:types':
      return openApiTypesEmit();
    case 'openapi:check':
      return openApiTypesCheck();
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
