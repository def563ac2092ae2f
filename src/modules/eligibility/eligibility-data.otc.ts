/**
 * Over-the-counter care a drugstore's aisles carry under names the other tables do not read: Spanish-language store
 * titles (a bilingual chain's "Ibuprofeno 200 mg Tabletas", "Toallas Femeninas"), medicines named by their form or
 * use alone ("topical anesthetic", "spot treatment"), wound and blister supplies by their trade nouns, sunscreens
 * named by form, and the novelties and merchandise that borrow a medicine's words.
 */
import type { EligibilityCategory } from './eligibility.types.js';
import { FSA_STORE } from './eligibility.types.js';
import { MAKEUP_NOUNS } from './eligibility-data.review.js';

const CARES_OTC = 'CARES Act 2020 (§3702): over-the-counter medicines are eligible without a prescription';

// "Té para la tos" is a tea, "Shampoo para perros" a pet product: what the name is decides, not the use it names.
const NOT_A_MEDICINE_ES = ['te', 'tea', 'infusion', 'perro', 'gato', 'mascota', 'pet', 'dog'];

export const OTC_ELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'otc-medicines-spanish',
    label: 'OTC medicines (Spanish-language titles)',
    status: 'eligible',
    keywords: [
      'ibuprofeno',
      'acetaminofen',
      'paracetamol',
      'naproxeno',
      'aspirina',
      'analgesico',
      'alivio del dolor',
      'antihistaminico',
      'loratadina',
      'cetirizina',
      'fexofenadina',
      'difenhidramina',
      'alivio de alergia',
      'para la alergia',
      'jarabe para la tos',
      'para la tos',
      'antitusivo',
      'expectorante',
      'descongestionante',
      'antiacido',
      'laxante',
      'antidiarreico',
      'hidrocortisona',
      'antimicotico',
      'clotrimazol',
      'miconazol',
      'rozadura',
      'gotas para los ojos',
      'gotas oftalmica',
      'lagrimas artificiales',
      'gotas para los oido',
    ],
    negative_keywords: NOT_A_MEDICINE_ES,
    rationale: `${CARES_OTC} (pain and fever, cold and cough, allergy, antacid, laxative, anti-itch, antifungal, diaper rash and eye care medicines, whatever language the title is in)`,
  },
  {
    id: 'menstrual-care-spanish',
    label: 'Menstrual care (Spanish-language titles)',
    status: 'eligible',
    keywords: [
      'toallas femenina',
      'toallas sanitaria',
      'tampones',
      'protectores diario',
      'copa menstrual',
      'disco menstrual',
      'ropa interior menstrual',
    ],
    rationale:
      'CARES Act 2020 (§3702): menstrual care products (pads, tampons, liners, cups) are qualified medical expenses',
  },
  {
    id: 'family-planning-spanish',
    label: 'Condoms and pregnancy tests (Spanish-language titles)',
    status: 'eligible',
    // "preservativo" is left out: "sin preservativos" is a food label's "no preservatives"
    keywords: ['condones', 'condon', 'prueba de embarazo', 'prueba de ovulacion', 'anticonceptivo'],
    rationale:
      'IRS Pub. 502: birth control (condoms, contraceptives) and diagnostic devices such as pregnancy and ovulation tests are medical care',
  },
  {
    id: 'first-aid-spanish',
    label: 'First aid supplies (Spanish-language titles)',
    status: 'eligible',
    // "gasa" alone is also chiffon ("vestido de gasa"): only sterile gauze and gauze pads are read
    keywords: [
      'vendas adhesiva',
      'venda elastica',
      'curitas',
      'gasa esteril',
      'gasa esteriles',
      'almohadillas de gasa',
      'botiquin',
      'primeros auxilios',
    ],
    negative_keywords: NOT_A_MEDICINE_ES,
    rationale: 'IRS Pub. 502: bandages, gauze and first aid kits are medical supplies',
  },
  {
    id: 'otc-medicines-by-use',
    label: 'OTC medicines named by use or brand',
    status: 'eligible',
    keywords: [
      'topical anesthetic',
      'topical anaesthetic',
      'hurricaine',
      'acne + spot treatment',
      'blemish + spot treatment',
      'maximum action spot treatment',
      'seborrheic dermatitis cream',
      'seborrheic dermatitis ointment',
      'burn relief gel',
      'burn relief spray',
      'solarcaine',
      'glycolax',
      'cruex',
      'aller fex',
      'aller tec',
      'aller flo',
    ],
    negative_keywords: ['dark spot', 'age spot', 'carpet', 'lawn', 'pet', 'dog'],
    rationale: `${CARES_OTC} (oral and topical anesthetics, acne spot treatments, dermatitis creams, burn relief gels, laxatives, antifungals and antihistamines named by use or brand)`,
  },
  {
    id: 'wound-blister-taping-supplies',
    label: 'Wound dressings, blister care and athletic taping',
    status: 'eligible',
    keywords: [
      'combine pad',
      'combine dressing',
      'abd pad',
      'abdominal pad',
      'underwrap',
      'under wrap + foam',
      'pre wrap + foam',
      'pre wrap + athletic',
      'blister plaster',
      'blister treatment',
      'bunionette',
      'orthotic shoe insole',
      'orthotic shoe insert',
    ],
    rationale: `${FSA_STORE}: wound dressings, blister care, athletic tape and underwrap for an injury, bunion protectors and orthotic insoles are eligible`,
  },
  {
    id: 'home-tests-by-condition',
    label: 'Home tests named by condition',
    status: 'eligible',
    keywords: ['strep test', 'strep throat test', 'strep a test', 'a1cnow'],
    rationale: 'IRS Pub. 502: diagnostic devices and home test kits for a medical condition are medical care',
  },
  {
    id: 'sunscreen-by-form',
    label: 'Sunscreen named by form (SPF 15+)',
    status: 'eligible',
    keywords: [
      'protector solar',
      'bloqueador solar',
      'sun protect',
      'face stick + spf',
      'sun stick + spf',
      'scalp + spf',
      'hair mist + spf',
    ],
    min_spf: 15,
    negative_keywords: [
      ...MAKEUP_NOUNS,
      'maquillaje',
      'bronceador',
      'tanning',
      'bronzing',
      'self tan',
      'upf',
      'shirt',
      'hat',
      'hair oil',
    ],
    rationale:
      "Plan administrators' eligibility lists: broad-spectrum sunscreen of SPF 15+ (sticks, mists and scalp sprays included) is an OTC drug that prevents sunburn and skin cancer",
  },
];

