/**
 * Eligible medical supplies, equipment, diagnostics, vision, hearing and personal medical care products
 * (IRS Pub. 502 medical supplies and equipment, CARES Act 2020, IIAS/SIGIS eligible product list).
 */
import type { EligibilityCategory } from './eligibility.types.js';

export const SUPPLY_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'bandages-wound-care',
    label: 'Bandages & wound care',
    status: 'eligible',
    keywords: [
      'bandage', 'adhesive bandage', 'band aid', 'bandaid', 'gauze', 'gauze pad', 'medical tape',
      'first aid tape', 'elastic bandage', 'ace bandage', 'butterfly closure', 'steri strip', 'wound dressing',
      'wound care', 'liquid bandage', 'blister bandage', 'blister cushion', 'moleskin', 'non stick pad',
      'nexcare', 'curad',
    ],
    rationale: 'IRS Pub. 502: medical supplies such as bandages',
  },
  {
    id: 'antiseptics',
    label: 'Antiseptics & first-aid ointments',
    status: 'eligible',
    keywords: [
      'antibiotic ointment', 'first aid ointment', 'first aid cream', 'neosporin', 'polysporin', 'bacitracin',
      'triple antibiotic', 'hydrogen peroxide', 'rubbing alcohol', 'isopropyl alcohol', 'alcohol prep pad',
      'alcohol swab', 'antiseptic', 'povidone iodine', 'betadine', 'wound wash', 'wound cleanser', 'bactine',
    ],
    negative_keywords: ['mouthwash', 'mouth rinse'],
    rationale: 'CARES Act 2020: OTC first-aid antiseptics and antibiotic ointments are eligible without a prescription',
  },
  {
    id: 'first-aid-kits',
    label: 'First-aid kits',
    status: 'eligible',
    keywords: ['first aid kit', 'first aid', 'first aid supplies', 'trauma kit', 'burn kit'],
    rationale: 'IRS Pub. 502: medical supplies (first-aid kits contain bandages and wound-care supplies)',
  },
  {
    id: 'thermometers',
    label: 'Thermometers',
    status: 'eligible',
    keywords: [
      'thermometer', 'digital thermometer', 'oral thermometer', 'forehead thermometer', 'ear thermometer',
      'temporal thermometer', 'basal thermometer', 'thermoscan',
    ],
    // Kitchen, pool and room thermometers are not medical devices.
    negative_keywords: [
      'meat', 'cooking', 'grill', 'grilling', 'bbq', 'oven', 'kitchen', 'food', 'candy', 'aquarium', 'pool',
      'room', 'indoor', 'outdoor', 'hygrometer', 'fridge', 'refrigerator', 'freezer', 'weather', 'wine', 'bath',
      'pet', 'dog', 'veterinary',
    ],
    rationale: 'IRS Pub. 502: diagnostic devices used to diagnose and treat illness',
  },
  {
    id: 'blood-pressure-monitors',
    label: 'Blood pressure monitors',
    status: 'eligible',
    keywords: ['blood pressure monitor', 'blood pressure cuff', 'blood pressure machine', 'bp monitor', 'sphygmomanometer', 'omron'],
    rationale: 'IRS Pub. 502: diagnostic devices used to diagnose and treat illness',
  },
  {
    id: 'diagnostic-devices',
    label: 'Pulse oximeters & other diagnostic devices',
    status: 'eligible',
    keywords: ['pulse oximeter', 'oximeter', 'stethoscope', 'ecg monitor', 'ekg monitor', 'kardiamobile'],
    rationale: 'IRS Pub. 502: diagnostic devices used to diagnose and treat illness',
  },
  {
    id: 'diabetes-care',
    label: 'Diabetes care (meters, test strips, lancets)',
    status: 'eligible',
    keywords: [
      'blood glucose', 'glucose meter', 'glucometer', 'glucose monitor', 'glucose test', 'test strip + glucose',
      'test strip + diabetic', 'lancet', 'lancing device', 'insulin', 'insulin syringe', 'pen needle',
      'continuous glucose monitor', 'freestyle libre', 'dexcom', 'accu chek', 'onetouch', 'contour next',
      'true metrix',
    ],
    rationale: 'IRS Pub. 502: blood sugar test kits (diagnostic devices) and insulin are medical care',
  },
  {
    id: 'diagnostic-tests',
    label: 'At-home diagnostic tests (COVID-19, flu, UTI)',
    status: 'eligible',
    keywords: [
      'covid + test', 'covid + antigen', 'rapid antigen test', 'antigen test', 'binaxnow', 'flu test',
      'strep test', 'uti test', 'urinary tract infection test', 'drug test', 'cholesterol test', 'a1c',
      'hiv test', 'std test', 'fecal occult blood', 'home test kit',
    ],
    rationale: 'IRS Pub. 502: diagnostic devices and tests (including at-home COVID-19 tests) are medical care',
  },
  {
    id: 'pregnancy-fertility-tests',
    label: 'Pregnancy, ovulation & fertility tests',
    status: 'eligible',
    keywords: [
      'pregnancy test', 'ovulation test', 'ovulation predictor', 'ovulation kit', 'fertility test',
      'fertility monitor', 'fertility tracker', 'sperm test', 'clearblue', 'first response', 'proov',
    ],
    rationale: 'IRS Pub. 502: pregnancy test kits; ovulation and fertility tests are diagnostic devices',
  },
  {
    id: 'menstrual-care',
    label: 'Menstrual care products',
    status: 'eligible',
    keywords: [
      'tampon', 'maxi pad', 'menstrual pad', 'sanitary pad', 'sanitary napkin', 'period pad', 'pad with wings',
      'always + pad', 'panty liner', 'pantiliner', 'menstrual cup', 'menstrual disc', 'period underwear',
      'period panty', 'tampax', 'kotex', 'stayfree', 'divacup', 'diva cup', 'thinx',
    ],
    rationale: 'CARES Act 2020 (§3702): menstrual care products (tampons, pads, liners, cups and similar) are eligible without a prescription',
  },
  {
    id: 'incontinence',
    label: 'Incontinence supplies',
    status: 'eligible',
    keywords: [
      'incontinence', 'adult diaper', 'adult brief', 'bladder control', 'bladder leak', 'bladder protection',
      'protective underwear', 'depend + underwear', 'depend guard', 'poise + pad', 'tena', 'underpad', 'chux',
    ],
    rationale: 'IRS Pub. 502: diapers are medical care when needed to relieve the effects of a disease or condition, such as incontinence',
  },
  {
    id: 'breast-pumps-lactation',
    label: 'Breast pumps & lactation supplies',
    status: 'eligible',
    keywords: [
      'breast pump', 'breastpump', 'breast milk storage', 'breastmilk storage', 'milk storage bag',
      'nursing pad', 'breast pad', 'breast shield', 'nipple cream', 'lansinoh', 'medela', 'elvie', 'haakaa',
    ],
    rationale: 'IRS Pub. 502 (and Ann. 2011-14): breast pumps and supplies that assist lactation',
  },
  {
    id: 'eyeglasses',
    label: 'Reading glasses & eyeglasses',
    status: 'eligible',
    keywords: [
      'reading glasses', 'reader glasses', 'eyeglasses', 'prescription glasses', 'prescription sunglasses',
      'bifocal', 'eyeglass repair kit', 'eyeglass cleaner',
    ],
    rationale: 'IRS Pub. 502: eyeglasses needed for medical reasons, including non-prescription reading glasses',
  },
  {
    id: 'contact-lenses-care',
    label: 'Contact lenses & lens care',
    status: 'eligible',
    keywords: [
      'contact lens', 'contact lens solution', 'contact solution', 'saline solution', 'multi purpose solution',
      'rewetting drop', 'lens case', 'acuvue', 'air optix', 'biofinity', 'opti free', 'biotrue', 'renu',
      'clear care', 'boston simplus',
    ],
    rationale: 'IRS Pub. 502: contact lenses and the materials needed to use them, such as saline solution and enzyme cleaner',
  },
  {
    id: 'hearing-aids',
    label: 'Hearing aids & batteries',
    status: 'eligible',
    keywords: ['hearing aid', 'hearing aid battery', 'otc hearing aid', 'hearing amplifier', 'cochlear'],
    rationale: 'IRS Pub. 502: hearing aids and the batteries to operate them',
  },
  {
    id: 'mobility-aids',
    label: 'Crutches, canes, walkers & mobility aids',
    status: 'eligible',
    keywords: [
      'crutch', 'cane', 'walking cane', 'walking stick + cane', 'walker', 'rollator', 'wheelchair',
      'knee scooter', 'mobility scooter', 'transport chair', 'shower chair', 'shower bench', 'bath bench',
      'raised toilet seat', 'toilet safety rail', 'grab bar',
    ],
    negative_keywords: ['johnnie', 'baby walker', 'dog walker', 'sugar', 'candy'],
    rationale: 'IRS Pub. 502: crutches, wheelchairs and equipment that helps people with a disability or injury',
  },
  {
    id: 'braces-supports',
    label: 'Braces & supports',
    status: 'eligible',
    keywords: [
      'brace', 'knee brace', 'wrist brace', 'back brace', 'ankle brace', 'knee support', 'ankle support',
      'back support belt', 'wrist splint', 'finger splint', 'splint', 'arm sling', 'walking boot',
      'kinesiology tape', 'kt tape', 'compression sleeve', 'tennis elbow strap', 'cervical collar', 'neck brace',
      'hernia belt', 'mueller', 'futuro',
    ],
    rationale: 'IRS Pub. 502: medical supplies and equipment; braces and supports treat or protect an injury',
  },
  {
    id: 'compression-hosiery',
    label: 'Compression socks & stockings',
    status: 'eligible',
    keywords: ['compression socks', 'compression stocking', 'compression hose', 'support hose', 'support stocking', 'ted hose'],
    rationale: 'Graduated compression hosiery treats circulatory conditions (IIAS/SIGIS eligible list)',
  },
  {
    id: 'orthotics-foot-care',
    label: 'Orthotic inserts & foot care',
    status: 'eligible',
    keywords: [
      'orthotic', 'orthotic insert', 'arch support', 'insole', 'heel cup', 'heel cushion', 'plantar fasciitis',
      'bunion', 'corn cushion', 'callus cushion', 'toe separator',
    ],
    rationale: 'Orthotic inserts and foot pads treat or relieve foot conditions (IIAS/SIGIS eligible list)',
  },
  {
    id: 'hot-cold-therapy',
    label: 'Heating pads & hot/cold therapy',
    status: 'eligible',
    keywords: [
      'heating pad', 'heat pad', 'heat wrap', 'heat therapy', 'thermacare', 'ice pack', 'cold pack',
      'hot cold pack', 'hot and cold pack', 'cold therapy', 'cryotherapy',
    ],
    negative_keywords: ['pet', 'dog', 'cat', 'lunch', 'cooler', 'seedling', 'reptile'],
    rationale: 'Heating pads and hot/cold packs relieve pain and injury (IIAS/SIGIS eligible list)',
  },
  {
    id: 'tens-pain-devices',
    label: 'TENS units & pain-relief devices',
    status: 'eligible',
    keywords: ['tens unit', 'tens machine', 'tens device', 'electrotherapy', 'pain relief device'],
    rationale: 'IRS Pub. 502: medical equipment used to treat a condition (TENS units are FDA-cleared devices)',
  },
  {
    id: 'nebulizers-respiratory',
    label: 'Nebulizers & respiratory aids',
    status: 'eligible',
    keywords: ['nebulizer', 'nebuliser', 'inhaler spacer', 'spacer + inhaler', 'aerochamber', 'peak flow meter'],
    rationale: 'IRS Pub. 502: medical equipment used to treat a condition',
  },
  {
    id: 'cpap-supplies',
    label: 'CPAP machines & supplies',
    status: 'eligible',
    keywords: ['cpap', 'bipap', 'apap', 'resmed', 'airsense', 'airfit', 'dreamstation', 'nasal pillow'],
    rationale: 'IRS Pub. 502: medical equipment and supplies (sleep apnea therapy)',
  },
  {
    id: 'ppe',
    label: 'Masks, hand sanitizer & PPE',
    status: 'eligible',
    keywords: [
      'kn95', 'n95', 'respirator mask', 'surgical mask', 'procedure mask', 'medical mask', 'face mask',
      'disposable mask', 'hand sanitizer', 'sanitizing wipe', 'sanitizer wipe', 'purell',
    ],
    // Skin-care "face masks" and sleep or costume masks are not PPE.
    negative_keywords: [
      'sheet', 'clay', 'mud', 'peel', 'charcoal', 'hydrating', 'moisturizing', 'sleep', 'eye mask', 'halloween',
      'costume', 'hair mask',
    ],
    rationale: 'IRS Ann. 2021-7: masks, hand sanitizer and sanitizing wipes used primarily to prevent the spread of COVID-19 are medical care',
  },
  {
    id: 'sunscreen',
    label: 'Sunscreen (SPF 15+, broad spectrum)',
    status: 'eligible',
    keywords: [
      'sunscreen', 'sun screen', 'sunblock', 'sun block', 'spf', 'broad spectrum spf', 'mineral sunscreen',
      'lip balm + spf', 'lip balm + sunscreen',
    ],
    min_spf: 15,
    rationale: 'Broad-spectrum sunscreen of SPF 15+ is an OTC drug that prevents sunburn and skin cancer (IIAS/SIGIS eligible list)',
  },
  {
    id: 'denture-care',
    label: 'Denture adhesives & care',
    status: 'eligible',
    keywords: [
      'denture', 'denture adhesive', 'denture cleanser', 'denture cleaner', 'fixodent', 'poligrip', 'polident',
      'efferdent', 'sea bond',
    ],
    rationale: 'IRS Pub. 502: artificial teeth (dentures) and the supplies needed to use them',
  },
];
