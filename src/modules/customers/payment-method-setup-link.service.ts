import { LockMode } from '@mikro-orm/core';
import { scope, withEm, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { refuseRawCardInLiveMode } from '../payments/payment-method-input.js';
import type { PaymentMethod } from './customer.entity.js';
import { useSetupLinkSchema } from './customer.schemas.js';
import { getCustomer } from './customer.service.js';
import { PaymentMethodSetupLink, setupLinkStatusAt } from './payment-method-setup-link.entity.js';
import { storePaymentMethod, verifyCard } from './payment-method.service.js';

/** How long a card setup (or card-update) link can be used: 24 hours on the merchant's clock. */
export const SETUP_LINK_LIFETIME_MS = 24 * 3_600_000;

/**
 * A new open link for `customerId` (and, for a card-update link, `subscriptionId`), valid 24 hours
 * from the caller's clock, in the caller's unit of work: the one place one is built.
 */
export function addSetupLink(
  ctx: ServiceContext,
  customerId: string,
  subscriptionId: string | null = null,
): PaymentMethodSetupLink {
  const now = ctx.now();
  return ctx.em.create(PaymentMethodSetupLink, {
    ...scope(ctx),
    customerId,
    subscriptionId,
    expiresAt: new Date(now.getTime() + SETUP_LINK_LIFETIME_MS),
    createdAt: now,
    updatedAt: now,
  });
}

/** `POST /customers/{id}/payment-method-setup-links`: a one-time page where the shopper stores a card for the customer (404 for an unknown customer). */
export async function createSetupLink(ctx: ServiceContext, customerId: string): Promise<PaymentMethodSetupLink> {
  const customer = await getCustomer(ctx, customerId);
  const link = addSetupLink(ctx, customer.id);
  await ctx.em.flush();
  return link;
}

/** One link of the caller, or 404 `not_found`. */
export async function getSetupLink(ctx: ServiceContext, id: string, param = 'id'): Promise<PaymentMethodSetupLink> {
  const link = await ctx.em.findOne(PaymentMethodSetupLink, { id, ...scope(ctx) });
  if (!link) throw DomainError.notFound('payment method setup link', id, param);
  return link;
}

/** A used or expired link takes no card: 400 `invalid_state` saying which. */
function assertOpen(ctx: ServiceContext, link: PaymentMethodSetupLink): void {
  const status = setupLinkStatusAt(link, ctx.now());
  if (status === 'used')
    throw new DomainError(
      'invalid_state',
      'This link has already been used to save a card; it works only once. Ask the store for a new link.',
      { param: 'id', details: { status } },
    );
  if (status === 'expired') {
    throw new DomainError(
      'invalid_state',
      `This link expired at ${link.expiresAt.toISOString()}; links work for 24 hours. Ask the store for a new link.`,
      { param: 'id', details: { status } },
    );
  }
}

/** Marks the link used by `paymentMethodId` under its row lock, in the caller's transaction; refused when it is no longer open. */
async function consumeSetupLink(tx: ServiceContext, id: string, paymentMethodId: string): Promise<void> {
  const link = await tx.em.findOneOrFail(
    PaymentMethodSetupLink,
    { id },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
  assertOpen(tx, link);
  Object.assign(link, { status: 'used', usedAt: tx.now(), paymentMethodId, updatedAt: tx.now() });
}

/**
 * Applies a card stored through a card-update link to its subscription, calling `consume` inside
 * the transaction that changes the subscription (so the link is used exactly when the card is
 * taken). The subscriptions module registers it (`onCardUpdateLinkUsed`): customers never import it.
 */
export type CardUpdateHook = (
  ctx: ServiceContext,
  subscriptionId: string,
  paymentMethodId: string,
  consume: (tx: ServiceContext) => Promise<void>,
) => Promise<void>;
let cardUpdateHook: CardUpdateHook | undefined;

/** Registers what a card entered on a card-update link does to its subscription. */
export function onCardUpdateLinkUsed(hook: CardUpdateHook): void {
  cardUpdateHook = hook;
}

/**
 * The shopper's card entered on a link's page (`{card}`: a test card in test mode, Adyen Web's
 * `payment_method_data` in both): verified (zero amount, with no transaction open) and stored as a
 * payment method of the link's customer (`payment_method.attached`); the link becomes `used`. A
 * card-update link then replaces its subscription's card exactly as `POST /subscriptions/{id}/payment-method`
 * does (a failing subscription is charged at once); if the subscription refuses the card, the card
 * stays stored and the link stays open for another. A used or expired link is 400 `invalid_state`,
 * a declined card 400 `invalid_payment_method` (the link stays open).
 */
export async function useSetupLink(
  ctx: ServiceContext,
  id: string,
  body: unknown,
): Promise<{ link: PaymentMethodSetupLink; paymentMethod: PaymentMethod }> {
  refuseRawCardInLiveMode(body, ctx.principal.livemode);
  const input = parseInput(useSetupLinkSchema, requireObject(body, 'validation_error'));
  const link = await getSetupLink(ctx, id);
  assertOpen(ctx, link);
  const customer = await getCustomer(ctx, link.customerId, 'customer_id');
  const verified = await verifyCard(ctx, customer, input.card);
  const paymentMethod = await ctx.em.transactional(async (em) => {
    const tx = withEm(ctx, em);
    if (!link.subscriptionId) await consumeSetupLink(tx, link.id, verified.id);
    const stored = storePaymentMethod(tx, customer, verified.card, tx.now(), verified.id);
    await em.flush();
    return stored;
  });
  if (link.subscriptionId) {
    if (!cardUpdateHook) throw new Error('nothing is registered to apply a card-update link (onCardUpdateLinkUsed)');
    await cardUpdateHook(ctx, link.subscriptionId, paymentMethod.id, (tx) =>
      consumeSetupLink(tx, link.id, paymentMethod.id),
    );
  }
  return { link: await ctx.em.findOneOrFail(PaymentMethodSetupLink, link.id, { refresh: true }), paymentMethod };
}
