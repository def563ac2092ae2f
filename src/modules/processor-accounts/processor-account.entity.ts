import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Opt, type Ref } from '@mikro-orm/core';
import { TimestampedEntity, type MerchantOwner } from '../../platform/db/base.entity.js';
import { prefixedId } from '../../platform/db/ids.js';

export const PROCESSOR_PROVIDERS = ['adyen'] as const;
export type ProcessorProvider = (typeof PROCESSOR_PROVIDERS)[number];

/**
 * A merchant's account at its card processor (one per merchant; live mode charges through it).
 * The API key and the HMAC key are stored sealed with SECRETS_KEY (`platform/secrets.ts`), each
 * bound to this merchant and column, beside their last 4 characters for display; the client key
 * is public (Adyen Web runs with it in the shopper's browser) and stored as it is.
 */
@Entity({ tableName: 'processor_accounts' })
export class ProcessorAccount extends TimestampedEntity {
  @PrimaryKey({ type: 'string' })
  id: Opt<string> = prefixedId('pacct');

  @ManyToOne({ entity: 'Merchant', ref: true, deleteRule: 'cascade', unique: 'processor_accounts_merchant_id_unique' })
  merchant!: Ref<MerchantOwner>;

  @Enum({ items: [...PROCESSOR_PROVIDERS], type: 'string' })
  provider!: ProcessorProvider;

  /** Adyen's merchant account name: notifications name it, so they find the merchant by it. */
  @Index({ name: 'processor_accounts_merchant_account_idx' })
  @Property({ type: 'string', length: 80 })
  merchantAccount!: string;

  @Property({ type: 'text' })
  apiKeySealed!: string;

  @Property({ type: 'string', length: 4 })
  apiKeyLast4!: string;

  @Property({ type: 'string', length: 255 })
  clientKey!: string;

  @Property({ type: 'text' })
  hmacKeySealed!: string;

  @Property({ type: 'string', length: 4 })
  hmacKeyLast4!: string;

  /** The prefix of the merchant's live Checkout endpoints (Adyen's live platform only). */
  @Property({ type: 'string', length: 255, nullable: true })
  liveUrlPrefix: string | null = null;
}
