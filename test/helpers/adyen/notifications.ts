// Signed by Adyen's own library (its HMAC module alone: the package's index loads every API it has).
import hmacValidatorModule from '@adyen/api-library/lib/src/utils/hmacValidator.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { adyenSpec } from './specs.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One standard notification item, as Adyen sends it inside `NotificationRequestItem`. */
export interface NotificationItem {
  additionalData?: Record<string, string>;
  amount: { currency: string; value: number };
  eventCode: string;
  eventDate: string;
  merchantAccountCode: string;
  merchantReference: string;
  originalReference?: string;
  /** RECURRING_CONTRACT only: the payment that stored the token. */
  originalPsp?: string;
  operations?: string[];
  paymentMethod?: string;
  pspReference: string;
  reason?: string;
  success: 'true' | 'false';
}

/** One POST of one item to the target, and what the target answered. */
export interface Delivery {
  item: NotificationItem;
  /** The exact JSON body posted. */
  body: string;
  /** The target's HTTP status (0 when the connection failed). */
  status: number;
  responseBody: string;
  /** 1 for the first try, 2 for the first retry... */
  attempt: number;
  /** Answered 2xx with `[accepted]` (Adyen retries anything else). */
  accepted: boolean;
  /** Sent with a wrong or missing signature (`forge`). */
  forged: boolean;
  at: number;
}

export interface NotifyTarget {
  url: string;
  /** The merchant's HMAC key, hex, as Adyen's Customer Area shows it. */
  hmacKeyHex: string;
  basicAuth?: { username: string; password: string };
}

export interface NotifierOptions {
  /** Delays between tries of one item that is not accepted (Adyen retries for days; tests need ms). */
  retryDelaysMs?: number[];
  /** `live` of the NotificationRequest. */
  live?: boolean;
}

// The published schema leaves some keys out of an event's `additionalData` although Adyen's own
// example of that event in the same document carries them (RECURRING_CONTRACT's example has
// `hmacSignature` and `recurring.shopperReference`, ORDER_CLOSED's `order-1-pspReference`...):
// those keys are accepted for that event, and so is `hmacSignature` everywhere (Adyen signs every
// item; ORDER_OPENED's schema and example simply omit it). Nothing else outside the schema is.
const exampleKeyPattern = (key: string) =>
  new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+')}$`);

/** Validates whole NotificationRequest bodies against Webhooks-v1.json, per event code. */
class WebhookSchemas {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly exampleKeys = new Map<string, RegExp[]>();
  private readonly doc = adyenSpec('Webhooks-v1.json') as {
    webhooks: Record<
      string,
      {
        post: {
          requestBody: {
            content: { 'application/json': { schema: { $ref: string }; examples?: Record<string, { $ref: string }> } };
          };
        };
      }
    >;
    components: {
      examples: Record<string, { value: { notificationItems: { NotificationRequestItem: NotificationItem }[] } }>;
    };
  };

  constructor() {
    this.ajv.addFormat('int64', true).addFormat('int32', true);
    this.ajv.addSchema({ ...this.doc, $id: 'webhooks' });
  }

  /** The schema errors of `body` (a NotificationRequest holding items of `eventCode`), or []. */
  check(
    eventCode: string,
    body: { live: string; notificationItems: { NotificationRequestItem: NotificationItem }[] },
  ): string[] {
    const webhook = this.doc.webhooks[`/${eventCode}`];
    if (!webhook) return [`Webhooks-v1.json has no webhook ${eventCode}`];
    let validate = this.validators.get(eventCode);
    if (!validate) {
      const content = webhook.post.requestBody.content['application/json'];
      validate = this.ajv.getSchema(`webhooks${content.schema.$ref}`)!;
      this.validators.set(eventCode, validate);
      const keys = Object.values(content.examples ?? {}).flatMap((ex) => {
        const example = this.doc.components.examples[ex.$ref.split('/').pop()!];
        return (
          example?.value.notificationItems.flatMap((n) =>
            Object.keys(n.NotificationRequestItem.additionalData ?? {}),
          ) ?? []
        );
      });
      this.exampleKeys.set(eventCode, ['hmacSignature', ...keys].map(exampleKeyPattern));
    }
    const patterns = this.exampleKeys.get(eventCode) ?? [];
    const first = validate(body) ? [] : (validate.errors ?? []);
    if (first.length === 0) return [];
    // Drop only the additionalData keys the schema refuses but Adyen's example shows, and check again.
    const refused = new Set(
      first
        .filter((e) => e.keyword === 'additionalProperties' && e.instancePath.endsWith('/additionalData'))
        .map((e) => String(e.params.additionalProperty)),
    );
    const trimmed = {
      ...body,
      notificationItems: body.notificationItems.map(({ NotificationRequestItem: item }) => ({
        NotificationRequestItem: {
          ...item,
          ...(item.additionalData
            ? {
                additionalData: Object.fromEntries(
                  Object.entries(item.additionalData).filter(
                    ([k]) => !(refused.has(k) && patterns.some((p) => p.test(k))),
                  ),
                ),
              }
            : {}),
        },
      })),
    };
    return validate(trimmed)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
}

const hmac = new hmacValidatorModule.default();

/** A tokenization webhook (TokenizationNotification-v1.json): one event per request, signed in the `hmacsignature` header. */
export interface TokenWebhook {
  type:
    | 'recurring.token.created'
    | 'recurring.token.disabled'
    | 'recurring.token.updated'
    | 'recurring.token.alreadyExisting';
  eventId: string;
  environment: 'test' | 'live';
  createdAt: string;
  data: { merchantAccount: string; shopperReference: string; storedPaymentMethodId: string; type: string };
}

/** Validates tokenization webhooks against TokenizationNotification-v1.json, per type. */
class TokenWebhookSchemas {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly doc = adyenSpec('TokenizationNotification-v1.json') as {
    webhooks: Record<
      string,
      { post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }
    >;
  };

