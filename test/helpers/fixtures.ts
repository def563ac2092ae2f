import type { CheckoutResource } from '../../src/modules/checkout/checkout.resource.js';
import type { OrderResource } from '../../src/modules/orders/order.resource.js';
import type { Client, Envelope } from './http.js';

/** Request bodies shared by the checkout, order and refund tests. */
export const address = {
  address_line_1: '1 Main St',
  city: 'Austin',
  state: 'TX',
  postal_code: '78701',
  country: 'US',
};

export const cards = {
  visa: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
  mastercard: { number: '5555555555554444', exp_month: 12, exp_year: 2030, cvc: '123' },
  hsa: { number: '4111110000000013', exp_month: 12, exp_year: 2030, cvc: '123' },
  hsaMastercard: { number: '5111110000000010', exp_month: 12, exp_year: 2030, cvc: '123' },
  declined: { number: '4000000000000002', exp_month: 12, exp_year: 2030, cvc: '123' },
  hsaInsufficient: { number: '4111110000000021', exp_month: 12, exp_year: 2030, cvc: '123' },
  refundFails: { number: '4000000000005126', exp_month: 12, exp_year: 2030, cvc: '123' },
  hsaRefundFails: { number: '4111110000000047', exp_month: 12, exp_year: 2030, cvc: '123' },
};

/** A checkout body; `items` are [merchant product id, name, unit price, quantity]. */
export function checkoutBody(items: [string, string, number, number][], extra: Record<string, unknown> = {}) {
  return {
    reference_id: `cart_${Math.random().toString(36).slice(2, 10)}`,
    customer: { email: 'Jane.Doe@example.com', first_name: 'Jane', last_name: 'Doe', phone: '+15125550100' },
    line_items: items.map(([product_id, name, price, quantity]) => ({
      product_id,
      name,
      price,
      quantity,
      currency: 'USD',
    })),
    shipping_info: address,
    success_url: 'https://shop.example.com/thanks',
    failure_url: 'https://shop.example.com/cart',
    ...extra,
  };
}

/** A catalog row to create: [merchant product id, name, price in cents]. */
export type ProductRow = readonly [merchantProductId: string, name: string, price: number];

/** Creates the merchant's catalog rows (USD), each answered 201. */
export async function createProducts(api: Client, rows: readonly ProductRow[]): Promise<void> {
  for (const [merchant_product_id, name, price] of rows) {
    const res = await api.post('/api/v2/products', { name, price, currency: 'USD', merchant_product_id });
    expect(res.status).toBe(201);
  }
}

/** Opens a checkout session (answered 201) and returns it; arguments as `checkoutBody`. */
export async function openCheckout(
  api: Client,
  items: [string, string, number, number][],
  extra: Record<string, unknown> = {},
): Promise<CheckoutResource> {
  const res = await api.post<Envelope<CheckoutResource>>('/api/v2/checkout', checkoutBody(items, extra));
  expect(res.status).toBe(201);
  return res.body.data;
}

/** Pays a checkout through the test helper, as its hosted page does; the body is the order, or `{ error }` when refused. */
export function payCheckout(api: Client, checkoutId: string, body: unknown) {
  return api.post(`/api/v2/test-helpers/checkout/${checkoutId}/pay`, body);
}

/** Pays a checkout that must be paid (200) and returns its order. */
export async function paidOrder(api: Client, checkoutId: string, body: unknown): Promise<OrderResource> {
  const res = await api.post<OrderResource>(`/api/v2/test-helpers/checkout/${checkoutId}/pay`, body);
  expect(res.status).toBe(200);
  return res.body;
}
