import { parseArgs } from 'node:util';
import { apiBase, requireTestKey } from './api-options.js';
import { TRIGGER_USAGE } from './usage.js';

export { TRIGGER_USAGE };

/** The contract's test cards (test mode's simulated processor). */
const card = (number: string) => ({ number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123' });
const CARDS = {
  visa: card('4242424242424242'),
  hsa: card('4111110000000013'),
  declined: card('4000000000000002'),
  renewalRefused: card('4000000000000341'),
  refundFails: card('4000000000005126'),
};
const ADDRESS = { address_line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const DAY_SECONDS = 86_400;

type Body = Record<string, unknown>;

/** The REST calls a trigger makes, each printed; a refusal ends the trigger with the service's error. */
class Api {
  constructor(
    private readonly base: string,
    private readonly key: string,
    private readonly log: (line: string) => void,
  ) {}

  /** `method path` with `body`; the JSON answer, or the error of `expect`ed statuses (a decline that records a failed order). */
  async call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: Body,
    expect: number[] = [],
  ): Promise<Body> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
    const answer = (await res.json().catch(() => ({}))) as Body;
    this.log(`  ${method} ${path} -> ${res.status}`);
    if (!res.ok && !expect.includes(res.status)) {
      const error = (answer.error ?? {}) as { code?: string; message?: string };
      throw new Error(
        `trigger: ${method} ${path} answered ${res.status} ${error.code ?? ''}: ${error.message ?? JSON.stringify(answer)}`,
      );
    }
    return answer;
  }

  post = (path: string, body: Body = {}, expect?: number[]) => this.call('POST', path, body, expect);

  /** Moves the merchant's test clock forward (runs every job then due: refunds, renewals, expiry). */
  async advanceClock(seconds: number, why: string): Promise<string> {
    this.log(`  moving this merchant's test clock forward ${seconds} s (${why})`);
    return String((await this.post('/api/v2/test-helpers/advance-clock', { seconds })).now);
  }
}

const idOf = (b: Body) => String(b.id);

/** A product whose name the eligibility engine decides eligible. */
const product = (api: Api, name = 'Digital thermometer', price = 2000) =>
  api.post('/api/v2/products', { name, price, currency: 'USD' });

/** A one-time checkout session for one line (the product's merchant id, or a pass-through line). */
async function checkout(api: Api): Promise<string> {
  const session = await api.post('/api/v2/checkout', {
    reference_id: `trigger_${Date.now()}`,
    customer: { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' },
    line_items: [
      { product_id: 'TRIGGER-ITEM', name: 'Digital thermometer', price: 2000, quantity: 1, currency: 'USD' },
    ],
    shipping_info: ADDRESS,
    success_url: 'https://example.com/thanks',
    failure_url: 'https://example.com/cart',
  });
  return String((session.data as Body).checkout_id);
}

/** A paid checkout (the regular test card unless another is given); answers the order. */
async function paidOrder(api: Api, withCard = CARDS.visa): Promise<Body> {
  return api.post(`/api/v2/test-helpers/checkout/${await checkout(api)}/pay`, { card: withCard });
}

/** A refund of a paid order, processed at once by the test clock. */
async function refund(api: Api, withCard = CARDS.visa): Promise<void> {
  const order = await paidOrder(api, withCard);
  await api.post('/api/v2/refunds', { order_id: idOf(order), reason: 'customer_request' });
  await api.advanceClock(1, 'runs the refund processor now');
}

/** A customer with a stored card; answers the ids. */
async function customerWithCard(api: Api, withCard = CARDS.visa): Promise<{ customer: string; pm: string }> {
  const customer = idOf(
    await api.post('/api/v2/customers', { email: 'sam.lee@example.com', first_name: 'Sam', last_name: 'Lee' }),
  );
  const pm = idOf(await api.post(`/api/v2/customers/${customer}/payment-methods`, { card: withCard }));
  return { customer, pm };
}

/** A subscription whose first cycle is charged at creation; answers its id. */
async function subscription(api: Api, withCard = CARDS.visa, interval = 'monthly'): Promise<string> {
  const { customer, pm } = await customerWithCard(api, withCard);
  return idOf(
    await api.post('/api/v2/subscriptions', {
      customer_id: customer,
      payment_method_id: pm,
      amount_cents: 1500,
      currency: 'USD',
      interval,
    }),
  );
}

/** A split purchase of an item that needs a letter of medical necessity, paid with the HSA/FSA test card: opens a clinician's review; answers its id. */
async function lmnReview(api: Api): Promise<string> {
  const sku = `TRIGGER-LMN-${Date.now()}`;
  await api.post('/api/v2/products', {
    name: 'Daily multivitamin',
    price: 1299,
    currency: 'USD',
    merchant_product_id: sku,
  });
  const session = await api.post('/api/v2/checkout', {
    reference_id: `trigger_${Date.now()}`,
    customer: { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' },
    line_items: [{ product_id: sku, name: 'Daily multivitamin', price: 1299, quantity: 1, currency: 'USD' }],
    shipping_info: ADDRESS,
    success_url: 'https://example.com/thanks',
    failure_url: 'https://example.com/cart',
  });
  const lmn = { condition: 'Vitamin D deficiency', recommended_by_provider: true, attestation: true };
  const order = await api.post(`/api/v2/test-helpers/checkout/${String((session.data as Body).checkout_id)}/pay`, {
    hsa_fsa_card: CARDS.hsa,
    lmn,
  });
  return String((order.lmn_review as Body).id);
}

const paymentLink = (api: Api, extra: Body = {}) =>
  api.post('/api/v2/payment-links', { amount: 2500, description: 'Consultation', currency: 'USD', ...extra });

/** What each event type needs; the service records the event (and every other the same calls cause). */
const TRIGGERS: Record<string, (api: Api) => Promise<unknown>> = {
  'product.created': (api) => product(api),
  'product.updated': async (api) =>
    api.call('PUT', `/api/v2/products/${idOf(await product(api))}`, { name: 'Digital ear thermometer' }),
  'product.archived': async (api) =>
    api.call('PUT', `/api/v2/products/${idOf(await product(api))}`, { status: 'archived' }),
  'product.eligibility_changed': async (api) =>
    api.call('PUT', `/api/v2/products/${idOf(await product(api, 'Chocolate bar', 300))}`, {
      hsa_fsa_eligibility: { status: 'eligible', category: 'otc' },
    }),
  'checkout.created': (api) => checkout(api),
  'checkout.completed': (api) => paidOrder(api),
  'checkout.expired': async (api) => {
    await checkout(api);
    await api.advanceClock(DAY_SECONDS + 60, 'a checkout session expires after 24 h');
  },
  'order.created': (api) => paidOrder(api),
  'order.completed': (api) => paidOrder(api),
  'order.failed': async (api) =>
    api.post(`/api/v2/test-helpers/checkout/${await checkout(api)}/pay`, { card: CARDS.declined }, [402]),
  'refund.created': (api) => refund(api),
  'refund.succeeded': (api) => refund(api),
  'refund.failed': (api) => refund(api, CARDS.refundFails),
  'payment_link.paid': async (api) =>
    api.post(`/api/v2/test-helpers/payment-links/${idOf(await paymentLink(api))}/pay`, {
      card: CARDS.visa,
      customer: { email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' },
    }),
  'payment_link.cancelled': async (api) =>
    api.post(`/api/v2/payment-links/${idOf(await paymentLink(api))}/cancel`, { reason: 'triggered from the CLI' }),
  'payment_link.expired': async (api) => {
    const now = new Date(await api.advanceClock(1, "reads the merchant's test clock")).getTime();
    await paymentLink(api, { expires_at: new Date(now + 60_000).toISOString() });
    await api.advanceClock(61, 'the link expires a minute after it was made');
  },
  'payment_method.attached': (api) => customerWithCard(api),
  'subscription.created': (api) => subscription(api),
  'subscription.renewed': (api) => subscription(api),
  'subscription.canceled': async (api) =>
    api.post(`/api/v2/subscriptions/${await subscription(api)}/cancel`, { cancel_at_period_end: false }),
  'subscription.resumed': async (api) => {
    const id = await subscription(api);
    await api.post(`/api/v2/subscriptions/${id}/cancel`, { cancel_at_period_end: true });
    return api.post(`/api/v2/subscriptions/${id}/resume`);
  },
  'subscription.payment_failed': async (api) => {
    await subscription(api, CARDS.renewalRefused, 'daily');
    await api.advanceClock(DAY_SECONDS + 60, "the daily subscription's renewal is refused by the test card");
  },
  'lmn_review.created': (api) => lmnReview(api),
  'lmn_review.approved': async (api) =>
    api.post(`/api/v2/test-helpers/lmn-reviews/${await lmnReview(api)}/approve`, {}),
  'lmn_review.declined': async (api) =>
    api.post(`/api/v2/test-helpers/lmn-reviews/${await lmnReview(api)}/decline`, { reason: 'triggered from the CLI' }),
  'subscription.disputed': async (api) =>
    api.post(`/api/v2/test-helpers/subscriptions/${await subscription(api)}/dispute`, { stage: 'notification' }),
};

/** Event types a trigger cannot make sensibly, and why. */
export const NOT_TRIGGERABLE: Record<string, string> = {
  'webhook_endpoint.disabled': 'it needs an endpoint failing every delivery for 3 days',
  'webhook_endpoint.test':
    'it is sent to one endpoint only (POST /api/v2/webhook-endpoints/{id}/test), never to the event stream',
};

/** The event types `trigger` supports, sorted. */
export const TRIGGERABLE_EVENTS = Object.keys(TRIGGERS).sort();

/** `trigger <type>`: creates, through the REST API and its test helpers, the test-mode objects that make the service record `type`. */
export async function trigger(
  type: string | undefined,
  args: string[],
  out = (line: string) => void process.stdout.write(`${line}\n`),
): Promise<number> {
  const supported = `supported event types:\n  ${TRIGGERABLE_EVENTS.join('\n  ')}`;
  // No type (`trigger --api-key …`): the usage and the types, never the arguments (one is a key).
  if (!type || type.startsWith('--'))
    throw new Error(`trigger: name the event type to trigger\nusage:\n  ${TRIGGER_USAGE}\n${supported}`);
  const { values, positionals } = parseArgs({
    args,
    options: { 'api-key': { type: 'string' }, 'api-url': { type: 'string' } },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length)
    throw new Error(
      `trigger: takes one event type; ${positionals.length} more argument${positionals.length === 1 ? '' : 's'} given (not shown)\nusage:\n  ${TRIGGER_USAGE}`,
    );
  const run = TRIGGERS[type];
  if (!run)
    throw new Error(
      `trigger: ${type} cannot be triggered${NOT_TRIGGERABLE[type] ? `: ${NOT_TRIGGERABLE[type]}` : ' (not an event type the service records)'}\n${supported}`,
    );
  const key = requireTestKey('trigger', values['api-key'], TRIGGER_USAGE);
  out(`Triggering ${type}:`);
  await run(new Api(apiBase(values['api-url']), key, out));
  out(`Trigger succeeded: ${type} recorded (with the other events the same calls cause).`);
  return 0;
}
