import { z } from 'zod';
import { pageLimit, timestamp } from '../../platform/validation.js';
import { ORDER_STATUSES, PAYMENT_STATUSES } from './order.entity.js';

export const listOrdersSchema = z
  .object({
    limit: pageLimit,
    starting_after: z.string().regex(/^ord_/, 'must be an order id').optional(),
    status: z.enum(ORDER_STATUSES).optional(),
    payment_status: z.enum(PAYMENT_STATUSES).optional(),
    customer_email: z.string().max(255).optional(),
    reference_id: z.string().max(255).optional(),
    created_after: timestamp.optional(),
    created_before: timestamp.optional(),
  })
  .strict();

export type ListOrdersQuery = z.output<typeof listOrdersSchema>;
export type OrderFilters = Omit<ListOrdersQuery, 'limit' | 'starting_after'>;
