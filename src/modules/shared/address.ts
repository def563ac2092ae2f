/** A postal address as the spec writes it (a checkout's shipping and billing, an order's customer). */
export interface Address {
  address_line_1: string;
  address_line_2?: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}
