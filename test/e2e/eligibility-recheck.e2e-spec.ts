import { allSettled } from '../helpers/events.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/**
 * An engine update moves stored decisions (`product.eligibility_changed` on "engine
 * update"): after a deploy whose eligibility engine differs, the `eligibility.recheck` sweep checks
 * every stored product again, once per engine version. A product the old engine judged otherwise
 * takes the new decision with `reason: engine_updated`; a merchant's own decision stays in force
 * (only `suggested` follows the engine) and fires nothing.
 */
let t: TestApp;
let api: Client;
beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Recheck Pharmacy'));
});
afterAll(() => t.close());

const db = () => t.orm.em.fork().getConnection();

/** What an older engine said of a product: not eligible, by name, with its own words. */
async function judgedByAnOlderEngine(id: number): Promise<void> {
  await db().execute(
    `update products set
       hsa_fsa_eligible = case when eligibility_override is null then false else hsa_fsa_eligible end,
       requires_lmn = case when eligibility_override is null then false else requires_lmn end,
       eligibility_category = case when eligibility_override is null then null else eligibility_category end,
       eligibility_message = case when eligibility_override is null then 'Not eligible: an older engine.' else eligibility_message end,
       eligibility_suggested = '{"status":"not_eligible","category":null,"source":"name","message":"Not eligible: an older engine."}'
     where id = ?`,
    [id],
  );
}

async function changeEvents(): Promise<
  { product_id: number; reason: string; previous_status: string; status: string }[]
> {
  await allSettled(t); // the log read oldest first returns settled events only
  const res = await api.graphql(
    `{ events(first: 100, order: OLDEST_FIRST, types: ["product.eligibility_changed"]) { edges { node { data } } } }`,
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.events.edges.map((e: { node: { data: unknown } }) => e.node.data);
}

test("after an engine update the sweep moves the engine's stale decisions once, with reason engine_updated; a merchant's decision stays", async () => {
  const advil = (
    await api.post('/api/v2/products', { name: 'Advil Ibuprofen Tablets 200 mg, 100 ct', price: 1299, currency: 'USD' })
  ).body;
  const overridden = (
    await api.post('/api/v2/products', {
      name: 'Band-Aid Flexible Fabric Bandages, 30 ct',
      price: 599,
      currency: 'USD',
      hsa_fsa_eligibility: { status: 'not_eligible' },
    })
  ).body;
  expect(advil.eligibility.status).toBe('eligible');
  expect(overridden.eligibility).toMatchObject({
    status: 'not_eligible',
    source: 'merchant',
    suggested: { status: 'eligible' },
  });
  await judgedByAnOlderEngine(advil.id);
  await judgedByAnOlderEngine(overridden.id);
  expect((await api.get(`/api/v2/products/${advil.id}`)).body.eligibility.status).toBe('not_eligible');
  await db().execute('delete from eligibility_engine_rechecks'); // the engine this process runs has not been through them

  await t.app.http.jobs.runDue(new Date());

  const after = (await api.get(`/api/v2/products/${advil.id}`)).body;
  expect(after.eligibility).toMatchObject({
    status: 'eligible',
    hsa_fsa_eligible: true,
    source: 'name',
    suggested: { status: 'eligible' },
  });
  expect(after.eligibility.message).not.toContain('older engine');
  const kept = (await api.get(`/api/v2/products/${overridden.id}`)).body;
  expect(kept.eligibility).toMatchObject({
    status: 'not_eligible',
    source: 'merchant',
    suggested: { status: 'eligible' },
  });
  const events = await changeEvents();
  expect(events.filter((e) => e.reason === 'engine_updated')).toEqual([
    expect.objectContaining({ product_id: advil.id, previous_status: 'not_eligible', status: 'eligible' }),
  ]);

  // Once per engine version: judged stale again by hand, the same engine does not look again.
  await judgedByAnOlderEngine(advil.id);
  await t.app.http.jobs.runDue(new Date());
  expect((await api.get(`/api/v2/products/${advil.id}`)).body.eligibility.status).toBe('not_eligible');
  expect((await changeEvents()).filter((e) => e.reason === 'engine_updated')).toHaveLength(1);
});
