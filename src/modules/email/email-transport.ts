import nodemailer from 'nodemailer';
import type { RenderedAttachment } from './email-attachments.js';

/** A message as it goes out. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** `<id@domain>`: the same on every try of one message. */
  messageId: string;
  attachments: RenderedAttachment[];
}

/** Where messages go: SMTP through nodemailer (the one implementation; the vendor's types stay in this file). */
export interface MailTransport {
  /** Resolves when the server accepted the message; rejects with the server's answer otherwise. */
  send(message: OutgoingEmail): Promise<void>;
}

let transport: MailTransport | null = null;
let from = 'Health Commerce <no-reply@localhost>';
let messageIdDomain = 'localhost';

/** The domain of an address (`Name <a@b.c>` or `a@b.c`), for Message-IDs. */
export function domainOf(address: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(address.trim());
  return m ? m[1].toLowerCase() : 'localhost';
}

/**
 * Configures sending once at start: `SMTP_URL` (`smtp://user:pass@host:port`, `smtps://…`) and
 * `MAIL_FROM`. Without `SMTP_URL` there is no transport: nothing leaves the machine and the
 * sweep keeps every message in the outbox (`stored`).
 */
export function configureEmail(settings: { SMTP_URL?: string; MAIL_FROM: string }): void {
  from = settings.MAIL_FROM;
  messageIdDomain = domainOf(settings.MAIL_FROM);
  if (!settings.SMTP_URL) {
    transport = null;
    return;
  }
  // One connection per message (no pool): a message's outcome is its own, and a server that
  // drops connections costs only the message in flight. Timeouts stay well inside the sweep's lease.
  const smtp = nodemailer.createTransport({
    url: settings.SMTP_URL,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 60_000,
  });
  transport = {
    send: async (m) => {
      await smtp.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        html: m.html,
        text: m.text,
        messageId: m.messageId,
        attachments: m.attachments,
      });
    },
  };
}

/** The configured transport, or null: messages stay in the outbox. */
export const mailTransport = (): MailTransport | null => transport;

/** The Message-ID of outbox message `id`. */
export const messageIdOf = (id: string): string => `<${id}@${messageIdDomain}>`;
