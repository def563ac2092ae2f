import type { ServiceContext } from '../../platform/context.js';
import { loader } from '../../platform/graphql/loaders.js';
import type { Page } from '../../platform/pagination/keyset.js';
import { WebhookDelivery, type WebhookDeliveryStatus } from './webhook.entity.js';

/**
 * The first page of deliveries (with attempts) of many endpoints in two queries: a window
 * function keeps the newest `limit + 1` rows per endpoint, then the attempts are loaded in one
 * batch. Keyed by endpoint, status filter and page size; later pages go through `paginate`.
 */
export function firstDeliveryPagesLoader(ctx: ServiceContext) {
  return loader<string, Page<WebhookDelivery>>(ctx, 'endpoint.deliveries.first', async (keys) => {
    const parsed = keys.map((k) => JSON.parse(k) as { endpointId: string; status: WebhookDeliveryStatus | null; limit: number });
    const pages = new Map<string, Page<WebhookDelivery>>();
    for (const group of new Set(parsed.map((p) => `${p.status}|${p.limit}`))) {
      const members = parsed.filter((p) => `${p.status}|${p.limit}` === group);
      const { status, limit } = members[0];
      const rows = await ctx.em.execute<Record<string, unknown>[]>(
        `select * from (
           select d.*, row_number() over (partition by d.endpoint_id order by d.created_at desc, d.id desc) as page_row
           from webhook_deliveries d
           where d.merchant_id = ? and d.livemode = ? and d.endpoint_id in (select jsonb_array_elements_text(?::jsonb))
             ${status ? 'and d.status = ?' : ''}
         ) ranked where page_row <= ? order by created_at desc, id desc`,
        [ctx.principal.merchantId, ctx.principal.livemode, JSON.stringify(members.map((m) => m.endpointId)), ...(status ? [status] : []), limit + 1],
      );
      const deliveries = rows.map(({ page_row: _row, ...row }) => ctx.em.map(WebhookDelivery, row));
      if (deliveries.length) await ctx.em.populate(deliveries, ['attempts']);
      for (const m of members) {
        const own = deliveries.filter((d) => d.endpoint?.id === m.endpointId);
        pages.set(JSON.stringify(m), { items: own.slice(0, m.limit), hasMore: own.length > m.limit });
      }
    }
    return keys.map((k) => pages.get(k)!);
  });
}
