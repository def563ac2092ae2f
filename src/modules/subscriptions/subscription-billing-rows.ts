import type { EntityManager } from '@mikro-orm/postgresql';
import { bulkInsert, bulkUpdate, type BulkWrite } from '../../platform/db/bulk.js';
import { epochMs, runStatement, withDates } from '../../platform/db/sql.js';
import type { Customer, PaymentMethod } from '../customers/customer.entity.js';
import { Subscription, SubscriptionInvoice, SubscriptionInvoiceAttempt } from './subscription.entity.js';

/**
 * The billing engine's reads and writes as plain rows: a batch of charges is read in a few
 * statements and written in one, with no entity and no unit of work per row (at 100,000 renewals
 * the ORM's bookkeeping cost more than the charges). The rules stay in subscription-billing.ts.
 */

/** A subscription as billing reads and changes it. */
export type BillingSubscription = Pick<
  Subscription,
  | 'id'
  | 'livemode'
  | 'customerId'
  | 'paymentMethodId'
  | 'productId'
  | 'merchantProductId'
  | 'description'
  | 'hsaFsaEligible'
  | 'requiresLmn'
  | 'amountCents'
  | 'currency'
  | 'interval'
  | 'intervalCount'
  | 'status'
  | 'anchorAt'
  | 'periodIndex'
  | 'currentPeriodStart'
  | 'currentPeriodEnd'
  | 'nextChargeAt'
  | 'billingLeaseUntil'
  | 'openInvoiceId'
  | 'latestInvoiceId'
  | 'cancelAtPeriodEnd'
  | 'cancelledAt'
  | 'endedAt'
  | 'priorStatus'
  | 'priorNextChargeAt'
> & { merchantId: string; updatedAt?: Date };

/** A cycle as billing reads and changes it; `isNew` until it is inserted. */
export type BillingInvoice = Pick<
  SubscriptionInvoice,
  | 'id'
  | 'livemode'
  | 'subscriptionId'
  | 'periodIndex'
  | 'periodStart'
  | 'periodEnd'
  | 'amount'
  | 'currency'
  | 'status'
  | 'attemptCount'
  | 'nextRetryAt'
  | 'orderId'
  | 'pspReference'
  | 'paidAt'
  | 'lastDisposition'
  | 'lastRefusalCode'
  | 'createdAt'
  | 'updatedAt'
> & { merchantId: string; isNew?: boolean };

/** An attempt as billing reads and changes it; `isNew` until it is inserted. */
export type BillingAttempt = Pick<
  SubscriptionInvoiceAttempt,
  | 'id'
  | 'livemode'
  | 'invoiceId'
  | 'attempt'
  | 'amount'
  | 'paymentMethodId'
  | 'status'
  | 'pspReference'
  | 'disposition'
  | 'refusalCode'
  | 'createdAt'
  | 'updatedAt'
> & { merchantId: string; isNew?: boolean };

export type BillingCustomer = Pick<Customer, 'email' | 'firstName' | 'lastName' | 'phone'>;
export type BillingMethod = Pick<PaymentMethod, 'id' | 'type' | 'brand' | 'last4' | 'processorToken'>;

