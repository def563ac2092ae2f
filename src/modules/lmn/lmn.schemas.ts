import { z } from 'zod';

export const approveReviewSchema = z
  .object({
    condition: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe('The condition the letter names (default: the questionnaire answer)'),
  })
  .strict();
export const declineReviewSchema = z
  .object({
    reason: z.string().trim().min(1).max(500).optional().describe("The clinician's reason (default: declined)"),
  })
  .strict();
