import { runStatement } from '../../platform/db/sql.js';
import { insideTransaction, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import type { PaymentProcessor } from './payment-processor.js';
import { SimulatedProcessor } from './simulated-processor.js';
import { observedProcessor } from './observed-processor.js';
import { AdyenCallLog } from './adyen/adyen-call-log.js';
import type { NotificationAccounts } from './adyen/adyen-notifications.js';
import type { AdyenAccount, AdyenSettings } from './adyen/adyen-api.js';
import { AdyenProcessor } from './adyen/adyen-processor.js';

let testMode: PaymentProcessor | null = null;

/** Replaces the test-mode processor (tests of processor failures the test cards cannot produce); returns the previous one. */
export function useTestModeProcessor(processor: PaymentProcessor | null): PaymentProcessor | null {
  const previous = testMode;
  testMode = processor;
  return previous;
}

/** The simulated processor, keeping its books through `em`'s pool (one autocommit statement per call). */
export function simulatedProcessor(em: ServiceContext['em']): SimulatedProcessor {
  return new SimulatedProcessor((sql, params) => runStatement(em, sql, params, { autocommit: true }));
}

/** How live mode reaches Adyen and finds a merchant's Adyen account (the module wiring registers it at start). */
export interface LivePayments {
  settings: AdyenSettings;
  accountFor(ctx: ServiceContext): Promise<AdyenAccount | null>;
  /** The merchants an Adyen merchant account belongs to, with their HMAC keys (notifications). */
  notificationAccounts: NotificationAccounts;
}

/** How live mode is configured, or null when it is not. */
export function livePayments(): LivePayments | null {
  return live;
}

let live: LivePayments | null = null;

/** Registers how live mode reaches Adyen (null: live payments answer 503). */
export function useLivePayments(config: LivePayments | null): void {
  live = config;
}

/**
 * The processor for the caller's mode: the simulated one in test mode, Adyen with the merchant's
 * own account in live mode (503 `service_unavailable` when the merchant configured none). Refuses a
 * caller inside an open transaction: a processor call must never hold a database connection while
 * it waits (and the processor's own bookkeeping needs one of its own).
 */
export async function processorFor(ctx: ServiceContext): Promise<PaymentProcessor> {
  if (ctx.em.isInTransaction() || insideTransaction.getStore())
    throw new Error('the payment processor was called inside a database transaction');
  if (!ctx.principal.livemode) return observedProcessor(testMode ?? simulatedProcessor(ctx.em), 'simulated');
  const account = live ? await live.accountFor(ctx) : null;
  if (!live || !account) {
    throw new DomainError(
      'service_unavailable',
      'Live payments need a configured payment processor, and this merchant has none: configure its Adyen account (npm run cli -- processor set …), or use a test key.',
    );
  }
  const em = ctx.em;
  return observedProcessor(
    new AdyenProcessor(
      account,
      live.settings,
      new AdyenCallLog((sql, params) => runStatement(em, sql, params, { autocommit: true }), ctx.principal.merchantId),
    ),
    'adyen',
  );
}
