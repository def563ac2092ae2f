import type { SubscriptionResource } from '../../src/modules/subscriptions/subscription.resource.js';
import type { Client } from './http.js';

/** A card setup (or card-update) link as the REST routes answer it. */
export interface SetupLinkBody {
  id: string;
  object: 'payment_method_setup_link';
  livemode: boolean;
  customer_id: string;
  subscription_id: string | null;
  url: string;
  status: 'open' | 'used' | 'expired';
  expires_at: string;
  used_at: string | null;
  payment_method_id: string | null;
  created_at: string;
}

/** What the link page's submit call answers once the card is stored. */
export interface SubmitBody {
  payment_method_id: string;
  status: string;
  redirect_url: string;
}

/** Cards whose renewals the simulated processor refuses, by disposition (the contract's table). */
export const renewalCards = {
  actionRequired: { number: '4000000000000069', exp_month: 12, exp_year: 2035, cvc: '123' },
  retry: { number: '4000000000000341', exp_month: 12, exp_year: 2035, cvc: '123' },
};

/** A new customer (random email) of `api`'s merchant. */
export async function newCustomer(api: Client): Promise<{ id: string; email: string }> {
  const email = `jane.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await api.post<{ id: string; email: string }>('/api/v2/customers', {
    email,
    first_name: 'Jane',
    last_name: 'Doe',
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** A monthly 15.00 subscription (answered 201) of a new customer paying with `card` (`{card}` body of the payment-methods route). */
export async function subscribeWith(
  api: Client,
  card: object,
  extra: Record<string, unknown> = {},
): Promise<{ sub: SubscriptionResource; customerId: string }> {
  const customer = await newCustomer(api);
  const pm = await api.post<{ id: string }>(`/api/v2/customers/${customer.id}/payment-methods`, { card });
  expect(pm.status).toBe(201);
  const res = await api.post<SubscriptionResource>('/api/v2/subscriptions', {
    customer_id: customer.id,
    payment_method_id: pm.body.id,
    amount_cents: 1500,
    currency: 'USD',
    interval: 'monthly',
    ...extra,
  });
  expect(res.status).toBe(201);
  return { sub: res.body, customerId: customer.id };
}

/** The path of a link page's submit call, as its script makes it (`/card-setup/{id}/submit?token=…`). */
export function submitPathOf(url: string): string {
  const link = new URL(url);
  return `${link.pathname}/submit${link.search}`;
}

/** The path and query of a link's `url`, to open on the service under test. */
export const pathOf = (url: string) => {
  const link = new URL(url);
  return `${link.pathname}${link.search}`;
};
