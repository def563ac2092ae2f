/**
 * A recall audit of the family aisles (baby and maternity, kids' health, dental, vision, hearing, skin), written from no
 * labelled set: the supplies a catalog names in words the other tables did not read (Spanish-English store titles of
 * lactation, postpartum, baby, lens, hearing and lice care; colostrum collectors; postpartum mesh underwear; diaper
 * creams and nappy creams; toric and scleral lenses; night mouth guards; antiseptic wipes), and the everyday goods that
 * share their words (pumping bras and bustiers, teething toys, lice sprays for bedding, swimming earplugs).
 */
import { FSA_STORE, HSA_STORE, type EligibilityCategory } from './eligibility.types.js';
import { EVERYDAY_LOOK_ALIKES, PET_WORDS_ES } from './eligibility-data.look-alikes.js';

// "Termómetro de cocina", "audífonos bluetooth" (headphones), "champú para perros": what the title is decides.
// Sump, pool, tyre and soap pumps share "pump" with a breast pump's inserts and flanges.
const PUMPS_NOT_FOR_MILK = [
  'sump',
  'water pump',
  'air pump',
  'pool',
  'tire',
  'bike',
  'fuel',
  'soap',
  'lotion pump',
  'shoe',
];

const NOT_FAMILY_CARE_ES = [
  'cocina',
  'carne',
  'horno',
  'bano',
  'piscina',
  'agua',
  'juguete',
  'bluetooth',
  'inalambrico',
  ...PET_WORDS_ES,
];

export const FAMILY_ELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'family-care-spanish',
    label: 'Lactation, postpartum, baby, lens, hearing and lice care (Spanish-language titles)',
    status: 'eligible',
    keywords: [
      'extractor de leche',
      'sacaleche',
      'bomba de lactancia',
      'leche materna + bolsa',
      'leche materna + almacenamiento',
      'almohadilla de lactancia',
      'protectores de lactancia',
      'disco de lactancia',
      'pezonera',
      'crema para pezon',
      'toallas posparto',
      'toallas de maternidad',
      'aspirador nasal',
      'lentes de contacto',
      'solucion para lente',
      'lentes de lectura',
      'pilas para audifono',
      'baterias para audifono',
      'aparato auditivo',
      'piojo',
      'antipiojo',
      'liendre',
      'cera de oido',
      'cerumen',
    ],
    negative_keywords: NOT_FAMILY_CARE_ES,
    rationale:
      'IRS Pub. 502: breast pumps and lactation supplies (IRS Ann. 2011-14), postpartum supplies, diagnostic thermometers and nasal aspirators, contact lenses and their solutions, reading glasses, hearing-aid batteries and lice and ear-wax treatments (CARES Act 2020), whatever language the title is in',
  },
  {
    id: 'lactation-supplies-by-name',
    label: 'Colostrum collectors, nursing trainers and bra pads',
    status: 'eligible',
    // "colostrum" alone is a bovine supplement; a collector, container or syringe for it is a lactation supply
    keywords: [
      'colostrum + collector',
      'colostrum + collection',
      'colostrum + container',
      'colostrum + syringe',
      'colostrum + catcher',
      'nursing trainer',
      'supplemental nursing',
      'nursing bra pad',
      'pumping bra pad',
      'nipple + everter',
      'nipple corrector',
      'nipple shaper',
      'latch assist',
      'pump + insert',
      'flange + insert',
    ],
    negative_keywords: [
      ...PUMPS_NOT_FOR_MILK,
      'bovine',
      'supplement',
      'capsule',
      'powder',
      'gummy',
      'chewable',
      'tablet',
    ],
    rationale:
      'IRS Pub. 502 (and Ann. 2011-14): supplies that assist lactation (colostrum collectors, supplemental nursing systems, nursing pads)',
  },
  {
    id: 'postpartum-recovery-wear',
    label: 'Postpartum mesh underwear and C-section recovery kits',
    status: 'eligible',
    keywords: [
      'postpartum + mesh',
      'postpartum + panty + disposable',
      'c section + recovery kit',
      'c section + recovery set',
      'cesarean + recovery kit',
    ],
    negative_keywords: EVERYDAY_LOOK_ALIKES,
    rationale: `${FSA_STORE}: postpartum recovery supplies (disposable mesh underwear, recovery kits) treat the effects of childbirth`,
  },
  {
    id: 'diaper-rash-creams',
    label: 'Diaper creams and ointments',
    status: 'eligible',
    // "diaper" alone is baby gear; a cream, paste or ointment for the diaper area is a skin protectant for diaper rash
    keywords: [
      'diaper cream',
      'diaper ointment',
      'diaper paste',
      'diaper rash',
      'diaper + zinc oxide',
      'nappy cream',
      'nappy rash',
      'barrier cream + diaper',
    ],
    // creams of calendula and other botanicals are often sold without a Drug Facts panel; applicators are baby gear
    negative_keywords: ['calendula', 'applicator', 'spatula', 'brush', 'dispenser', 'wipe', 'wash', 'bag', 'caddy'],
    rationale: `${FSA_STORE}: diaper rash creams and ointments (zinc oxide skin protectants, CARES Act 2020 OTC medicines)`,
  },
  {
    id: 'lice-molluscum-by-name',
    label: 'Lice and molluscum treatments by their trade words',
    status: 'eligible',
    keywords: ['pediculicide', 'pediculicide + shampoo', 'lice removal', 'nit removal', 'lice + killing', 'molluscum'],
    // lice powders and dusts for birds and livestock are veterinary
    negative_keywords: ['poultry', 'chicken', 'bird', 'livestock', 'cattle', 'horse', 'dog', 'cat', 'pet'],
    rationale:
      'CARES Act 2020 (§3702): over-the-counter pediculicides, lice-removal products and molluscum treatments are OTC medicines',
  },
  {
    id: 'contact-lenses-by-type',
    label: 'Contact lenses by type and lens tools',
    status: 'eligible',
    keywords: [
      'toric',
      'scleral',
      'lens + plunger',
      'lens + inserter',
      'protein remover + lens',
      'progent',
      'precision1',
      'myday',
      'proclear',
      'avaira',
      'clariti',
      'soflens',
      'purevision',
      'contact case',
      'for presbyopia',
      'infuse one day',
    ],
    rationale:
      'IRS Pub. 502: contact lenses and the materials and equipment needed to use them (astigmatism and scleral lenses, their removers and inserters)',
  },
  {
    id: 'night-mouth-guards',
    label: 'Night mouth guards for grinding and TMJ',
    status: 'eligible',
    keywords: [
      'night + mouth guard',
      'night + mouthguard',
      'tmj + guard',
      'tmj + mouth guard',
      'clenching + guard',
      'grinding + mouth guard',
      'grinding + mouthguard',
    ],
    negative_keywords: ['sport', 'football', 'hockey', 'boxing', 'mma', 'lacrosse', 'rugby', 'case'],
    rationale: `${FSA_STORE}: dental guards for teeth grinding, clenching and TMJ are dental appliances`,
  },
  {
    id: 'antiseptic-wipes',
    label: 'Antiseptic first-aid wipes',
    status: 'eligible',
    keywords: ['antiseptic cleansing wipe', 'antiseptic + wipe', 'antiseptic + towelette'],
    negative_keywords: ['surface', 'household', 'kitchen', 'screen', 'lens', 'pet', 'dog', 'cat', 'makeup'],
    rationale:
      'IRS Pub. 502: first-aid supplies for cleaning wounds (antiseptic wipes and towelettes, CARES Act 2020 OTC antiseptics)',
  },
  {
    id: 'morning-sickness-bands',
    label: 'Acupressure bands for morning sickness',
    status: 'eligible',
    keywords: ['morning sickness + band', 'morning sickness + wristband', 'morning sickness + bracelet'],
    negative_keywords: ['candy', 'lollipop', 'drop', 'tea', 'gummy', 'lozenge'],
    rationale: `${FSA_STORE}: acupressure wristbands for nausea, morning sickness included`,
  },
];

