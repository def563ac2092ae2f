import { checkEligibility } from './eligibility.engine.js';
import type { EligibilityStatus } from './eligibility.types.js';

type Case = [name: string, status: EligibilityStatus, category: string | null];

// A recall audit of the drugstore's over-the-counter aisles: names a catalog writes that no table read (Spanish-language
// store titles, medicines named by use or form, trade nouns of wound care, sunscreens named by form), each class with the
// everyday goods that share its words, so a look-alike answered `eligible` fails here.
function audit(title: string, cases: Case[]): void {
  describe(`checkEligibility by name: ${title}`, () => {
    test.each(cases)('%s → %s (%s)', (name, status, category) => {
      expect(checkEligibility({ name })).toMatchObject({ status, category });
    });
  });
}

audit(
  'Spanish-language store titles of OTC medicines, menstrual care, family planning, first aid and sunscreen, beside the teas, syrups, towels and fabric that share their words',
  [
    // A medicine named in Spanish by its drug or its use is the medicine; a tea or a maple syrup "para" something is food.
    ['Ibuprofeno 200 mg Tabletas Alivio del Dolor 100 ct', 'eligible', 'otc-medicines-spanish'],
    ['Jarabe para la Tos Miel 4 fl oz', 'eligible', 'otc-medicines-spanish'],
    ['Antiácido Carbonato de Calcio 96 Tabletas Masticables', 'eligible', 'otc-medicines-spanish'],
    ['Crema Antimicótica Clotrimazol 1% 1 oz', 'eligible', 'otc-medicines-spanish'],
    ['Gotas para los Ojos Lubricantes 15 ml', 'eligible', 'otc-medicines-spanish'],
    ['Té para la Tos Manzanilla 20 bolsitas', 'not_eligible', null],
    ['Jarabe de Arce Pancake Syrup 12 oz', 'not_eligible', 'food-drink-types'],
    // Sanitary towels and tampons are menstrual care; bath towels are not.
    ['Toallas Femeninas Nocturnas 28 ct', 'eligible', 'menstrual-care-spanish'],
    ['Tampones Regulares 36 ct', 'eligible', 'menstrual-care-spanish'],
    ['Toallas de Baño Algodón 4 pk', 'not_eligible', null],
    ['Condones Lubricados 12 ct', 'eligible', 'family-planning-spanish'],
    ['Prueba de Embarazo 2 ct', 'eligible', 'family-planning-spanish'],
    // Sterile gauze is a dressing; "gasa" is also chiffon, and a pet's first aid kit is for the pet.
    ['Vendas Adhesivas 100 ct', 'eligible', 'first-aid-spanish'],
    ['Gasas Estériles 4 x 4 in 25 ct', 'eligible', 'first-aid-spanish'],
    ['Vestido de Gasa Floral Mujer', 'not_eligible', null],
    ['Kit de Primeros Auxilios para Mascotas', 'not_eligible', null],
    // A sunscreen named in Spanish keeps the SPF 15 minimum; a tanning oil is not sunscreen.
    ['Protector Solar SPF 50 Niños Loción 6 oz', 'eligible', 'sunscreen-by-form'],
    ['Bloqueador Solar SPF 50', 'eligible', 'sunscreen-by-form'],
    ['Protector Solar SPF 8 Loción', 'not_eligible', 'sunscreen-by-form'],
    ['Aceite Bronceador FPS 4', 'not_eligible', null],
  ],
);

