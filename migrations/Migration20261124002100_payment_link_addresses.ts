import { Migration } from '@mikro-orm/migrations';

/**
 * Addresses that were never collected are null, not empty strings: a payment link's checkout
 * session (and its order) and a subscription renewal's order. A link may ask the payer for a
 * shipping address (`collect_shipping_address`, on for existing links that sell products).
 */
export class Migration20261124002100_payment_link_addresses extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "checkout_sessions" alter column "shipping_info" drop not null, alter column "billing_info" drop not null;`);
    this.addSql(`update "checkout_sessions" set "shipping_info" = null, "billing_info" = null where "payment_link_id" is not null and "shipping_info" ->> 'address_line_1' = '';`);
    this.addSql(`update "orders" set "customer" = "customer" || '{"shipping_address": null, "billing_address": null}'::jsonb
      where "customer" -> 'shipping_address' ->> 'address_line_1' = '' and ("payment_link_id" is not null or "is_recurring");`);
    this.addSql(`alter table "payment_links" add column "collect_shipping_address" boolean not null default false;`);
    this.addSql(`update "payment_links" set "collect_shipping_address" = true where jsonb_array_length("products") > 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payment_links" drop column if exists "collect_shipping_address";`);
    const empty = `'{"address_line_1": "", "address_line_2": null, "city": "", "state": "", "postal_code": "", "country": ""}'::jsonb`;
    this.addSql(`update "orders" set "customer" = "customer" || jsonb_build_object('shipping_address', ${empty}, 'billing_address', ${empty}) where "customer" -> 'shipping_address' = 'null'::jsonb;`);
    this.addSql(`update "checkout_sessions" set "shipping_info" = ${empty}, "billing_info" = ${empty} where "shipping_info" is null;`);
    this.addSql(`alter table "checkout_sessions" alter column "shipping_info" set not null, alter column "billing_info" set not null;`);
  }
}