export const FAMILY_LMN_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'swimming-earplugs',
    label: 'Swimming earplugs',
    status: 'requires_lmn',
    // "swimmer's ear" names the ear drops' condition; plugs that keep water out are earplugs
    keywords: [
      'swimmers ear + plug',
      'swimmers ear + earplug',
      'swim + ear plug',
      'swim + earplug',
      'swimming + earplug',
    ],
    rationale: `${HSA_STORE}: earplugs are eligible with a letter of medical necessity`,
  },
];

export const FAMILY_INELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'nursing-wear-teething-toys',
    label: 'Nursing and pumping wear, teething toys',
    status: 'not_eligible',
    keywords: [
      // a lactation brand's name does not make its wear a supply
      'pumping bustier',
      'pumping tank',
      'pumping cami',
      'nursing tank',
      'nursing cami',
      'nursing top',
      'nursing gown',
      'nursing nightgown',
      'teething key',
    ],
    // "nursing tank pads" are nursing pads
    negative_keywords: ['pad'],
    rationale:
      'IRS Pub. 502: clothing and toys are personal items, not medical care (nursing and pumping bras, nursing pillows and teething toys are baby gear)',
  },
  {
    id: 'costume-contact-lenses',
    label: 'Costume and cosmetic contact lenses',
    status: 'not_eligible',
    keywords: [
      'halloween + contact',
      'costume + contact',
      'cosplay + contact',
      'cosmetic + contact + lens',
      'halloween + contact + lens',
      'costume + contact + lens',
      'crazy + contact + lens',
    ],
    rationale:
      'IRS Pub. 502: only lenses that correct vision are medical care; costume and cosmetic lenses are personal items',
  },
  {
    id: 'breast-pump-bags',
    label: 'Breast pump bags and totes',
    status: 'not_eligible',
    // "pump with tote bag" is the pump; milk storage bags are supplies
    keywords: ['pump tote', 'pump bag', 'pump backpack', 'pump carry bag', 'pump carrying bag'],
    negative_keywords: ['milk', 'storage', 'freezer', 'breastmilk'],
    rationale: 'IRS Pub. 502: bags and totes are personal items, not supplies that assist lactation',
  },
  {
    id: 'lice-home-sprays',
    label: 'Lice sprays and dusts for bedding, furniture and poultry',
    status: 'not_eligible',
    keywords: [
      'lice + bedding + spray',
      'lice + furniture + spray',
      'lice + home + spray',
      'lice + mattress + spray',
      'lice + laundry + additive',
      'lice + laundry + treatment',
      'poultry + lice',
      'chicken + lice',
      'livestock + lice',
    ],
    rationale:
      'IRS Pub. 502: household and poultry insecticides for bedding, furniture and coops are not medical care (only pediculicides used on the person are OTC medicines)',
  },
];
