/**
 * The card numbers the Adyen stand-in knows, and how it reads the card fields of a `/payments`
 * request. Adyen's test platform accepts unencrypted test values prefixed `test_` in the
 * encrypted fields (`encryptedCardNumber: "test_4111111111111111"`, `encryptedExpiryMonth:
 * "test_03"`, `encryptedExpiryYear: "test_2030"`, `encryptedSecurityCode: "test_737"`); anything
 * else cannot be decrypted here and is answered as Adyen answers undecryptable data.
 */

export type CardBrand = 'visa' | 'mc' | 'amex';

/** What a card does. Every behaviour not listed is "authorised in full". */
export interface AdyenTestCard {
  brand: CardBrand;
  /** `PREPAID` for the HSA/FSA cards (what Adyen reports in `additionalData.fundingSource`). */
  fundingSource: 'CREDIT' | 'DEBIT' | 'PREPAID';
  /** An HSA/FSA (healthcare benefit) card. */
  hsaFsa?: boolean;
  /** Available balance in minor units: above it, a partial authorisation or "Not enough balance". */
  balance?: number;
  /** Refused on every authorisation (customer-present and ContAuth). */
  refuse?: Refusal;
  /** Stored and zero-amount verified fine, but refused on merchant-initiated (ContAuth) charges. */
  refuseContAuth?: Refusal;
  /** 3-D Secure 2: `challenge` answers ChallengeShopper, `redirect` answers RedirectShopper. */
  threeDS?: 'challenge' | 'redirect';
  /** Refunds answer `received`, then a REFUND_FAILED notification. */
  refundFails?: boolean;
  /** Captures answer `received`, then a CAPTURE_FAILED notification. */
  captureFails?: boolean;
}

/** Adyen's refusal reason and its code (https://docs.adyen.com/development-resources/refusal-reasons). */
export interface Refusal {
  reason: string;
  code: string;
}

export const REFUSED: Refusal = { reason: 'Refused', code: '2' };
export const BLOCKED_CARD: Refusal = { reason: 'Blocked Card', code: '5' };
export const EXPIRED_CARD: Refusal = { reason: 'Expired Card', code: '6' };
export const INVALID_CARD_NUMBER: Refusal = { reason: 'Invalid Card Number', code: '8' };
export const NOT_AUTHENTICATED: Refusal = { reason: '3D Not Authenticated', code: '11' };
export const NOT_ENOUGH_BALANCE: Refusal = { reason: 'Not enough balance', code: '12' };
export const CVC_DECLINED: Refusal = { reason: 'CVC Declined', code: '24' };

