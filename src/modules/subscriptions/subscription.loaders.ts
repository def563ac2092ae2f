import { scope, type ServiceContext } from '../../platform/context.js';
import { byKeys, loader } from '../../platform/graphql/loaders.js';
import { PaymentMethod } from '../customers/customer.entity.js';
import { SubscriptionInvoice, SubscriptionInvoiceAttempt } from './subscription.entity.js';

/** Payment methods by id (attached or not), batched per request. */
export function paymentMethodByIdLoader(ctx: ServiceContext) {
  return loader<string, PaymentMethod | null>(ctx, 'paymentMethod.byId', async (ids) =>
    byKeys(ids, await ctx.em.find(PaymentMethod, { id: { $in: [...ids] }, ...scope(ctx) }), (pm) => pm.id),
  );
}

/** Invoices by id, batched per request. */
export function invoiceByIdLoader(ctx: ServiceContext) {
  return loader<string, SubscriptionInvoice | null>(ctx, 'subscriptionInvoice.byId', async (ids) =>
    byKeys(ids, await ctx.em.find(SubscriptionInvoice, { id: { $in: [...ids] }, ...scope(ctx) }), (i) => i.id),
  );
}

/** Every invoice of subscriptions, batched per request. */
export function invoicesBySubscriptionLoader(ctx: ServiceContext) {
  return loader<string, SubscriptionInvoice[]>(ctx, 'subscription.invoices', async (ids) => {
    const rows = await ctx.em.find(SubscriptionInvoice, { subscriptionId: { $in: [...ids] }, ...scope(ctx) });
    return ids.map((id) => rows.filter((r) => r.subscriptionId === id));
  });
}

/** The attempts of invoices, batched per request. */
export function attemptsByInvoiceLoader(ctx: ServiceContext) {
  return loader<string, SubscriptionInvoiceAttempt[]>(ctx, 'subscriptionInvoice.attempts', async (ids) => {
    const rows = await ctx.em.find(
      SubscriptionInvoiceAttempt,
      { invoiceId: { $in: [...ids] }, ...scope(ctx) },
      { orderBy: { attempt: 'asc' } },
    );
    return ids.map((id) => rows.filter((r) => r.invoiceId === id));
  });
}
