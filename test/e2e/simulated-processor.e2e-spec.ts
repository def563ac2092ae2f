import { SimulatedProcessor } from '../../src/modules/payments/simulated-processor.js';
import { runStatement } from '../../src/platform/db/sql.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// The test-mode processor keeps its books in `processor_ledger`, as a card network would: one row per call, keyed by the caller's idempotency key.
let t: TestApp;
let processor: SimulatedProcessor;
const card = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' };

beforeAll(async () => {
  t = await startTestApp();
  processor = new SimulatedProcessor((sql, params) => runStatement(t.orm.em.fork(), sql, params, { autocommit: true }));
});
afterAll(() => t.close());

const hold = async (key: string) => {
  const held = await processor.authorize({
    idempotencyKey: key,
    method: { kind: 'card', card },
    amount: 1000,
    currency: 'usd',
    slot: 'card',
  });
  if (!held.ok) throw new Error('the test card was declined');
  return held.authorizationId;
};

test('a hold is captured once per key: a repeated key answers the first capture', async () => {
  const auth = await hold(`k_${Date.now()}_a`);
  const first = await processor.capture(auth, `${auth}.capture`);
  expect(first).toEqual({ ok: true, captureId: expect.stringMatching(/^ch_c_/) });
  expect(await processor.capture(auth, `${auth}.capture`)).toEqual(first);
});

test('a voided hold is refused at capture, and the refusal is what the key answers from then on', async () => {
  const auth = await hold(`k_${Date.now()}_b`);
  await processor.void(auth, `${auth}.void`);
  const refused = await processor.capture(auth, `${auth}.capture`);
  expect(refused).toMatchObject({ ok: false, code: 'authorization_voided' });
  expect(await processor.capture(auth, `${auth}.capture`)).toEqual(refused);
  const rows = await runStatement<{ operation: string; ok: boolean; reference: string | null }>(
    t.orm.em.fork(),
    `select operation, ok, reference from processor_ledger where target = ? order by operation`,
    [auth],
    { autocommit: true },
  );
  expect(rows).toEqual([
    { operation: 'capture', ok: false, reference: null },
    { operation: 'void', ok: true, reference: null },
  ]);
});
