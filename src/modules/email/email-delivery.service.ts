import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { bulkUpdate, runBulk } from '../../platform/db/bulk.js';
import { effectiveNowSql } from '../../platform/clock.js';
import type { Log } from '../../platform/context.js';
import { renderAttachments } from './email-attachments.js';
import { composeEmails } from './email-compose.js';
import { EmailMessage } from './email-message.entity.js';
import { mailTransport, messageIdOf, type MailTransport } from './email-transport.js';
import { runStatement } from '../../platform/db/sql.js';

/** Seconds after a refused send before the next try: 1 min, 5 min, 30 min, 2 h, 6 h; then `failed`. */
export const EMAIL_RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 21600] as const;
/** How long a worker holds a message it is sending (real time); longer than the SMTP timeouts together. */
const LEASE_SECONDS = 300;
const BATCH = 50;
/** A sweep stops claiming after this long; the next one continues. */
const BUDGET_MS = 30_000;

/** A claimed message's row (`email_messages.*`) and its mode's clock offset. */
type Claimed = Record<string, unknown> & { offset: string | number };

/**
 * Claims up to `limit` due messages (queued, or `sending` under a lease that lapsed: a worker died
 * mid-send), by their mode's clock, skipping rows another worker is claiming: each gets a lease.
 * Due means by `now` or by the clock now, whichever is later: a message written by a sweep that
 * ran just before this one (a refund settled, a renewal charged) is sent in the same pass.
 */
async function claimDue(orm: MikroORM, now: Date, limit: number): Promise<Claimed[]> {
  return runStatement<Claimed>(
    orm.em,
    `update email_messages m set status = 'sending', locked_until = now() + interval '${LEASE_SECONDS} seconds', updated_at = now()
     where m.id in (select d.id from email_messages d
                    where d.status in ('queued', 'sending') and d.next_attempt_at <= ${effectiveNowSql('d', 'greatest(?::timestamptz, now())')}
                      and (d.locked_until is null or d.locked_until < now())
                    order by d.next_attempt_at limit ${Number(limit)} for update skip locked)
     returning m.*, case when m.livemode then 0 else (select x.test_clock_offset_ms from merchants x where x.id = m.merchant_id) end as "offset"`,
    [now],
    { autocommit: true },
  );
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** Records a refused or unrenderable try: `queued` again after the next retry delay, `failed` after the last. */
function refused(m: EmailMessage, err: unknown, modeNow: Date, log: Log): void {
  if (m.attempts === 0) m.attempts = 1; // failed before sending (rendering): counts as a try
  const delay = EMAIL_RETRY_DELAYS_SECONDS[m.attempts - 1];
  Object.assign(
    m,
    delay === undefined
      ? { lockedUntil: null, status: 'failed', lastError: errorText(err) }
      : {
          lockedUntil: null,
          status: 'queued',
          lastError: errorText(err),
          nextAttemptAt: new Date(modeNow.getTime() + delay * 1000),
        },
  );
  log.warn(
    { err, email: m.id, kind: m.kind, attempts: m.attempts },
    delay === undefined ? 'email failed after its last retry' : 'email not sent; retried later',
  );
}

/**
 * Renders the claimed messages not rendered yet (once: the first time they are taken; the batch's
 * branding and figures in a few statements), and records that rendering before any send, so a
 * retry (or a takeover) sends the very same message. Then sends each one and records its outcome:
 * `sent`; `stored` without a transport; `skipped` when turned off or addressed to nobody; refused:
 * `queued` again after the next retry delay, `failed` after the last.
 */
async function deliverBatch(
  orm: MikroORM,
  claimed: Claimed[],
  now: Date,
  transport: MailTransport | null,
  log: Log,
): Promise<void> {
  const em = orm.em.fork();
  const offsets = new Map<string, number>();
  // The claim answered the rows: the messages are read from it, not again.
  const messages = claimed.map(({ offset, ...row }) => {
    const m = em.map(EmailMessage, row);
    offsets.set(m.id, Number(offset));
    return m;
  });
  const modeNow = (m: EmailMessage) => new Date(now.getTime() + (offsets.get(m.id) ?? 0));
  const fresh = messages.filter((m) => m.html === null);
  const composed = await composeEmails(em, fresh);
  for (const [i, m] of fresh.entries()) {
    const c = composed[i];
    if ('skipped' in c) Object.assign(m, { lockedUntil: null, status: 'skipped', lastError: c.skipped });
    else if ('failed' in c) refused(m, c.failed, modeNow(m), log);
    else Object.assign(m, { to: c.to, subject: c.subject, html: c.html, text: c.text, messageId: messageIdOf(m.id) });
  }
  const ready = messages.filter((m) => m.status === 'sending');
  if (!transport) for (const m of ready) Object.assign(m, { lockedUntil: null, status: 'stored' });
  await save(em, messages);
  if (!transport) return;
  for (const m of ready) {
    try {
      m.attempts += 1;
      await transport.send({
        to: m.to!,
        subject: m.subject!,
        html: m.html!,
        text: m.text ?? '',
        messageId: m.messageId!,
        attachments: await renderAttachments(em, m.attachments),
      });
      Object.assign(m, { lockedUntil: null, status: 'sent', sentAt: modeNow(m), lastError: null });
    } catch (err) {
      refused(m, err, modeNow(m), log);
    }
    await save(em, [m]);
  }
}

/** What delivery changes on a message (its rendering, its outcome), written for a batch in one statement. */
const DELIVERY_CHANGES = [
  'to',
  'subject',
  'html',
  'text',
  'messageId',
  'status',
  'lockedUntil',
  'lastError',
  'attempts',
  'nextAttemptAt',
  'sentAt',
  'updatedAt',
] as const satisfies readonly (keyof EmailMessage)[];

async function save(em: EntityManager, messages: EmailMessage[]): Promise<void> {
  const updatedAt = new Date();
  for (const m of messages) m.updatedAt = updatedAt;
  await runBulk(em, [bulkUpdate(em, EmailMessage, messages, DELIVERY_CHANGES)], { autocommit: true });
}

/** The email sweep: claims due messages in batches and delivers them, until none is due (or 30 s went by). Answers how many it took. */
export async function deliverDueEmails(orm: MikroORM, now: Date, log: Log): Promise<number> {
  const transport = mailTransport();
  const started = Date.now();
  let total = 0;
  while (Date.now() - started < BUDGET_MS) {
    const claimed = await claimDue(orm, now, BATCH);
    if (claimed.length) await deliverBatch(orm, claimed, now, transport, log);
    total += claimed.length;
    if (claimed.length < BATCH) break;
  }
  return total;
}
