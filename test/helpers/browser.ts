/** A real headless browser (Debian's Chromium driven by playwright-core) and a local store to land on. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

/**
 * A connection to the run's headless Chromium (test/browser-server.mjs, launched by global setup).
 * Closing it closes the file's contexts; the run's browser stays.
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoint = process.env.TEST_BROWSER_WS_ENDPOINT;
  if (!endpoint)
    throw new Error(process.env.TEST_BROWSER_ERROR ?? 'no browser: run the tests through jest (test/global-setup.mjs)');
  return chromium.connect(endpoint);
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
