import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { client } from '../helpers/http.js';

/**
 * `npm start` as a merchant runs it: the built service with its own embedded PostgreSQL in a
 * fresh DATA_DIR, the demo merchant's key printed, /healthz answering, SIGTERM shutting down cleanly.
 */
describe('npm start (built service, embedded PostgreSQL)', () => {
  let dataDir: string;
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
    dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-start-'));
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  test('first start migrates, creates the demo merchant, serves, and stops on SIGTERM', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    child = spawn(process.execPath, ['dist/src/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const base = `http://127.0.0.1:${port}`;
    const started = Date.now();
    let health = 0;
    while (Date.now() - started < 60_000 && health !== 200) {
      health = await fetch(`${base}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (health !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(health).toBe(200);
    const key = /glm_test_[0-9A-Za-z]{32}/.exec(output)?.[0];
    expect(key).toBeDefined();

    const api = client(base, key);
    const created = await api.post('/api/v2/products', { name: 'Reading glasses +1.5', price: 1999, currency: 'USD' });
    expect(created.status).toBe(201);

    // A slow in-flight request still completes during shutdown.
    const inFlight = api.get('/api/v2/products');
    child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) console.log(output);
    expect(code).toBe(0);
  }, 120_000);
});
