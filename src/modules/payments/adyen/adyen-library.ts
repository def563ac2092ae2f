/**
 * The parts of `@adyen/api-library` we use, each from its own module. The package's index loads
 * every API and model it has (management, platforms, terminals…), and its Checkout API loads its
 * 270 models: most of a second of every process's start, and of each test file's, in a service
 * that calls Adyen only for merchants with a live processor. So the API clients are loaded when
 * the first one is made; the HMAC validator, the exception and the enums are small. Types come from
 * the index (`import type`), which costs nothing at run time.
 */
import { createRequire } from 'node:module';
import type clientModule from '@adyen/api-library/lib/src/client.js';
import configModule from '@adyen/api-library/lib/src/config.js';
import httpClientExceptionModule from '@adyen/api-library/lib/src/httpClient/httpClientException.js';
import type checkoutModule from '@adyen/api-library/lib/src/services/checkout/index.js';
import type disputesModule from '@adyen/api-library/lib/src/services/disputes/index.js';
import paymentRequestModule from '@adyen/api-library/lib/src/typings/checkout/paymentRequest.js';
import hmacValidatorModule from '@adyen/api-library/lib/src/utils/hmacValidator.js';

export const EnvironmentEnum = configModule.EnvironmentEnum;
export const HttpClientException = httpClientExceptionModule.default;
export const HmacValidator = hmacValidatorModule.default;
export const { ShopperInteractionEnum, RecurringProcessingModelEnum, ChannelEnum } =
  paymentRequestModule.PaymentRequest;

export interface AdyenApiClasses {
  Client: (typeof clientModule)['default'];
  CheckoutAPI: (typeof checkoutModule)['default'];
  DisputesAPI: (typeof disputesModule)['default'];
}

const load = createRequire(import.meta.url);
let classes: AdyenApiClasses | undefined;

/** The library's client and its Checkout and Disputes APIs, loaded on first use. */
export function adyenApiClasses(): AdyenApiClasses {
  return (classes ??= {
    Client: (load('@adyen/api-library/lib/src/client.js') as typeof clientModule).default,
    CheckoutAPI: (load('@adyen/api-library/lib/src/services/checkout/index.js') as typeof checkoutModule).default,
    DisputesAPI: (load('@adyen/api-library/lib/src/services/disputes/index.js') as typeof disputesModule).default,
  });
}
