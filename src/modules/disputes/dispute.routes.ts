import { z } from 'zod';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { disputeResponse, orderResponse } from '../orders/order.openapi.js';
import { presentOrder } from '../orders/order.presenter.js';
import { toDisputeResource } from '../orders/order.resource.js';
import { defendDisputeSchema, testDisputeOrderSchema } from './dispute.schemas.js';
import * as disputes from './dispute.service.js';

const tags = ['Orders'];
const idParams = z.object({ id: z.string().describe('Order id') });
const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

/** `/api/v2/orders/{id}/dispute…` and its test helper: each route calls one service function. */
export const disputeRoutes: RouteSpec[] = [
  {
    method: 'GET',
    url: '/api/v2/orders/:id/dispute',
    operationId: 'getOrderDispute',
    summary:
      "The order's dispute (chargeback): stage, amount, reason, event code, defence deadline; 404 when it has none",
    tags,
    params: idParams,
    response: disputeResponse,
    handler: async (ctx, req) => toDisputeResource(await disputes.getOrderDispute(ctx, idOf(req))),
  },
  {
    method: 'POST',
    url: '/api/v2/orders/:id/dispute/accept',
    operationId: 'acceptOrderDispute',
    summary:
      "Accept the order's open dispute at the processor (the chargeback stands); a reversed or already accepted dispute is invalid_state",
    tags,
    params: idParams,
    response: disputeResponse,
    ownTransactions: true,
    handler: async (ctx, req) => toDisputeResource(await disputes.acceptDispute(ctx, idOf(req))),
  },
  {
    method: 'POST',
    url: '/api/v2/orders/:id/dispute/defend',
    operationId: 'defendOrderDispute',
    summary:
      "Defend the order's open dispute at the processor with a defence reason code; a reversed, accepted or already defended dispute is invalid_state",
    tags,
    params: idParams,
    body: defendDisputeSchema,
    response: disputeResponse,
    ownTransactions: true,
    handler: async (ctx, req) => toDisputeResource(await disputes.defendDispute(ctx, idOf(req), req.body)),
  },
  {
    method: 'POST',
    url: '/api/v2/test-helpers/orders/:id/dispute',
    operationId: 'testDisputeOrder',
    summary:
      "Simulate the processor's chargeback notification for the order's payment (applied as a real one is); returns the order",
    tags: ['Test helpers'],
    params: idParams,
    body: testDisputeOrderSchema,
    response: orderResponse,
    ownTransactions: true,
    handler: async (ctx, req) => presentOrder(ctx, await disputes.testDisputeOrder(ctx, idOf(req), req.body)),
  },
];
