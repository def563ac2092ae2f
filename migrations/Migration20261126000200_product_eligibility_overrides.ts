import { Migration } from '@mikro-orm/migrations';

/** The engine's requires_review categories when this was written (what storedStatus reads as requires_review). */
const REVIEW_CATEGORIES = ['cosmetics-with-spf', 'medicated-or-everyday', 'unclear-medical-purpose', 'gift-sets'];

/**
 * The merchant's own HSA/FSA decision per product (authoritative while set) and the engine's
 * opinion beside it; existing products keep their engine decision as the suggestion.
 */
export class Migration20261126000200_product_eligibility_overrides extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "products" add column "eligibility_override" jsonb null, add column "eligibility_suggested" jsonb null;`);
    this.addSql(`update "products" set "eligibility_suggested" = jsonb_build_object(
      'status', case when "requires_lmn" then 'requires_lmn' when "hsa_fsa_eligible" then 'eligible'
                     when "eligibility_category" in (${REVIEW_CATEGORIES.map((id) => `'${id}'`).join(', ')}) then 'requires_review' else 'not_eligible' end,
      'category', "eligibility_category", 'source', "eligibility_source", 'message', "eligibility_message");`);
    this.addSql(`alter table "products" alter column "eligibility_suggested" set not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "products" drop column "eligibility_override", drop column "eligibility_suggested";`);
  }
}
