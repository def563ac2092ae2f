import { cards, checkoutBody } from '../helpers/fixtures.js';
import type { Client } from '../helpers/http.js';
import { startWithMerchant, type TestApp } from '../helpers/test-app.js';

/** An order's fields have one type on every surface: REST, GraphQL and the webhook/event payloads. */
let t: TestApp;
let api: Client;
beforeAll(async () => {
  ({ t, api } = await startWithMerchant('Payloads'));
  expect(
    (
      await api.post('/api/v2/products', {
        name: 'Digital thermometer',
        price: 2000,
        currency: 'USD',
        merchant_product_id: 'THERM',
      })
    ).status,
  ).toBe(201);
});
afterAll(() => t.close());

test('line_items[].product_id is the numeric catalog id or null, the same in REST, GraphQL and order events', async () => {
  const session = (
    await api.post(
      '/api/v2/checkout',
      checkoutBody([
        ['THERM', 'Thermometer', 2000, 1],
        ['X-CANDY', 'Candy', 300, 1],
      ]),
    )
  ).body.data;
  const order = (
    await api.post(`/api/v2/test-helpers/checkout/${session.checkout_id}/pay`, {
      hsa_fsa_card: cards.hsa,
      card: cards.visa,
    })
  ).body;
  const rest = (await api.get(`/api/v2/orders/${order.id}`)).body.line_items.map(
    (l: { product_id: unknown; merchant_product_id: unknown }) => [l.product_id, l.merchant_product_id],
  );
  expect(rest).toEqual([
    [expect.any(Number), 'THERM'],
    [null, 'X-CANDY'],
  ]);
  const graph = await api.graphql(`{ orders(first: 1) { nodes { lineItems { productId merchantProductId } } } }`);
  expect(
    graph.body.data.orders.nodes[0].lineItems.map((l: { productId: unknown; merchantProductId: unknown }) => [
      l.productId,
      l.merchantProductId,
    ]),
  ).toEqual(rest);
  const events = (await api.graphql('{ events(first: 10) { nodes { type data } } }')).body.data.events.nodes;
  for (const type of ['order.created', 'order.completed']) {
    const lines = events.find((e: { type: string }) => e.type === type).data.line_items;
    expect(
      lines.map((l: { product_id: unknown; merchant_product_id: unknown }) => [l.product_id, l.merchant_product_id]),
    ).toEqual(rest);
  }
});
