/**
 * A recall audit of brand-led titles, written from no labelled set: the product kinds and makers whose titles often
 * carry no generic noun the other tables know (electric wheelchairs, hip protectors, hemostatic sponges, migraine devices,
 * low-vision and bath-safety makers, gut-health and numbered supplement lines), and the everyday goods whose names
 * share a medical word (a "Calcium Lime & Rust" remover, a hydrogen-peroxide surface cleaner, mushroom coffee, a face
 * device of a massage-gun maker, intimate toys).
 */
import { FSA_STORE, HSA_STORE, type EligibilityCategory } from './eligibility.types.js';
import { EVERYDAY_LOOK_ALIKES } from './eligibility-data.look-alikes.js';

// Impact shorts for skiing, skating or hockey are sports gear, not fall protection for the frail.
const SPORTS_PADDING = ['snowboard', 'ski', 'skate', 'skating', 'hockey', 'football', 'motocross', 'padded short'];

// Books and media about a supplement's subject are not the supplement.
const PRINT_AND_MEDIA = ['book', 'cookbook', 'paperback', 'hardcover', 'kindle', 'audiobook', 'dvd', 'journal'];

const SUPPLEMENT_RULE = `${HSA_STORE}: dietary supplements are eligible only with a letter of medical necessity for a specific condition`;

export const BRAND_RECALL_ELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'mobility-safety-kinds',
    label: 'Electric wheelchairs, hip protectors, hemostatic dressings and migraine devices named by kind',
    status: 'eligible',
    keywords: [
      'electric wheelchair',
      'hip protector',
      'hip protector brief',
      'hip protection underwear',
      'hip protection brief',
      'clotting sponge',
      'clotting gauze',
      'hemostatic sponge',
      'quikclot',
      'celox',
      'bleeding stopper',
      'blood clotting powder',
      'woundseal',
      'migraine treatment device',
      'migraine device',
      'migraine headset',
      'cefaly',
    ],
    negative_keywords: [...SPORTS_PADDING, ...EVERYDAY_LOOK_ALIKES],
    rationale:
      'IRS Pub. 502: wheelchairs and other equipment to relieve a disability, medical supplies that stop bleeding and devices that treat a diagnosed condition such as migraine are medical care',
  },
];

export const BRAND_RECALL_LMN_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'supplement-lines',
    label: 'Gut-health and numbered supplement lines',
    status: 'requires_lmn',
    keywords: [
      'leaky gut',
      'gut lining',
      // a urinary-pain brand's cranberry line is a supplement, not its analgesic
      'cranberry complex',
      // numbered lines whose number names the formula ("Solgar No. 7" joint formula, "Formula 303" relaxant)
      'solgar no 7',
      'formula 303',
    ],
    negative_keywords: PRINT_AND_MEDIA,
    rationale: SUPPLEMENT_RULE,
  },
];

export const BRAND_RECALL_INELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'household-mineral-cleaners',
    label: 'Lime, scale, rust and surface cleaners and air sanitizers',
    status: 'not_eligible',
    keywords: [
      'calcium lime',
      'lime calcium',
      'lime and rust',
      'rust remover',
      'rust stain',
      'rust cleaner',
      'limescale remover',
      'multi purpose cleaner',
      'multipurpose cleaner',
      'multi surface cleaner',
      'air sanitizer',
      'air sanitizer spray',
    ],
    rationale:
      'IRS Pub. 502: household cleaners are personal and household items, not medical care, even when they name a mineral or a disinfectant',
  },
  {
    id: 'brand-look-alike-goods',
    label: 'Foods, beauty devices and intimate toys sold by health brands',
    status: 'not_eligible',
    keywords: [
      'mushroom coffee',
      'ground coffee',
      'organic protein',
      'bone broth protein',
      'coconut oil',
      'xylitol granule',
      'xylitol sweetener',
      'foaming bath',
      'foam bath',
      'theraface',
      'intimate massager',
      'couples massager',
      'sex toy',
      'adult toy',
      'rabbit vibrator',
      'wand vibrator',
      'couples vibrator',
    ],
    // Coconut oil in capsules is sold as a supplement.
    negative_keywords: ['softgel', 'capsule'],
    rationale: `${FSA_STORE}: food, cosmetic devices and sexual-wellness toys are personal-use items, not medical care`,
  },
];

export const BRAND_RECALL_BRAND_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'equipment-makers-recall',
    label: 'Makers of low-vision, bath-safety, mobility and therapy-wrap equipment',
    status: 'eligible',
    brand: true,
    keywords: [
      'enhanced vision',
      'freedom scientific',
      'orcam',
      'optelec',
      'humanware',
      'healthcraft',
      'elasto gel',
      'karman healthcare',
    ],
    rationale:
      'IRS Pub. 502: special equipment for the visually impaired, bathroom safety rails and poles, wheelchairs and hot or cold therapy wraps are medical equipment',
  },
  {
    id: 'supplement-makers-recall',
    label: 'Practitioner supplement makers',
    status: 'requires_lmn',
    brand: true,
    keywords: ['amy myers md', 'amy myers'],
    negative_keywords: PRINT_AND_MEDIA,
    rationale: SUPPLEMENT_RULE,
  },
];
