// Once per run: a throwaway embedded PostgreSQL (or TEST_DATABASE_URL), migrated.
// Plain ESM over the build (npm test builds first): jest loads global setup outside its module system.
import 'reflect-metadata';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../dist/src/platform/db/database.js';
import { openOrm } from '../dist/mikro-orm.config.js';
import { startEmbeddedPostgres } from '../dist/src/platform/db/embedded-postgres.js';

export default async function globalSetup() {
  await mkdir('test-results', { recursive: true }); // npm test's --outputFile (jest does not make its directory)
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-test-'));
    const db = await startEmbeddedPostgres({ dataDir, throwaway: true });
    globalThis.__TEST_DB__ = db;
    url = db.url;
  }
  process.env.DATABASE_URL = url;
  const orm = await openOrm(url, 2);
  await migrate(orm);
  await orm.close();
}
