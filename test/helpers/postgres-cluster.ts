import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { unprivileged } from './pgbouncer.js';

/** Debian's PostgreSQL 15 server binaries: the embedded PostgreSQL has no `pg_basebackup`. CI installs them as it installs PgBouncer. */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Why a replication test is skipped here (the binaries missing), or undefined when it can run. */
export const replicationMissing = existsSync(path.join(PG_BIN, 'pg_basebackup'))
  ? undefined
  : `PostgreSQL 15's server binaries are not installed (apt-get install postgresql-15: ${PG_BIN}/pg_basebackup): the failover test is skipped`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One PostgreSQL server of the cluster, run by `pg_ctl` from its data directory. */
export interface PostgresServer {
  port: number;
  dataDir: string;
  /** `DATABASE_URL` of database `db` on this server, directly. */
  url(db: string): string;
  /** Rows of `sql` on database `db`, over a connection of its own (fails within a second when the server does not answer). */
  query<R extends pg.QueryResultRow>(sql: string, db?: string): Promise<R[]>;
  /** `pg_ctl stop -m <mode>`: `immediate` drops every connection at once, as a crash would. */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl promote -w`: a standby becomes a primary. */
  promote(): Promise<void>;
  /** Its server log (for a failure message). */
  log(): Promise<string>;
}

export interface ReplicatedCluster {
  primary: PostgresServer;
  standby: PostgresServer;
  /** Stops whatever still runs and removes both data directories. */
  close(): Promise<void>;
}

/**
 * A primary and a streaming standby made with `pg_basebackup -R -X stream`, each on a free port
 * of 127.0.0.1, trust authentication, database `db` created. Replication is synchronous
 * (`synchronous_standby_names = '*'`, `synchronous_commit = on`): the primary acknowledges a commit
 * only once the standby has flushed it, so a commit the service acknowledged is on the standby
 * when the primary is stopped, by guarantee rather than by timing. Set with ALTER SYSTEM after
 * the base backup, so the standby does not inherit it: promoted, it commits alone.
 * As root, every binary runs as the `postgres` user (PostgreSQL refuses root).
 */
export async function startReplicatedCluster(db = 'commerce'): Promise<ReplicatedCluster> {
  if (replicationMissing) throw new Error(replicationMissing);
  const user = unprivileged();
  const root = await mkdtemp(path.join(tmpdir(), 'pg-failover-'));
  if (user) await chown(root, user.uid, user.gid);
  const run = async (bin: string, args: string[]) => {
    try {
      await promisify(execFile)(path.join(PG_BIN, bin), args, {
        ...user,
        cwd: root,
        env: { ...process.env, HOME: root },
        timeout: 60_000,
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${bin} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  };
  const server = async (name: string): Promise<PostgresServer> => {
    const dataDir = path.join(root, name);
    const logFile = path.join(root, `${name}.log`);
    const port = await freePort();
    await run('pg_ctl', ['start', '-w', '-D', dataDir, '-l', logFile, '-o', `-p ${port}`]);
    const url = (database: string) => `postgres://postgres:postgres@127.0.0.1:${port}/${database}`;
    return {
      port,
      dataDir,
      url,
      query: async <R extends pg.QueryResultRow>(sql: string, database = 'postgres') => {
        const c = new pg.Client({ connectionString: url(database), connectionTimeoutMillis: 1000 });
        c.on('error', () => undefined);
        try {
          await c.connect();
          return (await c.query<R>(sql)).rows;
        } finally {
          await c.end().catch(() => undefined);
        }
      },
      stop: (mode) => run('pg_ctl', ['stop', '-w', '-m', mode, '-D', dataDir]),
      promote: () => run('pg_ctl', ['promote', '-w', '-D', dataDir]),
      log: () => readFile(logFile, 'utf8').catch(() => ''),
    };
  };
  const servers: PostgresServer[] = [];
  const close = async () => {
    for (const s of servers) await s.stop('immediate').catch(() => undefined); // already stopped: nothing to do
    await rm(root, { recursive: true, force: true });
  };
  try {
    await run('initdb', [
      '-D',
      path.join(root, 'primary'),
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    // initdb's pg_hba.conf already trusts replication connections from 127.0.0.1.
    await appendFile(
      path.join(root, 'primary', 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        "unix_socket_directories = ''",
        'wal_level = replica',
        'max_wal_senders = 5',
        'hot_standby = on',
        'max_connections = 200',
        '',
      ].join('\n'),
    );
    const primary = await server('primary');
    servers.push(primary);
    await primary.query(`create database ${db}`);
    await run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      path.join(root, 'standby'),
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    const standby = await server('standby');
    servers.push(standby);
    await primary.query(`alter system set synchronous_standby_names = '*'`);
    await primary.query(`alter system set synchronous_commit = 'on'`);
    await primary.query('select pg_reload_conf()');
    const until = Date.now() + 30_000;
    for (;;) {
      const [replica] = await primary.query<{ state: string; sync_state: string }>(
        'select state, sync_state from pg_stat_replication',
      );
      if (replica?.state === 'streaming' && replica.sync_state === 'sync') break;
      if (Date.now() > until)
        throw new Error(
          `the standby is not streaming synchronously (${JSON.stringify(replica)}):\n${await standby.log()}`,
        );
      await sleep(100);
    }
    return { primary, standby, close };
  } catch (err) {
    await close();
    throw err;
  }
}
