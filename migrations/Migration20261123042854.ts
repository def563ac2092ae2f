import { Migration } from '@mikro-orm/migrations';

export class Migration20261123042854 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "events" add column "webhook_url" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "events" drop column "webhook_url";`);
  }

}
