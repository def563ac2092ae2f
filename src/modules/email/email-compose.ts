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
/**
 * The variables of a batch of messages of one kind, in their order (a few statements for the
 * batch, not per message); an Error in place of a message's variables fails that message only.
 */
export type EmailVarsReader = (em: EntityManager, messages: EmailMessage[]) => Promise<(EmailVars | Error)[]>;

/** A reader of one message at a time, as a batch reader (for kinds sent a few at a time). */
export const eachMessage =
  (read: (em: EntityManager, m: EmailMessage) => EmailVars | Promise<EmailVars>): EmailVarsReader =>
  async (em, messages) => {
    const vars: (EmailVars | Error)[] = [];
    for (const m of messages) vars.push(await read(em, m));
    return vars;
  };
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
  ['payment_failed', eachMessage((_em, m) => paymentFailedVars(m))],
  ['lmn_approved', eachMessage((_em, m) => m.data)],
  ['lmn_declined', eachMessage((_em, m) => m.data)],
  ['team_invitation', eachMessage((_em, m) => m.data)],
  [
    'dispute_opened',
    eachMessage((_em, m) => ({
      ...m.data,
      amount: money(Number(m.data.amount ?? 0), str(m.data.currency) || 'usd'),
      console_url: publicLink(`/dashboard#/orders/${str(m.data.order_id)}`),
    })),
  ],
  [
    'webhook_endpoint_failing',
    eachMessage((_em, m) => ({ ...m.data, failing_since: new Date(str(m.data.failing_since)).toUTCString() })),
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

type BrandingOf = { brand: Branding; disabled: ShopperEmailKind[] };

const branding = (merchant: Merchant, settings: EmailSettings | null | undefined): BrandingOf => ({
  brand: {
    name: settings?.brandName || merchant.name,
    support_email: settings?.supportEmail ?? null,
    logo_url: settings?.logoUrl ?? null,
    business_address: settings?.businessAddress ?? null,
    phone: settings?.phone ?? null,
  },
  disabled: settings?.disabledKinds ?? [],
});

/** The merchant's branding (defaults: its name, no support address, no logo) and the shopper messages it turned off. */
export async function brandingOf(em: EntityManager, merchantId: string): Promise<BrandingOf> {
  const [merchant, settings] = await Promise.all([
    em.findOneOrFail(Merchant, merchantId),
    em.findOne(EmailSettings, { merchantId }),
  ]);
  return branding(merchant, settings);
}

/** `brandingOf` for several merchants at once (two statements). */
async function brandingsOf(em: EntityManager, merchantIds: string[]): Promise<Map<string, BrandingOf>> {
  const merchants = await em.find(Merchant, { id: { $in: merchantIds } });
  const settings = new Map(
    (await em.find(EmailSettings, { merchantId: { $in: merchantIds } })).map((s) => [s.merchantId, s]),
  );
  return new Map(merchants.map((m) => [m.id, branding(m, settings.get(m.id))]));
}

/** Team messages go to the merchant's team (as the team module says), else to its support address. */
async function teamRecipients(em: EntityManager, merchantId: string, brand: Branding): Promise<string | null> {
  return (await teamRecipientsOf(em, merchantId)) ?? brand.support_email;
}

const isShopperKind = (kind: EmailKind): kind is ShopperEmailKind =>
  (SHOPPER_EMAIL_KINDS as readonly string[]).includes(kind);

/** A message as it will be sent, why it is not (turned off, nobody to send it to), or why it could not be rendered. */
export type Composed = ({ to: string } & RenderedEmail) | { skipped: string } | { failed: unknown };

/** The variables of `messages` (one kind) in their order; when the batch fails, each is read alone, so one bad record fails only its message. */
async function varsOf(em: EntityManager, kind: EmailKind, messages: EmailMessage[]): Promise<(EmailVars | Error)[]> {
  const read = VARS.get(kind);
  if (!read)
    return messages.map(() => new Error(`no variables registered for emails of kind ${kind} (registerEmailVars)`));
  try {
    return await read(em, messages);
  } catch (err) {
    if (messages.length === 1) return [err instanceof Error ? err : new Error(String(err))];
    const alone: (EmailVars | Error)[] = [];
    for (const m of messages) alone.push(...(await varsOf(em, kind, [m])));
    return alone;
  }
}

/**
 * Renders `messages` in their order: the merchants' branding and each kind's figures read once for
 * the batch (a receipt sweep of many orders reads them in a few statements, not per message).
 */
export async function composeEmails(em: EntityManager, messages: EmailMessage[]): Promise<Composed[]> {
  const brandings = await brandingsOf(em, [...new Set(messages.map((m) => m.merchant.id))]);
  const composed: Composed[] = [];
  const toRender = new Map<EmailKind, { index: number; m: EmailMessage; to: string; brand: Branding }[]>();
  for (const [index, m] of messages.entries()) {
    const { brand, disabled } = brandings.get(m.merchant.id)!;
    const to = m.to || (isShopperKind(m.kind) ? null : await teamRecipients(em, m.merchant.id, brand));
    if (isShopperKind(m.kind) && disabled.includes(m.kind))
      composed[index] = { skipped: 'turned off in Settings → Emails' };
    else if (!to) composed[index] = { skipped: 'no recipient address' };
    else toRender.set(m.kind, [...(toRender.get(m.kind) ?? []), { index, m, to, brand }]);
  }
  for (const [kind, group] of toRender) {
    const vars = await varsOf(
      em,
      kind,
      group.map((g) => g.m),
    );
    for (const [i, { index, m, to, brand }] of group.entries()) {
      const v = vars[i];
      composed[index] = v instanceof Error ? { failed: v } : { to, ...renderEmail(kind, brand, v, !m.livemode) };
    }
  }
  return composed;
}
