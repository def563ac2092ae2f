import type { ServiceContext } from '../../platform/context.js';

/** A processor notification, verified and stored, as the modules it concerns see it. */
export interface ProcessorEvent {
  /** The stored notification's id (`pn_…`). */
  id: string;
  eventCode: string;
  success: boolean;
  /** The notification's own pspReference (a modification's, a dispute's payment's). */
  pspReference: string;
  /** The payment a modification or dispute is about. */
  originalReference: string | null;
  /** The reference our call sent (its idempotency key). */
  merchantReference: string | null;
  amount: number;
  currency: string;
  reason: string | null;
  eventDate: Date;
  additionalData: Record<string, string>;
}

/** Work that calls the processor, run after the event's transaction commits, on a context holding none. */
export type FollowUp = (ctx: ServiceContext) => Promise<void>;

/**
 * Applies an event inside the transaction that marks it applied; may return a follow-up that
 * calls the processor (never inside a transaction). Both must be idempotent: an event whose
 * follow-up failed is applied again later.
 */
export type ProcessorEventHandler = (tx: ServiceContext, event: ProcessorEvent) => Promise<FollowUp | void>;

const handlers = new Map<string, ProcessorEventHandler[]>();

/**
 * Registers what an event code does (refunds settle on REFUND, orders are disputed on CHARGEBACK):
 * the module wiring registers it, so payments never imports the modules its events concern.
 */
export function onProcessorEvent(eventCodes: string[], handler: ProcessorEventHandler): void {
  for (const code of eventCodes) handlers.set(code, [...(handlers.get(code) ?? []), handler]);
}

export function processorEventHandlers(eventCode: string): ProcessorEventHandler[] {
  return handlers.get(eventCode) ?? [];
}
