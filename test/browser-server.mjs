// One headless Chromium for the whole run (Debian's, driven by playwright-core), launched by global
// setup as a Playwright browser server: every browser test file connects to it and makes its own
// contexts, instead of starting a Chromium of its own (about a second of CPU each).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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

/**
 * The browser server, or the reason there is none (Chromium is not installed): the browser tests
 * then fail with it (test/helpers/browser.ts), never skip.
 */
export async function startBrowserServer() {
  if (!existsSync(CHROMIUM_PATH))
    return {
      error:
        `Chromium is not installed at ${CHROMIUM_PATH}, so the browser tests cannot run. ` +
        'Install it with `apt-get update && apt-get install -y --no-install-recommends chromium` (CI does this in .ci/run), or set CHROMIUM_PATH.',
    };
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return { wsEndpoint: server.wsEndpoint(), close: () => server.close() };
}