/** The test cards by number (the `test_` value of `encryptedCardNumber`). */
export const ADYEN_TEST_CARDS: Record<string, AdyenTestCard> = {
  // Regular cards, authorised in full.
  '4111111111111111': { brand: 'visa', fundingSource: 'CREDIT' },
  '5555444433331111': { brand: 'mc', fundingSource: 'CREDIT' },
  // HSA/FSA cards (prepaid benefit cards), authorised in full.
  '4111110000000013': { brand: 'visa', fundingSource: 'PREPAID', hsaFsa: true },
  '5111110000000010': { brand: 'mc', fundingSource: 'PREPAID', hsaFsa: true },
  // HSA/FSA card with a $20.00 balance: over 2000 with `additionalData.allowPartialAuth: "true"`
  // it is PartiallyAuthorised for 2000; without it, Refused "Not enough balance" (12).
  '4111110000000054': { brand: 'visa', fundingSource: 'PREPAID', hsaFsa: true, balance: 2000 },
  // Declines.
  '4000000000000002': { brand: 'visa', fundingSource: 'CREDIT', refuse: REFUSED },
  '4111110000000021': { brand: 'visa', fundingSource: 'PREPAID', hsaFsa: true, refuse: NOT_ENOUGH_BALANCE },
  // 3-D Secure 2: a challenge (`action.type: threeDS2`), or a redirect (`action.type: redirect`).
  '4212345678901237': { brand: 'visa', fundingSource: 'CREDIT', threeDS: 'challenge' },
  '4917610000000000': { brand: 'visa', fundingSource: 'CREDIT', threeDS: 'redirect' },
  '4111110000000062': { brand: 'visa', fundingSource: 'PREPAID', hsaFsa: true, threeDS: 'challenge' },
  // Refunds accepted (`received`), then REFUND_FAILED.
  '4000000000005126': { brand: 'visa', fundingSource: 'CREDIT', refundFails: true },
  '4111110000000047': { brand: 'visa', fundingSource: 'PREPAID', hsaFsa: true, refundFails: true },
  // Renewal dispositions: stored fine (zero-amount verification passes), ContAuth charges refused.
  '4000000000000341': { brand: 'visa', fundingSource: 'CREDIT', refuseContAuth: NOT_ENOUGH_BALANCE },
  '4000000000000069': { brand: 'visa', fundingSource: 'CREDIT', refuseContAuth: EXPIRED_CARD },
  '4111110000000039': { brand: 'visa', fundingSource: 'PREPAID', hsaFsa: true, refuseContAuth: BLOCKED_CARD },
  // Captures accepted (`received`), then CAPTURE_FAILED.
  '4000000000000259': { brand: 'visa', fundingSource: 'CREDIT', captureFails: true },
};

/** A card as read from a request: number, expiry and CVC in clear. */
export interface ReadCard {
  number: string;
  expiryMonth: string;
  expiryYear: string;
  cvc?: string;
  card: AdyenTestCard;
}

/** Why a card could not be read: Adyen's validation error (HTTP 422) or a refusal. */
export type CardProblem = { error: { errorCode: string; message: string } } | { refusal: Refusal };

const decrypt = (value: unknown): string | undefined =>
  typeof value === 'string' && value.startsWith('test_') ? value.slice('test_'.length) : undefined;

/** Luhn check of a card number. */
function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card number outside the table: authorised like a regular card of its brand when it passes Luhn. */
function unlistedCard(number: string): AdyenTestCard {
  const brand: CardBrand =
    number.startsWith('5') || number.startsWith('2') ? 'mc' : number.startsWith('3') ? 'amex' : 'visa';
  return { brand, fundingSource: 'CREDIT' };
}

/**
 * Reads the encrypted card fields of a scheme `paymentMethod` (test values only) and checks what
 * Adyen checks before authorising: decryptable fields, a Luhn-valid number, a future expiry and
 * the test CVC 737 (when one is sent).
 */
export function readCard(paymentMethod: Record<string, unknown>, now = new Date()): ReadCard | CardProblem {
  const number = decrypt(paymentMethod.encryptedCardNumber);
  const expiryMonth = decrypt(paymentMethod.encryptedExpiryMonth);
  const expiryYear = decrypt(paymentMethod.encryptedExpiryYear);
  const cvc =
    paymentMethod.encryptedSecurityCode === undefined ? undefined : decrypt(paymentMethod.encryptedSecurityCode);
  if (!number || !expiryMonth || !expiryYear || (paymentMethod.encryptedSecurityCode !== undefined && !cvc)) {
    return { error: { errorCode: '174', message: 'Unable to decrypt data' } };
  }
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { refusal: INVALID_CARD_NUMBER };
  const month = Number(expiryMonth);
  const year = Number(expiryYear);
  if (!(month >= 1 && month <= 12) || !(year >= 2000)) return { refusal: EXPIRED_CARD };
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
    return { refusal: EXPIRED_CARD };
  if (cvc !== undefined && cvc !== '737' && cvc !== '7373') return { refusal: CVC_DECLINED };
  return { number, expiryMonth, expiryYear, cvc, card: ADYEN_TEST_CARDS[number] ?? unlistedCard(number) };
}
