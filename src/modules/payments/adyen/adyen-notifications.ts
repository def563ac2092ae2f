import { runStatement } from '../../../platform/db/sql.js';
import type { Types } from '@adyen/api-library';
import { HmacValidator } from './adyen-library.js';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { systemContext, withEm, type Log } from '../../../platform/context.js';
import { prefixedId } from '../../../platform/db/ids.js';
import { DomainError } from '../../../platform/errors.js';
import { logFailure } from '../../../platform/db/database-health.js';
import { parseInput } from '../../../platform/validation.js';
import { processorEventHandlers, type FollowUp, type ProcessorEvent } from '../processor-events.js';

const hmac = new HmacValidator();

const itemSchema = z.looseObject({
  pspReference: z.string().min(1).max(64),
  originalReference: z.string().max(64).optional(),
  merchantAccountCode: z.string().min(1).max(80),
  merchantReference: z.string().max(256).optional(),
  eventCode: z.string().min(1).max(64),
  eventDate: z.string().min(1).max(64),
  success: z.enum(['true', 'false']),
  reason: z.string().max(5000).optional(),
  amount: z.object({ value: z.number().int(), currency: z.string().max(3) }),
  additionalData: z.record(z.string(), z.string()).optional(),
});

/** Adyen's standard notification (Webhooks-v1 `NotificationRequest`). */
export const adyenNotificationSchema = z
  .looseObject({
    live: z.enum(['true', 'false']),
    notificationItems: z
      .array(z.object({ NotificationRequestItem: itemSchema }))
      .min(1)
      .max(1000),
  })
  .meta({ id: 'AdyenNotificationRequest' });

type Item = z.output<typeof itemSchema>;

/** Adyen's tokenization webhook (`recurring.token.*`, TokenizationNotification-v1): one event per request, signed in a header. */
export const adyenTokenWebhookSchema = z.looseObject({
  type: z.string().regex(/^recurring\.token\.[A-Za-z]+$/),
  eventId: z.string().min(1).max(64),
  environment: z.enum(['test', 'live']),
  createdAt: z.string().min(1).max(64),
  data: z.looseObject({
    merchantAccount: z.string().min(1).max(80),
    shopperReference: z.string().min(1).max(256),
    storedPaymentMethodId: z.string().min(1).max(64),
    type: z.string().max(64),
  }),
});

/** Which of our merchants an Adyen merchant account belongs to, with the HMAC key its notifications are signed with. */
export type NotificationAccounts = (
  em: EntityManager,
  merchantAccount: string,
) => Promise<{ merchantId: string; hmacKey: string }[]>;

/** Adyen's HMAC of the item, checked in constant time by the library; a missing or malformed signature is simply invalid. */
function signedWith(item: Item, hmacKey: string): boolean {
  try {
    return hmac.validateHMAC(item as unknown as Types.notification.NotificationRequestItem, hmacKey);
  } catch {
    return false;
  }
}

/**
 * `POST /processor-notifications/adyen`: verifies every item's HMAC with its merchant account's
 * key before storing any (one bad or unsigned item, or an unknown merchant account, refuses the
 * whole request with 401 and applies nothing), then stores each item raw, once per
 * (`pspReference`, `eventCode`, `success`): a repeated item changes nothing. Applying them is the
 * job's (`applyProcessorNotifications`), so Adyen is answered `[accepted]` at once. Returns how many
 * were stored for the job (an event nothing handles is stored as applied).
 */
export async function receiveAdyenNotifications(
  em: EntityManager,
  body: unknown,
  accounts: NotificationAccounts | null,
): Promise<number> {
  const input = parseInput(adyenNotificationSchema, body ?? {}, 'invalid_request');
  const items = input.notificationItems.map((n) => n.NotificationRequestItem);
  const known = new Map<string, Awaited<ReturnType<NotificationAccounts>>>();
  const verified: { item: Item; merchantId: string }[] = [];
  for (const item of items) {
    if (!known.has(item.merchantAccountCode))
      known.set(item.merchantAccountCode, accounts ? await accounts(em, item.merchantAccountCode) : []);
    const account = known.get(item.merchantAccountCode)!.find((a) => signedWith(item, a.hmacKey));
    if (!account) {
      throw new DomainError(
        'unauthorized',
        'A notification item has a missing or invalid HMAC signature, or names a merchant account no merchant configured; none of the items was applied.',
      );
    }
    verified.push({ item, merchantId: account.merchantId });
  }
  return storeItems(em, verified);
}

/** Stores verified items once each; returns how many the job has to apply. */
async function storeItems(em: EntityManager, verified: { item: Item; merchantId: string }[]): Promise<number> {
  let stored = 0; // stored for the job to apply
  for (const { item, merchantId } of verified)
    if ((await storeNotificationItem(em, merchantId, 'adyen', item))?.applied === false) stored++;
  return stored;
}

