import { Migration } from '@mikro-orm/migrations';

/** A payment attempt remembers the Idempotency-Key claim of the request that opened it: a retry of that request answers the order it committed. */
export class Migration20261201000100_payment_attempt_idempotency_key extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payment_attempts" add column "idempotency_key_id" bigint null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payment_attempts" drop column "idempotency_key_id";`);
  }
}
