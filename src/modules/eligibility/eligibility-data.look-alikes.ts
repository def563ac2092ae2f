/**
 * Everyday goods that carry a one-word medical keyword as a name, a material or a part: a "Hall" tree bench, a "Saline"
 * pool cell, "Tuck Everlasting", a "Fleet" toy truck, moleskin trousers, a rattan "cane" chair, a roof "truss", a toilet
 * "flange", a "Bismuth" crystal. Each of these words names the goods themselves, so a name holding one is not the
 * medical product whose keyword it shares; the categories whose one-word keywords have such look-alikes rule them out.
 */
/** Pet goods named in a Spanish store title ("para perro", "para mascota"): for an animal, not a person. */
export const PET_WORDS_ES = ['perro', 'gato', 'mascota'];

export const EVERYDAY_LOOK_ALIKES = [
  // furniture and home
  'storage bench',
  'entryway bench',
  'hall tree',
  'runner rug',
  'area rug',
  'accent chair',
  'rattan',
  'wicker',
  'dresser',
  'sofa',
  'furniture',
  // media and toys
  'paperback',
  'hardcover',
  'novel',
  'dvd',
  'blu ray',
  'poster',
  'figurine',
  'hot wheels',
  'matchbox',
  'lego',
  'toy',
  // apparel and fabric
  'trousers',
  'graphic tee',
  'hoodie',
  'jeans',
  'upholstery',
  // containers
  'lunch box',
  'lunchbox',
  // hardware, pool and kitchen
  'roof',
  'rafter',
  'guitar',
  'truss rod',
  'wrench',
  'galvanized',
  'pvc',
  'toilet flange',
  // pumps and pipe fittings (not "valve" or "12V" alone: ostomy pouches have valves, mobility aids 12V batteries)
  'pipe fitting',
  'diaphragm pump',
  'water pump',
  'diaphragm valve',
  'chlorinator',
  'pool',
  'oven',
  'color sensor',
  'color matching',
  'hall effect',
  'kickstand',
  'journal',
  'party game',
  'board game',
  'card game',
  // minerals and food
  'geode',
  'crystal specimen',
  'cane sugar',
  'sugar cane',
];

/**
 * Household chemicals, tools, garden goods and models named with a nutrient, a mineral or a drug brand: magnesium fire
 * starters, potassium nitrate stump remover, chrome vanadium sockets, mineral spirits, collagen sausage casings, battery
 * electrolyte, lawn products of a drug maker, a die-cast car named like a pain reliever.
 */
export const HOUSEHOLD_CHEMICALS_TOOLS = [
  'fire starter',
  'stump remover',
  'paint thinner',
  'mineral spirits',
  'socket set',
  'chrome vanadium',
  'sausage casing',
  'juicer',
  'battery',
  'climbing chalk',
  'for climbing',
  'ice melt',
  'lawn',
  'insect killer',
  'weed killer',
  'live plant',
  'perennial',
  'diecast',
  'die cast',
  'scale model',
  'shower filter',
  'shower head',
  'fish food',
  'pond',
  'bone broth',
];

/** Syringes and applicators of the kitchen, salon and workshop (a hair-oil or frosting syringe is not a medical one). */
export const NOT_MEDICAL_SYRINGES = [
  'for hair',
  'hair oil',
  'frosting',
  'cake decorating',
  'meat injector',
  'marinade',
  'glue',
  'ink refill',
  'pet',
  'dog',
  'cat',
];

/** Beauty devices that use light on the face or scalp (a red-light skincare wand or hair-growth cap is cosmetic, not light therapy for a disorder). */
export const SKIN_CARE_DEVICES = [
  'skincare',
  'skin care',
  'facial',
  'face mask',
  'led mask',
  'theraface',
  'wand',
  'anti aging',
  'wrinkle',
  // a red-light cap for the scalp treats hair loss, which is not medical care
  'hair growth',
  'hair regrowth',
  'hair loss',
];

/** Electric foot files and pedicure tools remove calluses mechanically: grooming tools, not callus medicine. */
export const PEDICURE_TOOLS = [
  'pedi',
  'pedicure',
  'foot file',
  'callus shaver',
  'pedegg',
  'ped egg',
  'electric callus',
  'electronic callus',
  'powered callus',
  'rechargeable callus',
  'callus remover tool',
];

/**
 * A medicine brand's merchandise and licensed goods (a mascot plush, a holiday sweater, a bobblehead, a tin sign, a
 * mug): the brand's name on them does not make them the medicine.
 */
export const MEDICINE_MERCHANDISE = [
  'coupon',
  'tote',
  'mug',
  'keychain',
  'sticker',
  'shirt',
  'sweater',
  'sweatshirt',
  'hoodie',
  'sock',
  'pajama',
  'costume',
  'plush',
  'doll',
  'bobblehead',
  'collectible',
  'tin sign',
  'ornament',
  'enamel pin',
  'lapel pin',
  'baseball cap',
  'beanie',
  'lanyard',
  'umbrella',
  'cooler bag',
  'branded',
  'merchandise',
];

/**
 * Foods, drinks, bath and comfort goods sold "for" a symptom (a sinus relief tea, a cramp relief bath soak, a cold and
 * flu essential oil, a copper bracelet for arthritis, a pickle-juice shot for cramps): what they are decides, not the
 * symptom they name. Not "tea" alone: a cold medicine names its flavour ("Green Tea & Honey Lemon"), and a senna tea
 * sold with a Drug Facts panel is a laxative.
 */
export const GOODS_SOLD_FOR_A_SYMPTOM = [
  'relief tea',
  'herbal tea',
  'throat tea',
  'lemon tea',
  'peppermint tea',
  'ginger tea',
  'chamomile tea',
  'season tea',
  'comfort tea',
  'tea blend',
  'loose leaf',
  'bath soak',
  'bath bomb',
  'essential oil',
  'aromatherapy',
  // an aromatherapy maker's roll-ons named for a headache or for sleep
  'saje',
  'diffuser',
  'candle',
  'bracelet',
  'juice',
  'sports shot',
  'lollipop',
  'massage oil',
  'mattress',
  'pillow',
  'cushion',
];

/**
 * Home goods a medical-supply or home-health brand sells beside its medical lines (a fleece throw, a fitted sheet, a
 * lap desk, a personal fan, a shopping trolley, a cooler or sports bag, a facial ice roller, a bathroom scale): the
 * brand's name does not make them medical equipment.
 */
export const HOME_GOODS_OF_MEDICAL_BRANDS = [
  'throw',
  'fleece blanket',
  'fitted sheet',
  'sheet set',
  'lap desk',
  'fan',
  'shopping trolley',
  'shopping cart',
  'cooler bag',
  'sports bag',
  'gym bag',
  'duffel',
  'ice roller',
  'scale',
  'stopwatch',
];

/** A baby's push or learning walker ("Sit-to-Stand Learning Walker") is a toy, not a mobility aid or a standing aid. */
export const BABY_WALKERS = ['learning walker', 'baby walker', 'activity walker', 'push walker', 'walker toy'];
