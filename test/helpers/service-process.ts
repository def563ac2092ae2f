import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../src/platform/db/embedded-postgres.js';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far (with `capture`). */
  output(): string;
}

/**
 * Starts the built service (`dist/src/main.js`) as a process of its own on a free port with
 * `env` over this process's environment, and waits until its /healthz (or `probe`) answers 200. With
 * `capture`, its stdout and stderr are kept for `output()`; otherwise they go to `stdio`.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  opts: {
    capture?: boolean;
    stdio?: 'ignore' | ['ignore', 'ignore' | 'inherit', 'ignore' | 'inherit'];
    timeoutMs?: number;
    name?: string;
    probe?: '/healthz' | '/readyz';
  } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: opts.capture ? ['ignore', 'pipe', 'pipe'] : (opts.stdio ?? 'ignore'),
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + (opts.timeoutMs ?? 60_000);
  const answers = () =>
    fetch(`${url}${opts.probe ?? '/healthz'}`).then(
      (r) => r.ok,
      () => false,
    );
  while (!(await answers())) {
    if (Date.now() > until || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name ?? 'service'} did not start${opts.capture ? `:\n${output}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, output: () => output };
}
