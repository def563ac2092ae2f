/** What each command takes, for its errors and `npm run cli`'s usage: no imports, so the usage prints without loading the service. */

export const PROCESSOR_USAGE = `npm run cli -- processor set --merchant ID --provider adyen --merchant-account NAME
                   --api-key KEY --client-key KEY --hmac-key HEX [--live-url-prefix PREFIX]
                                               store (or replace) a merchant's processor keys, print them masked
  npm run cli -- processor show --merchant ID  print a merchant's processor configuration, masked`;

export const IMPORT_USAGE =
  'npm run cli -- products import FILE.csv [--merchant ID] [--mode test|live] [--continue-on-error] [--json]';

export const USER_USAGE = `npm run cli -- user invite --merchant ID --email EMAIL --role owner|admin|developer|support|viewer
                                               invite a team member, print the one-time link that sets their password`;

export const LISTEN_USAGE = `npm run cli -- listen --api-key glm_test_… --forward-to URL [--events a,b] [--api-url URL]
                                               forward this merchant's test-mode events to URL, signed as deliveries`;

export const TRIGGER_USAGE = `npm run cli -- trigger EVENT_TYPE --api-key glm_test_… [--api-url URL]
                                               create the test-mode objects that fire EVENT_TYPE (e.g. order.completed)`;
