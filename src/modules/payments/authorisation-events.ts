import type { ServiceContext } from '../../platform/context.js';
import type { ProcessorEvent, ProcessorEventHandler } from './processor-events.js';
import { processorFor } from './processor-registry.js';
import { runStatement } from '../../platform/db/sql.js';

/** A checkout attempt's authorisation key: `<attempt id>.<step>.authorize`. */
const CHECKOUT_AUTHORISATION = /^(pa_[A-Za-z0-9]+)\.(\d+)\.authorize$/;

/**
 * Whether the payment attempt of checkout authorisation key `match` still accounts for payment
 * `pspReference`: it is open (`calling`, its own code or reconciliation decides), or it succeeded
 * with that payment on its step. Locks the attempt row for the caller's transaction.
 */
async function attemptOwns(tx: ServiceContext, match: RegExpExecArray, pspReference: string): Promise<boolean> {
  const [attempt] = await runStatement<{ status: string; steps: { authorization_id: string | null }[] }>(
    tx.em,
    `select status, steps from payment_attempts where id = ? for update`,
    [match[1]],
  );
  return Boolean(
    attempt &&
    (attempt.status === 'calling' ||
      (attempt.status === 'succeeded' && attempt.steps[Number(match[2])]?.authorization_id === pspReference)),
  );
}

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
  await runStatement(
    tx.em,
    `insert into processor_calls (key, merchant_id, operation, ok, psp_reference, target, amount, currency, result, created_at, updated_at)
     values (?, ?, 'authorize', ?, ?, null, ?, ?, ?, now(), now())
     on conflict (key) do update set ok = processor_calls.ok or excluded.ok, psp_reference = coalesce(processor_calls.psp_reference, excluded.psp_reference),
       amount = case when processor_calls.ok then processor_calls.amount else excluded.amount end, updated_at = now()`,
    [
      key,
      tx.principal.merchantId,
      event.success,
      event.pspReference,
      event.amount,
      event.currency,
      JSON.stringify({ notification: event.id }),
    ],
  );
  const match = CHECKOUT_AUTHORISATION.exec(key);
  if (!event.success || !match || (await attemptOwns(tx, match, event.pspReference))) return;
  return async (ctx) => {
    const processor = await processorFor(ctx);
    await processor.void(event.pspReference, `${key}.release`);
    ctx.log.warn({ psp_reference: event.pspReference, key }, 'released an authorisation no payment attempt owns');
  };
};

/**
 * CAPTURE of a checkout payment: recorded under the step's capture key (`<attempt>.<step>.capture`,
 * found through the payment's authorisation), so `lookup` knows the capture even when the service
 * died between Adyen's answer and its record, and reconciliation refunds it rather than void a
 * payment Adyen no longer holds. A capture that no attempt owns (reversed before Adyen told us)
 * is refunded in full under the key reconciliation refunds that step with, so it is refunded once.
 */
export const recordCapture: ProcessorEventHandler = async (tx, event: ProcessorEvent) => {
  const payment = event.originalReference;
  if (!event.success || !payment) return;
  const calls = await runStatement<{ key: string }>(
    tx.em,
    `select key from processor_calls where psp_reference = ? and merchant_id = ? and operation = 'authorize' and ok`,
    [payment, tx.principal.merchantId],
  );
  const match = calls.map((c) => CHECKOUT_AUTHORISATION.exec(c.key)).find((m) => m !== null);
  if (!match) return;
  const step = `${match[1]}.${match[2]}`;
  await runStatement(
    tx.em,
    `insert into processor_calls (key, merchant_id, operation, ok, psp_reference, target, amount, currency, result, created_at, updated_at)
     values (?, ?, 'capture', true, ?, ?, ?, ?, ?, now(), now()) on conflict (key) do nothing`,
    [
      `${step}.capture`,
      tx.principal.merchantId,
      event.pspReference,
      payment,
      event.amount,
      event.currency,
      JSON.stringify({ notification: event.id }),
    ],
  );
  if (await attemptOwns(tx, match, payment)) return;
  return async (ctx) => {
    const processor = await processorFor(ctx);
    const refund = await processor.refund(payment, event.amount, `${step}.reverse`);
    if (refund.ok) ctx.log.warn({ psp_reference: payment, step }, 'refunded a capture no payment attempt owns');
    else
      ctx.log.error(
        { psp_reference: payment, step, code: refund.code },
        'could not refund a capture no payment attempt owns; needs attention',
      );
  };
};
