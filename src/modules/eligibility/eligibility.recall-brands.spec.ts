import { checkEligibility, type EligibilityStatus } from './eligibility.engine.js';

type LabelledCase = [name: string, status: EligibilityStatus, category: string | null];

// A recall audit of brand-led titles (supplement, equipment, first-aid, sexual-wellness and household brands), written
// from no labelled set: each class the tables did not know, beside everyday goods that share its words.
describe('checkEligibility by name: brand-led classes found by a recall audit, and their look-alikes', () => {
  test.each<LabelledCase>([
    // Electric wheelchairs and hip protectors named by kind; a gaming chair and ski or hockey impact shorts are not medical.
    ['Journey Health Zoomer Folding Power Chair', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Electric Wheelchair Foldable Lightweight 15 Mile Range', 'eligible', 'mobility-safety-kinds'],
    ['Posey Hip Protector Briefs Large', 'eligible', 'mobility-safety-kinds'],
    ['Gaming Power Chair Recliner with Speakers', 'not_eligible', 'home-electronics-apparel'],
    ['Snowboard Hip Protector Padded Shorts Youth', 'not_eligible', null],
    ['Hockey Hip Protector Girdle', 'not_eligible', null],
    // A clotting sponge stops bleeding; a kitchen sponge is a household good.
    ['Quikclot Advanced Clotting Sponge', 'eligible', 'mobility-safety-kinds'],
    ['Kitchen Sponge Scrub 6 pk', 'not_eligible', 'household'],
    ['WoundSeal Powder Bleeding Stopper 4 ct', 'eligible', 'mobility-safety-kinds'],
    ['Hip Protection Underwear with Removable Pads', 'eligible', 'mobility-safety-kinds'],
    ['Hip Protection Pads Snowboard Shorts', 'not_eligible', null],
    ['Relivion Migraine Headset', 'eligible', 'mobility-safety-kinds'],
    ['Gaming Headset with Mic', 'not_eligible', null],
    // A migraine device by its maker or its kind.
    ['Cefaly Kit Migraine Treatment Device', 'eligible', 'mobility-safety-kinds'],
    // Low-vision, bath-safety, wheelchair and therapy-wrap makers whose whole range is medical equipment; an eye vitamin
    // "for enhanced vision" stays a supplement.
    ['Freedom Scientific Ruby 7 HD', 'eligible', 'equipment-makers-recall'],
    ['OrCam MyEye 3 Pro', 'eligible', 'equipment-makers-recall'],
    ['Optelec Compact 6 HD Speech', 'eligible', 'equipment-makers-recall'],
    ['HumanWare Explore 5 Handheld Magnifier', 'eligible', 'equipment-makers-recall'],
    ['Enhanced Vision Merlin Ultra', 'eligible', 'equipment-makers-recall'],
    ['HealthCraft Advantage Rail', 'eligible', 'equipment-makers-recall'],
    ['Elasto-Gel All Purpose Therapy Wrap 6 x 24', 'eligible', 'equipment-makers-recall'],
    ['Karman Healthcare S-Ergo 115 Ultra Lightweight 18 in', 'eligible', 'equipment-makers-recall'],
    ['Eye Vitamin for Enhanced Vision AREDS 2', 'requires_lmn', 'vitamins-minerals'],
    // Gut-health and numbered supplement lines; a book on the subject and No7 skin care are not supplements.
    ['Amy Myers MD Leaky Gut Revive Powder 30 Servings', 'requires_lmn', 'supplement-lines'],
    ['Gut Lining Support Capsules 60 ct', 'requires_lmn', 'supplement-lines'],
    ['Amy Myers MD Gut Shield 30 Servings', 'requires_lmn', 'supplement-makers-recall'],
    ['The Leaky Gut Cure Book Paperback', 'not_eligible', null],
    ['Amy Myers MD The Autoimmune Solution Book', 'not_eligible', null],
    ['Solgar No. 7 Joint Support 30 Vegetable Capsules', 'requires_lmn', 'supplement-lines'],
    ['Formula 303 Natural Muscle Relaxant 60 Tablets', 'requires_lmn', 'supplement-lines'],
    ['No7 Future Renew Damage Reversal Serum 25 ml', 'not_eligible', 'skin-care'],
    ['No. 7 Men Energising Moisturiser', 'not_eligible', 'beauty-brands-wellness'],
    // Beauty supplements in another word order; a nail-and-hair fungus treatment is an OTC antifungal.
    ['Solgar Skin Nails & Hair Advanced MSM Formula 120 Tablets', 'not_eligible', 'beauty-supplements'],
    ['Hair and Nail Fungus Treatment Solution', 'eligible', 'skin-treatments'],
    // "Calcium Lime & Rust" and hydrogen-peroxide surface cleaners are household goods; calcium tablets stay supplements
    // and a topical peroxide an antiseptic.
    ['CLR Calcium Lime & Rust Remover 28 oz', 'not_eligible', 'household-mineral-cleaners'],
    ['Lime-A-Way Lime Calcium Rust Cleaner 22 oz', 'not_eligible', 'household-mineral-cleaners'],
    ['Lysol Hydrogen Peroxide Multi-Purpose Cleaner', 'not_eligible', 'household-mineral-cleaners'],
    ['Calcium + Vitamin D3 Key Lime Chews 60 ct', 'requires_lmn', 'vitamins-minerals'],
    ['Hydrogen Peroxide 3% Topical Solution 32 oz', 'eligible', 'antiseptics'],
    // Air sanitizers and humidifier cleaning tablets are household goods; a hand sanitizer spray, a denture tablet and a
    // humidifier keep their answers.
    ['Lysol Air Sanitizer Spray 10 oz', 'not_eligible', 'household-mineral-cleaners'],
    ['Vicks Cool Mist Humidifier Cleaning Tablets', 'not_eligible', 'home-comfort-look-alikes'],
    ['Hand Sanitizer Spray 70% Alcohol', 'eligible', 'ppe'],
    ['Polident Denture Cleaning Tablets 120 ct', 'eligible', 'denture-care'],
    ['Cool Mist Humidifier 4 L', 'requires_lmn', 'humidifiers'],
    // A urinary-pain brand's cranberry line is a supplement; its analgesic stays an OTC medicine.
    ['Cystex Liquid Cranberry Complex', 'requires_lmn', 'supplement-lines'],
    ['Cystex Urinary Pain Relief Tablets 24 ct', 'eligible', 'womens-health-otc'],
    // A melatonin or Epsom-salt foaming bath is a toiletry; melatonin gummies and an Epsom soak keep their answers.
    ["Dr. Teal's Melatonin Sleep Foaming Bath", 'not_eligible', 'brand-look-alike-goods'],
    ['Melatonin 5 mg Gummies 60 ct', 'requires_lmn', 'dietary-supplements'],
    ["Dr Teal's Epsom Salt Soaking Solution Eucalyptus 3 lb", 'eligible', 'epsom-salt'],
    // Foods a supplement brand sells: mushroom coffee, protein, coconut oil and xylitol; the mushroom capsules, coconut-oil
    // softgels and a xylitol nasal spray keep their answers.
    ["Four Sigmatic Lion's Mane Mushroom Coffee 10 ct", 'not_eligible', 'brand-look-alike-goods'],
    ["Four Sigmatic Think Organic Ground Coffee Lion's Mane", 'not_eligible', 'brand-look-alike-goods'],
    ['Garden of Life Raw Organic Protein Vanilla 22 oz', 'not_eligible', 'brand-look-alike-goods'],
    ['Ancient Nutrition Bone Broth Protein Chocolate', 'not_eligible', 'brand-look-alike-goods'],
    ['NOW Foods Organic Coconut Oil 20 fl oz', 'not_eligible', 'brand-look-alike-goods'],
    ['NOW Foods Xylitol Granules 2.5 lb', 'not_eligible', 'brand-look-alike-goods'],
    ["Lion's Mane Mushroom Capsules 120 ct", 'requires_lmn', 'supplement-types'],
    ['Organic Coconut Oil Softgels 1000 mg 120 ct', 'requires_lmn', 'supplement-forms'],
    ['Xlear Xylitol Saline Nasal Spray 1.5 oz', 'eligible', 'nasal-care'],
    // A massage-gun maker's face device and intimate toys are not massagers for pain; its massage gun still needs a letter.
    ['Therabody TheraFace Pro', 'not_eligible', 'brand-look-alike-goods'],
    ['Trojan Vibrations Pulse Intimate Massager', 'not_eligible', 'brand-look-alike-goods'],
    ['Rabbit Vibrator Rechargeable Waterproof', 'not_eligible', 'brand-look-alike-goods'],
    ['Theragun Mini 2.0', 'requires_lmn', 'massage-devices'],
    ['Handheld Deep Tissue Back Massager', 'requires_lmn', 'massage-devices'],
    // A back belt from a brand named "Mountain Dog" is a brace; the same brand's dog harness and a dog's brace are pet goods.
    ['Mountain Dog Lumbar Support Belt', 'eligible', 'braces-supports'],
    ['Mountain Dog Adjustable Dog Harness Large', 'not_eligible', 'pet-supplies'],
    ['Dog Back Brace for IVDD Support', 'not_eligible', 'pet-supplies'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});
