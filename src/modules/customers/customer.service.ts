import { raw, type FilterQuery } from '@mikro-orm/core';
import { scope, type ServiceContext } from '../../platform/context.js';
import { DomainError } from '../../platform/errors.js';
import { createdRange, paginate, type Page, type PageRequest } from '../../platform/pagination/keyset.js';
import { parseInput, requireObject } from '../../platform/validation.js';
import { Customer } from './customer.entity.js';
import {
  createCustomerSchema,
  listCustomersSchema,
  updateCustomerSchema,
  type CustomerFilters,
} from './customer.schemas.js';

/** Who a customer is, as the spec names the fields. */
export interface CustomerDetails {
  email: string;
  first_name: string;
  last_name: string;
  phone?: string | null;
  metadata?: Record<string, unknown>;
}

/** A new customer of the caller's account and mode in the caller's unit of work (the one place one is built). */
function addCustomer(ctx: ServiceContext, who: CustomerDetails, at: Date): Customer {
  return ctx.em.create(Customer, {
    ...scope(ctx),
    email: who.email,
    firstName: who.first_name,
    lastName: who.last_name,
    phone: who.phone ?? null,
    metadata: who.metadata ?? {},
    createdAt: at,
    updatedAt: at,
  });
}

/** Creates a customer of the caller's account and mode. */
export async function createCustomer(ctx: ServiceContext, body: unknown): Promise<Customer> {
  const input = parseInput(createCustomerSchema, requireObject(body, 'validation_error'));
  const customer = addCustomer(ctx, input, ctx.now());
  await ctx.em.flush();
  return customer;
}

/** One customer of the caller by its `cus_` id (a path parameter), or 404 `not_found`. */
export async function getCustomer(ctx: ServiceContext, id: string, param = 'id'): Promise<Customer> {
  const customer = await ctx.em.findOne(Customer, { id, ...scope(ctx) });
  if (!customer) throw DomainError.notFound('customer', id, param);
  return customer;
}

/**
 * The customer a request body refers to (`customer_id` of a subscription or payment link): an id
 * that names no customer of this account and mode is 404 `customer_not_found`, as the spec says.
 */
export async function referencedCustomer(ctx: ServiceContext, id: string, param = 'customer_id'): Promise<Customer> {
  const customer = await ctx.em.findOne(Customer, { id, ...scope(ctx) });
  if (!customer) throw new DomainError('customer_not_found', `No such customer: '${id}'`, { param });
  return customer;
}

/** Changes the fields sent (`phone: null` clears it; `metadata` replaces the stored one). */
export async function updateCustomer(ctx: ServiceContext, id: string, body: unknown): Promise<Customer> {
  const input = parseInput(updateCustomerSchema, requireObject(body, 'validation_error'));
  const customer = await getCustomer(ctx, id);
  if (input.email !== undefined) customer.email = input.email;
  if (input.first_name !== undefined) customer.firstName = input.first_name;
  if (input.last_name !== undefined) customer.lastName = input.last_name;
  if (input.phone !== undefined) customer.phone = input.phone;
  if (input.metadata !== undefined) customer.metadata = input.metadata;
  customer.updatedAt = ctx.now();
  await ctx.em.flush();
  return customer;
}

/**
 * The customer with this email (case-insensitive) when the account has one, else a new one made
 * at `at` in the caller's unit of work: a paid subscription checkout's (or payment link's) payer
 * becomes a stored customer. A phone longer than a customer keeps (32) is left out.
 */
export async function findOrCreateCustomer(
  ctx: ServiceContext,
  who: CustomerDetails,
  at = ctx.now(),
): Promise<Customer> {
  const [existing] = await ctx.em.find(
    Customer,
    { ...scope(ctx), [raw((alias) => `lower(${alias}.email)`)]: who.email.toLowerCase() },
    {
      orderBy: { createdAt: 'asc' },
      limit: 1,
    },
  );
  if (existing) return existing;
  const phone = who.phone && who.phone.length <= 32 ? who.phone : null;
  return addCustomer(ctx, { email: who.email, first_name: who.first_name, last_name: who.last_name, phone }, at);
}

/** Validates list query parameters (400 `invalid_request`). */
export function parseListCustomersQuery(query: unknown): { filters: CustomerFilters; page: PageRequest<string> } {
  const { limit, starting_after, ...filters } = parseInput(listCustomersSchema, query, 'invalid_request');
  return { filters, page: { limit, after: starting_after } };
}

/** A page of the caller's customers, newest first (email matched case-insensitively). */
export async function listCustomers(
  ctx: ServiceContext,
  filters: CustomerFilters,
  page: PageRequest<string>,
  cursorParam = 'starting_after',
): Promise<Page<Customer>> {
  const where: FilterQuery<Customer> = { ...scope(ctx) };
  if (filters.email) Object.assign(where, { [raw((alias) => `lower(${alias}.email)`)]: filters.email.toLowerCase() });
  const created = createdRange(filters);
  if (created) where.createdAt = created;
  return paginate(ctx, Customer, where, page, { cursorParam });
}
