// Prism proxies for the whole run, one per Adyen OpenAPI document, started once by global setup:
// a Prism costs over a second of CPU to start, and a dozen test files call Adyen. Every file's
// Adyen stand-in is its own (it keeps that file's state), so each Prism's upstream is a small router
// here that sends a call on to the stand-in its `x-test-upstream` header names (the front in
// test/helpers/adyen/prism.ts sets it; Prism passes request headers on).
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import path from 'node:path';
import { freePort } from '../dist/src/platform/db/embedded-postgres.js';

/** The documents live-mode tests check Adyen's calls against (test/helpers/adyen/specs.ts reads the same folder). */
export const PRISM_DOCUMENTS = ['CheckoutService-v72.json', 'DisputeService-v30.json'];

/** Starts the router and one Prism per document; `urls` maps a document's file name to its Prism. */
export async function startPrisms() {
  const dir = process.env.ADYEN_SPECS_DIR ?? path.resolve(process.cwd(), 'test', 'fixtures', 'adyen');
  const router = await startRouter();
  const prisms = await Promise.all(
    PRISM_DOCUMENTS.map((file) => startPrism(path.join(dir, file), router.url).then((p) => [file, p])),
  );
  return {
    urls: Object.fromEntries(prisms.map(([file, p]) => [file, p.url])),
    async close() {
      await Promise.all(prisms.map(([, p]) => p.close()));
      await router.close();
    },
  };
}

/** Sends each call on to `x-test-upstream` + its path; a connection the upstream drops is dropped here too. */
async function startRouter() {
  const server = createServer((req, res) => {
    const base = req.headers['x-test-upstream'];
    if (typeof base !== 'string') {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('no x-test-upstream header');
      return;
    }
    const headers = { ...req.headers };
    delete headers['x-test-upstream'];
    delete headers.host;
    const onward = request(`${base.replace(/\/$/, '')}${req.url}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

/** `prism proxy <specFile> <upstreamUrl> --errors` on a port of its own, once it listens. */
async function startPrism(specFile, upstreamUrl) {
  const bin = path.resolve(process.cwd(), 'node_modules', '.bin', 'prism');
  const port = await freePort();
  const child = spawn(bin, ['proxy', specFile, upstreamUrl, '--errors', '-p', String(port), '-h', '127.0.0.1'], {
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`prism did not start within 60 s:\n${output}`)), 60_000);
    const onData = () => /Prism is listening/.test(output) && (cleanup(), resolve());
    const onExit = (code) => fail(new Error(`prism exited (${code}) before listening:\n${output}`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
    }
    function fail(e) {
      cleanup();
      child.kill('SIGKILL');
      reject(e);
    }
    child.stdout.on('data', onData);
    child.on('exit', onExit);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
