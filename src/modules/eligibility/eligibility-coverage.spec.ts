import { checkEligibility, type EligibilityStatus } from './eligibility.engine.js';

type Case = [name: string, status: EligibilityStatus, category: string];

// Coverage from the public lists' category trees (eligibility-data.taxonomy.ts) and brand tables
// (eligibility-data.brands.ts): a broad category decides a product type no specific category names, and a specific
// category of the same status is cited when both match; a brand decides only when no product type does; what follows
// "with" qualifies the product rather than naming it.
const CASES: Case[] = [
  ['Sterile Calcium Alginate Dressing', 'eligible', 'first-aid-supplies'],
  ['Post-Op Shoe, Medium', 'eligible', 'orthopedic-supports'],
  ['Reacher Grabber 32 in', 'eligible', 'daily-living-mobility'],
  ['TENS + EMS Therapy System', 'eligible', 'tens-pain-devices'],
  ['Overnight Protective Underwear, Large', 'eligible', 'incontinence'],
  ['Bladder Shields Light Absorbency', 'eligible', 'incontinence-products'],
  ['Bumper Plates Pair, 25 lb', 'requires_lmn', 'fitness-equipment-types'],
  ['Hair Ties, 20 pack', 'not_eligible', 'personal-care-items'],
  ['Folding Walker with Wheels, Drive Medical', 'eligible', 'mobility-aids'],
  ['Saline Nasal Gel with Aloe', 'eligible', 'nasal-care'],
  ['Coppertone Water Babies Lotion', 'eligible', 'sunscreen-brands'],
  ['Garden of Life Protein Powder', 'not_eligible', 'fitness'],
  ['Bowflex SelectTech 1090', 'requires_lmn', 'fitness-brands'],
  // "Multi-symptom relief" is a cold medicine when it names the symptoms; for menopause it is a supplement.
  ['Multi-Symptom Cold Relief Liquid, 8 fl oz', 'eligible', 'cold-flu-cough'],
  ['Menopause Multi-Symptom Relief Softgels, 30 ct', 'requires_lmn', 'supplement-types'],
  // A flavour or "sugar-free" does not make a medicine food.
  ['Honey Nighttime Cough Syrup, 6 fl oz', 'eligible', 'cold-flu-cough'],
  ["Sugar-Free Children's Allergy Relief Syrup, Cherry", 'eligible', 'allergy-relief'],
  ['Sugar Free Maple Syrup', 'not_eligible', 'food-drink-types'],
  // An aloe gel that states an SPF is a sunscreen.
  ['Aloe Sun Protection Gel SPF 30, 8 oz', 'eligible', 'sunscreen'],
  ['Stool Occult Blood Test, 3 ct', 'eligible', 'diagnostic-kits-monitors'],
  ['Home Lipid Panel Analyzer', 'eligible', 'diagnostic-kits-monitors'],
  ['Oscillating PEP Therapy Device', 'eligible', 'respiratory-and-sleep-therapy'],
  ['Tremor Stabilizing Spoon', 'eligible', 'daily-living-mobility'],
  ['Weighted Throw Blanket 15 lb, Grey', 'requires_lmn', 'orthopedic-shoes-bedding'],
  ['Electrolyte Drops Unflavored, 4 fl oz', 'requires_lmn', 'electrolyte-mixes'],
  ['Preemie Infant Formula Powder, 12 oz', 'requires_lmn', 'specialised-infant-formula'],
  ['Smart Ring Sleep Tracker, Size 9', 'requires_lmn', 'exercise-equipment'],
  ['Restorative Skin Protective Cream, 40 ml', 'requires_review', 'medicated-or-everyday'],
];

describe('checkEligibility by name: broad categories, brands and the head of a name', () => {
  test.each(CASES)('%s → %s (%s)', (name, status, category) => {
    const result = checkEligibility({ name });
    expect(result.status).toBe(status);
    expect(result.category).toBe(category);
    expect(result.source).toBe('name');
  });

  // "aloe vera" (two words) outweighs "bandage" (one): only the head rule keeps the bandage the product.
  test('the product named before "with" decides over a longer phrase after it', () => {
    expect(checkEligibility({ name: 'Aloe Vera Gel' }).status).toBe('requires_lmn');
    expect(checkEligibility({ name: 'Bandages with Aloe Vera, 20 ct' })).toMatchObject({
      status: 'eligible',
      category: 'bandages-wound-care',
    });
  });
});
