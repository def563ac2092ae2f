import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { PaymentProcessor } from './payment-processor.js';
import { SimulatedProcessor } from './simulated-processor.js';

let testMode: PaymentProcessor = new SimulatedProcessor();

/** Replaces the test-mode processor (tests of processor failures the test cards cannot produce); returns the previous one. */
export function useTestModeProcessor(processor: PaymentProcessor): PaymentProcessor {
  const previous = testMode;
  testMode = processor;
  return previous;
}

/** The processor for the caller's mode: the simulated one in test mode. */
export function processorFor(ctx: ServiceContext): PaymentProcessor {
  if (!ctx.principal.livemode) return testMode;
  throw new DomainError('service_unavailable', 'Live payments need a configured payment processor; none is configured on this deployment. Use a test key.');
}
