import { Migration } from '@mikro-orm/migrations';

/**
 * Every part of a refund carries its own string `refund_id` from creation (`rp_…`); the processor's
 * reference moves to `processor_refund_id`. Existing parts get an id and keep their reference.
 */
export class Migration20261124001002_refund_part_ids extends Migration {

  override async up(): Promise<void> {
    this.addSql(`update "refunds" r set "parts" = (
      select coalesce(jsonb_agg(
        p || jsonb_build_object('refund_id', 'rp_' || substr(md5(r.id || ':' || n::text || ':' || random()::text), 1, 24), 'processor_refund_id', p->'refund_id')
        order by n), '[]'::jsonb)
      from jsonb_array_elements(r."parts") with ordinality as x(p, n)
    ) where exists (select 1 from jsonb_array_elements(r."parts") p where not (p ? 'processor_refund_id'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "refunds" r set "parts" = (
      select coalesce(jsonb_agg((p - 'processor_refund_id') || jsonb_build_object('refund_id', p->'processor_refund_id') order by n), '[]'::jsonb)
      from jsonb_array_elements(r."parts") with ordinality as x(p, n)
    );`);
  }

}
