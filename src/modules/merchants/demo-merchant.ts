import type { EntityManager } from '@mikro-orm/postgresql';
import { Merchant } from './merchant.entity.js';
import { createMerchant, type CreatedMerchant } from './merchant.service.js';
import { runStatement } from '../../platform/db/sql.js';

/** On first start (no merchant at all) creates "Demo Merchant" and returns its keys, else null. */
export async function ensureDemoMerchant(em: EntityManager): Promise<CreatedMerchant | null> {
  const fork = em.fork();
  // An advisory lock keeps two processes starting together from both creating one.
  return fork.transactional(async (tx) => {
    await runStatement(tx, 'select pg_advisory_xact_lock(4242001)');
    if ((await tx.count(Merchant, {})) > 0) return null;
    return createMerchant(tx, 'Demo Merchant');
  });
}
