import { Field, Int, ObjectType } from 'type-graphql';
import type { Address } from './address.js';
import type { SplitAmounts } from './amounts.js';

/** The GraphQL shape of `SplitAmounts`. */
@ObjectType({ description: 'Amounts in cents; hsaAmount + regularAmount = total' })
export class Amounts {
  @Field(() => Int) subtotal!: number;
  @Field(() => Int, { description: 'Payable with an HSA/FSA card' }) hsaAmount!: number;
  @Field(() => Int) regularAmount!: number;
  @Field(() => Int) shipping!: number;
  @Field(() => Int) tax!: number;
  @Field(() => Int) discount!: number;
  @Field(() => Int) total!: number;

  static from(a: SplitAmounts): Amounts {
    return Object.assign(new Amounts(), { subtotal: a.subtotal, hsaAmount: a.hsa_amount, regularAmount: a.regular_amount, shipping: a.shipping, tax: a.tax, discount: a.discount, total: a.total });
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
    return Object.assign(new AddressType(), { addressLine1: a.address_line_1, addressLine2: a.address_line_2 ?? null, city: a.city, state: a.state, postalCode: a.postal_code, country: a.country });
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
