import type { ProcessorEvent, ProcessorEventHandler } from './processor-events.js';
import { processorFor } from './processor-registry.js';

/** A checkout attempt's authorisation key: `<attempt id>.<step>.authorize`. */
const CHECKOUT_AUTHORISATION = /^(pa_[A-Za-z0-9]+)\.(\d+)\.authorize$/;

/**
 * AUTHORISATION: what Adyen decided for a call, recorded under the call's key (its
 * `merchantReference`), so `lookup` knows it even when the call's own answer was lost (a crash, a
 * timeout, a 3-D Secure payment finished later). A hold that no payment attempt owns (its attempt
 * failed or was reversed before Adyen told us of the hold) is released: nothing is kept that no
 * order accounts for.
 */
export const recordAuthorisation: ProcessorEventHandler = async (tx, event: ProcessorEvent) => {
  const key = event.merchantReference;
  if (!key) return;
  await tx.em.execute(
    `insert into processor_calls (key, merchant_id, operation, ok, psp_reference, target, amount, currency, result, created_at, updated_at)
     values (?, ?, 'authorize', ?, ?, null, ?, ?, ?, now(), now())
     on conflict (key) do update set ok = processor_calls.ok or excluded.ok, psp_reference = coalesce(processor_calls.psp_reference, excluded.psp_reference),
       amount = case when processor_calls.ok then processor_calls.amount else excluded.amount end, updated_at = now()`,
    [key, tx.principal.merchantId, event.success, event.pspReference, event.amount, event.currency, JSON.stringify({ notification: event.id })],
  );
  const match = CHECKOUT_AUTHORISATION.exec(key);
  if (!event.success || !match) return;
  const [attempt] = await tx.em.execute<{ status: string; steps: { authorization_id: string | null }[] }[]>(`select status, steps from payment_attempts where id = ? for update`, [match[1]]);
  const owned = attempt && (attempt.status === 'calling' || (attempt.status === 'succeeded' && attempt.steps[Number(match[2])]?.authorization_id === event.pspReference));
  if (owned) return;
  return async (ctx) => {
    const processor = await processorFor(ctx);
    await processor.void(event.pspReference, `${key}.release`);
    ctx.log.warn({ psp_reference: event.pspReference, key }, 'released an authorisation no payment attempt owns');
  };
};
