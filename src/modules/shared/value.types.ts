import { Field, Int, ObjectType } from 'type-graphql';
import type { Address } from './address.js';
import type { CheckoutAmounts, HealthcareBreakdown } from './amounts.js';

/** The GraphQL shape of `HealthcareBreakdown`. */
@ObjectType({ description: 'The HSA/FSA amount by IIAS category, in cents; the five add up to hsaAmount' })
export class HealthcareAmounts {
  @Field(() => Int, { description: 'Prescription items' }) rx!: number;
  @Field(() => Int) vision!: number;
  @Field(() => Int) clinic!: number;
  @Field(() => Int) dental!: number;
  @Field(() => Int, { description: 'Every other eligible item (over the counter)' }) otc!: number;

  static from(h: HealthcareBreakdown): HealthcareAmounts {
    return Object.assign(new HealthcareAmounts(), {
      rx: h.rx,
      vision: h.vision,
      clinic: h.clinic,
      dental: h.dental,
      otc: h.otc,
    });
  }
}

/** The GraphQL shape of `SplitAmounts` (a checkout's with its IIAS breakdown). */
@ObjectType({ description: 'Amounts in cents; hsaAmount + regularAmount = total' })
export class Amounts {
  @Field(() => Int) subtotal!: number;
  @Field(() => Int, { description: 'Payable with an HSA/FSA card' }) hsaAmount!: number;
  @Field(() => Int) regularAmount!: number;
  @Field(() => Int) shipping!: number;
  @Field(() => Int) tax!: number;
  @Field(() => Int) discount!: number;
  @Field(() => Int) total!: number;
  @Field(() => HealthcareAmounts, {
    nullable: true,
    description: "A checkout's: hsaAmount by IIAS category (null on orders)",
  })
  healthcare!: HealthcareAmounts | null;

  static from(a: CheckoutAmounts): Amounts {
    const { subtotal, shipping, tax, discount, total } = a;
    const healthcare = a.healthcare ? HealthcareAmounts.from(a.healthcare) : null;
    return Object.assign(new Amounts(), {
      subtotal,
      hsaAmount: a.hsa_amount,
      regularAmount: a.regular_amount,
      shipping,
      tax,
      discount,
      total,
      healthcare,
    });
  }
}

/** The GraphQL shape of `Address`. */
@ObjectType('Address')
export class AddressType {
  @Field() addressLine1!: string;
  @Field(() => String, { nullable: true }) addressLine2!: string | null;
  @Field() city!: string;
  @Field() state!: string;
  @Field() postalCode!: string;
  @Field() country!: string;

  /** Null in, null out: an address never collected (a payment link that ships nothing, a renewal) stays null. */
  static from(a: Address | null): AddressType | null {
    if (!a) return null;
    return Object.assign(new AddressType(), {
      addressLine1: a.address_line_1,
      addressLine2: a.address_line_2 ?? null,
      city: a.city,
      state: a.state,
      postalCode: a.postal_code,
      country: a.country,
    });
  }
}

/** A catalog product priced into an order or onto a payment link, with its HSA/FSA eligibility at that moment (the schema shows it only in its subclasses). */
@ObjectType()
export abstract class PricedLineFields {
  @Field() merchantProductId!: string;
  @Field() name!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => Int, { description: 'Unit price in cents' }) price!: number;
  @Field() hsaFsaEligible!: boolean;
  @Field() requiresLmn!: boolean;
}
