import type { MikroORM } from '@mikro-orm/postgresql';
import { effectiveNowSql } from '../../platform/clock.js';
import type { Log } from '../../platform/context.js';
import { renderAttachments } from './email-attachments.js';
import { composeEmail } from './email-compose.js';
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

interface Claimed {
  id: string;
  locked_until: Date;
  offset: string | number;
}

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
     returning m.id, m.locked_until, case when m.livemode then 0 else (select x.test_clock_offset_ms from merchants x where x.id = m.merchant_id) end as "offset"`,
    [now],
    { autocommit: true },
  );
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/**
 * Renders (once: the first time it is taken) and sends one claimed message, then records the
 * outcome: `sent`; `stored` without a transport; `skipped` when turned off or addressed to nobody;
 * refused: `queued` again after the next retry delay, `failed` after the last.
 */
async function deliverOne(
  orm: MikroORM,
  claimed: Claimed,
  now: Date,
  transport: MailTransport | null,
  log: Log,
): Promise<void> {
  const em = orm.em.fork();
  const m = await em.findOne(EmailMessage, claimed.id);
  if (!m || m.status !== 'sending') return;
  const modeNow = new Date(now.getTime() + Number(claimed.offset));
  const settle = (changes: Partial<Pick<EmailMessage, 'status' | 'lastError' | 'nextAttemptAt' | 'sentAt'>>) =>
    Object.assign(m, { lockedUntil: null, ...changes });
  try {
    if (m.html === null) {
      const composed = await composeEmail(em, m);
      if ('skipped' in composed) {
        settle({ status: 'skipped', lastError: composed.skipped });
        await em.flush();
        return;
      }
      Object.assign(m, {
        to: composed.to,
        subject: composed.subject,
        html: composed.html,
        text: composed.text,
        messageId: messageIdOf(m.id),
      });
    }
    if (!transport) {
      settle({ status: 'stored' });
      await em.flush();
      return;
    }
    // The rendering is kept before the send: a retry (or a takeover) sends the very same message.
    await em.flush();
    m.attempts += 1;
    await transport.send({
      to: m.to!,
      subject: m.subject!,
      html: m.html!,
      text: m.text ?? '',
      messageId: m.messageId!,
      attachments: await renderAttachments(em, m.attachments),
    });
    settle({ status: 'sent', sentAt: modeNow, lastError: null });
  } catch (err) {
    if (m.attempts === 0) m.attempts = 1; // failed before sending (rendering): counts as a try
    const delay = EMAIL_RETRY_DELAYS_SECONDS[m.attempts - 1];
    if (delay === undefined) settle({ status: 'failed', lastError: errorText(err) });
    else
      settle({
        status: 'queued',
        lastError: errorText(err),
        nextAttemptAt: new Date(modeNow.getTime() + delay * 1000),
      });
    log.warn(
      { err, email: m.id, kind: m.kind, attempts: m.attempts },
      delay === undefined ? 'email failed after its last retry' : 'email not sent; retried later',
    );
  }
  await em.flush();
}

/** The email sweep: claims due messages in batches and delivers them, until none is due (or 30 s went by). Answers how many it took. */
export async function deliverDueEmails(orm: MikroORM, now: Date, log: Log): Promise<number> {
  const transport = mailTransport();
  const started = Date.now();
  let total = 0;
  while (Date.now() - started < BUDGET_MS) {
    const claimed = await claimDue(orm, now, BATCH);
    for (const c of claimed) await deliverOne(orm, c, now, transport, log);
    total += claimed.length;
    if (claimed.length < BATCH) break;
  }
  return total;
}
