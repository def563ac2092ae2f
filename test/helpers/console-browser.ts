/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { PASSWORD, teamMember } from './console.js';
import type { TestApp } from './test-app.js';

/**
 * A new `role` member (with a clinician's `details`) of `merchantId`, signed in to the console in
 * a fresh Chromium context, once the page has connected (or said it will not); CSP refusals and
 * page errors go to `problems`.
 */
export async function consolePage(
  t: TestApp,
  browser: Browser,
  merchantId: string,
  role: string,
  problems: string[],
  details: Record<string, unknown> = {},
): Promise<Page> {
  const address = `${role}-${Math.random().toString(36).slice(2, 8)}@console.test`;
  await teamMember(t, merchantId, address, role, details);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(`${t.url}/dashboard`);
  await page.getByLabel('Email', { exact: true }).fill(address);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => ['live', 'off'].includes(document.body.dataset.connection ?? ''));
  return page;
}
