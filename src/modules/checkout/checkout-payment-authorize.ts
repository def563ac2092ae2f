import type { ServiceContext } from '../../platform/context.js';
import { formatAmount } from '../../platform/money.js';
import { needsAction, type AuthorizeResult, type PaymentProcessor } from '../payments/payment-processor.js';
import { commitPaid, fail } from './checkout-payment-commit.js';
import { park } from './checkout-payment-parking.js';
import { healthcareAmounts, type Part } from './checkout-payment-plan.js';
import type { Captured, PayOutcome, Run } from './checkout-payment-run.js';

/* The processor steps of a pay: authorise every part, then capture every hold, or undo them all. */

/**
 * Authorises the parts from `from` on (the first one's answer may be given: a `/details` result).
 * A partial authorisation of the HSA/FSA card moves the rest to the regular card; a refusal
 * releases every hold; a part that needs the shopper parks the attempt.
 */
export async function authorizeFrom(
  ctx: ServiceContext,
  processor: PaymentProcessor,
  run: Run,
  from: number,
  first?: AuthorizeResult,
): Promise<PayOutcome> {
  for (let i = from; i < run.parts.length; i++) {
    const part = run.parts[i];
    const auth =
      i === from && first
        ? first
        : await processor.authorize({
            method: part.method,
            amount: part.amount,
            currency: run.currency,
            idempotencyKey: run.journal.key(i, 'authorize'),
            slot: part.slot,
            healthcare: part.slot === 'hsa_fsa_card' ? healthcareAmounts(part.amount, run.healthcare) : null,
            allowPartial: part.slot === 'hsa_fsa_card',
            split: run.split,
            storeFor: run.storeFor,
            returnUrl: run.returnUrl,
            browserInfo: run.browserInfo,
          });
    if (needsAction(auth)) return park(ctx, run, i, auth.action);
    if (!auth.ok) {
      await release(processor, run);
      return fail(ctx, run, part, { ...auth, message: `${auth.message} Nothing was charged.` });
    }
    run.held.push({ i, part, auth });
    run.journal.steps[i].authorization_id = auth.authorizationId;
    const short = part.amount - auth.amount;
    if (short > 0) {
      const next = run.parts[i + 1] ?? takeReserve(run);
      if (!next) {
        await release(processor, run);
        const covered = `${formatAmount(auth.amount, run.currency)} of ${formatAmount(part.amount, run.currency)}`;
        return fail(ctx, run, part, {
          code: 'insufficient_funds',
          message: `The HSA/FSA card covers only ${covered}. Nothing was charged; add a regular card for the rest.`,
          authorizedAmount: auth.amount,
        });
      }
      next.amount += short;
      part.amount = auth.amount;
      run.moved += short;
      run.journal.steps[i].amount = part.amount;
      run.journal.steps[i + 1].amount = next.amount;
    }
  }
  // What reconciliation must know that the processor cannot tell it: the amounts a partial
  // authorisation moved between the cards. Holds and captures it finds by their keys (`lookup`).
  if (run.moved > 0) await run.journal.record(ctx);
  return captureAndCommit(ctx, processor, run);
}

/** The regular card kept aside becomes the last part (a partial HSA/FSA authorisation needs it). */
function takeReserve(run: Run): Part | null {
  const reserve = run.reserve;
  if (!reserve) return null;
  run.reserve = null;
  reserve.amount = 0;
  run.parts.push(reserve);
  run.journal.steps.push({
    slot: reserve.slot,
    payment_method: reserve.details.type,
    amount: 0,
    authorization_id: null,
    capture_id: null,
  });
  return reserve;
}

/** Releases every hold of the attempt: the split as a whole when there is one, else each hold. */
async function release(processor: PaymentProcessor, run: Run): Promise<void> {
  if (run.split) return processor.cancelSplit(run.split, run.journal.key(0, 'cancel_split'));
  for (const h of run.held) await processor.void(h.auth.authorizationId, run.journal.key(h.i, 'void'));
}

async function captureAndCommit(ctx: ServiceContext, processor: PaymentProcessor, run: Run): Promise<PayOutcome> {
  // Capture every hold; should one capture fail, the parts already captured are refunded and
  // the remaining holds released, so the customer is charged all or nothing.
  const captured: Captured[] = [];
  for (const [n, held] of run.held.entries()) {
    // Under a clinician's review the HSA/FSA part stays authorised: approval captures it, a decline or the timeout voids it.
    if (run.review && held.part.slot === 'hsa_fsa_card') continue;
    const capture = await processor.capture(held.auth.authorizationId, run.journal.key(held.i, 'capture'));
    if (!capture.ok) {
      for (const c of captured) await processor.refund(c.captureId, c.part.amount, run.journal.key(c.i, 'reverse'));
      for (const h of [
        ...run.held.slice(0, n).filter((x) => !captured.some((c) => c.i === x.i)),
        ...run.held.slice(n + 1),
      ])
        await processor.void(h.auth.authorizationId, run.journal.key(h.i, 'void'));
      return fail(ctx, run, held.part, {
        code: capture.code,
        message: 'The payment could not be completed; nothing was charged.',
      });
    }
    run.journal.steps[held.i].capture_id = capture.captureId;
    captured.push({ ...held, captureId: capture.captureId });
  }
  return commitPaid(ctx, run, captured);
}
