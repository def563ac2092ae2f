/**
 * Eligible over-the-counter medicines and treatments. Since the CARES Act 2020 (§3702) these are qualified
 * HSA/FSA medical expenses without a prescription.
 */
import type { EligibilityCategory } from './eligibility.types.js';

const CARES_OTC = 'CARES Act 2020 (§3702): over-the-counter medicines are eligible without a prescription';

export const MEDICINE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'pain-relief',
    label: 'Pain relievers & fever reducers',
    status: 'eligible',
    keywords: [
      'pain reliever', 'pain relief', 'fever reducer', 'ibuprofen', 'acetaminophen', 'aspirin', 'naproxen',
      'tylenol', 'advil', 'motrin', 'aleve', 'excedrin', 'bufferin', 'ecotrin', 'midol', 'goodys powder',
      'bc powder', 'headache relief', 'migraine relief', 'arthritis pain', 'voltaren', 'diclofenac',
      'lidocaine', 'biofreeze', 'icy hot', 'bengay', 'salonpas', 'aspercreme', 'tiger balm', 'muscle rub',
    ],
    rationale: `${CARES_OTC} (analgesics such as ibuprofen, acetaminophen, aspirin and naproxen)`,
  },
  {
    id: 'cold-flu-cough',
    label: 'Cold, flu & cough medicine',
    status: 'eligible',
    keywords: [
      'cold and flu', 'cold flu', 'cold relief', 'flu relief', 'cough syrup', 'cough suppressant', 'cough relief',
      'cough drop', 'throat drop', 'cough lozenge', 'throat lozenge', 'lozenge', 'sore throat', 'throat spray',
      'chloraseptic', 'cepacol', 'decongestant', 'expectorant', 'guaifenesin', 'dextromethorphan',
      'phenylephrine', 'pseudoephedrine', 'nyquil', 'dayquil', 'theraflu', 'mucinex', 'robitussin', 'delsym',
      'sudafed', 'vicks', 'vaporub', 'vapor rub', 'chest rub', 'halls', 'ricola', 'ludens', 'zicam',
      'cold eeze', 'coricidin', 'alka seltzer plus', 'oscillococcinum', 'sinus congestion',
    ],
    rationale: `${CARES_OTC} (cold, flu and cough remedies, including medicated cough drops)`,
  },
  {
    id: 'allergy-relief',
    label: 'Allergy medicine',
    status: 'eligible',
    keywords: [
      'allergy relief', 'allergy medicine', 'allergy tablet', 'allergy pill', 'antihistamine', 'hay fever',
      'claritin', 'zyrtec', 'allegra', 'xyzal', 'benadryl', 'flonase', 'nasacort', 'rhinocort', 'loratadine',
      'cetirizine', 'fexofenadine', 'levocetirizine', 'diphenhydramine', 'chlorpheniramine', 'fluticasone',
    ],
    rationale: `${CARES_OTC} (antihistamines and allergy nasal sprays)`,
  },
  {
    id: 'nasal-care',
    label: 'Nasal care',
    status: 'eligible',
    keywords: [
      'nasal spray', 'saline nasal', 'nasal rinse', 'sinus rinse', 'neti pot', 'neilmed', 'nasal aspirator',
      'nosefrida', 'nasal strip', 'breathe right', 'afrin', 'oxymetazoline', 'nasal decongestant',
    ],
    rationale: `${CARES_OTC}; nasal rinses, aspirators and nasal strips relieve congestion (IIAS/SIGIS eligible list)`,
  },
  {
    id: 'digestive-health',
    label: 'Digestive health (antacids, laxatives, anti-diarrheals)',
    status: 'eligible',
    keywords: [
      'antacid', 'heartburn', 'acid reducer', 'acid reflux', 'indigestion', 'upset stomach', 'tums', 'rolaids',
      'pepto', 'pepto bismol', 'bismuth', 'alka seltzer', 'prilosec', 'nexium', 'pepcid', 'prevacid',
      'famotidine', 'omeprazole', 'esomeprazole', 'lansoprazole', 'laxative', 'stool softener', 'constipation relief',
      'miralax', 'dulcolax', 'ex lax', 'senokot', 'sennosides', 'colace', 'docusate', 'milk of magnesia',
      'fiber laxative', 'imodium', 'loperamide', 'anti diarrheal', 'antidiarrheal', 'diarrhea relief', 'gas x',
      'simethicone', 'gas relief', 'nausea relief', 'emetrol', 'hemorrhoid', 'hemorrhoidal', 'preparation h',
    ],
    rationale: `${CARES_OTC} (antacids, acid reducers, laxatives, anti-diarrheals and hemorrhoid treatments)`,
  },
  {
    id: 'motion-sickness',
    label: 'Motion sickness relief',
    status: 'eligible',
    keywords: ['motion sickness', 'dramamine', 'bonine', 'meclizine', 'dimenhydrinate', 'sea band'],
    rationale: `${CARES_OTC} (motion-sickness medicine and acupressure bands)`,
  },
  {
    id: 'sleep-aids',
    label: 'Sleep aids (OTC medicine)',
    status: 'eligible',
    keywords: [
      'sleep aid', 'nighttime sleep', 'zzzquil', 'unisom', 'doxylamine', 'sominex', 'simply sleep',
      'tylenol pm', 'advil pm', 'aleve pm',
    ],
    // Melatonin and herbal sleep products are dietary supplements, not OTC drugs.
    negative_keywords: ['melatonin', 'valerian', 'chamomile', 'magnesium', 'sleep mask', 'sound machine'],
    rationale: `${CARES_OTC} (antihistamine-based sleep aids; melatonin is a supplement and needs an LMN)`,
  },
  {
    id: 'skin-treatments',
    label: 'Medicated skin treatments (anti-itch, antifungal, eczema)',
    status: 'eligible',
    keywords: [
      'hydrocortisone', 'cortizone', 'anti itch', 'itch relief', 'calamine', 'caladryl', 'after bite',
      'insect bite relief', 'poison ivy', 'eczema', 'psoriasis', 'dermatitis', 'diaper rash', 'desitin',
      'a and d ointment', 'antifungal', 'athletes foot', 'jock itch', 'ringworm', 'lotrimin', 'lamisil',
      'tinactin', 'clotrimazole', 'terbinafine', 'tolnaftate', 'wart remover', 'wart removal', 'compound w',
      'corn remover', 'callus remover', 'burn relief', 'burn gel', 'medicated powder', 'gold bond medicated',
    ],
    rationale: `${CARES_OTC} (hydrocortisone, antifungals, skin protectants and wart removers)`,
  },
  {
    id: 'acne-treatment',
    label: 'Acne treatment (medicated)',
    status: 'eligible',
    keywords: [
      'acne', 'acne treatment', 'acne wash', 'acne cleanser', 'acne spot', 'acne gel', 'acne cream',
      'acne medication', 'acne patch', 'pimple patch', 'blemish treatment', 'benzoyl peroxide',
      'salicylic acid + acne', 'adapalene', 'differin', 'proactiv',
    ],
    rationale: `${CARES_OTC} (medicated acne products with benzoyl peroxide, salicylic acid or adapalene)`,
  },
  {
    id: 'eye-ear-care',
    label: 'Eye & ear care',
    status: 'eligible',
    keywords: [
      'eye drop', 'artificial tears', 'lubricant eye', 'eye wash', 'eyewash', 'visine', 'systane',
      'refresh tears', 'refresh optive', 'clear eyes', 'rohto', 'lumify', 'pataday', 'zaditor', 'ketotifen',
      'stye', 'pink eye', 'ear drop', 'earwax', 'ear wax', 'debrox', 'swimmers ear', 'ear pain relief',
    ],
    rationale: `${CARES_OTC} (eye drops, eye washes and ear-wax removal kits)`,
  },
  {
    id: 'oral-pain-cold-sores',
    label: 'Oral pain & cold sore treatment',
    status: 'eligible',
    keywords: [
      'oral pain', 'toothache', 'toothache pain', 'orajel', 'anbesol', 'benzocaine', 'teething gel', 'canker sore', 'cold sore',
      'fever blister', 'abreva', 'docosanol', 'mouth sore',
    ],
    rationale: `${CARES_OTC} (oral analgesics and cold sore treatments)`,
  },
  {
    id: 'smoking-cessation',
    label: 'Smoking cessation (nicotine replacement)',
    status: 'eligible',
    keywords: [
      'nicotine gum', 'nicotine patch', 'nicotine lozenge', 'nicotine mini lozenge', 'nicorette', 'nicoderm',
      'habitrol', 'stop smoking', 'quit smoking', 'smoking cessation',
    ],
    // Nicotine pouches and vapes are tobacco products, not cessation aids.
    negative_keywords: ['pouch', 'zyn', 'vape', 'e liquid', 'juul'],
    rationale: `${CARES_OTC} (nicotine replacement therapy); IRS Pub. 502 also treats stop-smoking programs as medical care`,
  },
  {
    id: 'womens-health-otc',
    label: "Women's health (yeast infection, UTI relief)",
    status: 'eligible',
    keywords: [
      'yeast infection', 'monistat', 'miconazole', 'vaginal antifungal', 'urinary pain relief', 'uti pain',
      'uti relief', 'azo', 'phenazopyridine', 'vaginal moisturizer', 'replens',
    ],
    // AZO also sells cranberry and probiotic supplements, which need an LMN.
    negative_keywords: ['cranberry', 'probiotic'],
    rationale: `${CARES_OTC} (yeast-infection treatments and urinary pain relief)`,
  },
  {
    id: 'contraceptives',
    label: 'Condoms & contraceptives',
    status: 'eligible',
    keywords: [
      'condom', 'trojan', 'durex', 'skyn', 'female condom', 'internal condom', 'spermicide', 'contraceptive',
      'contraception', 'birth control', 'plan b', 'morning after pill', 'levonorgestrel', 'today sponge',
    ],
    negative_keywords: ['vibrator', 'vibrating', 'massager'],
    rationale: 'IRS Pub. 502 treats birth control as medical care; condoms and OTC contraceptives (e.g. Plan B) are on the IIAS/SIGIS eligible list',
  },
  {
    id: 'lice-treatment',
    label: 'Lice treatment',
    status: 'eligible',
    keywords: ['lice', 'head lice', 'lice treatment', 'lice shampoo', 'lice comb', 'nit comb', 'nix', 'permethrin', 'vamousse', 'licefreee'],
    rationale: `${CARES_OTC} (pediculicides and lice-removal kits)`,
  },
];
