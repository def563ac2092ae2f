/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe-core violation, as the tests report it. */
export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  targets: string[];
}

/**
 * Runs axe-core on the page as it is now. axe is evaluated through the DevTools protocol, which the
 * page's CSP does not govern, so the page keeps its real policy (no `bypassCSP`).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const result = await (window as typeof window & { axe: typeof axe }).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => String(n.target)),
    }));
  });
}
