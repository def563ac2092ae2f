// Names of the suite's databases on its PostgreSQL server: `<db>_template`, migrated once by global
// setup, and a `<db>_f_…` database per test file made from it (test/database-per-file.mjs).
import pg from 'pg';

/** `url` with database `name`. */
export function databaseUrl(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The template database's URL for the server and database of `url`. */
export function templateUrl(url) {
  return databaseUrl(url, `${new URL(url).pathname.slice(1)}_template`);
}

/** The prefix of the test files' databases made from the template at `template`. */
export function fileDatabasePrefix(template) {
  return `${new URL(template).pathname.slice(1).replace(/_template$/, '')}_f_`;
}

/** Runs `work` on a connection to the `postgres` database of the server of `url`. */
export async function onServer(url, work) {
  const c = new pg.Client({ connectionString: databaseUrl(url, 'postgres') });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}
