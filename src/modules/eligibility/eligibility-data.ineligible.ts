/**
 * Products that are not medical care: cosmetics, toiletries, food, general wellness and household goods.
 * A specific eligible phrase still wins over these generic words when it is longer (e.g. "compression socks").
 */
import type { EligibilityCategory } from './eligibility.types.js';

// Names that mention a treated condition or an active sun filter are medicated products, not general skin care.
const MEDICATED_SKIN_TERMS = [
  'spf', 'sunscreen', 'sunblock', 'eczema', 'psoriasis', 'dermatitis', 'hydrocortisone', 'anti itch',
  'itch relief', 'diaper rash', 'acne', 'benzoyl peroxide', 'adapalene', 'cold sore', 'wart', 'antifungal',
  'first aid', 'burn relief', 'denture', 'lice',
];

export const INELIGIBLE_CATEGORIES: readonly EligibilityCategory[] = [
  {
    id: 'cosmetics',
    label: 'Cosmetics & makeup',
    status: 'not_eligible',
    keywords: [
      'makeup', 'make up', 'lipstick', 'lip gloss', 'lip liner', 'lip stain', 'lip tint', 'mascara', 'eyeliner',
      'eye shadow', 'eyeshadow', 'foundation', 'concealer', 'blush', 'bronzer', 'highlighter', 'primer',
      'setting spray', 'face powder', 'tinted moisturizer', 'bb cream', 'cc cream', 'nail polish',
      'nail lacquer', 'false eyelash', 'eyelash', 'brow pencil', 'hair dye', 'hair color', 'self tanner',
      'tanning oil', 'tanning lotion', 'makeup remover',
    ],
    rationale: 'Cosmetics are not medical care (IRS Pub. 502: cosmetic and personal-use items)',
  },
  {
    id: 'skin-care',
    label: 'General skin care',
    status: 'not_eligible',
    keywords: [
      'moisturizer', 'moisturizing cream', 'moisturizing lotion', 'body lotion', 'hand lotion', 'face lotion',
      'hand cream', 'face cream', 'body cream', 'night cream', 'eye cream', 'anti aging', 'anti wrinkle',
      'wrinkle cream', 'retinol', 'serum', 'toner', 'cleanser', 'face wash', 'facial wash', 'micellar water',
      'body scrub', 'face scrub', 'exfoliating scrub', 'body butter', 'aloe vera gel', 'after sun',
      'hyaluronic acid', 'niacinamide', 'dark spot', 'lip balm', 'chapstick', 'lip scrub', 'sheet + mask',
      'clay + mask', 'mud + mask', 'peel off + mask', 'hydrating + mask', 'charcoal + mask',
    ],
    negative_keywords: MEDICATED_SKIN_TERMS,
    rationale: 'General skin care is a personal-use item, not medical care (IRS Pub. 502)',
  },
  {
    id: 'toiletries',
    label: 'Toiletries & personal care',
    status: 'not_eligible',
    keywords: [
      'shampoo', 'dry shampoo', 'conditioner', 'body wash', 'shower gel', 'soap', 'bar soap', 'hand soap',
      'hand wash', 'deodorant', 'antiperspirant', 'hair gel', 'hairspray', 'hair spray', 'cotton swab',
      'q tips', 'bubble bath', 'bath bomb', 'feminine wash', 'hair brush', 'comb',
    ],
    negative_keywords: ['lice'],
    rationale: 'Toiletries are personal-use items, not medical care (IRS Pub. 502)',
  },
  {
    id: 'teeth-whitening',
    label: 'Teeth whitening',
    status: 'not_eligible',
    keywords: ['teeth whitening', 'whitening', 'whitening strip', 'whitestrips', 'whitening kit', 'whitening pen'],
    rationale: 'IRS Pub. 502: amounts paid to whiten teeth are not medical care',
  },
  {
    id: 'oral-care',
    label: 'Toothpaste, toothbrushes & oral care',
    status: 'not_eligible',
    keywords: [
      'toothpaste', 'tooth paste', 'toothbrush', 'electric toothbrush', 'toothbrush head', 'dental floss',
      'floss', 'floss pick', 'mouthwash', 'mouth wash', 'mouth rinse', 'crest', 'colgate', 'sensodyne',
      'oral b', 'listerine', 'tongue scraper',
    ],
    negative_keywords: ['denture'],
    rationale: 'Toothpaste, toothbrushes and other everyday oral care are personal-use items, not medical care (IRS Pub. 502)',
  },
  {
    id: 'hair-removal',
    label: 'Shaving & hair removal',
    status: 'not_eligible',
    keywords: [
      'razor', 'razor blade', 'shaving cream', 'shave gel', 'shaving gel', 'shaver', 'trimmer', 'wax strip',
      'hair removal', 'hair remover', 'epilator', 'depilatory', 'nair', 'veet',
    ],
    rationale: 'IRS Pub. 502: hair removal (including electrolysis) is not medical care',
  },
  {
    id: 'hair-growth',
    label: 'Hair growth & hair-loss products',
    status: 'not_eligible',
    keywords: ['hair growth', 'hair regrowth', 'hair loss', 'minoxidil', 'rogaine', 'hair thickening'],
    rationale: 'Treating hair loss is cosmetic (IRS Pub. 502: hair transplants and other cosmetic procedures are not medical care)',
  },
  {
    id: 'fragrances',
    label: 'Perfume & fragrances',
    status: 'not_eligible',
    keywords: ['perfume', 'cologne', 'eau de parfum', 'eau de toilette', 'parfum', 'body mist', 'body spray', 'fragrance mist'],
    rationale: 'Fragrances are cosmetic, personal-use items (IRS Pub. 502)',
  },
  {
    id: 'candy',
    label: 'Candy, chocolate & gum',
    status: 'not_eligible',
    keywords: [
      'candy', 'chocolate', 'candy bar', 'candy cane', 'gummy bear', 'gummy worm', 'lollipop', 'licorice',
      'jelly bean', 'marshmallow', 'caramel', 'toffee', 'truffle', 'fudge', 'chewing gum', 'bubble gum',
      'breath mint', 'altoids', 'tic tac', 'hersheys', 'm&ms', 'snickers', 'skittles', 'reeses', 'kit kat',
      'peanut butter cup', 'twix', 'haribo', 'starburst', 'jolly rancher', 'sour patch',
    ],
    rationale: 'Food and candy are not medical care (IRS Pub. 502: food is eligible only as a special food prescribed to treat an illness)',
  },
  {
    id: 'groceries',
    label: 'Groceries, snacks & baby formula',
    status: 'not_eligible',
    keywords: [
      'snack', 'chips', 'potato chip', 'tortilla chip', 'cereal', 'granola', 'bread', 'pasta', 'rice', 'milk',
      'almond milk', 'cheese', 'yogurt', 'coffee', 'green tea', 'tea', 'cookie', 'shortbread', 'cracker',
      'peanut butter', 'protein bar', 'granola bar', 'snack bar', 'meal replacement', 'slimfast', 'infant formula',
      'baby formula', 'baby food', 'honey', 'sugar', 'flour', 'olive oil', 'pizza', 'ice cream', 'jerky',
      'hot dog', 'soup', 'nuts', 'baking soda', 'cranberry juice',
    ],
    rationale: 'Food, including diet food and infant formula, is not medical care (IRS Pub. 502)',
  },
  {
    id: 'beverages',
    label: 'Soda, juice & other beverages',
    status: 'not_eligible',
    keywords: [
      'soda', 'cola', 'coca cola', 'pepsi', 'sprite', 'energy drink', 'red bull', 'monster energy',
      'sparkling water', 'bottled water', 'spring water', 'seltzer', 'juice', 'gatorade', 'sports drink',
      'lemonade', 'iced tea', 'vitaminwater', 'vitamin water', 'kombucha',
    ],
    rationale: 'Beverages are food, not medical care (IRS Pub. 502)',
  },
  {
    id: 'alcohol',
    label: 'Alcoholic beverages',
    status: 'not_eligible',
    keywords: [
      'beer', 'wine', 'vodka', 'whiskey', 'whisky', 'scotch whisky', 'bourbon', 'tequila', 'rum', 'gin', 'liquor',
      'champagne', 'hard seltzer', 'lager', 'johnnie walker',
    ],
    rationale: 'Alcoholic beverages are not medical care',
  },
  {
    id: 'tobacco-vaping',
    label: 'Tobacco & vaping products',
    status: 'not_eligible',
    keywords: [
      'cigarette', 'cigar', 'e cigarette', 'vape', 'vape pen', 'e liquid', 'juul', 'nicotine pouch', 'zyn',
      'chewing tobacco', 'tobacco', 'hookah', 'rolling paper',
    ],
    rationale: 'Tobacco and vaping products are not medical care (only smoking-cessation treatment is, IRS Pub. 502)',
  },
  {
    id: 'baby-diapers-gear',
    label: 'Baby diapers, wipes & gear',
    status: 'not_eligible',
    keywords: [
      'diaper', 'baby wipe', 'pampers', 'huggies', 'pull ups', 'training pants', 'swim diaper', 'baby bottle',
      'pacifier', 'sippy cup', 'stroller', 'car seat', 'crib',
    ],
    negative_keywords: ['adult', 'incontinence', 'rash'],
    rationale: 'IRS Pub. 502: diapers are not medical care unless needed to relieve the effects of a particular disease',
  },
  {
    id: 'fitness',
    label: 'Gym memberships, fitness gear & sports nutrition',
    status: 'not_eligible',
    keywords: [
      'gym membership', 'gym', 'health club', 'fitness membership', 'yoga mat', 'dumbbell', 'kettlebell',
      'treadmill', 'exercise bike', 'stationary bike', 'foam roller', 'fitness tracker', 'smartwatch',
      'smart watch', 'protein powder', 'pre workout', 'creatine', 'bcaa',
    ],
    rationale: 'IRS Pub. 502: health club dues and items that improve general health or fitness are not medical care',
  },
  {
    id: 'clothing-accessories',
    label: 'Clothing, shoes & sunglasses',
    status: 'not_eligible',
    keywords: [
      'shirt', 't shirt', 'dress', 'jeans', 'pants', 'sweater', 'jacket', 'hoodie', 'sneakers', 'running shoe',
      'shoes', 'sandal', 'boot', 'socks', 'underwear', 'bra', 'leggings', 'hat', 'swimsuit', 'sunglasses',
    ],
    // These words turn clothing into a medical or menstrual-care product.
    negative_keywords: [
      'compression', 'period', 'incontinence', 'protective', 'depend', 'orthopedic', 'orthotic', 'diabetic',
      'insole', 'arch support', 'prescription', 'walking boot',
    ],
    rationale: 'Ordinary clothing, footwear and non-prescription sunglasses are personal-use items (IRS Pub. 502)',
  },
  {
    id: 'household',
    label: 'Household cleaning, paper goods & bedding',
    status: 'not_eligible',
    keywords: [
      'laundry detergent', 'detergent', 'dish soap', 'dishwasher', 'paper towel', 'toilet paper', 'bath tissue',
      'facial tissue', 'tissue', 'kleenex', 'trash bag', 'all purpose cleaner', 'bleach', 'disinfectant spray',
      'air freshener', 'sponge', 'fabric softener', 'glass cleaner', 'wine glass', 'drinking glass', 'pillow',
      'bed sheet', 'blanket', 'mattress', 'vacuum',
    ],
    // Orthopedic and cervical bedding is a dual-purpose medical item (LMN), not ordinary bedding.
    negative_keywords: ['orthopedic', 'cervical', 'nasal pillow'],
    rationale: 'Household supplies are personal, living and family expenses, not medical care (IRS Pub. 502)',
  },
  {
    id: 'pet-supplies',
    label: 'Pet food & supplies',
    status: 'not_eligible',
    keywords: [
      'pet', 'pet food', 'dog', 'dog food', 'dog treat', 'cat food', 'cat litter', 'puppy', 'kitten',
      'for dogs', 'for cats', 'for pets', 'flea and tick', 'flea collar', 'chew toy',
    ],
    rationale: 'Products for pets are not medical care for the account holder (IRS Pub. 502 covers only the costs of a guide dog or other service animal, which need separate substantiation)',
  },
  {
    id: 'wellness-general',
    label: 'Aromatherapy & general wellness',
    status: 'not_eligible',
    keywords: [
      'essential oil', 'aromatherapy', 'diffuser', 'candle', 'scented candle', 'incense', 'sleep mask',
      'sound machine', 'white noise machine', 'weighted blanket', 'bath salts',
    ],
    rationale: 'IRS Pub. 502: items for general health or to relieve discomfort not related to a particular medical condition are not medical care',
  },
  {
    id: 'cannabis-cbd',
    label: 'CBD, hemp & cannabis products',
    status: 'not_eligible',
    keywords: ['cbd', 'hemp', 'cannabis', 'marijuana', 'thc', 'delta 8', 'kratom'],
    rationale: 'IRS Pub. 502: controlled substances such as marijuana are not medical care even where state law allows them; CBD products are not FDA-approved drugs',
  },
];
