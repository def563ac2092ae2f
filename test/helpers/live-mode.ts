import type { CreatedMerchant } from '../../src/modules/merchants/merchant.service.js';
import { setProcessorAccount } from '../../src/modules/processor-accounts/processor-account.service.js';
import { startAdyen, type AdyenHarness } from './adyen/index.js';
import { createProducts, type ProductRow } from './fixtures.js';
import { client, type Client } from './http.js';
import { startTestApp, type TestApp } from './test-app.js';

/** The SECRETS_KEY of live-mode tests (the one the stored processor keys are sealed with). */
export const LIVE_SECRETS_KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
export const ADYEN_API_KEY = 'AQE_live_test_api_key_1234';
export const ADYEN_MERCHANT_ACCOUNT = 'HealthCommerceECOM';
export const ADYEN_HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';

/** Adyen Web's `paymentMethod` for one of the stand-in's cards, with Adyen's unencrypted test values. */
export const adyenCard = (number: string) => ({
  payment_method_data: {
    type: 'scheme',
    encryptedCardNumber: `test_${number}`,
    encryptedExpiryMonth: 'test_03',
    encryptedExpiryYear: 'test_2030',
    encryptedSecurityCode: 'test_737',
  },
});

export interface LiveMode {
  t: TestApp;
  keys: CreatedMerchant;
  /** A client with the merchant's `glm_live_` key. */
  live: Client;
  adyen: AdyenHarness;
  close(): Promise<void>;
}

/**
 * A service in live mode against the Adyen stand-in behind Prism: one merchant whose Adyen account
 * is configured (as `processor set` stores it), the stand-in sending its signed notifications to
 * the service's `/processor-notifications/adyen`, with the live catalog `products`. Assert
 * `adyen.violations()` is empty.
 */
export async function startLiveMode(
  products: readonly ProductRow[] = [],
  env: Record<string, string> = {},
): Promise<LiveMode> {
  const adyen = await startAdyen({ apiKey: ADYEN_API_KEY, merchantAccount: ADYEN_MERCHANT_ACCOUNT });
  const t = await startTestApp({
    SECRETS_KEY: LIVE_SECRETS_KEY,
    ADYEN_CHECKOUT_URL: adyen.checkoutUrl,
    ADYEN_DISPUTES_URL: adyen.disputesUrl,
    ...env,
  });
  await t.reset();
  const keys = await t.merchant('Live Pharmacy');
  await configureAdyen(t, keys.id);
  adyen.standIn.notifyTo(`${t.url}/processor-notifications/adyen`, { hmacKeyHex: ADYEN_HMAC_KEY });
  const live = client(t.url, keys.live_api_key);
  await createProducts(live, products);
  return {
    t,
    keys,
    live,
    adyen,
    close: async () => {
      await adyen.close();
      await t.close();
    },
  };
}

/** Stores the merchant's Adyen account (what `npm run cli -- processor set` does). */
export async function configureAdyen(
  t: TestApp,
  merchantId: string,
  merchantAccount = ADYEN_MERCHANT_ACCOUNT,
): Promise<void> {
  await setProcessorAccount(t.orm.em.fork(), merchantId, {
    provider: 'adyen',
    merchant_account: merchantAccount,
    api_key: ADYEN_API_KEY,
    client_key: 'test_CLIENTKEY1234567890',
    hmac_key: ADYEN_HMAC_KEY,
  });
}

/**
 * A test file's live mode (`startLiveMode` in `beforeAll`, closed in `afterAll`), asserting after
 * every test that Prism saw no schema violation. Read its fields inside tests.
 */
export function useLiveMode(products: readonly ProductRow[] = []): LiveMode {
  let started: LiveMode | undefined;
  beforeAll(async () => {
    started = await startLiveMode(products);
  });
  afterEach(() => {
    expect(running().adyen.violations()).toEqual([]);
  });
  afterAll(() => started?.close());
  const running = (): LiveMode => {
    if (!started) throw new Error('live mode is read before beforeAll started it');
    return started;
  };
  return {
    get t() {
      return running().t;
    },
    get keys() {
      return running().keys;
    },
    get live() {
      return running().live;
    },
    get adyen() {
      return running().adyen;
    },
    close: () => running().close(),
  };
}
