import { Migration } from '@mikro-orm/migrations';

/** The order lines a v1 line refund covers (`[{line_item_id, quantity, amount}]`), tallied per line under the order lock. */
export class Migration20261124000300_refund_lines extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refunds" add column "lines" jsonb not null default '[]';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "refunds" drop column "lines";`);
  }
}
