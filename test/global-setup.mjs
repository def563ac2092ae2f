// Once per run: a throwaway embedded PostgreSQL (or the server of TEST_DATABASE_URL) and on it a
// template database, migrated, from which every test file gets a database of its own
// (test/database-per-file.mjs). Plain ESM over the build (npm test builds first): jest loads global
// setup outside its module system.
import 'reflect-metadata';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../dist/src/platform/db/database.js';
import { openOrm } from '../dist/mikro-orm.config.js';
import { startEmbeddedPostgres } from '../dist/src/platform/db/embedded-postgres.js';
import { databaseUrl, fileDatabasePrefix, onServer, templateUrl } from './databases.mjs';
import { startBrowserServer } from './browser-server.mjs';
import { startPrisms } from './prisms.mjs';

export default async function globalSetup() {
  await mkdir('test-results', { recursive: true }); // npm test's --outputFile (jest does not make its directory)
  // Adyen's documents behind Prism, for every live-mode test file (test/prisms.mjs), started beside the database.
  const prisms = startPrisms();
  prisms.catch(() => undefined); // awaited below, after the database
  // One headless Chromium for every browser test file (test/browser-server.mjs).
  const browser = startBrowserServer();
  browser.catch(() => undefined);
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-test-'));
    const db = await startEmbeddedPostgres({ dataDir, throwaway: true });
    globalThis.__TEST_DB__ = db;
    url = db.url;
  }
  const template = templateUrl(url);
  // A server of one's own (TEST_DATABASE_URL) may keep the template and file databases of an earlier run.
  await dropSuiteDatabases(template, { template: true });
  await onServer(template, (c) => c.query(`create database "${new URL(template).pathname.slice(1)}"`));
  const orm = await openOrm(template, 2);
  await migrate(orm);
  await orm.close();
  process.env.TEST_TEMPLATE_URL = template;
  globalThis.__TEST_PRISMS__ = await prisms;
  process.env.TEST_PRISM_URLS = JSON.stringify(globalThis.__TEST_PRISMS__.urls);
  globalThis.__TEST_BROWSER__ = await browser;
  if (globalThis.__TEST_BROWSER__.wsEndpoint)
    process.env.TEST_BROWSER_WS_ENDPOINT = globalThis.__TEST_BROWSER__.wsEndpoint;
  else process.env.TEST_BROWSER_ERROR = globalThis.__TEST_BROWSER__.error;
  // Nothing should use the server's own database: every file sets DATABASE_URL to its own.
  process.env.DATABASE_URL = databaseUrl(url, 'no_database_outside_a_test_file');
}

/** Drops the file databases made from `template` (and the template itself with `template: true`). */
export async function dropSuiteDatabases(template, opts = {}) {
  await onServer(template, async (c) => {
    const { rows } = await c.query(
      `select datname from pg_database where starts_with(datname, $1) or ($2 and datname = $3)`,
      [fileDatabasePrefix(template), opts.template === true, new URL(template).pathname.slice(1)],
    );
    for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`);
  });
}