/**
 * A tokenization webhook (`recurring.token.created`, `.disabled`...): its `hmacsignature` header
 * (HMAC-SHA256 of the exact body with the merchant account's HMAC key, checked by the library) is
 * verified, then it is stored like a standard item (event code = its type, pspReference = its
 * eventId, merchantReference = the shopper reference, originalReference = the token) and applied
 * by the same job. A bad or missing signature, or an unknown merchant account: 401, nothing stored.
 */
export async function receiveAdyenTokenWebhook(
  em: EntityManager,
  body: unknown,
  rawBody: string | undefined,
  signature: string | undefined,
  accounts: NotificationAccounts | null,
): Promise<number> {
  const input = parseInput(adyenTokenWebhookSchema, body, 'invalid_request');
  const candidates = accounts ? await accounts(em, input.data.merchantAccount) : [];
  const account = candidates.find((a) => {
    try {
      return !!signature && rawBody !== undefined && hmac.validateHMACSignature(a.hmacKey, signature, rawBody);
    } catch {
      return false;
    }
  });
  if (!account)
    throw new DomainError(
      'unauthorized',
      'The tokenization webhook has a missing or invalid HMAC signature, or names a merchant account no merchant configured; it was not applied.',
    );
  const item: Item = {
    pspReference: input.eventId,
    originalReference: input.data.storedPaymentMethodId,
    merchantAccountCode: input.data.merchantAccount,
    merchantReference: input.data.shopperReference,
    eventCode: input.type,
    eventDate: input.createdAt,
    success: 'true',
    amount: { value: 0, currency: '' },
  };
  return storeItems(em, [{ item, merchantId: account.merchantId }]);
}

/** One item of Adyen's standard notification, as stored. */
export type NotificationItem = Item;

/**
 * Stores one verified item raw, once per (`provider`, `pspReference`, `eventCode`, `success`):
 * null when it was stored before (a repeat changes nothing), else its id and whether it was kept
 * as applied already: an event nothing handles (ORDER_OPENED, ORDER_CLOSED...), and a successful
 * AUTHORISATION or CAPTURE that tells what the answer to our call, recorded under its key, already
 * said (reconciliation finds that record). `simulated` is test mode's processor (its test helpers
 * speak Adyen's notification shape).
 */
export async function storeNotificationItem(
  em: EntityManager,
  merchantId: string,
  provider: 'adyen' | 'simulated',
  item: Item,
): Promise<{ id: string; applied: boolean } | null> {
  const eventDate = Number.isNaN(Date.parse(item.eventDate)) ? new Date() : new Date(item.eventDate);
  const handled = processorEventHandlers(item.eventCode).length > 0;
  const success = item.success === 'true';
  const known = alreadyRecorded(merchantId, item);
  const appliedAt = !handled ? 'now()' : known ? `case when ${known.sql} then now() end` : 'null';
  const [row] = await runStatement<{ id: string; applied: boolean }>(
    em,
    `insert into processor_notifications (id, merchant_id, provider, psp_reference, event_code, success, original_reference, merchant_reference, event_date, item, received_at, applied_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), ${appliedAt}) on conflict (provider, psp_reference, event_code, success) do nothing
     returning id, applied_at is not null as applied`,
    [
      ...[
        prefixedId('pn'),
        merchantId,
        provider,
        item.pspReference,
        item.eventCode,
        success,
        item.originalReference ?? null,
        item.merchantReference ?? null,
        eventDate,
        JSON.stringify(item),
      ],
      ...(handled && known ? known.params : []),
    ],
  );
  return row ?? null;
}

/** The condition under which an item only repeats the recorded answer to one of our calls, or null. */
function alreadyRecorded(merchantId: string, item: Item): { sql: string; params: unknown[] } | null {
  if (item.success !== 'true') return null;
  if (item.eventCode === 'AUTHORISATION' && item.merchantReference) {
    const sql = `exists (select 1 from processor_calls c where c.key = ? and c.merchant_id = ? and c.psp_reference = ? and c.ok)`;
    return { sql, params: [item.merchantReference, merchantId, item.pspReference] };
  }
  if (item.eventCode === 'CAPTURE') {
    const sql = `exists (select 1 from processor_calls c where c.psp_reference = ? and c.merchant_id = ? and c.operation = 'capture' and c.ok)`;
    return { sql, params: [item.pspReference, merchantId] };
  }
  return null;
}

interface StoredRow {
  id: string;
  merchant_id: string;
  item: Item;
  event_date: Date;
  attempts: number;
}

/**
 * Notifications about a modification we asked for (its pspReference is the one our call got back).
 * Not CAPTURE: it is matched by its payment (`originalReference`), so it never waits for our record
 * of the capture, which a crash between Adyen's answer and the record never writes.
 */
