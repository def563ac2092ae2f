import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { PaymentProcessor } from './payment-processor.js';
import { SimulatedProcessor } from './simulated-processor.js';

const simulated = new SimulatedProcessor();

/** The processor for the caller's mode: the simulated one in test mode. */
export function processorFor(ctx: ServiceContext): PaymentProcessor {
  if (!ctx.principal.livemode) return simulated;
  throw new DomainError('service_unavailable', 'Live payments need a configured payment processor; none is configured on this deployment. Use a test key.');
}
