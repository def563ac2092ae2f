import type { EntityManager } from '@mikro-orm/postgresql';
import { publicLink } from '../../platform/links.js';
import { Merchant } from '../merchants/merchant.entity.js';
import { cardLabel, money } from '../shared/labels.js';
import {
  EmailSettings,
  SHOPPER_EMAIL_KINDS,
  type EmailKind,
  type EmailMessage,
  type ShopperEmailKind,
} from './email-message.entity.js';
import { renderEmail, type Branding, type RenderedEmail } from './email-templates.js';

/**
 * Renders an outbox message when the sweep first takes it (after the change that wrote it has
 * committed): the merchant's branding and opt-outs as they are then, the figures read from the
 * records the message names (an order, a refund), or from the message's own data.
 */

/** A message's template variables, read when it is sent. */
export type EmailVars = Record<string, unknown>;
export type EmailVarsReader = (em: EntityManager, m: EmailMessage) => EmailVars | Promise<EmailVars>;
/** Who a team message goes to (comma-separated), or null: nobody. */
export type TeamRecipients = (em: EntityManager, merchantId: string) => Promise<string | null>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function paymentFailedVars(m: EmailMessage): EmailVars {
  const d = m.data;
  return {
    amount: money(Number(d.amount ?? 0), str(d.currency) || 'usd'),
    card: cardLabel({
      paymentMethod: str(d.payment_method_type),
      brand: str(d.card_brand) || null,
      last4: str(d.card_last4) || null,
    }),
    refusal: str(d.refusal_code).replace(/_/g, ' '),
    card_update_url: str(d.card_update_url) || null,
  };
}

// Messages whose figures are in their own data; the modules that own the records register the rest
// (orders: receipts, refunds: the refund message) with `registerEmailVars`.
const VARS = new Map<EmailKind, EmailVarsReader>([
  ['payment_failed', (_em, m) => paymentFailedVars(m)],
  ['lmn_approved', (_em, m) => m.data],
  ['lmn_declined', (_em, m) => m.data],
  ['team_invitation', (_em, m) => m.data],
  [
    'dispute_opened',
    (_em, m) => ({
      ...m.data,
      amount: money(Number(m.data.amount ?? 0), str(m.data.currency) || 'usd'),
      console_url: publicLink(`/dashboard#/orders/${str(m.data.order_id)}`),
    }),
  ],
  [
    'webhook_endpoint_failing',
    (_em, m) => ({ ...m.data, failing_since: new Date(str(m.data.failing_since)).toUTCString() }),
  ],
]);

/** Lets the module that owns a message's records read its template variables when it is sent. */
export function registerEmailVars(kinds: EmailKind[], read: EmailVarsReader): void {
  for (const kind of kinds) VARS.set(kind, read);
}

let teamRecipientsOf: TeamRecipients = () => Promise.resolve(null);
/** The team module says who team messages go to (its owners and admins). */
export function registerTeamRecipients(find: TeamRecipients): void {
  teamRecipientsOf = find;
}

/** The merchant's branding (defaults: its name, no support address, no logo) and the shopper messages it turned off. */
export async function brandingOf(
  em: EntityManager,
  merchantId: string,
): Promise<{ brand: Branding; disabled: ShopperEmailKind[] }> {
  const [merchant, settings] = await Promise.all([
    em.findOneOrFail(Merchant, merchantId),
    em.findOne(EmailSettings, { merchantId }),
  ]);
  return {
    brand: {
      name: settings?.brandName || merchant.name,
      support_email: settings?.supportEmail ?? null,
      logo_url: settings?.logoUrl ?? null,
      business_address: settings?.businessAddress ?? null,
      phone: settings?.phone ?? null,
    },
    disabled: settings?.disabledKinds ?? [],
  };
}

/** Team messages go to the merchant's team (as the team module says), else to its support address. */
async function teamRecipients(em: EntityManager, merchantId: string, brand: Branding): Promise<string | null> {
  return (await teamRecipientsOf(em, merchantId)) ?? brand.support_email;
}

const isShopperKind = (kind: EmailKind): kind is ShopperEmailKind =>
  (SHOPPER_EMAIL_KINDS as readonly string[]).includes(kind);

/** The message as it will be sent, or why it is not (turned off, nobody to send it to). */
export async function composeEmail(
  em: EntityManager,
  m: EmailMessage,
): Promise<({ to: string } & RenderedEmail) | { skipped: string }> {
  const { brand, disabled } = await brandingOf(em, m.merchant.id);
  if (isShopperKind(m.kind) && disabled.includes(m.kind)) return { skipped: 'turned off in Settings → Emails' };
  const to = m.to || (isShopperKind(m.kind) ? null : await teamRecipients(em, m.merchant.id, brand));
  if (!to) return { skipped: 'no recipient address' };
  const read = VARS.get(m.kind);
  if (!read) throw new Error(`no variables registered for emails of kind ${m.kind} (registerEmailVars)`);
  return { to, ...renderEmail(m.kind, brand, await read(em, m), !m.livemode) };
}
