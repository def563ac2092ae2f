/**
 * The pay request a form sends, built from its inputs: `payCheckoutSchema`'s JSON (the server
 * holds the field rules; empty inputs are left out so it answers "is required" for them). Only
 * what cannot be sent as typed (an expiry that is not a number) is refused here.
 */
import type { HsaFsaField } from '../modules/shared/hsa-fsa-field.js';
import { byId, checked, value } from './dom.js';

/** A card slot of the page (the pages' and the engine's field names). */
export type CardSlot = 'hsa_fsa_card' | 'card';

/** A test card as typed, or (live mode) Adyen Web's `paymentMethod`. */
export type CardInput =
  | { number?: string; exp_month?: number; exp_year?: number; cvc?: string }
  | { payment_method_data: Record<string, unknown> };

/** The body of a pay call; the HSA/FSA card under the name its route takes (`HsaFsaField`). */
export type PayRequest = Partial<Record<HsaFsaField | 'card', CardInput>> & {
  lmn?: { recommended_by_provider: boolean; attestation: boolean; condition?: string; provider_name?: string };
  customer?: Record<string, string>;
  shipping_address?: Record<string, string>;
  browser_info?: Record<string, unknown>;
  return_url?: string;
};

/** A field refused before sending: its path and the message. */
export type LocalError = [field: string, message: string];

/** The inputs of one card fieldset as the API's card object. */
function card(prefix: CardSlot, local: LocalError[]): CardInput {
  const out: { number?: string; exp_month?: number; exp_year?: number; cvc?: string } = {};
  const number = value(`${prefix}-number`).replace(/[\s-]/g, '');
  if (number) out.number = number;
  const month = value(`${prefix}-exp_month`);
  if (month) {
    if (/^\d{1,2}$/.test(month)) out.exp_month = Number(month);
    else local.push([`${prefix}.exp_month`, 'must be a number from 1 to 12']);
  }
  const year = value(`${prefix}-exp_year`);
  if (year) {
    if (/^\d{2}$/.test(year)) out.exp_year = 2000 + Number(year);
    else if (/^\d{4}$/.test(year)) out.exp_year = Number(year);
    else local.push([`${prefix}.exp_year`, 'must be a year such as 2030']);
  }
  const cvc = value(`${prefix}-cvc`);
  if (cvc) out.cvc = cvc;
  return out;
}

function lmn(): NonNullable<PayRequest['lmn']> {
  const out: NonNullable<PayRequest['lmn']> = {
    recommended_by_provider: checked('lmn-recommended_by_provider'),
    attestation: checked('lmn-attestation'),
  };
  const condition = value('lmn-condition');
  if (condition) out.condition = condition;
  const provider = value('lmn-provider_name');
  if (provider) out.provider_name = provider;
  return out;
}

/** The non-empty inputs `<fieldset>-<field>` of a fieldset the page has (the payer's details, a shipping address), else null. */
function fields(fieldset: string, names: string[]): Record<string, string> | null {
  if (!byId(fieldset)) return null;
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = value(`${fieldset}-${name}`);
    if (v) out[name] = v;
  }
  return out;
}

/** How the form pays: the HSA/FSA split (`hsa`) or one card; whether the split has a regular card too; whether the LMN questionnaire goes with it. */
export interface PayChoice {
  hsa: boolean;
  withRegularCard: boolean;
  requiresLmn: boolean;
}

/** The pay request of the form's inputs for `choice`; `local` collects what cannot be sent. */
export function payRequest(choice: PayChoice, local: LocalError[]): PayRequest {
  const body: PayRequest = {};
  if (!choice.hsa) {
    body.card = card('card', local);
  } else {
    body.hsa_fsa_card = card('hsa_fsa_card', local);
    if (choice.withRegularCard) body.card = card('card', local);
    if (choice.requiresLmn) body.lmn = lmn();
  }
  const customer = fields('customer', ['email', 'first_name', 'last_name']);
  if (customer) body.customer = customer;
  const shipping = fields('shipping_address', [
    'address_line_1',
    'address_line_2',
    'city',
    'state',
    'postal_code',
    'country',
  ]);
  if (shipping) body.shipping_address = shipping;
  return body;
}
