import { z } from 'zod';
import { scope, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { createdBetween, paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput } from '../../platform/validation.js';
import { recordAudit } from '../audit/audit-log.service.js';
import { brandingOf } from './email-compose.js';
import { mailTransport } from './email-transport.js';
import {
  EMAIL_KINDS,
  EMAIL_STATUSES,
  EmailMessage,
  EmailSettings,
  SHOPPER_EMAIL_KINDS,
  type EmailKind,
  type ShopperEmailKind,
} from './email-message.entity.js';
import { runStatement } from '../../platform/db/sql.js';

/** The outbox as the console and GraphQL read it, and Settings → Branding / Emails. Reads go through the ORM (not hot). */

export const emailFiltersSchema = z
  .object({
    kind: z.enum(EMAIL_KINDS).optional(),
    status: z.enum(EMAIL_STATUSES).optional(),
    to: z.string().max(254).optional(),
    createdAfter: z.date().optional(),
    createdBefore: z.date().optional(),
  })
  .strict();

/**
 * Invitations carry a link that makes a console account: like the team itself, they are read with
 * a console session only, never with an API key.
 */
function kindsReadable(
  ctx: ServiceContext,
  kind?: EmailKind,
): { kind?: EmailKind | { $in: EmailKind[] } | { $ne: EmailKind } } {
  if (ctx.principal.actor?.kind === 'user') return kind ? { kind } : {};
  return { kind: kind === 'team_invitation' ? { $in: [] } : (kind ?? { $ne: 'team_invitation' }) };
}

/** A page of this mode's messages, newest first: by kind, status, recipient (part of the address), creation time. */
export async function listEmails(
  ctx: ServiceContext,
  filters: z.output<typeof emailFiltersSchema>,
  page: PageRequest<string>,
): Promise<Page<EmailMessage>> {
  const created = createdBetween(filters);
  return paginate(
    ctx,
    EmailMessage,
    {
      ...scope(ctx),
      ...kindsReadable(ctx, filters.kind),
      ...(filters.status && { status: filters.status }),
      ...(filters.to && { to: { $ilike: `%${filters.to.replace(/[\\%_]/g, (c) => `\\${c}`)}%` } }),
      ...(created && { createdAt: created }),
    },
    page,
    { cursorParam: 'after', beforeParam: 'before' },
  );
}

/** One message of this mode by id, or 404 `not_found`. */
export async function getEmail(ctx: ServiceContext, id: string): Promise<EmailMessage> {
  const message = await ctx.em.findOne(EmailMessage, { id, ...scope(ctx), ...kindsReadable(ctx) });
  if (!message) throw DomainError.notFound('email', id);
  return message;
}

/** Branding and opt-outs as Settings shows them. */
export interface EmailSettingsView {
  brand_name: string;
  support_email: string | null;
  logo_url: string | null;
  business_address: string | null;
  phone: string | null;
  /** Each shopper message and whether it is sent. */
  shopper_emails: { kind: ShopperEmailKind; enabled: boolean }[];
  /** False: SMTP_URL is unset and messages stay in the outbox (`stored`). */
  smtp_configured: boolean;
}

/** The merchant's branding (its name by default) and which shopper messages it sends. */
export async function getEmailSettings(ctx: ServiceContext): Promise<EmailSettingsView> {
  const { brand, disabled } = await brandingOf(ctx.em, ctx.principal.merchantId);
  return {
    brand_name: brand.name,
    support_email: brand.support_email,
    logo_url: brand.logo_url,
    business_address: brand.business_address,
    phone: brand.phone,
    shopper_emails: SHOPPER_EMAIL_KINDS.map((kind) => ({ kind, enabled: !disabled.includes(kind) })),
    smtp_configured: mailTransport() !== null,
  };
}

const httpsUrl = z
  .url('must be an https URL')
  .max(2000)
  .refine((u) => u.startsWith('https://'), 'must be an https URL');
const nullable = <T extends z.ZodType>(inner: T) =>
  z.preprocess((v) => (v === '' ? null : v), inner.nullable().optional());

export const emailSettingsSchema = z
  .object({
    brand_name: nullable(z.string().trim().min(1).max(100)),
    support_email: nullable(z.email('must be an email address').max(254)),
    logo_url: nullable(httpsUrl),
    business_address: nullable(z.string().trim().min(1).max(300)),
    phone: nullable(
      z
        .string()
        .trim()
        .max(40)
        .regex(/^\+?[0-9 ().-]{5,}$/, 'must be a phone number: digits, spaces, ( ) . - and an optional leading +'),
    ),
    disabled_emails: z
      .array(z.enum(SHOPPER_EMAIL_KINDS, { message: `must be among ${SHOPPER_EMAIL_KINDS.join(', ')}` }))
      .optional(),
  })
  .strict();

/** Changes branding (a field left out stays, null resets it) and which shopper messages are turned off; both modes share them. */
export async function updateEmailSettings(ctx: ServiceContext, input: unknown): Promise<EmailSettingsView> {
  const change = parseInput(emailSettingsSchema, input);
  const merchantId = ctx.principal.merchantId;
  // The row is made once, whichever of two first saves at once gets there first.
  await runStatement(
    ctx.em,
    `insert into email_settings (merchant_id) values (?) on conflict do nothing`,
    [merchantId],
    { autocommit: true },
  );
  const settings = await ctx.em.findOneOrFail(EmailSettings, { merchantId });
  if (change.brand_name !== undefined) settings.brandName = change.brand_name;
  if (change.support_email !== undefined) settings.supportEmail = change.support_email;
  if (change.logo_url !== undefined) settings.logoUrl = change.logo_url;
  if (change.business_address !== undefined) settings.businessAddress = change.business_address;
  if (change.phone !== undefined) settings.phone = change.phone;
  if (change.disabled_emails) settings.disabledKinds = [...new Set(change.disabled_emails)];
  recordAudit(ctx, 'email_settings.updated', null, change);
  await ctx.em.flush();
  return getEmailSettings(ctx);
}
