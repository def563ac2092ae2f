import type { ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parkedMethod, unparkedMethod, type ParkedMethod } from '../payments/payment-method-input.js';
import type { PaymentJournal } from '../payments/payment-journal.js';
import { openAtRest, sealAtRest } from '../processor-accounts/processor-account.service.js';
import type { Part } from './checkout-payment-plan.js';
import type { ActionOutcome, Held, PayOptions, Run } from './checkout-payment-run.js';

/* Parking a pay while the shopper acts (3-D Secure), and taking it up again. */

/** How long a payment waits for the shopper's 3-D Secure before reconciliation releases it. */
export const ACTION_MINUTES = 15;

/** A part as a parked attempt keeps it. */
type ParkedPart = Omit<Part, 'method'> & { method: ParkedMethod };

/**
 * What a parked attempt keeps (`payment_attempts.state`) to go on after the shopper acted: the
 * parts' methods as `parkedMethod` keeps them (nothing of a card already sent, the encrypted
 * fields of one still to send sealed with SECRETS_KEY for this checkout).
 */
export type ParkedRun = Omit<Run, 'session' | 'journal' | 'opts' | 'now' | 'parts' | 'reserve' | 'held'> & {
  now: string;
  clientReferenceId?: string | null;
  pending: number;
  parts: ParkedPart[];
  reserve: ParkedPart | null;
  held: (Omit<Held, 'part'> & { part: ParkedPart })[];
};

const parkedWhere = (sessionId: string) => `payment_attempts.state:${sessionId}`;

function toParked(run: Run, pending: number): ParkedRun {
  const { session: _session, journal: _journal, opts, now, parts, reserve, held, ...rest } = run;
  const keep = (part: Part, sent: boolean): ParkedPart => ({
    ...part,
    method: parkedMethod(part.method, sent, (plain) => sealAtRest(plain, parkedWhere(run.sessionId))),
  });
  return {
    ...rest,
    now: now.toISOString(),
    clientReferenceId: opts.clientReferenceId ?? null,
    pending,
    parts: parts.map((part, i) => keep(part, i <= pending)),
    reserve: reserve && keep(reserve, false),
    held: held.map((h) => ({ ...h, part: keep(h.part, true) })),
  };
}

/** The run a parked attempt kept, with the owner's hooks as the payment started with them. */
export function fromParked(
  state: ParkedRun,
  journal: PaymentJournal,
  hooks: Omit<PayOptions, 'clientReferenceId'>,
): Run {
  const open = (part: ParkedPart): Part => ({
    ...part,
    method: unparkedMethod(part.method, (sealed) => openAtRest(sealed, parkedWhere(state.sessionId))),
  });
  const { pending: _pending, clientReferenceId, ...rest } = state;
  return {
    ...rest,
    now: new Date(state.now),
    parts: state.parts.map(open),
    reserve: state.reserve && open(state.reserve),
    held: state.held.map((h) => ({ ...h, part: open(h.part) })),
    journal,
    opts: { ...hooks, clientReferenceId },
    rounds: state.rounds + 1,
  };
}

/** Parks the attempt until the shopper acted; the caller hands `action` to the shopper's browser. */
export async function park(
  ctx: ServiceContext,
  run: Run,
  pending: number,
  action: Record<string, unknown>,
): Promise<ActionOutcome> {
  await run.journal.park(ctx, toParked(run, pending), ACTION_MINUTES);
  const error = new DomainError(
    'card_declined',
    'This card needs the shopper to authenticate (3-D Secure). Pay through POST /api/v2/checkout/{id}/payments, which hands the action to the shopper.',
    {
      param: run.parts[pending].slot,
      details: { decline_code: 'authentication_required' },
    },
  );
  return { ok: false, order: null, action, error };
}