audit(
  'OTC medicines and supplies named by use, form or a brand that names its kind, beside the goods that share their words',
  [
    // An acne spot treatment is a medicine; a dark-spot serum and a carpet spot treatment are not.
    ['Hurricaine Topical Anesthetic Gel Wild Cherry 1 oz', 'eligible', 'otc-medicines-by-use'],
    ['Dibucaine Ointment 1% 1 oz', 'eligible', 'otc-medicines-by-use'],
    ['Oxy Maximum Action Spot Treatment 1 oz', 'eligible', 'otc-medicines-by-use'],
    ['Acne Spot Treatment 2% Salicylic Acid 0.5 oz', 'eligible', 'acne-treatment'],
    ['Dark Spot Treatment Serum Vitamin C 1 oz', 'not_eligible', 'skin-care'],
    ['Carpet Spot Treatment Spray 22 oz', 'not_eligible', null],
    // A dermatitis cream is a medicine (a dermatitis shampoo stays with the medicated shampoos); a burn relief gel with aloe is a burn medicine, an after-sun aloe gel stays aloe.
    ['Seborrheic Dermatitis Cream 1 oz', 'eligible', 'otc-medicines-by-use'],
    ['Solarcaine Cool Aloe Burn Relief Gel 8 oz', 'eligible', 'otc-medicines-by-use'],
    ['Banana Boat Aloe After Sun Gel 16 oz', 'requires_lmn', 'aloe-vera'],
    ['GlycoLax Powder 238 g', 'eligible', 'otc-medicines-by-use'],
    ['Cruex Prescription Strength Spray Powder 3 oz', 'eligible', 'otc-medicines-by-use'],
    ['Kirkland Signature Aller-Fex 180 mg 90 ct', 'eligible', 'otc-medicines-by-use'],
    // Wound, blister and taping supplies by their trade nouns; a combine harvester and a wrap dress are not.
    ['ABD Combine Pad 5 x 9 in 25 ct', 'eligible', 'wound-blister-taping-supplies'],
    ['Combine Harvester Toy Tractor', 'not_eligible', null],
    ['Pre-Wrap Foam Underwrap 2.75 in 48 rolls', 'eligible', 'wound-blister-taping-supplies'],
    ['Under Wrap Dress Black', 'not_eligible', 'clothing-accessories'],
    ['Blister Treatment Gel Plasters Assorted 16 ct', 'eligible', 'wound-blister-taping-supplies'],
    ["Tailor's Bunionette Protector Sleeve", 'eligible', 'wound-blister-taping-supplies'],
    // An orthotic shoe insole is an orthotic, not an orthopedic shoe; a shoe deodorizer is a toiletry.
    ['Powerstep Pinnacle Orthotic Shoe Insoles', 'eligible', 'wound-blister-taping-supplies'],
    ['Shoe Insole Deodorizer Spray', 'not_eligible', null],
    // A home test named by its condition is a diagnostic; a tea named by the condition is food.
    ['Strep Throat Test At Home', 'eligible', 'home-tests-by-condition'],
    ['Strep Throat Soothing Tea', 'not_eligible', 'groceries'],
    ['A1CNow+ System 4 tests', 'eligible', 'home-tests-by-condition'],
    // A sunscreen stick, scalp mist or "sun protect" lotion that states an SPF is sunscreen; a UPF shirt and a highlighter stick are not.
    ['Raw Elements Face Stick SPF 30', 'eligible', 'sunscreen-by-form'],
    ['Sun Bum Scalp & Hair Mist SPF 30', 'eligible', 'sunscreen-by-form'],
    ['Ocean Potion Sun Protect & Moisturize SPF 50', 'eligible', 'sunscreen-by-form'],
    ['Sun Protect Shirt UPF 50', 'not_eligible', 'clothing-accessories'],
    ['Face Stick Highlighter Glow', 'not_eligible', 'cosmetics'],
    // The brand's lactase chewables are a supplement; its milk is food.
    ['Lactaid Fast Act Chewables 32 ct', 'requires_lmn', 'lactase-enzyme-brands'],
    ['Lactaid Whole Milk 96 oz', 'not_eligible', 'groceries'],
  ],
);

audit("novelties, holders and pet products that borrow a medical product's words", [
  // A candy dish, a carrying case, a gag gift and a disposal bag are not the product they name; a contact lens case is lens care.
  ['Cough Drop Candy Dish', 'not_eligible', 'medicine-novelties'],
  ['Condom Carrying Case Metal', 'not_eligible', 'medicine-novelties'],
  ['Fake Pregnancy Test Positive Gag Gift', 'not_eligible', 'medicine-novelties'],
  ['Sanitary Napkin Disposal Bags 100 ct', 'not_eligible', 'medicine-novelties'],
  ['Contact Lens Carrying Case', 'eligible', 'contact-lenses-care'],
  // A non-medicated baby rub is not the medicated chest rub; eye drops for a cat are for the cat.
  ['Baby Vapor Rub Soothing Ointment 1.5 oz', 'not_eligible', 'medicine-novelties'],
  ["Vicks VapoRub Children's Ointment 1.76 oz", 'eligible', 'cold-flu-cough'],
  ['Cat Eye Drops for Allergies 0.5 oz', 'not_eligible', 'medicine-novelties'],
  ['Cat Eye Liquid Liner Black', 'not_eligible', null],
  // A lunch box of a bandage brand's licence, or one an ice pack is for, is a container.
  ['Band-Aid Brand Sesame Street Lunch Box', 'not_eligible', null],
  ['Reusable Ice Pack for Lunch Boxes', 'not_eligible', null],
]);

