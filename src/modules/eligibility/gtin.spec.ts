import { expandUpcE, gs1CheckDigit, validateGtin } from './gtin.js';

describe('validateGtin: valid codes', () => {
  test.each([
    ['036000291452', 'UPC-A', '00036000291452'],
    ['0 36000 29145 2', 'UPC-A', '00036000291452'],
    ['036000-291452', 'UPC-A', '00036000291452'],
    ['4006381333931', 'EAN-13', '04006381333931'],
    ['0036000291452', 'EAN-13', '00036000291452'],
    ['96385074', 'EAN-8', '00000096385074'],
    ['10036000291459', 'GTIN-14', '10036000291459'],
    ['00036000291452', 'GTIN-14', '00036000291452'],
    ['04252614', 'UPC-E', '00042100005264'],
    ['01234565', 'UPC-E', '00012345000065'],
  ])('%s is a valid %s normalised to %s', (code, format, normalized) => {
    expect(validateGtin(code)).toEqual({ valid: true, format, normalized });
  });

  test('UPC-A, EAN-13 and GTIN-14 forms of the same product normalise equal', () => {
    const forms = ['036000291452', '0036000291452', '00036000291452'].map((c) => validateGtin(c).normalized);
    expect(new Set(forms).size).toBe(1);
  });

  test('a UPC-E and its expanded UPC-A normalise equal', () => {
    expect(validateGtin('04252614').normalized).toBe(validateGtin('042100005264').normalized);
  });
});

describe('validateGtin: invalid codes', () => {
  test.each([
    ['036000291453', 'UPC-A', 'Check digit is 3 but should be 2 for this UPC-A barcode.'],
    ['4006381333932', 'EAN-13', 'Check digit is 2 but should be 1 for this EAN-13 barcode.'],
    ['96385075', 'EAN-8', 'Check digit is 5 but should be 4 for this EAN-8 barcode.'],
    ['10036000291450', 'GTIN-14', 'Check digit is 0 but should be 9 for this GTIN-14 barcode.'],
    ['04252615', 'UPC-E', 'Check digit is 5 but should be 4 for this UPC-E barcode.'],
  ])('%s (%s) has a wrong check digit', (code, format, reason) => {
    expect(validateGtin(code)).toEqual({ valid: false, normalized: null, format, reason });
  });

  test.each([['03600029145X'], ['0360 0029 145.2'], ['UPC036000291452']])('%s has non-digit characters', (code) => {
    const result = validateGtin(code);
    expect(result).toMatchObject({ valid: false, normalized: null, format: null });
    expect(result.reason).toContain('characters other than digits');
  });

  test.each([
    ['12345', 5],
    ['1234567890', 10],
    ['123456789012345', 15],
  ])('%s has the wrong length', (code, length) => {
    const result = validateGtin(code);
    expect(result).toMatchObject({ valid: false, normalized: null, format: null });
    expect(result.reason).toBe(
      `Barcode has ${length} digits; expected 8 (EAN-8 or UPC-E), 12 (UPC-A), 13 (EAN-13) or 14 (GTIN-14).`,
    );
  });

  test('a bare 6-digit UPC-E body is rejected with advice', () => {
    expect(validateGtin('425261').reason).toContain('Enter all 8 digits');
  });

  test('empty and all-zero codes are rejected', () => {
    expect(validateGtin('')).toMatchObject({ valid: false, reason: 'No barcode was given.' });
    expect(validateGtin('   ')).toMatchObject({ valid: false, reason: 'No barcode was given.' });
    expect(validateGtin('000000000000')).toMatchObject({
      valid: false,
      reason: 'Barcode is all zeros, which is not a valid GTIN.',
    });
  });
});

describe('GS1 helpers', () => {
  test('gs1CheckDigit computes the mod-10 check digit', () => {
    expect(gs1CheckDigit('03600029145')).toBe(2);
    expect(gs1CheckDigit('400638133393')).toBe(1);
    expect(gs1CheckDigit('9638507')).toBe(4);
  });

  test.each([
    ['04252614', '042100005264'], // last digit 0-2: manufacturer digits + last, product digits at the end
    ['01234565', '012345000065'], // last digit 5-9
    ['01234531', '012300000451'], // last digit 3
    ['01234543', '012340000053'], // last digit 4
  ])('expandUpcE(%s) = %s', (upcE, upcA) => {
    expect(expandUpcE(upcE)).toBe(upcA);
  });
});
