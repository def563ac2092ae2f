import { Entity, Enum, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import { prefixedId, randomBase62 } from '../../platform/db/ids.js';

export const SETUP_LINK_STATUSES = ['open', 'used', 'expired'] as const;
export type SetupLinkStatus = (typeof SETUP_LINK_STATUSES)[number];

/**
 * A one-time hosted page where a shopper enters a card for a customer (a card setup link). With
 * `subscriptionId` it is that subscription's card-update link: the card it stores replaces the
 * subscription's and rescues it when failing. `expired` is never stored: it is `open` past
 * `expiresAt` on the merchant's clock (nothing is announced when a link lapses).
 */
@Entity({ tableName: 'payment_method_setup_links' })
@Index({ name: 'payment_method_setup_links_customer_idx', properties: ['customerId', 'createdAt'] })
export class PaymentMethodSetupLink extends MerchantScopedEntity {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('pmsl');

  /** Capability in `url`: whoever holds the link may enter a card, once. */
  @Property({ type: 'string' })
  accessToken: Opt<string> = randomBase62(32);

  @Property({ type: 'string' })
  customerId!: string;

  /** The subscription whose card the link replaces (a card-update link), or null. */
  @Property({ type: 'string', nullable: true })
  subscriptionId: string | null = null;

  @Enum({ items: ['open', 'used'], type: 'string' })
  status: Opt<Exclude<SetupLinkStatus, 'expired'>> = 'open';

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'datetime', columnType: 'timestamptz', nullable: true })
  usedAt: Date | null = null;

  /** The card stored through the link (`pm_…`), once used. */
  @Property({ type: 'string', nullable: true })
  paymentMethodId: string | null = null;
}

/** A link's status at `now` (the merchant's clock): an open link past `expiresAt` is `expired`. */
export function setupLinkStatusAt(
  link: Pick<PaymentMethodSetupLink, 'status' | 'expiresAt'>,
  now: Date,
): SetupLinkStatus {
  return link.status === 'open' && link.expiresAt <= now ? 'expired' : link.status;
}