const MODIFICATIONS = new Set(['CAPTURE_FAILED', 'CANCELLATION', 'CANCEL_OR_REFUND', 'REFUND', 'REFUND_FAILED']);
/** How many tries a modification's notification waits for our own record of the call (its answer may still be on its way). */
const AWAIT_CALL_RECORD_ATTEMPTS = 5;

/**
 * The reference our call sent (its idempotency key), found by the pspReference Adyen gave the
 * modification: Adyen's `merchantReference` on a modification's notification may be the payment's.
 * A modification notification that outruns the answer to our call is retried (thrown) a few times.
 */
async function ourReference(em: EntityManager, row: StoredRow): Promise<string | null> {
  const [call] = await runStatement<{ key: string }>(
    em,
    `select key from processor_calls where psp_reference = ? and merchant_id = ? order by created_at limit 1`,
    [row.item.pspReference, row.merchant_id],
  );
  if (call) return call.key;
  if (MODIFICATIONS.has(row.item.eventCode) && row.attempts < AWAIT_CALL_RECORD_ATTEMPTS) {
    throw new Error(`no recorded call has pspReference ${row.item.pspReference} yet`);
  }
  return row.item.merchantReference ?? null;
}

function eventOf(row: StoredRow, merchantReference: string | null): ProcessorEvent {
  const item = row.item;
  return {
    id: row.id,
    eventCode: item.eventCode,
    success: item.success === 'true',
    pspReference: item.pspReference,
    originalReference: item.originalReference ?? null,
    merchantReference,
    amount: item.amount.value,
    currency: item.amount.currency.toLowerCase(),
    reason: item.reason ?? null,
    eventDate: new Date(row.event_date),
    additionalData: item.additionalData ?? {},
  };
}

const CLAIM = `update processor_notifications set claimed_until = now() + interval '60 seconds', attempts = attempts + 1`;

/**
 * Applies one claimed notification in its own transaction that marks it applied, then runs the
 * follow-ups that call the processor; a failure is logged and retried with backoff. False when it failed.
 */
async function applyClaimed(em: EntityManager, row: StoredRow, log: Log): Promise<boolean> {
  try {
    const event = eventOf(row, await ourReference(em, row));
    const followUps = await em.transactional(async (tx) => {
      const ctx = withEm(systemContext(tx, row.merchant_id, true, 0, log), tx);
      const work: FollowUp[] = [];
      for (const handle of processorEventHandlers(event.eventCode)) {
        const next = await handle(ctx, event);
        if (next) work.push(next);
      }
      return work;
    });
    for (const work of followUps) await work(systemContext(em.fork(), row.merchant_id, true, 0, log));
    await runStatement(
      em,
      `update processor_notifications set applied_at = now(), claimed_until = null, last_error = null where id = ?`,
      [row.id],
    );
    return true;
  } catch (err) {
    logFailure(log, err, 'processor notification could not be applied; retried later', {
      notification: row.id,
      event_code: row.item.eventCode,
    });
    await runStatement(
      em,
      `update processor_notifications set claimed_until = now() + least(interval '1 second' * power(2, attempts), interval '1 hour'), last_error = ? where id = ?`,
      [err instanceof Error ? err.message.slice(0, 500) : 'error', row.id],
      { autocommit: true },
    );
    return false;
  }
}

/**
 * Applies stored notifications in the order Adyen dated them, each in its own transaction that
 * marks it applied, then runs the follow-ups that call Adyen. A failure is retried with backoff;
 * a claim (`claimed_until`) keeps two workers off one notification. Returns how many it applied.
 */
export async function applyProcessorNotifications(orm: MikroORM, log: Log, batch = 200): Promise<number> {
  let applied = 0;
  for (; applied < batch; applied++) {
    const em = orm.em.fork();
    const [row] = await runStatement<StoredRow>(
      em,
      `${CLAIM}
       where id = (select id from processor_notifications where applied_at is null and (claimed_until is null or claimed_until < now())
                   order by event_date, received_at limit 1 for update skip locked)
       returning id, merchant_id, item, event_date, attempts`,
    );
    if (!row) break;
    await applyClaimed(em, row, log);
  }
  return applied;
}

/**
 * Applies the stored notification `id` now, as the job would (test helpers: the request sees its
 * effect); nothing when it is applied already or another worker holds it. Throws what applying threw.
 */
export async function applyNotificationNow(em: EntityManager, id: string, log: Log): Promise<void> {
  const [row] = await runStatement<StoredRow>(
    em,
    `${CLAIM} where id = ? and applied_at is null and (claimed_until is null or claimed_until < now()) returning id, merchant_id, item, event_date, attempts`,
    [id],
    { autocommit: true },
  );
  if (row && !(await applyClaimed(em, row, log))) {
    const [failed] = await runStatement<{ last_error: string | null }>(
      em,
      `select last_error from processor_notifications where id = ?`,
      [id],
      { autocommit: true },
    );
    throw new Error(`notification ${id} could not be applied: ${failed?.last_error ?? 'unknown error'}`);
  }
}
