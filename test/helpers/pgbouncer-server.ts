import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/platform/db/embedded-postgres.js';

/** Debian's PgBouncer (CI installs it as it installs Chromium), or undefined when it is not installed. */
export const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));

/** Why a topology test is skipped here (PgBouncer missing), or undefined when it can run. */
export const pgbouncerMissing = PGBOUNCER
  ? undefined
  : 'PgBouncer is not installed (apt-get install pgbouncer): the topology tests are skipped';

export interface PgBouncer {
  port: number;
  /** `DATABASE_URL` of database `db` through PgBouncer (`<db>_session`: in session mode, see `sessionPooled`). */
  url(db: string): string;
  /** Points every database at PostgreSQL on `port` (a failover: PgBouncer reloads its configuration). */
  repoint(port: number): Promise<void>;
  stop(): Promise<void>;
}

/** The user PgBouncer (and PostgreSQL) run as when we are root (they refuse to run as root): Debian's `postgres`. */
export function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Starts PgBouncer in front of PostgreSQL on 127.0.0.1:`serverPort` with its defaults but for
 * `pool_mode = transaction` (the production topology) and `settings` (e.g. `server_login_retry`);
 * every database name goes to the same name on the server, as user postgres. Each database of
 * `sessionPooled` is also reachable as `<db>_session` in session mode (a LISTEN connection that
 * follows PgBouncer when it is repointed).
 */
export async function startPgBouncer(
  serverPort: number,
  settings: Record<string, string | number> = {},
  opts: { sessionPooled?: string[] } = {},
): Promise<PgBouncer> {
  if (!PGBOUNCER) throw new Error(pgbouncerMissing);
  const dir = await mkdtemp(path.join(tmpdir(), 'pgbouncer-'));
  await chmod(dir, 0o777);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  const write = (server: number) =>
    writeFile(
      ini,
      [
        '[databases]',
        ...(opts.sessionPooled ?? []).map(
          (db) =>
            `${db}_session = host=127.0.0.1 port=${server} dbname=${db} user=postgres password=postgres pool_mode=session`,
        ),
        `* = host=127.0.0.1 port=${server} user=postgres password=postgres`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        ...Object.entries(settings).map(([k, v]) => `${k} = ${v}`),
        '',
      ].join('\n'),
      { mode: 0o644 },
    );
  await writeFile(path.join(dir, 'users.txt'), '"postgres" ""\n', { mode: 0o644 });
  await write(serverPort);
  const child: ChildProcess = spawn(PGBOUNCER, [ini], {
    ...unprivileged(),
    stdio: ['ignore', 'ignore', process.env.PGBOUNCER_LOG ? 'inherit' : 'ignore'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  // Ready once it accepts connections.
  const until = Date.now() + 10_000;
  for (;;) {
    const { Socket } = await import('node:net');
    const open = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
      s.connect(port, '127.0.0.1');
    });
    if (open) break;
    if (exited || Date.now() > until) throw new Error('PgBouncer did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    url: (db) => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`,
    repoint: async (server) => {
      await write(server);
      child.kill('SIGHUP');
      await new Promise((r) => setTimeout(r, 200));
    },
    stop: async () => {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
