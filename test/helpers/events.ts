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
