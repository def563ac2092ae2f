/**
 * GS1 barcode validation: UPC-A, UPC-E, EAN-8, EAN-13 and GTIN-14, each checked with the GS1 mod-10
 * check digit and normalised to the 14-digit GTIN so every form of the same product compares equal.
 */

export type GtinFormat = 'UPC-A' | 'UPC-E' | 'EAN-8' | 'EAN-13' | 'GTIN-14';

export interface GtinValidation {
  valid: boolean;
  normalized: string | null;
  format: GtinFormat | null;
  reason?: string;
}

const FORMAT_BY_LENGTH: Record<number, GtinFormat> = { 12: 'UPC-A', 13: 'EAN-13', 14: 'GTIN-14' };

/** Computes the GS1 mod-10 check digit for the digits that precede it (any GTIN length). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  // Weights alternate 3, 1, 3, ... starting from the digit just left of the check digit.
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** Expands an 8-digit UPC-E (number system, six data digits, check digit) to its 12-digit UPC-A form. */
export function expandUpcE(upcE: string): string {
  const ns = upcE[0];
  const d = upcE.slice(1, 7);
  const check = upcE[7];
  const last = d[5];
  let body: string;
  if (last === '0' || last === '1' || last === '2') {
    body = d[0] + d[1] + last + '0000' + d[2] + d[3] + d[4];
  } else if (last === '3') {
    body = d[0] + d[1] + d[2] + '00000' + d[3] + d[4];
  } else if (last === '4') {
    body = d[0] + d[1] + d[2] + d[3] + '00000' + d[4];
  } else {
    body = d[0] + d[1] + d[2] + d[3] + d[4] + '0000' + last;
  }
  return ns + body + check;
}

function invalid(reason: string, format: GtinFormat | null = null): GtinValidation {
  return { valid: false, normalized: null, format, reason };
}

/** Validates a UPC/EAN/GTIN barcode (spaces and hyphens allowed) and returns its 14-digit GTIN when valid. */
export function validateGtin(code: string): GtinValidation {
  const raw = typeof code === 'string' ? code.trim() : '';
  if (raw === '') return invalid('No barcode was given.');
  const digits = raw.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) {
    return invalid('Barcode contains characters other than digits, spaces and hyphens.');
  }

  let format: GtinFormat;
  // The digits the check digit is computed over: for UPC-E that is the expanded UPC-A, not the printed 8 digits.
  let full: string;
  if (digits.length === 8) {
    // GS1-8 prefix 0 is reserved for restricted-circulation numbers (RCN-8), so a retail 8-digit code starting
    // with 0 is a UPC-E (number system 0). Number-system-1 UPC-E is not used in practice and reads as EAN-8.
    format = digits[0] === '0' ? 'UPC-E' : 'EAN-8';
    full = format === 'UPC-E' ? expandUpcE(digits) : digits;
  } else if (FORMAT_BY_LENGTH[digits.length]) {
    format = FORMAT_BY_LENGTH[digits.length];
    full = digits;
  } else if (digits.length === 6) {
    return invalid(
      'Barcode has 6 digits: a bare UPC-E body carries no check digit, so it cannot be verified. Enter all 8 digits printed under the barcode (starting with 0).',
    );
  } else {
    return invalid(
      `Barcode has ${digits.length} digits; expected 8 (EAN-8 or UPC-E), 12 (UPC-A), 13 (EAN-13) or 14 (GTIN-14).`,
    );
  }

  if (/^0+$/.test(full)) return invalid('Barcode is all zeros, which is not a valid GTIN.', format);

  const expected = gs1CheckDigit(full.slice(0, -1));
  const actual = Number(full[full.length - 1]);
  if (expected !== actual) {
    return invalid(`Check digit is ${actual} but should be ${expected} for this ${format} barcode.`, format);
  }
  return { valid: true, normalized: full.padStart(14, '0'), format };
}
