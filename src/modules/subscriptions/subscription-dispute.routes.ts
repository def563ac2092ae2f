import { z } from 'zod';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { disputeLatestCycle } from './subscription-dispute.service.js';
import { presentSubscription } from './subscription.presenter.js';
import { subscriptionResponse } from './subscription.openapi.js';
import { disputeSchema } from './subscription.schemas.js';

/** `POST /api/v2/test-helpers/subscriptions/{id}/dispute` (test mode only). */
export const subscriptionDisputeRoute: RouteSpec = {
  method: 'POST',
  url: '/api/v2/test-helpers/subscriptions/:id/dispute',
  operationId: 'testDisputeSubscription',
  summary: "Simulate the processor's dispute notification for the latest paid cycle",
  tags: ['Test helpers'],
  params: z.object({ id: z.string() }),
  body: disputeSchema,
  response: subscriptionResponse,
  handler: async (ctx, req) =>
    presentSubscription(ctx, await disputeLatestCycle(ctx, (req.params as { id: string }).id, req.body)),
};
