import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import { systemContext, type Log, type ServiceContext } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import { holdLease, LEASE_SECONDS } from '../../platform/db/leases.js';
import { runningClaim } from '../../platform/idempotency/idempotency.service.js';
import { runStatement } from '../../platform/db/sql.js';
import type { AttemptStatus, AttemptStep } from './payment-attempt.entity.js';
import type { PaymentProcessor } from './payment-processor.js';
import { processorFor } from './processor-registry.js';

type Operation =
  'authorize' | 'capture' | 'void' | 'refund' | 'charge' | 'reverse' | 'details' | 'split' | 'cancel_split';

/** The lease releases of the attempts the running pay holds (see `withAttemptLeases`). */
const attemptLeases = new AsyncLocalStorage<(() => void)[]>();
/** Renews the open attempts of the pays running in this process (`updated_at`; a parked attempt waits on `awaiting_until` instead). */
const RENEW_ATTEMPTS = `update payment_attempts set updated_at = now() where id in (select jsonb_array_elements_text(?::jsonb)) and status = 'calling' and awaiting_until is null`;

/**
 * Runs a pay whose attempts live as long as it does: each attempt it opens or takes up again is
 * renewed every second while the pay runs (`holdLease`), so one whose pay died (a crash, or a
 * database connection cut in a failover) lapses within 5 s and the next pay of the subject takes
 * it over (`takeOverLapsed`) instead of waiting for reconciliation.
 */
export async function withAttemptLeases<T>(pay: () => Promise<T>): Promise<T> {
  const releases: (() => void)[] = [];
  try {
    return await attemptLeases.run(releases, pay);
  } finally {
    for (const release of releases) release();
  }
}

const leaseAttempt = (ctx: ServiceContext, id: string) =>
  attemptLeases.getStore()?.push(holdLease(ctx.base, RENEW_ATTEMPTS, id));

/**
 * A payment attempt's journal (see PaymentAttempt). `open` runs inside the caller's short
 * transaction, which commits before the first processor call; `record` writes outcomes as one
 * autocommit statement between calls (no transaction held while the processor works); `settle`
 * runs inside the transaction that commits the order, so both commit together or not at all.
 */
export class PaymentJournal {
  private constructor(
    readonly id: string,
    readonly steps: AttemptStep[],
  ) {}

  /**
   * Records a new attempt on `subjectId` with its steps, before any processor call, in `ctx`'s
   * transaction if it holds one (else as one autocommit statement). With `onlyIf` (a `select` that
   * locks the subject's row while it may still be paid, e.g. `… where status = 'open' for update`)
   * the attempt is recorded only while that row qualifies, in the same statement: no transaction
   * is needed to check and open at once. Returns null when another attempt on the subject is
   * still open, or when `onlyIf` found nothing.
   */
  static async open(
    ctx: ServiceContext,
    subjectId: string,
    steps: Omit<AttemptStep, 'authorization_id' | 'capture_id'>[],
    onlyIf?: { sql: string; params: unknown[] },
  ): Promise<PaymentJournal | null> {
    const id = prefixedId('pa');
    const rows = steps.map((s) => ({ ...s, authorization_id: null, capture_id: null }));
    const values = [
      id,
      ctx.principal.merchantId,
      ctx.principal.livemode,
      subjectId,
      JSON.stringify(rows),
      runningClaim() ?? null,
    ];
    const columns = `insert into payment_attempts (id, merchant_id, livemode, subject_id, status, steps, idempotency_key_id, created_at, updated_at)`;
    const conflict = `on conflict (subject_id) where status in ('calling', 'reversing') do nothing returning id`;
    const inserted = await runStatement<{ id: string }>(
      ctx.em,
      onlyIf
        ? `with subject as (${onlyIf.sql}) ${columns} select ?::text, ?::text, ?::boolean, ?::text, 'calling', ?::jsonb, ?::bigint, now(), now() from subject ${conflict}`
        : `${columns} values (?, ?, ?, ?, 'calling', ?, ?, now(), now()) ${conflict}`,
      onlyIf ? [...onlyIf.params, ...values] : values,
    );
    if (!inserted.length) return null;
    leaseAttempt(ctx, id);
    return new PaymentJournal(id, rows);
  }

  /**
   * Whether `orderId`, the order `subjectId` was paid with, was committed by an attempt of the
   * running request (under its `Idempotency-Key` claim, see `runningClaim`): a retry of a pay whose
   * order committed as its connection was cut (a failover) answers that order, not "already paid".
   */
  static async paidByThisRequest(ctx: ServiceContext, subjectId: string, orderId: string): Promise<boolean> {
    const claim = runningClaim();
    if (!claim) return false;
    const rows = await runStatement(
      ctx.em,
      `select 1 from payment_attempts where subject_id = ? and merchant_id = ? and livemode = ? and status = 'succeeded' and order_id = ? and idempotency_key_id = ?`,
      [subjectId, ctx.principal.merchantId, ctx.principal.livemode, orderId, claim],
    );
    return rows.length === 1;
  }

