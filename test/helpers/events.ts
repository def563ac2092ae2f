import type { TestApp } from './test-app.js';
import { systemContext, type Log } from '../../src/platform/context.js';
import { recordEvent } from '../../src/platform/events/events.service.js';

const noop = () => undefined;
const silent: Log = { info: noop, warn: noop, error: noop, debug: noop };

/** Records an event the way services do (`recordEvent` in a committed transaction, on the merchant's clock at `clockOffsetMs`); returns its id. */
export async function recordTestEvent(
  t: TestApp,
  merchantId: string,
  type: string,
  data: Record<string, unknown> = {},
  opts: { webhookUrl?: string; livemode?: boolean; clockOffsetMs?: number } = {},
): Promise<string> {
  const ctx = systemContext(t.orm.em, merchantId, opts.livemode ?? false, opts.clockOffsetMs ?? 0, silent);
  return ctx.em.transactional((em) => recordEvent({ ...ctx, em }, type, data, { webhookUrl: opts.webhookUrl }).id);
}

/** Records an event in a transaction that then fails: nothing may come of it. */
export async function recordAndRollBack(
  t: TestApp,
  merchantId: string,
  type: string,
  data: Record<string, unknown> = {},
  opts: { webhookUrl?: string } = {},
): Promise<string> {
  const ctx = systemContext(t.orm.em, merchantId, false, 0, silent);
  let id = '';
  await expect(
    ctx.em.transactional(async (em) => {
      id = recordEvent({ ...ctx, em }, type, data, opts).id;
      await em.flush();
      throw new Error('the state change failed after recording its event');
    }),
  ).rejects.toThrow('the state change failed');
  return id;
}

/**
 * Waits until event `id` is settled: its transaction is older than every transaction still running
 * on the server (the event log places events by `pg_snapshot_xmin`, which a transaction of another
 * database holds back too, such as another test file's). A live subscriber that arrives after that
 * never gets it, and a catch-up read from before it returns it.
 */
export async function settled(t: TestApp, id: string): Promise<void> {
  const db = t.orm.em.fork().getConnection();
  const end = Date.now() + 15_000;
  for (;;) {
    const [row] = await db.execute<{ safe: boolean }[]>(
      'select xid < pg_snapshot_xmin(pg_current_snapshot()) as safe from events where id = ?',
      [id],
    );
    if (row?.safe) return;
    if (Date.now() > end) throw new Error(`event ${id} did not settle`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until every event recorded so far is settled (see `settled`): a read of the log oldest first then returns them all. */
export async function allSettled(t: TestApp): Promise<void> {
  const db = t.orm.em.fork().getConnection();
  const end = Date.now() + 15_000;
  for (;;) {
    const [row] = await db.execute<{ safe: boolean | null }[]>(
      'select bool_and(xid < pg_snapshot_xmin(pg_current_snapshot())) as safe from events',
    );
    if (row?.safe !== false) return;
    if (Date.now() > end) throw new Error('events did not settle');
    await new Promise((r) => setTimeout(r, 20));
  }
}
