import { z } from 'zod';
import { PROCESSOR_PROVIDERS } from './processor-account.entity.js';

/**
 * The one definition of a processor configuration (`processor set`). The messages never quote
 * the value: an error about a key must not print the key.
 */
export const setProcessorAccountSchema = z
  .object({
    provider: z.enum(PROCESSOR_PROVIDERS, `must be one of: ${PROCESSOR_PROVIDERS.join(', ')}`),
    merchant_account: z
      .string('must be a string')
      .trim()
      .min(1, 'must not be empty')
      .max(80, 'must be at most 80 characters'),
    api_key: z
      .string('must be a string')
      .min(8, 'must be at least 8 characters')
      .max(1024, 'must be at most 1024 characters')
      .regex(/^\S+$/, 'must not contain spaces'),
    client_key: z
      .string('must be a string')
      .max(255, 'must be at most 255 characters')
      .regex(/^(test|live)_\S+$/, 'must start with test_ or live_'),
    hmac_key: z
      .string('must be a string')
      .regex(/^(?:[0-9a-fA-F]{2}){16,64}$/, 'must be an even-length hexadecimal string of 32 to 128 characters'),
    live_url_prefix: z
      .string('must be a string')
      .max(255, 'must be at most 255 characters')
      .regex(/^[A-Za-z0-9-]+$/, 'must contain only letters, digits and hyphens')
      .nullish(),
  })
  .strict();

export type SetProcessorAccountInput = z.output<typeof setProcessorAccountSchema>;