  constructor() {
    this.ajv.addSchema({ ...this.doc, $id: 'tokenization' });
  }

  check(body: TokenWebhook): string[] {
    const webhook = this.doc.webhooks[body.type];
    if (!webhook) return [`TokenizationNotification-v1.json has no webhook ${body.type}`];
    const validate = this.ajv.getSchema(
      `tokenization${webhook.post.requestBody.content['application/json'].schema.$ref}`,
    )!;
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
}

/**
 * Adyen's standard notifications: each item is signed with Adyen's HMAC algorithm (computed by
 * the library's own HmacValidator), checked against Webhooks-v1.json before it leaves (a
 * notification the schema refuses throws), posted one item per request, retried until the
 * target answers 2xx `[accepted]`, in the order they were raised (one delivery at a time).
 */
export class Notifier {
  /** Every POST made, in order. */
  readonly sent: Delivery[] = [];
  private readonly schemas = new WebhookSchemas();
  private readonly tokenSchemas = new TokenWebhookSchemas();
  private target?: NotifyTarget;
  private held = false;
  private readonly heldItems: NotificationItem[] = [];
  private readonly waiting: NotificationItem[] = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly retryDelaysMs: number[];
  private readonly live: string;
  private closed = false;

  constructor(opts: NotifierOptions = {}) {
    this.retryDelaysMs = opts.retryDelaysMs ?? [50, 100, 200];
    this.live = opts.live ? 'true' : 'false';
  }

  /** Where notifications go from now on (items raised before a target was set go now). */
  setTarget(target: NotifyTarget): void {
    this.target = target;
    for (const item of this.waiting.splice(0)) this.enqueue(item, false);
  }

  /** Raises a notification: signs it, checks it against the schema and queues its delivery. */
  emit(item: NotificationItem): void {
    this.assertValid(item);
    if (this.held) this.heldItems.push(item);
    else if (!this.target) this.waiting.push(item);
    else this.enqueue(item, false);
  }

  /** From now on, keeps raised notifications until `release`. */
  hold(): void {
    this.held = true;
  }

  /** The notifications held so far (not yet sent). */
  get pending(): readonly NotificationItem[] {
    return this.heldItems;
  }

  /**
   * Sends what was held, as raised or reversed, each twice with `duplicate`, and stops holding.
   * Resolves once all of them were delivered (or given up).
   */
  async release(opts: { order?: 'as-sent' | 'reverse'; duplicate?: boolean } = {}): Promise<void> {
    this.held = false;
    const items = this.heldItems.splice(0);
    if (opts.order === 'reverse') items.reverse();
    for (const item of items) {
      if (!this.target) this.waiting.push(item);
      else {
        this.enqueue(item, false);
        if (opts.duplicate) this.enqueue(item, false);
      }
    }
    await this.idle();
  }

  /**
   * Sends `item` with a bad signature (`signature: null`: none at all), past the hold, and
   * resolves with what the target answered. Not retried: the point is the refusal.
   */
  async forge(item: NotificationItem, opts: { signature?: string | null } = {}): Promise<Delivery> {
    this.assertValid(item);
    const target = this.requireTarget();
    const additionalData = { ...item.additionalData };
    delete additionalData.hmacSignature;
    if (opts.signature !== null) {
      // Signed with another key: well-formed, wrong.
      additionalData.hmacSignature = opts.signature ?? hmac.calculateHmac(item as never, 'ff'.repeat(32));
    }
    const forged = { ...item, additionalData };
    await this.idle();
    return this.post(target, forged, 1, true);
  }

