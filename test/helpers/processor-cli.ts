import { execFile, spawn, spawnSync } from 'node:child_process';

/** A merchant's Adyen configuration as the `processor` commands take it, and the key that seals it. */
export const SECRETS_KEY = '5f0c2b9d8e7a6f5041322314f5e6d7c8b9a0f1e2d3c4b5a69788796a5b4c3d2e';
export const OTHER_KEY = 'a'.repeat(64);
export const apiKey = 'AQEyhmfxK4nLbxZGw0m/n3Q5qf3VaY9UCJ14XWZE03G/k2NFitRvbe4N1XqH1eHaH2AksaEQjWlZ-plain-9Zq7';
export const hmacKey = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
export const clientKey = 'test_V2VsbDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MA';

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `node dist/src/cli/cli.js processor …` (what `npm run cli` runs after building) with `env` over ours. */
export function processorCli(args: string[], env: Record<string, string> = { SECRETS_KEY }): CliRun {
  const run = spawnSync(process.execPath, ['dist/src/cli/cli.js', 'processor', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `processorCli`, without blocking: several can run at once. */
export function processorCliAsync(args: string[], env: Record<string, string> = { SECRETS_KEY }): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['dist/src/cli/cli.js', 'processor', ...args],
      { env: { ...process.env, ...env }, encoding: 'utf8' },
      (_, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
}

/** `processor set` arguments for `merchant`, with `over` replacing options. */
export const setArgs = (merchant: string, over: Record<string, string> = {}) => [
  'set',
  ...Object.entries({
    merchant,
    provider: 'adyen',
    'merchant-account': 'AdyenPharmacyECOM',
    'api-key': apiKey,
    'client-key': clientKey,
    'hmac-key': hmacKey,
    ...over,
  }).flatMap(([k, v]) => [`--${k}`, v]),
];

/** Starts the built service expecting it to refuse: its exit code and what it printed. */
export async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (c) => (clearTimeout(timer), resolve(c)));
  });
  return { code, output };
}

export const PROCESSOR_CONFIGURATION_QUERY = `{ processorConfiguration { provider merchantAccount apiKey clientKey hmacKey liveUrlPrefix environment updatedAt } }`;
