import {
  Collection,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
  type Opt,
  type Rel,
} from '@mikro-orm/core';
import { MerchantScopedEntity } from '../../platform/db/base.entity.js';
import type { EligibilityOverride, EligibilitySource, SuggestedEligibility } from './product-eligibility.js';

export const PRODUCT_STATUSES = ['active', 'inactive', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

@Entity({ tableName: 'products' })
@Index({ name: 'products_scope_created_idx', properties: ['merchant', 'livemode', 'createdAt', 'id'] })
@Index({
  name: 'products_merchant_product_id_uq',
  expression: `create unique index "products_merchant_product_id_uq" on "products" ("merchant_id", "livemode", "merchant_product_id") where "status" <> 'archived'`,
})
export class Product extends MerchantScopedEntity {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 255 })
  name!: string;

  @Property({ type: 'string', length: 255, nullable: true })
  tagline: string | null = null;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  /** Unit price in cents. */
  @Property({ type: 'integer' })
  price!: number;

  /** ISO 4217, upper case. */
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'string', length: 255, nullable: true })
  merchantProductId: string | null = null;

  @Property({ type: 'string', length: 32, nullable: true })
  upcCodeOrGtin: string | null = null;

  @Enum({ items: [...PRODUCT_STATUSES], type: 'string', default: 'active' })
  status: Opt<ProductStatus> = 'active';

  @Property({ type: 'boolean' })
  hsaFsaEligible!: boolean;

  @Property({ type: 'boolean', default: false })
  requiresLmn: Opt<boolean> = false;

  @Property({ type: 'string', nullable: true })
  eligibilityCategory: string | null = null;

  /** What decided: the engine (`upc`, `name`, `none`) or the merchant (`merchant`, from `eligibilityOverride`). */
  @Property({ type: 'string' })
  eligibilitySource!: EligibilitySource;

  @Property({ type: 'text' })
  eligibilityMessage!: string;

  @Property({ type: 'datetime', columnType: 'timestamptz' })
  eligibilityCheckedAt!: Date;

  /** The merchant's own decision (authoritative while set); null: the engine decides. */
  @Property({ type: 'json', nullable: true })
  eligibilityOverride: EligibilityOverride | null = null;

  /** The engine's opinion, kept whatever decides. */
  @Property({ type: 'json' })
  eligibilitySuggested!: SuggestedEligibility;

  @Property({ type: 'json', default: '{}' })
  metadata: Opt<Record<string, unknown>> = {};

  @OneToMany(() => ProductImage, (image) => image.product, { orderBy: { position: 'asc' }, orphanRemoval: true })
  images = new Collection<ProductImage>(this);
}

/** An image of a product; the one at position 0 is primary. */
@Entity({ tableName: 'product_images' })
export class ProductImage {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index({ name: 'product_images_product_idx' })
  @ManyToOne(() => Product, { deleteRule: 'cascade' })
  product!: Rel<Product>;

  @Property({ type: 'text' })
  url!: string;

  @Property({ type: 'smallint' })
  position!: number;
}