  /**
   * Sends a tokenization webhook now (checked against its schema, signed with the target's HMAC
   * key over the exact body; `forged`: with another key) and resolves with what the target answered.
   */
  async sendTokenWebhook(
    webhook: TokenWebhook,
    opts: { forged?: boolean } = {},
  ): Promise<{ status: number; body: string }> {
    const errors = this.tokenSchemas.check(webhook);
    if (errors.length > 0)
      throw new Error(
        `the stand-in's ${webhook.type} webhook breaks TokenizationNotification-v1.json:\n${errors.join('\n')}`,
      );
    const target = this.requireTarget();
    const body = JSON.stringify(webhook);
    const signature = hmac.calculateHmacSignature(body, opts.forged ? 'ff'.repeat(32) : target.hmacKeyHex);
    const res = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', hmacsignature: signature },
      body,
    });
    return { status: res.status, body: await res.text() };
  }

  /** Resolves when everything queued so far was delivered (or given up). */
  async idle(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.chain;
      await current;
    } while (current !== this.chain);
  }

  /** Waits until a delivery matching `predicate` was accepted, and returns it. */
  async waitFor(predicate: (d: Delivery) => boolean, ms = 10_000): Promise<Delivery> {
    const until = Date.now() + ms;
    for (;;) {
      const found = this.sent.find((d) => d.accepted && predicate(d));
      if (found) return found;
      if (Date.now() > until)
        throw new Error(
          `no accepted notification matched within ${ms} ms; sent: ${this.sent.map((d) => `${d.item.eventCode}(${d.status})`).join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Signs an item (the value of `additionalData.hmacSignature`) with `hmacKeyHex`. */
  static sign(item: NotificationItem, hmacKeyHex: string): NotificationItem {
    const additionalData = { ...item.additionalData };
    delete additionalData.hmacSignature;
    const unsigned = { ...item, additionalData };
    return {
      ...item,
      additionalData: { ...additionalData, hmacSignature: hmac.calculateHmac(unsigned as never, hmacKeyHex) },
    };
  }

  close(): void {
    this.closed = true;
  }

  private requireTarget(): NotifyTarget {
    if (!this.target) throw new Error('no notification target: call notifyTo(url, { hmacKeyHex }) first');
    return this.target;
  }

  private assertValid(item: NotificationItem): void {
    const errors = this.schemas.check(item.eventCode, this.envelope(Notifier.sign(item, '00')));
    if (errors.length > 0)
      throw new Error(
        `the stand-in's ${item.eventCode} notification breaks Webhooks-v1.json:\n${errors.join('\n')}\n${JSON.stringify(item)}`,
      );
  }

  private envelope(item: NotificationItem) {
    return { live: this.live, notificationItems: [{ NotificationRequestItem: item }] };
  }

  private enqueue(item: NotificationItem, forged: boolean): void {
    this.chain = this.chain.then(() => this.deliver(item, forged));
  }

  private async deliver(item: NotificationItem, forged: boolean): Promise<void> {
    for (let attempt = 1; !this.closed; attempt++) {
      const target = this.requireTarget();
      const delivery = await this.post(target, Notifier.sign(item, target.hmacKeyHex), attempt, forged);
      if (delivery.accepted || attempt > this.retryDelaysMs.length) return;
      await new Promise((r) => setTimeout(r, this.retryDelaysMs[attempt - 1]));
    }
  }

  private async post(
    target: NotifyTarget,
    item: NotificationItem,
    attempt: number,
    forged: boolean,
  ): Promise<Delivery> {
    const body = JSON.stringify(this.envelope(item));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Adyen HttpClient 1.0',
    };
    if (target.basicAuth)
      headers.authorization = `Basic ${Buffer.from(`${target.basicAuth.username}:${target.basicAuth.password}`).toString('base64')}`;
    let status = 0;
    let responseBody = '';
    try {
      const res = await fetch(target.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
      status = res.status;
      responseBody = await res.text();
    } catch (e) {
      responseBody = e instanceof Error ? e.message : String(e);
    }
    const delivery: Delivery = {
      item,
      body,
      status,
      responseBody,
      attempt,
      accepted: status >= 200 && status < 300 && responseBody.trim() === '[accepted]',
      forged,
      at: Date.now(),
    };
    this.sent.push(delivery);
    return delivery;
  }
}