export const OTC_LMN_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'lactase-enzyme-brands',
    label: 'Lactase enzyme supplements',
    status: 'requires_lmn',
    // The brand's milk and ice cream are food; its caplets and chewables are a lactase enzyme supplement.
    keywords: ['lactaid + chewable', 'lactaid + caplet', 'lactaid + fast act'],
    negative_keywords: ['milk', 'ice cream', 'cottage cheese', 'sour cream', 'eggnog'],
    rationale:
      'IRS Pub. 502: dietary supplements such as lactase enzyme are medical care only when a practitioner recommends them for a diagnosed condition',
  },
];

export const OTC_INELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'medicine-novelties',
    label: 'Novelties and holders named after medical products',
    status: 'not_eligible',
    decisive: true,
    keywords: [
      'candy dish',
      'gag gift',
      'prank',
      'fake pregnancy test',
      'condom case',
      'condom holder',
      'condom wallet',
      'condom carrying case',
      'disposal bag',
      'napkin disposal',
      'baby vapor rub',
      'babyrub',
      'cat eye drop',
      'cat ear drop',
    ],
    rationale:
      'IRS Pub. 502: personal, household and gift items (a candy dish, a gag gift, a holder or disposal bag, a non-medicated baby rub, a product for a pet) are not medical care',
  },
];