audit(
  'medicines named by use (nasal moisturizers, effervescent antacids, travel sickness, bite relief, skin protectants, medicated powders, blemish gels) and a non-laxative fiber, beside the goods that share their words',
  [
    ['Nasal Moisturizing Spray with Aloe 1.5 oz', 'eligible', 'otc-medicines-by-use'],
    ['Bromo Seltzer Effervescent Granules 4.25 oz', 'eligible', 'otc-medicines-by-use'],
    ['Bromo Seltzer Antique Bottle Blue Glass', 'not_eligible', 'beverages'],
    ['Travel Sickness Tablets Less Drowsy 12 ct', 'eligible', 'otc-medicines-by-use'],
    ['Travel Sickness Bag Disposable 20 ct', 'not_eligible', null],
    ['Chigger Bite Relief 0.75 oz', 'eligible', 'otc-medicines-by-use'],
    ['Mosquito Bite Relief Bracelet Citronella 10 pk', 'not_eligible', 'home-electronics-apparel'],
    ['Skin Protectant Ointment Dimethicone 4 oz', 'eligible', 'otc-medicines-by-use'],
    ['Dimethicone Hair Serum Frizz Control', 'not_eligible', 'skin-care'],
    ['Medicated Body Powder Menthol 10 oz', 'eligible', 'otc-medicines-by-use'],
    ['Blemish Control Gel Salicylic Acid 2% 1 oz', 'eligible', 'otc-medicines-by-use'],
    ['Blemish Balm BB Cream Light', 'not_eligible', 'cosmetics'],
    ['Wheat Dextrin Fiber Powder 20 oz', 'requires_lmn', 'fiber-supplement-ingredients'],
    ['Guar Gum Powder for Baking 8 oz', 'not_eligible', null],
  ],
);

audit(
  'wound, blister, period and bladder supplies by their trade nouns, beside a kitchen sponge, duct tape, socks and a coffee tray',
  [
    ['Surgical Sponges 4 x 4 in 8-Ply 200 ct', 'eligible', 'wound-blister-taping-supplies'],
    ['Kitchen Sponges Non-Scratch 6 pk', 'not_eligible', 'household'],
    ['Cloth Adhesive Tape 2 in x 10 yd', 'eligible', 'wound-blister-taping-supplies'],
    ['Gorilla Cloth Duct Tape 1.88 in', 'not_eligible', null],
    ['Blister Prevention Stick 0.35 oz', 'eligible', 'wound-blister-taping-supplies'],
    ['Blister Prevention Running Socks', 'not_eligible', 'clothing-accessories'],
    ['Molefoam Padding Roll', 'eligible', 'wound-blister-taping-supplies'],
    ['Period Proof Boyshorts 3 pk', 'eligible', 'period-postpartum-bladder-wear'],
    ['Maternity Pads 10 ct', 'eligible', 'period-postpartum-bladder-wear'],
    ["Men's Drip Collector 12 ct", 'eligible', 'period-postpartum-bladder-wear'],
    ['Drip Coffee Collector Tray', 'not_eligible', 'groceries'],
  ],
);

audit(
  'sunscreen milks and home tests named by condition, beside the planners, reveal gifts and foods named after them',
  [
    ['Mineral Sun Milk SPF 50', 'eligible', 'sunscreen-by-form'],
    ['Fertility Test for Women FSH', 'eligible', 'home-tests-by-condition'],
    ['Celiac Test Home Kit', 'eligible', 'home-tests-by-condition'],
    ['Celiac Friendly Gluten Free Pasta', 'not_eligible', 'groceries'],
    ['H. Pylori Test Home Kit', 'eligible', 'home-tests-by-condition'],
    ['Ovulation Calendar Planner', 'not_eligible', 'medicine-novelties'],
    ['Pregnancy Test Gift Box Reveal Announcement', 'not_eligible', 'medicine-novelties'],
  ],
);

audit(
  'register abbreviations of OTC medicines and supplies, beside a beer that states its bitterness and ordinary underwear',
  [
    // "IBU" is read only with a tablet strength or form: a beer states its bitterness units.
    ['IBU 200MG TAB 50CT', 'eligible', 'otc-register-abbreviations'],
    ['Hazy IPA 65 IBU 6 pk', 'not_eligible', 'alcohol'],
    ['EQ HYDROCORT CRM 1% 1OZ', 'eligible', 'otc-register-abbreviations'],
    ['CVS HLTH NASAL SPRY 12HR 1OZ', 'eligible', 'otc-register-abbreviations'],
    ['MEIJER STOOL SOFTNR 100MG 100CT', 'eligible', 'otc-register-abbreviations'],
    ['WAG FLEX FABRIC BNDG 30CT', 'eligible', 'otc-register-abbreviations'],
    ['UP&UP INCONT UNDERWEAR L 20CT', 'eligible', 'otc-register-abbreviations'],
    ['Boxer Brief Underwear 3 pk', 'not_eligible', 'clothing-accessories'],
    ['CVS PREG TEST 2CT', 'eligible', 'otc-register-abbreviations'],
  ],
);

