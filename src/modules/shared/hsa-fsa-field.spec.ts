import { HSA_FSA_CARD_FIELD, hsaFsaFieldOf, MERCHANT_PAGE_HSA_FSA_FIELD, nameHsaFsaField } from './hsa-fsa-field.js';

describe('the HSA/FSA card field', () => {
  test('a field, param or message naming it is renamed either way; any other field is left alone', () => {
    expect(nameHsaFsaField('hsa_fsa', HSA_FSA_CARD_FIELD)).toBe('hsa_fsa_card');
    expect(nameHsaFsaField('hsa_fsa.payment_method_data', HSA_FSA_CARD_FIELD)).toBe('hsa_fsa_card.payment_method_data');
    expect(nameHsaFsaField('hsa_fsa_card.number is required', MERCHANT_PAGE_HSA_FSA_FIELD)).toBe(
      'hsa_fsa.number is required',
    );
    expect(nameHsaFsaField('hsa_fsa_card', HSA_FSA_CARD_FIELD)).toBe('hsa_fsa_card');
    for (const other of ['card.number', 'hsa_fsa_eligible', 'lmn.attestation', 'the hsa_fsa card'])
      expect(nameHsaFsaField(other, HSA_FSA_CARD_FIELD)).toBe(other);
  });

  test('which name a path starts with', () => {
    expect(hsaFsaFieldOf('hsa_fsa_card.cvc')).toBe('hsa_fsa_card');
    expect(hsaFsaFieldOf('hsa_fsa')).toBe('hsa_fsa');
    expect(hsaFsaFieldOf('hsa_fsa_cards')).toBeNull();
    expect(hsaFsaFieldOf('card')).toBeNull();
  });
});
