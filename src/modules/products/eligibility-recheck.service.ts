import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, withEm, type Log } from '../../platform/context.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { checkEligibility as runEngine, ENGINE_VERSION } from '../eligibility/eligibility.engine.js';
import { Merchant } from '../merchants/merchant.entity.js';
import {
  decideEligibility,
  decisionChanged,
  snapshotOf,
  suggestionOf,
  type SuggestedEligibility,
} from './product-eligibility.js';
import { Product } from './product.entity.js';
import { toProductResource } from './product.resource.js';
import { recordEligibilityChange } from './product.service.js';
import { runStatement } from '../../platform/db/sql.js';

const BATCH = 500;

const sameSuggestion = (a: SuggestedEligibility, b: SuggestedEligibility) =>
  a.status === b.status && a.category === b.category && a.source === b.source && a.message === b.message;

export interface RecheckReport {
  checked: number;
  /** Products whose engine opinion (`suggested`) moved. */
  updated: number;
  /** Of those, the products whose decision moved (`product.eligibility_changed`). */
  changed: number;
}

/**
 * Checks every stored product again with the engine of `version` (this process's, by default),
 * once per version: a deploy that changes the engine's rules or tables moves the decisions it
 * made before. Each product whose suggestion moved takes the new one (its decision too, unless the
 * merchant's own decision is in force), in batches locked in id order; one whose decision moved
 * records `product.eligibility_changed` (reason `engine_updated`) and `product.updated`. Null
 * when this version has been through every product already.
 */
export async function recheckEligibility(
  orm: MikroORM,
  log: Log,
  version = ENGINE_VERSION,
): Promise<RecheckReport | null> {
  const [done] = await runStatement(
    orm.em,
    'select 1 from eligibility_engine_rechecks where engine_version = ?',
    [version],
    { autocommit: true },
  );
  if (done) return null;
  const report: RecheckReport = { checked: 0, updated: 0, changed: 0 };
  for (let after = 0; ;) {
    const last = await orm.em.fork().transactional(async (em) => {
      const products = await em.find(
        Product,
        { id: { $gt: after } },
        { orderBy: { id: 'asc' }, limit: BATCH, lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['p0'] },
      );
      for (const product of products) {
        const engine = runEngine({ name: product.name, upc_code_or_gtin: product.upcCodeOrGtin });
        if (sameSuggestion(product.eligibilitySuggested, suggestionOf(engine))) continue;
        const merchant = await em.findOneOrFail(Merchant, product.merchant.id);
        const ctx = withEm(
          systemContext(em, merchant.id, product.livemode, Number(merchant.testClockOffsetMs), log),
          em,
        );
        const before = snapshotOf(product);
        Object.assign(product, decideEligibility(engine, product.eligibilityOverride, ctx.now()));
        report.updated++;
        if (!decisionChanged(before, snapshotOf(product))) continue;
        product.updatedAt = ctx.now();
        report.changed++;
        await em.populate(product, ['images']);
        recordEligibilityChange(ctx, product, before, 'engine_updated');
        recordEvent(ctx, 'product.updated', toProductResource(product));
      }
      report.checked += products.length;
      return products.at(-1)?.id ?? null;
    });
    if (last === null) break;
    after = last;
  }
  await runStatement(
    orm.em,
    'insert into eligibility_engine_rechecks (engine_version) values (?) on conflict do nothing',
    [version],
    { autocommit: true },
  );
  return report;
}