audit(
  'party goods, containers and comfort goods shaped or named like a medical product, and supplements sold as bladder support',
  [
    // A shower steamer is aromatherapy; the steam-vaporizer medicine is a cold medicine.
    ['Sinus Relief Shower Steamers 6 ct', 'not_eligible', 'medicine-novelties'],
    ['Vicks VapoSteam Liquid Medication for Hot Steam Vaporizers 8 oz', 'eligible', 'cold-flu-cough'],
    // Pumpkin-seed or cranberry capsules are supplements; a bladder support insert is incontinence care.
    ['Bladder Support Pumpkin Seed 60 ct', 'requires_lmn', 'bladder-urinary-supplements'],
    ['Urinary Tract Support Cranberry 60 caps', 'requires_lmn', 'bladder-urinary-supplements'],
    ['Poise Impressa Bladder Supports Size 1 10 ct', 'eligible', 'incontinence'],
    // Wrapping paper, balloons, shot glasses, cake toppers, vending machines and empty bottles are not the product they picture.
    ['Bandage Print Wrapping Paper', 'not_eligible', 'medicine-novelties'],
    ['Heart Shaped Bandages Kids 30 ct', 'eligible', 'bandages-wound-care'],
    ['Condom Shaped Balloons Party 12 pk', 'not_eligible', 'medicine-novelties'],
    ['Cough Syrup Shaped Shot Glasses', 'not_eligible', 'medicine-novelties'],
    ['Pregnancy Test Cake Topper', 'not_eligible', 'medicine-novelties'],
    ['Condom Vending Machine', 'not_eligible', 'medicine-novelties'],
    ['Eye Drops Bottle Empty Dropper 10 pk', 'not_eligible', 'medicine-novelties'],
    // Fleece boot insoles are for warmth, not an orthotic.
    ['Insoles for Boots Fleece Warm', 'not_eligible', null],
  ],
);

audit(
  'liquor flavoured like a cough drop, soup, horse care, towels, coolers, holders and cleaners that carry an OTC word, beside the medicine itself',
  [
    ['Cough Drop Flavored Vodka 750 ml', 'not_eligible', null],
    ['Alcohol-Free Cough Syrup Kids 4 oz', 'eligible', 'cold-flu-cough'],
    ['Cold and Flu Soup Chicken Noodle 4 pk', 'not_eligible', 'medicine-novelties'],
    ['Horse Pain Relief Gel 32 oz', 'not_eligible', 'medicine-novelties'],
    ['Horse Chestnut Seed Extract 300 mg 60 ct', 'requires_lmn', 'supplement-ingredients'],
    ['Ice Pack for Beer Cans Koozie', 'not_eligible', 'medicine-novelties'],
    ['Tampon Dispenser Coin Operated', 'not_eligible', 'medicine-novelties'],
    ['Coppertone Beach Towel', 'not_eligible', 'medicine-novelties'],
    ['Coppertone Sport Sunscreen Lotion SPF 50', 'eligible', 'sunscreen'],
    ['Pill Bottle Organizer Craft Storage', 'not_eligible', 'medicine-novelties'],
    ['Drug Test Cheat Kit', 'not_eligible', 'medicine-novelties'],
    ['Eye Drops Keychain Holder', 'not_eligible', 'medicine-novelties'],
    ['Nasal Spray Holder Keychain', 'not_eligible', 'household-look-alikes'],
    ['Band Aid Holder Dispenser Wall', 'not_eligible', 'medicine-novelties'],
    ['Isopropyl Alcohol 99% Electronics Cleaner 1 gal', 'not_eligible', 'medicine-novelties'],
    ['Rubbing Alcohol 70% Isopropyl 32 oz', 'eligible', 'antiseptics'],
    ['Cheesecloth Gauze Grade 90', 'not_eligible', 'medicine-novelties'],
  ],
);

audit("an allergy to a cat or a dog is the person's; a product for the animal or the carpet is not medical care", [
  ['Allergy Relief Eye Drops for Cat & Dog Dander 0.5 oz', 'eligible', 'allergy-relief'],
  ['Cat Dander Remover Spray for Furniture 32 oz', 'not_eligible', null],
  ['Dog Dander Shampoo for Dogs 16 oz', 'not_eligible', 'toiletries'],
  ['Allergy Relief for Dog Dander Tablets 24 ct', 'eligible', 'allergy-relief'],
  ['Anti-Allergen Dog Dander Spray for Carpets', 'not_eligible', null],
]);