  /**
   * Takes over the open attempt on `subjectId` whose pay died: one not parked for the shopper and
   * not renewed for 5 s is reversed (what the processor did under its keys is refunded or voided,
   * as reconciliation does) and marked `reversed`. One that missed a renewal is waited for (holding
   * no connection) until it lapses or is renewed. True when no open attempt is left in the way
   * (a new one may be opened), false while a live or parked one holds the subject.
   */
  static async takeOverLapsed(ctx: ServiceContext, subjectId: string): Promise<boolean> {
    const scope = [subjectId, ctx.principal.merchantId, ctx.principal.livemode];
    for (let round = 0; round < 3; round++) {
      const [open] = await runStatement<{ id: string; idle: number; parked: boolean }>(
        ctx.em,
        `select id, extract(epoch from now() - updated_at)::float8 as idle, coalesce(awaiting_until > now(), false) as parked from payment_attempts where subject_id = ? and merchant_id = ? and livemode = ? and status = 'calling'`,
        scope,
        { autocommit: true },
      );
      if (!open) return true;
      if (open.parked) return false;
      if (open.idle < LEASE_SECONDS) {
        // Renewed within the last two seconds: its pay is alive.
        if (open.idle < 2) return false;
        await sleep(Math.ceil((LEASE_SECONDS - open.idle) * 1000) + 50);
        continue;
      }
      const [taken] = await runStatement<{ id: string; steps: AttemptStep[] }>(
        ctx.em,
        `update payment_attempts set status = 'reversing', updated_at = now()
         where id = ? and status = 'calling' and updated_at < now() - interval '${LEASE_SECONDS} seconds' and (awaiting_until is null or awaiting_until < now())
         returning id, steps`,
        [open.id],
        { autocommit: true },
      );
      if (!taken) continue; // renewed, settled or taken over meanwhile: look again
      await reverseSteps(await processorFor(ctx), taken.id, taken.steps, ctx.log);
      await runStatement(
        ctx.em,
        `update payment_attempts set status = 'reversed', updated_at = now() where id = ?`,
        [taken.id],
        { autocommit: true },
      );
      ctx.log.warn(
        { attempt: taken.id, subject: subjectId },
        'payment attempt of a pay that died taken over and reversed',
      );
    }
    return false;
  }

  /**
   * Journals, in `ctx`'s transaction, the reversal of money that must not be kept (a
   * subscription charge whose cycle was cancelled while it was in flight): `steps` carry the
   * captures to refund. Commit it with the decision, then call `reverse`; should this process die
   * in between, the reconciliation sweep reverses it (`reversing` rows older than a minute).
   */
  static async openReversal(ctx: ServiceContext, subjectId: string, steps: AttemptStep[]): Promise<PaymentJournal> {
    const id = prefixedId('pa');
    await runStatement(
      ctx.em,
      `insert into payment_attempts (id, merchant_id, livemode, subject_id, status, steps, created_at, updated_at) values (?, ?, ?, ?, 'reversing', ?, now(), now())`,
      [id, ctx.principal.merchantId, ctx.principal.livemode, subjectId, JSON.stringify(steps)],
    );
    return new PaymentJournal(id, steps);
  }

  /** Refunds and voids what this journal's steps did (keys of its own), then marks it `reversed`; `ctx` holds no transaction. */
  async reverse(ctx: ServiceContext): Promise<void> {
    await reverseSteps(await processorFor(ctx), this.id, this.steps, ctx.log);
    await runStatement(
      ctx.em,
      `update payment_attempts set status = 'reversed', updated_at = now() where id = ? and status = 'reversing'`,
      [this.id],
      { autocommit: true },
    );
  }

  /**
   * Parks the attempt until the shopper acted (3-D Secure): writes its steps and `state` (what is
   * left to do) and keeps it open for `minutes`; an attempt not taken up again by then is
   * reversed by reconciliation. One autocommit statement; `ctx` holds no transaction.
   */
  async park(ctx: ServiceContext, state: unknown, minutes: number): Promise<void> {
    await runStatement(
      ctx.em,
      `update payment_attempts set steps = ?, state = ?, awaiting_until = now() + make_interval(mins => ?), updated_at = now() where id = ? and status = 'calling'`,
      [JSON.stringify(this.steps), JSON.stringify(state), minutes, this.id],
      { autocommit: true },
    );
  }

  /**
   * Takes up the parked attempt of `subjectId` (one caller wins: the statement un-parks it), or
   * null when none is parked or it waited too long.
   */
  static async unpark<S>(
    ctx: ServiceContext,
    subjectId: string,
  ): Promise<{ journal: PaymentJournal; state: S } | null> {
    const [row] = await runStatement<{ id: string; steps: AttemptStep[]; state: S }>(
      ctx.em,
      `update payment_attempts set awaiting_until = null, updated_at = now()
       where subject_id = ? and merchant_id = ? and livemode = ? and status = 'calling' and awaiting_until > now() returning id, steps, state`,
      [subjectId, ctx.principal.merchantId, ctx.principal.livemode],
      { autocommit: true },
    );
    if (!row) return null;
    leaseAttempt(ctx, row.id);
    return { journal: new PaymentJournal(row.id, row.steps), state: row.state };
  }

