import { z } from 'zod';
import { PROCESSOR_PROVIDERS } from './processor-account.entity.js';

/** Response shape of the processor configuration route, for the OpenAPI document. */
export const processorConfigurationResponse = z
  .object({
    provider: z.enum(PROCESSOR_PROVIDERS),
    merchant_account: z.string().describe("The processor's merchant account name"),
    api_key: z.string().describe('Masked: **** and its last 4 characters'),
    client_key: z.string().describe('Public (Adyen Web uses it in the browser): shown whole'),
    hmac_key: z.string().describe('Masked: **** and its last 4 characters'),
    live_url_prefix: z
      .string()
      .nullable()
      .describe("Prefix of the merchant's live Checkout endpoints (Adyen's live platform)"),
    environment: z
      .enum(['test', 'live'])
      .describe("The Adyen platform this service's live mode uses (ADYEN_ENVIRONMENT)"),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'ProcessorConfiguration' });