const SUBSCRIPTION_DATES = [
  'anchorAt',
  'currentPeriodStart',
  'currentPeriodEnd',
  'nextChargeAt',
  'billingLeaseUntil',
  'cancelledAt',
  'endedAt',
  'priorNextChargeAt',
] as const;
const SUBSCRIPTION_COLUMNS = [
  's.id, s.merchant_id as "merchantId", s.livemode, s.customer_id as "customerId", s.payment_method_id as "paymentMethodId"',
  's.product_id as "productId", s.merchant_product_id as "merchantProductId", s.description, s.hsa_fsa_eligible as "hsaFsaEligible", s.requires_lmn as "requiresLmn"',
  's.amount_cents as "amountCents", s.currency, s.interval, s.interval_count as "intervalCount", s.status, s.period_index as "periodIndex"',
  's.open_invoice_id as "openInvoiceId", s.latest_invoice_id as "latestInvoiceId", s.cancel_at_period_end as "cancelAtPeriodEnd", s.prior_status as "priorStatus"',
  ...SUBSCRIPTION_DATES.map((d) => `${epochMs(`s.${d.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`)} as "${d}"`),
].join(', ');

const INVOICE_DATES = ['periodStart', 'periodEnd', 'nextRetryAt', 'paidAt', 'createdAt', 'updatedAt'] as const;
const INVOICE_COLUMNS = [
  'i.id, i.merchant_id as "merchantId", i.livemode, i.subscription_id as "subscriptionId", i.period_index as "periodIndex", i.amount, i.currency, i.status',
  'i.attempt_count as "attemptCount", i.order_id as "orderId", i.psp_reference as "pspReference", i.last_disposition as "lastDisposition", i.last_refusal_code as "lastRefusalCode"',
  ...INVOICE_DATES.map((d) => `${epochMs(`i.${d.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`)} as "${d}"`),
].join(', ');

const ATTEMPT_COLUMNS = `a.id as "a_id", a.merchant_id as "a_merchantId", a.livemode as "a_livemode", a.invoice_id as "a_invoiceId", a.attempt as "a_attempt", a.amount as "a_amount",
  a.payment_method_id as "a_paymentMethodId", a.status as "a_status", a.psp_reference as "a_pspReference", a.disposition as "a_disposition", a.refusal_code as "a_refusalCode",
  ${epochMs('a.created_at')} as "a_createdAt", ${epochMs('a.updated_at')} as "a_updatedAt"`;

/** Splits the `a_`-prefixed attempt columns off a joined row. */
function attemptOf(row: Record<string, unknown>): BillingAttempt | null {
  if (row.a_id == null) return null;
  const attempt: Record<string, unknown> = {};
  for (const key of Object.keys(row)) {
    if (key.startsWith('a_')) {
      attempt[key.slice(2)] = row[key];
      delete row[key];
    }
  }
  return withDates<BillingAttempt>(attempt, ['createdAt', 'updatedAt']);
}

/**
 * Locks up to `batch` due subscriptions (by each merchant's clock, not leased by a live worker;
 * `FOR UPDATE SKIP LOCKED`: two workers never take the same one) and reads them as locked, with
 * the clock offset of their merchant and mode.
 */
export async function lockDueSubscriptions(
  em: EntityManager,
  batch: number,
): Promise<{ sub: BillingSubscription; offsetMs: number }[]> {
  const rows = await runStatement<Record<string, unknown>>(
    em,
    `select ${SUBSCRIPTION_COLUMNS}, case when s.livemode then 0 else m.test_clock_offset_ms end::float8 as "offsetMs"
     from subscriptions s join merchants m on m.id = s.merchant_id
     where s.next_charge_at is not null
       and s.next_charge_at <= now() + case when s.livemode then interval '0' else m.test_clock_offset_ms * interval '1 millisecond' end
       and (s.billing_lease_until is null or s.billing_lease_until < now())
     order by s.next_charge_at limit ? for update of s skip locked`,
    [batch],
  );
  return rows.map((r) => {
    const offsetMs = r.offsetMs as number;
    delete r.offsetMs;
    return { sub: withDates<BillingSubscription>(r, SUBSCRIPTION_DATES), offsetMs };
  });
}

/** Locks subscriptions `ids` in id order (the caller's transaction) and reads them as locked; a missing one is left out. */
export async function lockSubscriptionRows(em: EntityManager, ids: string[]): Promise<BillingSubscription[]> {
  const rows = await runStatement<Record<string, unknown>>(
    em,
    `select ${SUBSCRIPTION_COLUMNS} from subscriptions s where s.id = any(?) order by s.id for update`,
    [ids],
  );
  return rows.map((r) => withDates<BillingSubscription>(r, SUBSCRIPTION_DATES));
}

/** Cycles `ids` with the attempt of each still `calling` (a charge in flight), if any. */
export async function readInvoices(
  em: EntityManager,
  ids: string[],
): Promise<{ invoice: BillingInvoice; calling: BillingAttempt | null }[]> {
  if (!ids.length) return [];
  const rows = await runStatement<Record<string, unknown>>(
    em,
    `select ${INVOICE_COLUMNS}, ${ATTEMPT_COLUMNS}
     from subscription_invoices i left join subscription_invoice_attempts a on a.invoice_id = i.id and a.status = 'calling'
     where i.id = any(?)`,
    [ids],
  );
  return rows.map((r) => {
    const calling = attemptOf(r);
    return { invoice: withDates<BillingInvoice>(r, INVOICE_DATES), calling };
  });
}

/** Payment methods `ids` (the cards billing charges). */
export async function readMethods(em: EntityManager, ids: string[]): Promise<Map<string, BillingMethod>> {
  const rows = await runStatement<BillingMethod>(
    em,
    `select id, type, brand, last4, processor_token as "processorToken" from payment_methods where id = any(?)`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((m) => [m.id, m]));
}

/** The attempts `ids` still `calling` (not settled by anyone yet), each with its cycle, its card and the customer. */
export async function readCallingAttempts(
  em: EntityManager,
  ids: string[],
): Promise<
  { attempt: BillingAttempt; invoice: BillingInvoice; pm: BillingMethod; customer: BillingCustomer | null }[]
> {
  const rows = await runStatement<Record<string, unknown>>(
    em,
    `select ${INVOICE_COLUMNS}, ${ATTEMPT_COLUMNS},
       pm.id as "pm_id", pm.type as "pm_type", pm.brand as "pm_brand", pm.last4 as "pm_last4", pm.processor_token as "pm_processorToken",
       c.id as "c_id", c.email as "c_email", c.first_name as "c_firstName", c.last_name as "c_lastName", c.phone as "c_phone"
     from subscription_invoice_attempts a
       join subscription_invoices i on i.id = a.invoice_id
       join payment_methods pm on pm.id = a.payment_method_id
       left join subscriptions s on s.id = i.subscription_id
       left join customers c on c.id = s.customer_id
     where a.id = any(?) and a.status = 'calling'`,
    [ids],
  );
  return rows.map((r) => {
    const attempt = attemptOf(r)!;
    const pm: BillingMethod = {
      id: r.pm_id as string,
      type: r.pm_type as BillingMethod['type'],
      brand: r.pm_brand as string,
      last4: r.pm_last4 as string,
      processorToken: r.pm_processorToken as string,
    };
    const customer: BillingCustomer | null =
      r.c_id == null
        ? null
        : {
            email: r.c_email as string,
            firstName: r.c_firstName as string,
            lastName: r.c_lastName as string,
            phone: r.c_phone as string | null,
          };
    for (const key of Object.keys(r)) if (key.startsWith('pm_') || key.startsWith('c_')) delete r[key];
    return { attempt, invoice: withDates<BillingInvoice>(r, INVOICE_DATES), pm, customer };
  });
}

/** What billing changes of a cycle and of an attempt once they exist (a new one is written whole). */
const INVOICE_CHANGES = [
  'status',
  'attemptCount',
  'nextRetryAt',
  'orderId',
  'pspReference',
  'paidAt',
  'lastDisposition',
  'lastRefusalCode',
  'updatedAt',
] as const satisfies readonly (keyof SubscriptionInvoice)[];
const ATTEMPT_CHANGES = [
  'status',
  'pspReference',
  'disposition',
  'refusalCode',
  'updatedAt',
] as const satisfies readonly (keyof SubscriptionInvoiceAttempt)[];
/** What billing changes of a subscription (the rest is never written here). */
const SUBSCRIPTION_CHANGES = [
  'status',
  'periodIndex',
  'currentPeriodStart',
  'currentPeriodEnd',
  'nextChargeAt',
  'billingLeaseUntil',
  'openInvoiceId',
  'latestInvoiceId',
  'cancelledAt',
  'endedAt',
  'priorStatus',
  'priorNextChargeAt',
  'updatedAt',
] as const satisfies readonly (keyof Subscription)[];

/** A new row: the merchant as the entity's reference property, the billing-only flag dropped. */
const inserted = <T extends { merchantId: string; isNew?: boolean }>({ isNew: _new, merchantId, ...row }: T) => ({
  ...row,
  merchant: merchantId,
});

/** Writes billing's changes (new and changed cycles and attempts, changed subscriptions) as statements for one `runBulk`. */
export function billingWrites(
  em: EntityManager,
  subs: BillingSubscription[],
  invoices: BillingInvoice[],
  attempts: BillingAttempt[],
): BulkWrite[] {
  const now = new Date();
  return [
    bulkInsert(em, SubscriptionInvoice, invoices.filter((i) => i.isNew).map(inserted)),
    bulkUpdate(
      em,
      SubscriptionInvoice,
      invoices.filter((i) => !i.isNew),
      INVOICE_CHANGES,
    ),
    bulkInsert(em, SubscriptionInvoiceAttempt, attempts.filter((a) => a.isNew).map(inserted)),
    bulkUpdate(
      em,
      SubscriptionInvoiceAttempt,
      attempts.filter((a) => !a.isNew),
      ATTEMPT_CHANGES,
    ),
    bulkUpdate(
      em,
      Subscription,
      subs.map((s) => Object.assign(s, { updatedAt: now })),
      SUBSCRIPTION_CHANGES,
    ),
  ];
}

/**
 * Brings the subscriptions of `subs` that the caller's unit of work holds as entities up to those
 * rows as just written (`billingWrites`), without reading them again (`em.merge`'s `refresh` lets
 * the row's values replace the held ones and become the entity's clean state; no statement): a
 * service that locked one and prepared its charge goes on with the entity as it now is.
 */
export function mergeIntoHeld(em: EntityManager, subs: BillingSubscription[]): void {
  for (const { merchantId: _merchant, ...row } of subs)
    if (em.getUnitOfWork().getById(Subscription.name, row.id)) em.merge(Subscription, row, { refresh: true });
}

/** The customers `ids` (the few fields billing's events and emails carry). */
export async function readCustomers(em: EntityManager, ids: string[]): Promise<Map<string, BillingCustomer>> {
  const rows = await runStatement<BillingCustomer & { id: string }>(
    em,
    `select id, email, first_name as "firstName", last_name as "lastName", phone from customers where id = any(?)`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((c) => [c.id, c]));
}
