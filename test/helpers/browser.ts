/** A real headless browser (Debian's Chromium driven by playwright-core) and a local store to land on. */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// The machine has no network beyond package registries: keep Chromium from calling Google.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches headless Chromium; fails (never skips) with the fix when it is not installed. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}, so the hosted checkout browser tests cannot run. ` +
        'Install it with `apt-get update && apt-get install -y --no-install-recommends chromium` (CI does this in .ci/run), or set CHROMIUM_PATH.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface StoreServer {
  /** Base URL, e.g. `http://127.0.0.1:34567`. */
  url: string;
  /** Every request the store received, as paths with their query. */
  visits: string[];
  close(): Promise<void>;
}

/** A tiny local "merchant store" for success_url / failure_url to redirect to. */
export async function startStore(): Promise<StoreServer> {
  const visits: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    visits.push(req.url ?? '/');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Store</title><h1>Back at the store</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    visits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
