import type { EntityManager } from '@mikro-orm/postgresql';
import { scope, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { Subscription } from './subscription.entity.js';
import { runStatement } from '../../platform/db/sql.js';

/**
 * Locks the caller's subscription `id` (`FOR UPDATE`, inside the transaction of `em`) and reads it
 * afresh, or 404 `not_found`. Every write to a subscription that may race another goes through here.
 */
export async function lockSubscription(ctx: ServiceContext, em: EntityManager, id: string): Promise<Subscription> {
  const { merchant, livemode } = scope(ctx);
  const [row] = await runStatement<{ id: string }>(
    em,
    `select id from subscriptions where id = ? and merchant_id = ? and livemode = ? for update`,
    [id, merchant, livemode],
  );
  if (!row) throw DomainError.notFound('subscription', id);
  return em.findOneOrFail(Subscription, id, { refresh: true });
}
