/**
 * Categories that the administrators' item-by-item lists decide by name (FSA Store and HSA Store; HealthEquity
 * links its members to the latter): eligible ones, and the not-eligible neighbours they are told apart from.
 */
import { FSA_STORE, HSA_STORE, type EligibilityCategory } from './eligibility.types.js';

export const LISTED_ELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'prenatal-vitamins',
    label: 'Prenatal vitamins',
    status: 'eligible',
    keywords: ['prenatal', 'prenatal vitamin', 'prenatal multivitamin', 'prenatal + dha', 'pregnancy multivitamin'],
    negative_keywords: ['pet', 'dog', 'cat', 'massage', 'yoga', 'pillow'],
    rationale: `${HSA_STORE}: prenatal vitamins are eligible without a letter (they prevent birth defects and support fetal development)`,
  },
  {
    id: 'joint-supplements',
    label: 'Glucosamine & chondroitin',
    status: 'eligible',
    keywords: ['glucosamine', 'chondroitin', 'glucosamine + chondroitin', 'glucosamine + msm'],
    negative_keywords: ['pet', 'dog', 'cat', 'horse', 'equine'],
    rationale: `${HSA_STORE}: glucosamine and chondroitin supplements are listed eligible (they treat arthritis)`,
  },
  {
    id: 'oral-rehydration',
    label: 'Oral rehydration solutions',
    status: 'eligible',
    keywords: [
      'oral rehydration',
      'rehydration salt',
      'rehydration solution',
      'oral electrolyte',
      'electrolyte solution',
      'ors + electrolyte',
      'ors + rehydration',
      'pedialyte',
    ],
    rationale: `${HSA_STORE}: electrolyte replacements that prevent or treat dehydration, without added supplements, are eligible`,
  },
  {
    id: 'epsom-salt',
    label: 'Epsom salt',
    status: 'eligible',
    keywords: ['epsom salt', 'epsom', 'magnesium sulfate'],
    negative_keywords: ['bath bomb', 'foaming bath', 'bubble bath', 'body wash', 'candle'],
    rationale: `${FSA_STORE}: Epsom salt (magnesium sulfate) is eligible`,
  },
  {
    id: 'pill-organizers',
    label: 'Pill boxes & organisers',
    status: 'eligible',
    keywords: [
      'pill organizer',
      'pill organiser',
      'pill box',
      'pill case',
      'pill reminder',
      'pill dispenser',
      'pill clock',
      'pill container',
      'medication organizer',
      'medicine organizer',
      'pill + organizer',
      'pill + box',
    ],
    rationale: `${FSA_STORE}: pill boxes and pill clocks are eligible medical supplies`,
  },
  {
    id: 'eyelid-care',
    label: 'Eyelid cleansers & warm eye compresses',
    status: 'eligible',
    keywords: ['eyelid', 'lid scrub', 'lid wipe', 'lid cleanser', 'blepharitis', 'eye compress', 'warm compress + eye'],
    // Eyelid cosmetics (primers, shadows, lifting tape) are not eyelid care.
    negative_keywords: ['primer', 'shadow', 'eyeshadow', 'makeup', 'tape', 'glue', 'lift', 'concealer'],
    rationale: `${FSA_STORE}: eyelid cleansers and warm eye compresses treat blepharitis and dry eye`,
  },
  {
    id: 'reflux-wedge-pillows',
    label: 'Anti-reflux wedge pillows',
    status: 'eligible',
    keywords: ['reflux + wedge', 'acid reflux + wedge', 'gerd + wedge', 'heartburn + wedge'],
    rationale: `${FSA_STORE}: bed wedges that raise the upper body to treat acid reflux are eligible`,
  },
];

export const LISTED_INELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'beauty-supplements',
    label: 'Beauty supplements (hair, skin & nails)',
    status: 'not_eligible',
    keywords: [
      'hair skin and nail',
      'hair skin nail',
      'skin and nail',
      'hair vitamin',
      'hair gummy',
      'hair + gummy',
      'beauty + gummy',
      'beauty + supplement',
      'beauty + biotin',
      'beauty + collagen',
      'hair growth + supplement',
      'hair + supplement',
      'hair + biotin',
    ],
    // "Skin and nail" antifungals and eczema or psoriasis treatments are OTC medicines.
    negative_keywords: ['fungal', 'fungus', 'antifungal', 'eczema', 'psoriasis'],
    rationale:
      'IRS Pub. 502: supplements taken for hair, skin and nails are cosmetic, not treatment of a specific condition',
  },
  {
    id: 'insect-repellent',
    label: 'Insect repellent (without sunscreen)',
    status: 'not_eligible',
    keywords: [
      'insect repellent',
      'bug spray',
      'bug repellent',
      'mosquito repellent',
      'tick repellent',
      'deet',
      'picaridin',
      'lemon eucalyptus + repellent',
    ],
    negative_keywords: ['spf', 'sunscreen', 'sunblock'],
    rationale: `${FSA_STORE}: insect repellent is not eligible unless it is combined with a sunscreen of SPF 15 or more`,
  },
];
