import { insideTransaction, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { PaymentProcessor } from './payment-processor.js';
import { SimulatedProcessor } from './simulated-processor.js';

let testMode: PaymentProcessor | null = null;

/** Replaces the test-mode processor (tests of processor failures the test cards cannot produce); returns the previous one. */
export function useTestModeProcessor(processor: PaymentProcessor | null): PaymentProcessor | null {
  const previous = testMode;
  testMode = processor;
  return previous;
}

/** The simulated processor, keeping its books through `em`'s pool (one autocommit statement per call). */
export function simulatedProcessor(em: ServiceContext['em']): SimulatedProcessor {
  const connection = em.getConnection();
  return new SimulatedProcessor((sql, params) => connection.execute(sql, params));
}

/**
 * The processor for the caller's mode: the simulated one in test mode. Refuses a caller inside
 * an open transaction: a processor call must never hold a database connection while it waits
 * (and the processor's own bookkeeping would need a second one).
 */
export function processorFor(ctx: ServiceContext): PaymentProcessor {
  if (ctx.em.isInTransaction() || insideTransaction.getStore()) throw new Error('the payment processor was called inside a database transaction');
  if (!ctx.principal.livemode) return testMode ?? simulatedProcessor(ctx.em);
  throw new DomainError('service_unavailable', 'Live payments need a configured payment processor; none is configured on this deployment. Use a test key.');
}
