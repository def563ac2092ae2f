import { processorCalls } from '../../platform/observability/metrics.js';
import { inSpan, SpanKind } from '../../platform/observability/spans.js';
import type { PaymentProcessor } from './payment-processor.js';

/** How a processor call ended: `ok`, `refused` (a decline or other refusal), `action_required` (3-D Secure), `error` (it threw). */
function outcomeOf(result: unknown): string {
  if (!result || typeof result !== 'object' || !('ok' in result) || result.ok) return 'ok';
  return 'code' in result && result.code === 'action_required' ? 'action_required' : 'refused';
}

/**
 * `processor` with each call counted and timed (`commerce_processor_call_duration_seconds` by
 * processor, operation and outcome) and, when tracing, in a span of its own (`processor
 * <operation>`, a client span for Adyen). Every call goes through `processorFor`, which wraps.
 */
export function observedProcessor(processor: PaymentProcessor, name: 'simulated' | 'adyen'): PaymentProcessor {
  const kind = name === 'adyen' ? SpanKind.CLIENT : SpanKind.INTERNAL;
  const call = async <T>(operation: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    let outcome = 'error';
    try {
      const result = await inSpan(
        `processor ${operation}`,
        { 'payment.processor': name, 'payment.operation': operation },
        work,
        kind,
      );
      outcome = outcomeOf(result);
      return result;
    } finally {
      processorCalls.observe({ processor: name, operation, outcome }, (performance.now() - start) / 1000);
    }
  };
  return {
    inspect: (method, slot) => processor.inspect(method, slot),
    authorize: (request) => call('authorize', () => processor.authorize(request)),
    details: (details, key) => call('details', () => processor.details(details, key)),
    openSplit: (amount, currency, key) => call('open_split', () => processor.openSplit(amount, currency, key)),
    cancelSplit: (split, key) => call('cancel_split', () => processor.cancelSplit(split, key)),
    verify: (method, shopper, key) => call('verify', () => processor.verify(method, shopper, key)),
    capture: (authorizationId, key) => call('capture', () => processor.capture(authorizationId, key)),
    void: (authorizationId, key) => call('void', () => processor.void(authorizationId, key)),
    refund: (captureId, amount, key) => call('refund', () => processor.refund(captureId, amount, key)),
    chargeToken: (token, amount, currency, key) =>
      call('charge', () => processor.chargeToken(token, amount, currency, key)),
    holdToken: (token, amount, currency, key) => call('hold', () => processor.holdToken(token, amount, currency, key)),
    acceptDispute: (reference, key) => call('accept_dispute', () => processor.acceptDispute(reference, key)),
    defendDispute: (reference, reason, key) =>
      call('defend_dispute', () => processor.defendDispute(reference, reason, key)),
    lookup: (key) => call('lookup', () => processor.lookup(key)),
  };
}
