import type { ServiceContext } from '../../platform/context.js';
import { loader } from '../../platform/graphql/loaders.js';
import { newestPerParent, pageOf } from '../../platform/pagination/first-pages.js';
import type { Page } from '../../platform/pagination/keyset.js';
import { WebhookDelivery, type WebhookDeliveryStatus } from './webhook.entity.js';

/**
 * The first page of deliveries (with attempts) of many endpoints in two queries: a window
 * function keeps the newest `limit + 1` rows per endpoint, then the attempts are loaded in one
 * batch. Keyed by endpoint, status filter and page size; later pages go through `paginate`.
 */
export function firstDeliveryPagesLoader(ctx: ServiceContext) {
  return loader<string, Page<WebhookDelivery>>(ctx, 'endpoint.deliveries.first', async (keys) => {
    const parsed = keys.map(
      (k) => JSON.parse(k) as { endpointId: string; status: WebhookDeliveryStatus | null; limit: number },
    );
    const pages = new Map<string, Page<WebhookDelivery>>();
    for (const group of new Set(parsed.map((p) => `${p.status}|${p.limit}`))) {
      const members = parsed.filter((p) => `${p.status}|${p.limit}` === group);
      const { status, limit } = members[0];
      const deliveries = await newestPerParent(ctx, WebhookDelivery, {
        table: 'webhook_deliveries',
        parentColumn: 'endpoint_id',
        parents: members.map((m) => m.endpointId),
        limit,
        filter: status ? { sql: 't.status = ?', params: [status] } : undefined,
      });
      if (deliveries.length) await ctx.em.populate(deliveries, ['attempts']);
      for (const m of members)
        pages.set(
          JSON.stringify(m),
          pageOf(
            deliveries.filter((d) => d.endpoint?.id === m.endpointId),
            m.limit,
          ),
        );
    }
    return keys.map((k) => pages.get(k)!);
  });
}
