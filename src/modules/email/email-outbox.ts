import type { EntityManager } from '@mikro-orm/postgresql';
import { bulkInsert, type BulkWrite } from '../../platform/db/bulk.js';
import { prefixedId } from '../../platform/db/ids.js';
import { registerEventFollower, type FollowedEvent } from '../../platform/events/events.service.js';
import { EmailMessage, type AttachmentRef, type EmailKind } from './email-message.entity.js';
import { runStatement } from '../../platform/db/sql.js';

/**
 * Writing messages into the outbox (`email_messages`), always inside the change that causes them:
 * either beside an event (`emailOnEvent`: the message is written wherever the event is, in the
 * same unit of work or statement) or directly (`queueEmail` in the caller's unit of work). The
 * sweep (email.jobs.ts) renders and sends them after commit.
 */

/** A message to write: what it is, to whom (null: the merchant's team, found when it is rendered), what it says, what it attaches. */
export interface EmailDraft {
  kind: EmailKind;
  to: string | null;
  /** The figures and ids its template reads (see email-templates.ts); rendered with the merchant's branding when sent. */
  data: Record<string, unknown>;
  /** Rendered when sent through the attachment registry (email-attachments.ts), e.g. `{kind: 'receipt', id: 'ord_…'}`. */
  attachments?: AttachmentRef[];
}

/** Whose message it is and when it was caused (on its mode's clock: the message is due then). */
export interface EmailOwner {
  merchantId: string;
  livemode: boolean;
  at: Date;
}

type EventEmail = (event: FollowedEvent) => EmailDraft | null;
const byEventType = new Map<string, EventEmail[]>();

/**
 * Writes the message `build` makes of each event of `type`, with the event (same transaction,
 * same statement where the event is written in one): `build` reads only the event's payload, and
 * answers null when the event calls for no message.
 */
export function emailOnEvent(type: string, build: EventEmail): void {
  byEventType.set(type, [...(byEventType.get(type) ?? []), build]);
}

function draftsOf(event: FollowedEvent): EmailDraft[] {
  return (byEventType.get(event.type) ?? []).flatMap((build) => build(event) ?? []);
}

/** A message entity of `owner`, not yet in any unit of work. */
export function newEmailMessage(em: EntityManager, owner: EmailOwner, draft: EmailDraft): EmailMessage {
  return em.create(
    EmailMessage,
    {
      merchant: owner.merchantId,
      livemode: owner.livemode,
      kind: draft.kind,
      to: draft.to,
      data: draft.data,
      attachments: draft.attachments ?? [],
      nextAttemptAt: owner.at,
      createdAt: owner.at,
      dedupeKey: null,
    },
    { persist: false },
  );
}

/**
 * Queues a message in the caller's unit of work: it is written by the caller's next flush, with
 * the change that causes it, and sent after that commits. `owner.at` is the caller's `ctx.now()`.
 */
export function queueEmail(em: EntityManager, owner: EmailOwner, draft: EmailDraft): EmailMessage {
  const message = newEmailMessage(em, owner, draft);
  em.persist(message);
  return message;
}

/**
 * Writes a message at once unless this merchant has one under `dedupeKey` already (one per
 * failing streak of a webhook endpoint, say); in the caller's transaction. Answers whether it did.
 */
export async function queueEmailOnce(
  em: EntityManager,
  owner: EmailOwner,
  draft: EmailDraft,
  dedupeKey: string,
): Promise<boolean> {
  const rows = await runStatement<{ id: string }>(
    em,
    `insert into email_messages (id, merchant_id, livemode, kind, "to", data, attachments, next_attempt_at, dedupe_key, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, now())
     on conflict (merchant_id, dedupe_key) do nothing returning id`,
    [
      prefixedId('msg'),
      owner.merchantId,
      owner.livemode,
      draft.kind,
      draft.to,
      JSON.stringify(draft.data),
      JSON.stringify(draft.attachments ?? []),
      owner.at,
      dedupeKey,
      owner.at,
    ],
    { autocommit: true },
  );
  return rows.length > 0;
}

registerEventFollower({
  entities: (em, event) =>
    draftsOf(event).map((d) =>
      newEmailMessage(em, { merchantId: event.merchantId, livemode: event.livemode, at: event.createdAt }, d),
    ),
  bulk: (em, events): BulkWrite[] => {
    const rows = events.flatMap((event) =>
      draftsOf(event).map((d) => ({
        id: prefixedId('msg'),
        merchant: event.merchantId,
        livemode: event.livemode,
        kind: d.kind,
        to: d.to,
        data: d.data,
        attachments: d.attachments ?? [],
        nextAttemptAt: event.createdAt,
        createdAt: event.createdAt,
      })),
    );
    return rows.length ? [bulkInsert(em, EmailMessage, rows)] : [];
  },
});
