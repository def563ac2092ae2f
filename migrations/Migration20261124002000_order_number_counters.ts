import { Migration } from '@mikro-orm/migrations';

/**
 * Order numbers per merchant and mode (one counter row each, taken in the order's transaction)
 * instead of one sequence across all merchants. Existing books continue after their highest number.
 */
export class Migration20261124002000_order_number_counters extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "order_number_counters" ("merchant_id" varchar(255) not null, "livemode" boolean not null, "last_number" bigint not null, constraint "order_number_counters_pkey" primary key ("merchant_id", "livemode"));`);
    this.addSql(`insert into "order_number_counters" ("merchant_id", "livemode", "last_number")
      select "merchant_id", "livemode", max(substring("order_number" from 5)::bigint) from "orders" where "order_number" ~ '^ORD-[0-9]+$' group by 1, 2;`);
    this.addSql(`alter table "orders" drop constraint if exists "orders_order_number_unique";`);
    this.addSql(`alter table "orders" add constraint "orders_merchant_id_livemode_order_number_unique" unique ("merchant_id", "livemode", "order_number");`);
    this.addSql(`drop sequence if exists "order_number_seq";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create sequence if not exists "order_number_seq" start 1001;`);
    this.addSql(`select setval('order_number_seq', greatest(1001, (select coalesce(max(substring("order_number" from 5)::bigint), 1000) + 1 from "orders")), false);`);
    this.addSql(`alter table "orders" drop constraint if exists "orders_merchant_id_livemode_order_number_unique";`);
    this.addSql(`update "orders" set "order_number" = 'ORD-' || lpad(nextval('order_number_seq')::text, 6, '0') where "id" in (select "id" from "orders" o where exists (select 1 from "orders" p where p."order_number" = o."order_number" and p."id" < o."id"));`);
    this.addSql(`alter table "orders" add constraint "orders_order_number_unique" unique ("order_number");`);
    this.addSql(`drop table if exists "order_number_counters";`);
  }
}
