// The jest environment of every test file: Node's, plus (for behaviour files and unit specs marked
// `@database`) a database of the file's own, created from
// the template global setup migrated (`CREATE DATABASE … TEMPLATE …`), so that files can run in
// parallel workers on one PostgreSQL server. DATABASE_URL points at it for the file and for every
// process the file starts. The database is dropped after the file unless something still holds a
// connection to it (a process the file left running); the throwaway server goes at the end anyway,
// and global setup drops what an earlier run left on a server of one's own (TEST_DATABASE_URL).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TestEnvironment } from 'jest-environment-node';
import { databaseUrl, fileDatabasePrefix, onServer } from './databases.mjs';

export default class DatabasePerFile extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    // Behaviour files (*.e2e-spec.ts) get one; a unit spec only when its docblock says `@database`.
    this.needsDatabase = context.testPath.endsWith('.e2e-spec.ts') || 'database' in context.docblockPragmas;
  }

  async setup() {
    await super.setup();
    if (!this.needsDatabase) return;
    const template = process.env.TEST_TEMPLATE_URL;
    if (!template)
      throw new Error('TEST_TEMPLATE_URL is not set: run the tests through jest (test/global-setup.mjs sets it)');
    const slug = path
      .basename(this.testPath)
      .replace(/\.(e2e-)?spec\.ts$/, '')
      .replace(/[^a-z0-9]+/gi, '_')
      .toLowerCase()
      .slice(0, 24);
    this.database = `${fileDatabasePrefix(template)}${slug}_${randomBytes(3).toString('hex')}`;
    await onServer(template, (c) =>
      c.query(`create database "${this.database}" template "${new URL(template).pathname.slice(1)}"`),
    );
    const url = databaseUrl(template, this.database);
    // The file's own view of the environment, and this worker's, which processes the file starts without an explicit env inherit.
    this.global.process.env.DATABASE_URL = url;
    process.env.DATABASE_URL = url;
  }

  async teardown() {
    // Only when nothing is connected any more: PostgreSQL would wait 5 s for a straggler before refusing.
    if (this.database)
      await onServer(process.env.TEST_TEMPLATE_URL, async (c) => {
        const held = await c.query('select 1 from pg_stat_activity where datname = $1', [this.database]);
        if (held.rowCount === 0) await c.query(`drop database if exists "${this.database}"`);
      }).catch(() => undefined);
    await super.teardown();
  }
}
