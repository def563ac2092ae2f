import { z } from 'zod';
import { RESTRICTED_KEY_PERMISSIONS } from './permissions.js';

/** The one validation definition of each API key input (console GraphQL and REST). */

const keyName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

export const createApiKeySchema = z
  .object({
    name: keyName,
    permissions: z
      .array(
        z.enum(RESTRICTED_KEY_PERMISSIONS as [string, ...string[]], {
          message: `must be one of ${RESTRICTED_KEY_PERMISSIONS.join(', ')}`,
        }),
      )
      .min(1, 'a restricted key needs at least one permission')
      .max(RESTRICTED_KEY_PERMISSIONS.length)
      .transform((p) => [...new Set(p)])
      .nullish()
      .describe(
        'A restricted key: the permissions it holds (`orders:read`, `refunds:write`, …; write includes read). Omit or null for a secret key.',
      ),
  })
  .strict()
  .meta({ id: 'CreateApiKeyRequest' });

export const rollApiKeySchema = z
  .object({
    expires_in_hours: z
      .number()
      .min(0, 'must be 0 (stop now) or more')
      .max(168, 'must be at most 168 (7 days)')
      .default(24)
      .describe('How long the old key keeps working beside the new one; 0 stops it now'),
  })
  .strict()
  .meta({ id: 'RollApiKeyRequest' });
