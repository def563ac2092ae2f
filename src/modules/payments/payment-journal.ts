import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, type Log, type ServiceContext } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import type { AttemptStatus, AttemptStep } from './payment-attempt.entity.js';
import { processorFor } from './processor.js';

/**
 * Writes a payment attempt's journal. Every write except `settle` goes through the pool, outside
 * the caller's transaction, so it is committed at once and survives that transaction's rollback.
 */
export class PaymentJournal {
  private constructor(
    private readonly ctx: ServiceContext,
    readonly id: string,
  ) {}

  /** Records a new attempt on `checkoutId` with its steps, before any processor call. */
  static async open(ctx: ServiceContext, checkoutId: string, steps: Omit<AttemptStep, 'authorization_id' | 'capture_id'>[]): Promise<PaymentJournal> {
    const id = prefixedId('pa');
    const rows = steps.map((s) => ({ ...s, authorization_id: null, capture_id: null }));
    await ctx.em.getConnection().execute(
      `insert into payment_attempts (id, merchant_id, livemode, checkout_id, status, steps, created_at, updated_at) values (?, ?, ?, ?, 'in_progress', ?, now(), now())`,
      [id, ctx.principal.merchantId, ctx.principal.livemode, checkoutId, JSON.stringify(rows)],
    );
    return new PaymentJournal(ctx, id);
  }

  private async setStep(index: number, field: 'authorization_id' | 'capture_id', value: string): Promise<void> {
    await this.ctx.em
      .getConnection()
      .execute(`update payment_attempts set steps = jsonb_set(steps, ?::text[], to_jsonb(?::text)), updated_at = now() where id = ?`, [`{${index},${field}}`, value, this.id]);
  }

  /** Step `index` holds `authorizationId` at the processor. */
  authorized(index: number, authorizationId: string): Promise<void> {
    return this.setStep(index, 'authorization_id', authorizationId);
  }

  /** Step `index` was captured as `captureId`. */
  captured(index: number, captureId: string): Promise<void> {
    return this.setStep(index, 'capture_id', captureId);
  }

  /** Closes the attempt inside the caller's transaction: it commits with the order, or not at all. */
  async settle(status: Exclude<AttemptStatus, 'in_progress'>, orderId: string): Promise<void> {
    await this.ctx.em.execute(`update payment_attempts set status = ?, order_id = ?, updated_at = now() where id = ?`, [status, orderId, this.id]);
  }
}

/** How long an attempt may stay in progress before it is presumed abandoned. */
export const ABANDONED_AFTER_SECONDS = 120;

/**
 * Reverses abandoned attempts: refunds captured steps and voids held ones, then marks the attempt
 * `reversed`. An attempt whose checkout row is still locked (a payment in flight) is left alone.
 * Returns how many attempts it reversed.
 */
export async function reverseAbandonedAttempts(orm: MikroORM, log: Log): Promise<number> {
  let reversed = 0;
  for (;;) {
    const done = await orm.em.fork().transactional(async (em) => {
      const [attempt] = await em.execute<{ id: string; merchant_id: string; livemode: boolean; checkout_id: string; steps: AttemptStep[] }[]>(
        `select a.id, a.merchant_id, a.livemode, a.checkout_id, a.steps from payment_attempts a
         where a.status = 'in_progress' and a.updated_at < now() - interval '${ABANDONED_AFTER_SECONDS} seconds'
           and exists (select 1 from checkout_sessions s where s.id = a.checkout_id for update skip locked)
         order by a.updated_at limit 1 for update of a skip locked`,
      );
      if (!attempt) return false;
      const processor = processorFor(systemContext(em, attempt.merchant_id, attempt.livemode, 0, log));
      for (const step of attempt.steps) {
        if (step.capture_id) {
          const refund = await processor.refund(step.capture_id, step.amount);
          if (!refund.ok) log.error({ attempt: attempt.id, step, code: refund.code }, 'could not refund an abandoned payment step; needs attention');
        } else if (step.authorization_id) {
          await processor.void(step.authorization_id);
        }
      }
      await em.execute(`update payment_attempts set status = 'reversed', updated_at = now() where id = ?`, [attempt.id]);
      log.warn({ attempt: attempt.id, checkout: attempt.checkout_id }, 'abandoned payment attempt reversed');
      return true;
    });
    if (!done) return reversed;
    reversed++;
  }
}