  /** The processor idempotency key of `operation` on step `index`. */
  key(index: number, operation: Operation): string {
    return `${this.id}.${index}.${operation}`;
  }

  /** Writes what the processor has answered so far (one autocommit statement; `ctx` holds no transaction). */
  async record(ctx: ServiceContext): Promise<void> {
    await runStatement(ctx.em, `update payment_attempts set steps = ?, updated_at = now() where id = ?`, [
      JSON.stringify(this.steps),
      this.id,
    ]);
  }

  /**
   * Closes the attempt inside the caller's transaction (it commits with the order). Returns false
   * when reconciliation has already taken the attempt over (the caller must then roll back).
   */
  async settle(
    ctx: ServiceContext,
    status: Extract<AttemptStatus, 'succeeded' | 'failed'>,
    orderId: string,
  ): Promise<boolean> {
    const { sql, params } = this.settling(status, orderId);
    return (await runStatement(ctx.em, sql, params)).length === 1;
  }

  /**
   * `settle` as a statement to embed (a `with` part): it returns the attempt's id, or no row when
   * reconciliation has taken the attempt over. `after` names an earlier part (one that locks the
   * subject's row) that this one waits for, so that the statement takes the subject's lock before
   * the attempt's, in the order `open` takes them (else a settle and a concurrent `open` of the same
   * subject deadlock: each holds the lock the other waits for).
   */
  settling(
    status: Extract<AttemptStatus, 'succeeded' | 'failed'>,
    orderId: string,
    after?: string,
  ): { sql: string; params: unknown[] } {
    const first = after ? ` and exists (select 1 from ${after})` : '';
    return {
      sql: `update payment_attempts set status = ?, order_id = ?, steps = ?::jsonb, updated_at = now() where id = ? and status = 'calling'${first} returning id`,
      params: [status, orderId, JSON.stringify(this.steps), this.id],
    };
  }
}

/** How long an attempt may stay `calling` before it is presumed abandoned. */
export const ABANDONED_AFTER_SECONDS = 120;

/**
 * Reverses abandoned attempts: claims one (status `reversing`, one autocommit statement), asks
 * the processor what it did under each step's keys, refunds captures and voids holds (under keys
 * of their own, so a reconciliation that crashes and runs again never refunds twice), then marks
 * it `reversed`. No transaction is held while the processor works. Returns how many it reversed.
 */
export async function reverseAbandonedAttempts(orm: MikroORM, log: Log): Promise<number> {
  let reversed = 0;
  for (;;) {
    const em = orm.em.fork();
    const [attempt] = await runStatement<{
      id: string;
      merchant_id: string;
      livemode: boolean;
      subject_id: string;
      steps: AttemptStep[];
    }>(
      em,
      `update payment_attempts set status = 'reversing', updated_at = now()
       where id = (select id from payment_attempts
                   where (status = 'calling' and updated_at < now() - interval '${ABANDONED_AFTER_SECONDS} seconds' and (awaiting_until is null or awaiting_until < now()))
                      or (status = 'reversing' and updated_at < now() - interval '60 seconds')
                   order by updated_at limit 1 for update skip locked)
       returning id, merchant_id, livemode, subject_id, steps`,
      [],
      { autocommit: true },
    );
    if (!attempt) return reversed;
    await reverseSteps(
      await processorFor(systemContext(em, attempt.merchant_id, attempt.livemode, 0, log)),
      attempt.id,
      attempt.steps,
      log,
    );
    await runStatement(
      em,
      `update payment_attempts set status = 'reversed', updated_at = now() where id = ?`,
      [attempt.id],
      { autocommit: true },
    );
    log.warn({ attempt: attempt.id, subject: attempt.subject_id }, 'abandoned payment attempt reversed');
    reversed++;
  }
}

/**
 * Undoes what the processor did for journal `id`'s steps: a capture (found under the step's keys,
 * or recorded on the step) is refunded, a hold is voided, each under a key of its own, so running
 * it twice (a crash, the sweep beside the caller) never refunds twice.
 */
async function reverseSteps(processor: PaymentProcessor, id: string, steps: AttemptStep[], log: Log): Promise<void> {
  const key = (i: number, op: Operation) => `${id}.${i}.${op}`;
  for (const [i, step] of steps.entries()) {
    const captured = (await processor.lookup(key(i, 'capture'))) ?? (await processor.lookup(key(i, 'charge')));
    const captureId = captured?.ok && captured.reference ? captured.reference : step.capture_id;
    if (captureId) {
      const refund = await processor.refund(captureId, step.amount, key(i, 'reverse'));
      if (!refund.ok)
        log.error(
          { attempt: id, step: i, code: refund.code },
          'could not refund a reversed payment step; needs attention',
        );
      continue;
    }
    const held = await processor.lookup(key(i, 'authorize'));
    const holdId = held?.ok && held.reference ? held.reference : step.authorization_id;
    if (holdId) await processor.void(holdId, key(i, 'void'));
  }
}
