/**
 * Dual-purpose products: eligible only with a Letter of Medical Necessity (LMN) from a practitioner who
 * recommends them to treat a specific diagnosed condition.
 */
import type { EligibilityCategory } from './eligibility.types.js';

// Skin-care and hair-care forms of vitamins and supplements ("vitamin C serum") are cosmetics, not supplements.
const TOPICAL_FORMS = [
  'serum',
  'cream',
  'lotion',
  'vitamin e oil',
  'moisturizer',
  'shampoo',
  'conditioner',
  'body wash',
  'face wash',
  'cleanser',
  'toner',
  'skin care',
  'lip',
  'mask',
  'water',
];

// Supplements sold for animals are pet products, never a qualified medical expense for the account holder.
const PET_TERMS = ['pet', 'dog', 'puppy', 'kitten', 'for cats'];

export const NOT_FOR_PEOPLE = [...TOPICAL_FORMS, ...PET_TERMS];

// Supplements that administrators list eligible without a letter (eligibility-data.listed.ts).
const LISTED_ELSEWHERE = ['prenatal', 'glucosamine', 'chondroitin', 'cosamin', 'osteo bi flex'];

export const LMN_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'vitamins-minerals',
    label: 'Vitamins & minerals',
    status: 'requires_lmn',
    keywords: [
      'vitamin',
      'multivitamin',
      'multi vitamin',
      'multi gummy',
      'daily multi',
      'multi + for man',
      'multi + for woman',
      'multi + gummies',
      'iron tablet',
      'slow release iron',
      'ferrous sulfate',
      'zinc + tablet',
      'zinc + capsule',
      'magnesium + tablet',
      'magnesium + capsule',
      'selenium',
      'potassium',
      'chromium',
      'iodine',
      'magnesium',
      'calcium',
      'b12',
      'methylcobalamin',
      'vitamin d',
      'vitamin c',
      'vitamin b12',
      'b complex',
      'biotin',
      'folic acid',
      'calcium supplement',
      'calcium + vitamin d',
      'iron supplement',
      'zinc supplement',
      'magnesium supplement',
      'magnesium glycinate',
      'potassium supplement',
      'centrum',
      'one a day',
      'nature made',
      'vitafusion',
      'emergen c',
    ],
    // Prenatal vitamins and glucosamine are listed eligible; antacids, Epsom salt and zinc-oxide creams are not supplements.
    negative_keywords: [
      ...NOT_FOR_PEOPLE,
      ...LISTED_ELSEWHERE,
      'laxative',
      'antacid',
      'heartburn',
      'zinc oxide',
      'epsom',
      'sulfate',
      // a proton-pump inhibitor's magnesium salt and a saline laxative are medicines
      'omeprazole',
      'esomeprazole',
      'oral solution',
      'saline laxative',
    ],
    rationale:
      'IRS Pub. 502: vitamins and nutritional supplements are medical care only when a practitioner recommends them to treat a specific diagnosed condition',
  },
  {
    id: 'dietary-supplements',
    label: 'Herbal & dietary supplements',
    status: 'requires_lmn',
    keywords: [
      'supplement',
      'dietary supplement',
      'herbal supplement',
      'melatonin',
      'elderberry',
      'sambucol',
      'echinacea',
      'turmeric',
      'curcumin',
      'ashwagandha',
      'collagen',
      'coq10',
      'fiber supplement',
      'cranberry pill',
      'azo cranberry',
      'digestive enzyme',
      'milk thistle',
      'alpha lipoic acid',
      'immune support',
      'greens powder',
    ],
    negative_keywords: [...NOT_FOR_PEOPLE, ...LISTED_ELSEWHERE],
    rationale:
      'IRS Pub. 502: herbal and nutritional supplements are medical care only when a practitioner recommends them to treat a specific diagnosed condition',
  },
  {
    id: 'probiotics',
    label: 'Probiotics',
    status: 'requires_lmn',
    keywords: [
      'probiotic',
      'prebiotic',
      'synbiotic',
      'postbiotic',
      'culturelle',
      'florastor',
      'acidophilus',
      'lactobacillus',
    ],
    negative_keywords: NOT_FOR_PEOPLE,
    rationale:
      "IRS Pub. 502: probiotics are nutritional supplements, eligible only with a practitioner's recommendation for a diagnosed condition",
  },
  {
    id: 'fish-oil-omega-3',
    label: 'Fish oil & omega-3',
    status: 'requires_lmn',
    keywords: ['fish oil', 'omega', 'omega 3', 'krill oil', 'cod liver oil', 'algal oil', 'dha supplement', 'epa'],
    negative_keywords: [...NOT_FOR_PEOPLE, 'watch'],
    rationale:
      "IRS Pub. 502: fish oil is a nutritional supplement, eligible only with a practitioner's recommendation for a diagnosed condition",
  },
  {
    id: 'weight-loss',
    label: 'Weight-loss programs & products',
    status: 'requires_lmn',
    keywords: [
      'weight loss',
      'weight loss program',
      'diet pill',
      'fat burner',
      'appetite suppressant',
      'garcinia',
      'hydroxycut',
      'weight watchers',
    ],
    negative_keywords: ['scale'],
    rationale:
      'IRS Pub. 502: weight loss is medical care only as treatment for a specific disease diagnosed by a physician (e.g. obesity, hypertension); diet food is never eligible',
  },
  {
    id: 'massage-devices',
    label: 'Massage devices',
    status: 'requires_lmn',
    keywords: [
      'massager',
      'massage gun',
      'massage chair',
      'massage cushion',
      'percussion massager',
      'shiatsu',
      'theragun',
      'hypervolt',
    ],
    rationale:
      'IRS Pub. 502: a dual-purpose comfort item is medical care only when a practitioner prescribes it for a diagnosed condition (letter of medical necessity)',
  },
  {
    id: 'air-purifiers',
    label: 'Air purifiers',
    status: 'requires_lmn',
    keywords: ['air purifier', 'air cleaner', 'hepa purifier', 'purifier filter'],
    negative_keywords: ['vacuum', 'furnace', 'water'],
    rationale:
      'IRS Pub. 502: a household appliance is medical care only when its main purpose is medical care; a letter of medical necessity for a diagnosed condition such as asthma or allergies is required',
  },
  {
    id: 'humidifiers',
    label: 'Humidifiers, vaporizers & dehumidifiers',
    status: 'requires_lmn',
    keywords: ['humidifier', 'dehumidifier', 'cool mist', 'warm mist', 'steam vaporizer', 'vaporizer'],
    negative_keywords: ['herb', 'wax', 'cannabis', 'vape'],
    rationale:
      'IRS Pub. 502: a household appliance is medical care only when its main purpose is medical care; a letter of medical necessity for a diagnosed respiratory condition is required',
  },
  {
    id: 'orthopedic-shoes-bedding',
    label: 'Orthopedic shoes, bedding & weighted blankets',
    status: 'requires_lmn',
    keywords: [
      'orthopedic + shoe',
      'orthotic + shoe',
      'diabetic + shoe',
      'orthopedic + sneaker',
      'orthopedic + pillow',
      'cervical + pillow',
      'neck + pillow',
      'knee pillow',
      'leg pillow',
      'contour + pillow',
      'therapeutic + pillow',
      'pain + pillow',
      'wedge pillow',
      'orthopedic + mattress',
      'adjustable bed',
      'weighted blanket',
    ],
    negative_keywords: ['reflux', 'gerd', 'heartburn', 'rail'],
    rationale:
      'IRS Pub. 502: ordinary-use items (footwear, bedding, weighted blankets) qualify only when a practitioner prescribes them for a condition; a letter of medical necessity is required',
  },
];
