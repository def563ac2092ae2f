import { startPrismProxy } from './prism.js';
import { adyenSpecPath } from './specs.js';
import { startAdyenStandIn, type StandInOptions } from './stand-in.js';

export * from './stand-in.js';
export { startPrismProxy, type PrismProxy } from './prism.js';
export { adyenSpecPath } from './specs.js';

/**
 * Adyen for live-mode tests: the stand-in behind two Prism proxies, one checking every Checkout
 * v72 call against CheckoutService-v72.json, one every DisputeService call against
 * DisputeService-v30.json. Give the service `ADYEN_CHECKOUT_URL=checkoutUrl` (it carries `/v72`,
 * as Adyen's own base URL does) and the disputes base URL `disputesUrl`; assert `violations()`
 * is empty at the end of a test.
 */
export async function startAdyen(opts: StandInOptions) {
  const standIn = await startAdyenStandIn(opts);
  const [checkout, disputes] = await Promise.all([
    startPrismProxy(adyenSpecPath('CheckoutService-v72.json'), standIn.checkoutUrl),
    startPrismProxy(adyenSpecPath('DisputeService-v30.json'), standIn.disputesUrl),
  ]);
  return {
    /** Checkout API v72 through Prism: `http://127.0.0.1:PORT/v72`. */
    checkoutUrl: checkout.url,
    /** DisputeService v30 through Prism: `http://127.0.0.1:PORT/ca/services/DisputeService/v30`. */
    disputesUrl: disputes.url,
    standIn,
    prism: { checkout, disputes },
    /** Every schema violation either Prism saw, Checkout's first. */
    violations: (): string[] => [...checkout.violations(), ...disputes.violations()],
    /** Forgets the violations seen so far (after a test that provoked some on purpose). */
    clearViolations(): void {
      checkout.clearViolations();
      disputes.clearViolations();
    },
    async close(): Promise<void> {
      await Promise.all([checkout.close(), disputes.close()]);
      await standIn.close();
    },
  };
}

export type AdyenHarness = Awaited<ReturnType<typeof startAdyen>>;
