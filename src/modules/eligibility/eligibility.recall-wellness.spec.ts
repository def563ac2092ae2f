import { checkEligibility, type EligibilityStatus } from './eligibility.engine.js';

type LabelledCase = [name: string, status: EligibilityStatus, category: string | null];

// A recall audit of a wellness catalog (fitness, sleep, air, massage, light, supplements, nutrition), written from no
// labelled set: each class the tables did not know, beside everyday goods that share its words.
describe('checkEligibility by name: wellness classes found by a recall audit, and their look-alikes', () => {
  test.each<LabelledCase>([
    // Exercise machines and accessories named by kind need a letter; a dog trainer, a waist trimmer and a toy hoop do not.
    ['Fitness Reality 810XLT Super Max Power Cage', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Saris H3 Direct Drive Smart Trainer', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Lagree Microformer', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Stott Pilates Arc Barrel', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Ab Mat Abdominal Trainer Mat', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Hula Hoop Weighted Fitness Hoop 2 lb', 'requires_lmn', 'fitness-equipment-kinds'],
    ['ProStretch Original Calf Stretcher', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Half Dome Balance Trainer Ball', 'requires_lmn', 'fitness-equipment-kinds'],
    ['PetSafe Smart Trainer Remote Dog Training Collar', 'not_eligible', 'pet-supplies'],
    ['Waist Trainer Toning Belt for Women Sweat Band', 'not_eligible', null],
    ['Kids Hula Hoop Toy 3 Pack', 'not_eligible', null],
    // Slide boards, neck harnesses and dip belts are strength accessories; a transfer slide board is mobility equipment and
    // a diaper pull-up is baby gear.
    ['Slide Board for Exercise 6 ft', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Dip Belt with Chain for Weighted Pull Ups', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Neck Harness for Weight Training', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Transfer Slide Board for Wheelchair 30 in', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Huggies Pull-Ups Training Pants Boys', 'not_eligible', 'baby-diapers-gear'],
    // An ab-toning belt is fitness equipment, not a TENS unit; a TENS + EMS unit stays medical equipment.
    ['Slendertone Connect Abs Toning Belt', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Ab Stimulator EMS Muscle Toner Belt', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Muscle Toner Firming Cream, 6 oz', 'not_eligible', 'skin-care'],
    // A smart ring by its own name is a fitness tracker; a ring light and a jewellery ring are not.
    ['Samsung Galaxy Ring Titanium Black', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Movano Evie Ring for Women', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Galaxy Ring Light 10 in with Tripod', 'not_eligible', null],
    // A weight-loss program written as one word or as a diet's plan; the diet's cookbook is a book.
    ['Medi-Weightloss Program Starter Kit', 'requires_lmn', 'fitness-equipment-kinds'],
    ['South Beach Diet Core Plan 4 Weeks', 'requires_lmn', 'fitness-equipment-kinds'],
    ['The South Beach Diet Cookbook Hardcover', 'not_eligible', null],
    // Hot tubs and plunge tubs need a letter (not "cold therapy" packs); their covers, chemicals and thermometers do not.
    ['Intex PureSpa Plus Inflatable Hot Tub Spa, 4 Person', 'requires_lmn', 'home-hydrotherapy'],
    ['Coleman SaluSpa Inflatable Hot Tub', 'requires_lmn', 'home-hydrotherapy'],
    ['Ice Barrel 400 Cold Therapy Tub', 'requires_lmn', 'home-hydrotherapy'],
    ['Plunge All-In Cold Plunge Tub', 'requires_lmn', 'home-hydrotherapy'],
    ['Hot Tub Cover Lifter', 'not_eligible', 'home-comfort-look-alikes'],
    ['Bromine Tablets for Hot Tub, 1.5 lb', 'not_eligible', null],
    ['Hot Tub Floating Thermometer', 'not_eligible', 'home-comfort-look-alikes'],
    ['Hot Tub Time Machine DVD', 'not_eligible', null],
    // Supplements sold for metabolism, greens powders and joint hyaluronic acid; the coffee, juice and serum are not.
    ['Metabolism Booster Supplement Green Coffee Bean Extract', 'requires_lmn', 'wellness-supplement-kinds'],
    ['Huel Daily Greens, 30 servings', 'requires_lmn', 'wellness-supplement-kinds'],
    ['Hyaluronic Acid 200 mg Joint Support Capsules, 60 ct', 'requires_lmn', 'wellness-supplement-kinds'],
    ['Metabolism Booster Coffee Ground, 12 oz', 'not_eligible', 'groceries'],
    ['Suja Daily Greens Cold-Pressed Juice, 12 fl oz', 'not_eligible', 'beverages'],
    ['The Ordinary Hyaluronic Acid 2% + B5 Serum, 30 mL', 'not_eligible', 'skin-care'],
    // A ground spice is food; the same herb in capsules is a supplement.
    ['Simply Organic Turmeric Ground, 2.38 oz', 'not_eligible', 'ground-spices'],
    ['Badia Ground Turmeric 16 oz', 'not_eligible', 'ground-spices'],
    ["Nature's Way Turmeric Curcumin 500 mg, 120 capsules", 'requires_lmn', 'dietary-supplements'],
    // Spanish-English store titles: supplements and dual-purpose goods, but not a face cream, a yogurt or a cigar humidor.
    ['Vitamina D3 5000 UI Suplemento, 120 Capsulas Blandas', 'requires_lmn', 'wellness-supplement-kinds'],
    ['Probiotico 50 Mil Millones UFC Capsulas, 30 ct', 'requires_lmn', 'wellness-supplement-kinds'],
    ['Crema Facial con Vitamina C, 50 mL', 'not_eligible', null],
    ['Yogur Probiotico Fresa, 4 pk', 'not_eligible', null],
    ['Colageno Hidrolizado con Biotina y Vitamina C, 120 Tabletas', 'not_eligible', null],
    ['Mancuernas Ajustables 25 lb Par', 'requires_lmn', 'wellness-goods-spanish'],
    ['Almohada Cervical Ortopedica Memoria', 'requires_lmn', 'wellness-goods-spanish'],
    ['Humidificador Ultrasonico Vapor Frio 2.5 L', 'requires_lmn', 'wellness-goods-spanish'],
    ['Masajeador de Cuello y Hombros con Calor', 'requires_lmn', 'wellness-goods-spanish'],
    ['Humidificador para Puros Cigar Humidor', 'not_eligible', 'tobacco-vaping'],
    ['Masajeador Facial de Jade', 'not_eligible', null],
    // Ear muffs for noise are hearing protection, winter ear muffs clothing; a personal moisturizer is a lubricant.
    ['Noise Cancelling Ear Muffs for Adults Shooting', 'requires_lmn', 'noise-and-intimate-care-kinds'],
    ['Fleece Ear Muffs Winter Warmers for Women', 'not_eligible', null],
    ['Lelo Personal Moisturizer Lube', 'requires_lmn', 'noise-and-intimate-care-kinds'],
    // A nootropic sold as a cognitive enhancer is a supplement; a "brain fuel" coffee is coffee.
    ['Nooceptin Cognitive Enhancer 60 ct', 'requires_lmn', 'wellness-supplement-kinds'],
    ['Brain Fuel Coffee Ground 12 oz', 'not_eligible', 'groceries'],
    // A SAD light box named by the condition; a sad-face night light is not one.
    ['Northern Light Technologies Boxelite Desk Lamp SAD', 'requires_lmn', 'wellness-goods-spanish'],
    ['Sad Face Emoji Lamp Night Light', 'not_eligible', 'home-electronics-apparel'],
    // Foot rollers and spiky balls are massage tools whatever pain they name; an arch-support insole is an orthotic.
    ['Foot Roller Plantar Fasciitis Spiky Ball', 'requires_lmn', 'recovery-tools-kinds'],
    ['Orthotic Arch Support Insoles', 'eligible', 'orthotics-foot-care'],
    // Enteral and hypoallergenic formulas named by kind; a feeding pump set is a supply, ordinary formula food.
    ['Enteral Feeding Formula 1.5 Cal Unflavored 1 L', 'requires_lmn', 'medical-nutrition-kinds'],
    ['Gerber Extensive HA Liquid Concentrate Hypoallergenic', 'requires_lmn', 'medical-nutrition-kinds'],
    ['Enfamil Enfaport Infant Formula for Chylothorax', 'requires_lmn', 'medical-nutrition-kinds'],
    ['Bobbie Gentle Organic Infant Formula, 400 g', 'not_eligible', 'groceries'],
    // An LED beauty mask is a skin-care device, not a face mask for infection control nor a light box.
    ['CurrentBody Skin LED Light Therapy Face Mask', 'not_eligible', 'beauty-light-devices'],
    ['Omnilux Men LED Face Mask', 'not_eligible', 'beauty-light-devices'],
    ['Carex Day-Light Classic Light Therapy Lamp', 'requires_lmn', 'light-therapy'],
    // Yoga towels and mat carriers, sweat jackets and portion plates are goods; a yoga mat and a yoga strap are equipment.
    ['Yoga Towel Non Slip Hot Yoga', 'not_eligible', 'fitness-accessories-everyday'],
    ['Yoga Mat Strap Carrier Sling', 'not_eligible', 'fitness-accessories-everyday'],
    ['Sauna Suit Sweat Jacket for Weight Loss', 'not_eligible', 'fitness-accessories-everyday'],
    ['Portion Control Plates Set for Weight Loss', 'not_eligible', 'fitness-accessories-everyday'],
    ['Manduka GRP Adapt Hot Yoga Mat 5mm', 'requires_lmn', 'exercise-equipment'],
    ['Hugger Mugger Cotton Yoga Strap 8 ft', 'requires_lmn', 'fitness-equipment-types'],
    // Comfort goods that share a dual-purpose word: a travel pillow, a weighted sleep mask, closet moisture absorbers,
    // a massage chair's slipcover, a posture shirt, humidifier cleaners and a body brush; a cervical pillow, a posture
    // corrector and a humidifier keep their answers.
    ['Neck Pillow for Travel Memory Foam', 'not_eligible', 'home-comfort-look-alikes'],
    ['Weighted Sleep Mask Lavender', 'not_eligible', 'home-comfort-look-alikes'],
    ['Moisture Absorber Bags Closet Dehumidifier 10 Pack', 'not_eligible', 'home-comfort-look-alikes'],
    ['Massage Chair Cover Slipcover', 'not_eligible', 'home-comfort-look-alikes'],
    ['Posture Support Shirt Compression Shapewear Men', 'not_eligible', 'home-comfort-look-alikes'],
    ['Humidifier Cleaning Tablets, 12 ct', 'not_eligible', 'home-comfort-look-alikes'],
    ['Humidifier for Plants Small Mist', 'not_eligible', 'home-comfort-look-alikes'],
    ['Lymphatic Drainage Massager Body Brush', 'not_eligible', 'home-comfort-look-alikes'],
    ['Cool Mist Humidifier for Bedroom Large Room', 'requires_lmn', 'humidifiers'],
    ['Mzoo Cervical Neck Pillow for Neck Pain Relief', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Marakym Posture Corrector Adjustable Back Brace', 'eligible', 'braces-supports'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});
