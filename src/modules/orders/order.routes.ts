import { z } from 'zod';
import { listEnvelope } from '../../platform/rest/envelope.js';
import type { RouteSpec } from '../../platform/rest/routes.js';
import { orderListResponse, orderResponse } from './order.openapi.js';
import { presentOrder, presentOrders } from './order.presenter.js';
import { listOrdersSchema } from './order.schemas.js';
import { readOrder, readOrderPage } from './order.read-model.js';
import * as orders from './order.service.js';

const tags = ['Orders'];

export const orderRoutes: RouteSpec[] = [
  {
    method: 'GET',
    url: '/api/v2/orders',
    operationId: 'listOrders',
    summary: 'List orders, most recent first',
    tags,
    querystring: listOrdersSchema,
    response: orderListResponse,
    handler: async (ctx, req) => {
      const { filters, page } = orders.parseListOrdersQuery(req.query);
      const result = await readOrderPage(ctx, filters, page, 'starting_after');
      const data = await presentOrders(ctx, result.items);
      return { ...listEnvelope(result, (o) => o), data };
    },
  },
  {
    method: 'GET',
    url: '/api/v2/orders/:id',
    operationId: 'getOrderEntity',
    summary: 'Retrieve an order (with a fresh one-hour receipt_url)',
    tags,
    params: z.object({ id: z.string() }),
    response: orderResponse,
    handler: async (ctx, req) => presentOrder(ctx, await readOrder(ctx, (req.params as { id: string }).id)),
  },
];
