/**
 * Products whose name cannot decide: the same words describe an eligible product and one that is not, and
 * what separates them (a Drug Facts panel, a medical grade, the contents of a set) is on the label, not in
 * the name. The answer is `requires_review`, so a person checks the label; never a guess of `eligible`.
 */
import type { EligibilityCategory } from './eligibility.types.js';
import { ALCOHOL_WORDS } from './eligibility-data.ineligible.js';

/**
 * Makeup nouns: a foundation, powder, primer or bronzer that states an SPF (even "broad spectrum", even "sunscreen") is
 * a cosmetic first; whether it carries a sunscreen's Drug Facts panel is on the label, not in the name.
 */
export const MAKEUP_NOUNS = [
  'foundation',
  'concealer',
  'primer',
  'bb cream',
  'cc cream',
  'skin tint',
  'setting spray',
  'setting powder',
  'loose powder',
  'pressed powder',
  'face powder',
  'powder foundation',
  'bronzer',
  'blush',
  'highlighter',
  'lipstick',
  'lip color',
  'lip gloss',
  'eyeshadow',
  'cushion compact',
];

export const REVIEW_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'cosmetics-with-spf',
    label: 'Cosmetics that state an SPF',
    status: 'requires_review',
    keywords: [
      'tinted moisturizer + spf',
      'tinted + spf',
      'skin tint + spf',
      'bb cream + spf',
      'cc cream + spf',
      'foundation + spf',
      'concealer + spf',
      'tint + spf',
      'powder + spf',
      'primer + spf',
      'moisturizer + spf',
      'moisturizing + spf',
      'face lotion + spf',
      'facial lotion + spf',
      'day cream + spf',
      'setting + spf',
      'cushion + spf',
      'compact + spf',
    ],
    // A product sold as a sunscreen (tinted or not) is decided by the sunscreen category.
    negative_keywords: ['sunscreen', 'sun screen', 'sunblock', 'sun block'],
    min_spf: 15,
    rationale:
      "Plan administrators' eligibility lists: a cosmetic that states an SPF is eligible only when it is sold as a broad-spectrum sunscreen of SPF 15+ (Drug Facts panel), which the name does not show",
  },
  {
    // Without the sunscreen negatives of `cosmetics-with-spf`: a "mineral sunscreen primer SPF 40" is makeup too.
    id: 'makeup-with-spf',
    label: 'Makeup that states an SPF',
    status: 'requires_review',
    keywords: MAKEUP_NOUNS.flatMap((noun) => [`${noun} + spf`, `${noun} + sunscreen`]),
    min_spf: 15,
    rationale:
      "Plan administrators' eligibility lists: makeup that states an SPF is eligible only when it is sold as a broad-spectrum sunscreen of SPF 15+ (Drug Facts panel), which the name does not show",
  },
  {
    id: 'medicated-or-everyday',
    label: 'Medicated or everyday care (medicated lip balm, healing ointment)',
    status: 'requires_review',
    keywords: [
      'healing balm',
      'lip balm + medicated',
      'lip ointment + medicated',
      'carmex',
      'blistex',
      'healing ointment',
      'skin protectant',
      'lip repair',
      // a first-aid brand's lip line: a lip treatment, not its antibiotic ointment
      'neosporin + lip',
      'lip + ointment',
      'restorative + cream',
      'protective + cream',
      'repair + balm + skin',
      'cicalfate',
      'cicaplast',
      'cica + balm',
      'bag balm',
      'udder + balm',
      'multi purpose + balm',
      'multipurpose + balm',
      'multipurpose + ointment',
      'superbalm',
      'lanolips',
      'healing + lip balm',
      'lip therapy + healing',
    ],
    // Petroleum jelly is decided by the lists (LMN); a lip product that states an SPF is a sunscreen.
    // A skin protectant that names the condition it treats (eczema, itch, rash) is an OTC medicine.
    negative_keywords: [
      'petroleum jelly',
      'petrolatum',
      // a zinc-oxide paste sold as a skin protectant is an OTC drug (diaper rash, incontinence skin care)
      'paste',
      'zinc oxide',
      'calamine',
      'jelly',
      'spf',
      'sunscreen',
      'eczema',
      'itch',
      'rash',
      'hair',
      'curl',
    ],
    rationale:
      'CARES Act 2020: an over-the-counter drug (one with a Drug Facts panel) is eligible without a prescription, but this kind of product is also sold as everyday hygiene or food, and the name does not show which',
  },
  {
    id: 'unclear-medical-purpose',
    label: 'Items whose medical purpose the name does not show',
    status: 'requires_review',
    keywords: [
      'anti snoring',
      'snoring',
      'snore',
      'anti snore',
      'mouth tape',
      'mouth strip',
      'sleep tape',
      'chin strap',
    ],
    rationale:
      'IRS Pub. 502: an item is medical care only when it is primarily for a medical condition; this one is also sold for comfort, and the name does not say which',
  },
  {
    id: 'gift-sets',
    label: 'Gift sets & baskets',
    status: 'requires_review',
    keywords: ['gift set', 'gift basket', 'gift box'],
    // A gift box of food, drink or toys holds nothing that could qualify: it is decided as what it holds.
    negative_keywords: [
      ...ALCOHOL_WORDS,
      'hot sauce',
      'sauce',
      'chocolate',
      'candy',
      'snack',
      'cookie',
      'coffee',
      'cheese',
      'popcorn',
      'jerky',
      'bbq',
      'seasoning',
      'spice',
      'hot wheels',
      'lego',
      'toy',
    ],
    rationale:
      'IRS Pub. 502: each item of a set must qualify on its own, and a gift set mixes items its name does not list',
  },
];
