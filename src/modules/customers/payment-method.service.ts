import type { FilterQuery } from '@mikro-orm/core';
import { scope, type ServiceContext } from '../../platform/context.js';
import { prefixedId } from '../../platform/db/ids.js';
import { DomainError } from '../../platform/errors.js';
import { paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { notExpired } from '../payments/card.js';
import { paymentMethodOf, refuseRawCardInLiveMode, type PaymentSlotInput } from '../payments/payment-method-input.js';
import { needsAction, type PaymentMethodType } from '../payments/payment-processor.js';
import { processorFor } from '../payments/processor-registry.js';
import { recordEvent } from '../../platform/events/events.service.js';
import { Customer, PaymentMethod } from './customer.entity.js';
import { toPaymentMethodResource } from './customer.resource.js';
import { getCustomer } from './customer.service.js';
import { attachPaymentMethodSchema, listPaymentMethodsSchema } from './customer.schemas.js';

/**
 * Verifies `card` with the processor (a zero-amount verification) and stores it for `customer`.
 * Only the processor's token, brand, last4, expiry and type are kept. A declined card is 400
 * `invalid_payment_method` with the processor's code and message; `param` names the card field.
 */
export async function storeVerifiedCard(
  ctx: ServiceContext,
  customer: Customer,
  slot: PaymentSlotInput,
  param = 'card',
): Promise<PaymentMethod> {
  const verified = await verifyCard(ctx, customer, slot, param);
  const stored = storePaymentMethod(ctx, customer, verified.card, ctx.now(), verified.id);
  await ctx.em.flush();
  return stored;
}

/**
 * The zero-amount verification of `storeVerifiedCard`, storing nothing: the card as the processor
 * tokenized it and the payment method id it was verified under (its shopper reference). Call it
 * with no transaction open.
 */
export async function verifyCard(
  ctx: ServiceContext,
  customer: Customer,
  slot: PaymentSlotInput,
  param = 'card',
): Promise<{ id: string; card: TokenizedCard }> {
  const method = paymentMethodOf(slot, ctx.principal.livemode, param);
  if (method.kind === 'card' && !notExpired(method.card, ctx.now())) {
    throw DomainError.field(`${param}.exp_year`, 'the card has expired');
  }
  const id = prefixedId('pm');
  const verified = await (await processorFor(ctx)).verify(method, customer.id, id);
  if (!verified.ok) {
    // A card check cannot hand 3-D Secure to the shopper (no parked verification, no details call): said plainly, nothing charged.
    const reason = needsAction(verified)
      ? "the card's bank asks to confirm it with 3-D Secure, which saving a card does not support; nothing was charged. Try another card (a subscription checkout can store this one)"
      : verified.message;
    throw new DomainError('invalid_payment_method', `The card could not be verified: ${reason}`, {
      param,
      details: { decline_code: verified.code },
    });
  }
  const expiry =
    verified.expiry ??
    (method.kind === 'card' ? { month: method.card.exp_month, year: method.card.exp_year } : { month: 12, year: 2099 });
  return {
    id,
    card: {
      type: verified.type,
      brand: verified.brand,
      last4: verified.last4,
      token: verified.token,
      exp_month: expiry.month,
      exp_year: expiry.year,
    },
  };
}

/** A card the processor tokenized: what a payment method keeps of it. */
export interface TokenizedCard {
  type: PaymentMethodType;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  token: string;
}

/**
 * Stores a card the processor already answered for (verified, or captured by a paid checkout) as a
 * payment method of `customer`, in the caller's unit of work: the one place one is built, so
 * `payment_method.attached` is recorded with every one.
 */
export function storePaymentMethod(
  ctx: ServiceContext,
  customer: Customer,
  card: TokenizedCard,
  at: Date,
  id = prefixedId('pm'),
): PaymentMethod {
  const method = ctx.em.create(PaymentMethod, {
    id,
    ...scope(ctx),
    customer,
    type: card.type,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
    processorToken: card.token,
    createdAt: at,
    updatedAt: at,
  });
  recordEvent(ctx, 'payment_method.attached', toPaymentMethodResource(method));
  return method;
}

/** `POST /customers/{id}/payment-methods`: verifies and stores a card for the customer. */
export async function attachPaymentMethod(
  ctx: ServiceContext,
  customerId: string,
  body: unknown,
): Promise<PaymentMethod> {
  refuseRawCardInLiveMode(body, ctx.principal.livemode);
  const input = parseInput(attachPaymentMethodSchema, requireObject(body, 'validation_error'));
  const customer = await getCustomer(ctx, customerId);
  return storeVerifiedCard(ctx, customer, input.card);
}

/**
 * One payment method of the caller, attached or detached, or 404 `not_found`; with `customerId`
 * (the REST path) the customer must exist (404 `not_found` on `id`) and own it.
 */
export async function getPaymentMethod(
  ctx: ServiceContext,
  id: string,
  customerId?: string,
  param = 'payment_method_id',
): Promise<PaymentMethod> {
  const where: FilterQuery<PaymentMethod> = { id, ...scope(ctx) };
  if (customerId !== undefined) where.customer = (await getCustomer(ctx, customerId)).id;
  const method = await ctx.em.findOne(PaymentMethod, where);
  if (!method) throw DomainError.notFound('payment method', id, param);
  return method;
}

/**
 * The stored card a request body refers to (a subscription's `payment_method_id`), usable for
 * charges: unknown, detached, another customer's or expired is 400 `invalid_payment_method`.
 */
export async function usablePaymentMethod(
  ctx: ServiceContext,
  id: string,
  customerId: string,
  param = 'payment_method_id',
): Promise<PaymentMethod> {
  const method = await ctx.em.findOne(PaymentMethod, { id, ...scope(ctx) });
  const problem = !method
    ? `No such payment method: '${id}'`
    : method.customer.id !== customerId
      ? `Payment method ${id} belongs to another customer`
      : method.detachedAt
        ? `Payment method ${id} was detached`
        : !notExpired({ exp_month: method.expMonth, exp_year: method.expYear }, ctx.now())
          ? `Payment method ${id} has expired`
          : null;
  if (problem) throw new DomainError('invalid_payment_method', problem, { param });
  return method!;
}

/** Validates list query parameters (400 `invalid_request`). */
export function parseListPaymentMethodsQuery(query: unknown): PageRequest<string> {
  const { limit, starting_after } = parseInput(listPaymentMethodsSchema, query, 'invalid_request');
  return { limit, after: starting_after };
}

/** A page of a customer's attached payment methods, newest first (404 for an unknown customer). */
export async function listPaymentMethods(
  ctx: ServiceContext,
  customerId: string,
  page: PageRequest<string>,
  cursorParam = 'starting_after',
): Promise<Page<PaymentMethod>> {
  const customer = await getCustomer(ctx, customerId);
  return paginate(ctx, PaymentMethod, { ...scope(ctx), customer: customer.id, detachedAt: null }, page, {
    cursorParam,
  });
}

/** Detaches a payment method from its customer: it is no longer listed or chargeable. Detaching twice is harmless. */
export async function detachPaymentMethod(
  ctx: ServiceContext,
  id: string,
  customerId?: string,
): Promise<PaymentMethod> {
  const method = await getPaymentMethod(ctx, id, customerId, customerId === undefined ? 'id' : 'payment_method_id');
  if (!method.detachedAt) {
    method.detachedAt = ctx.now();
    method.updatedAt = ctx.now();
    await ctx.em.flush();
  }
  return method;
}

/**
 * The processor disabled a stored card (Adyen's `recurring.token.disabled`: deleted, or disabled
 * by a third party): every payment method holding that token is detached, so nothing charges it
 * again (a subscription on it asks for a new card at its next charge).
 */
export async function detachPaymentMethodsByToken(ctx: ServiceContext, processorToken: string): Promise<void> {
  const methods = await ctx.em.find(PaymentMethod, { processorToken, detachedAt: null, ...scope(ctx) });
  for (const method of methods) Object.assign(method, { detachedAt: ctx.now(), updatedAt: ctx.now() });
  await ctx.em.flush();
}
