/** A postal address as the spec writes it (a checkout's shipping and billing, an order's customer). */
export interface Address {
  address_line_1: string;
  address_line_2?: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

/** An address as the REST resources write it: every field present (`address_line_2` null when none was given). */
export function addressResource(a: Address | null): (Address & { address_line_2: string | null }) | null {
  return (
    a && {
      address_line_1: a.address_line_1,
      address_line_2: a.address_line_2 ?? null,
      city: a.city,
      state: a.state,
      postal_code: a.postal_code,
      country: a.country,
    }
  );
}
