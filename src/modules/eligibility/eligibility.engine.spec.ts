import { checkEligibility, storedStatus, type EligibilityStatus } from './eligibility.engine.js';

type LabelledCase = [name: string, status: EligibilityStatus, category: string | null];

// Realistic product names with the decision a benefits administrator would make. Genuinely ambiguous items
// (medicated lip balm, Metamucil, a cosmetic that states an SPF) are left out.
const LABELLED: LabelledCase[] = [
  ['Tylenol Extra Strength Caplets 500 mg, 100 ct', 'eligible', 'pain-relief'],
  ['Advil Liqui-Gels Ibuprofen 200 mg', 'eligible', 'pain-relief'],
  ['Aleve Naproxen Sodium Tablets 220 mg', 'eligible', 'pain-relief'],
  ['Bayer Low Dose Aspirin 81 mg, 120 ct', 'eligible', 'pain-relief'],
  ['Excedrin Migraine Caplets', 'eligible', 'pain-relief'],
  ["Children's Motrin Oral Suspension, Berry", 'eligible', 'pain-relief'],
  ['Voltaren Arthritis Pain Gel 100 g', 'eligible', 'pain-relief'],
  ['Salonpas Pain Relieving Patch, 60 ct', 'eligible', 'pain-relief'],
  ['Icy Hot Lidocaine Patch', 'eligible', 'pain-relief'],
  ['Midol Complete Menstrual Cramp Relief', 'eligible', 'pain-relief'],
  ['Vicks DayQuil Cold & Flu Relief LiquiCaps', 'eligible', 'cold-flu-cough'],
  ['Mucinex 12 Hour Chest Congestion Expectorant', 'eligible', 'cold-flu-cough'],
  ['Robitussin Maximum Strength Cough + Chest Congestion DM', 'eligible', 'cold-flu-cough'],
  ['Halls Mentho-Lyptus Cough Drops, Cherry, 30 ct', 'eligible', 'cold-flu-cough'],
  ['Ricola Original Herb Cough Drops', 'eligible', 'cold-flu-cough'],
  ['Honey Lemon Cough Drops, Sugar Free', 'eligible', 'cold-flu-cough'],
  ['Sudafed PE Sinus Congestion Tablets', 'eligible', 'cold-flu-cough'],
  ['Theraflu Severe Cold Hot Liquid Powder', 'eligible', 'cold-flu-cough'],
  ['Chloraseptic Sore Throat Spray, Cherry', 'eligible', 'cold-flu-cough'],
  ['Zicam Cold Remedy Nasal Swabs', 'eligible', 'cold-flu-cough'],
  ['Vicks VapoRub Chest Rub Ointment', 'eligible', 'cold-flu-cough'],
  ['Claritin 24 Hour Non-Drowsy Allergy Tablets', 'eligible', 'allergy-relief'],
  ['Zyrtec-D Allergy & Congestion, 12 Hour', 'eligible', 'allergy-relief'],
  ["Children's Benadryl Allergy Liquid, Cherry", 'eligible', 'allergy-relief'],
  ['Allegra Adult 24HR Allergy Relief 180 mg', 'eligible', 'allergy-relief'],
  ['Store Brand Cetirizine Hydrochloride Tablets 10 mg', 'eligible', 'allergy-relief'],
  ['Afrin No Drip Severe Congestion Nasal Spray', 'eligible', 'nasal-care'],
  ['NeilMed Sinus Rinse Original Kit', 'eligible', 'nasal-care'],
  ['Breathe Right Extra Strength Nasal Strips', 'eligible', 'nasal-care'],
  ['Frida Baby NoseFrida Nasal Aspirator', 'eligible', 'nasal-care'],
  ['Tums Extra Strength 750 Antacid Chewable Tablets', 'eligible', 'digestive-health'],
  ['Prilosec OTC Omeprazole Acid Reducer', 'eligible', 'digestive-health'],
  ['Pepto-Bismol Liquid, Original', 'eligible', 'digestive-health'],
  ['MiraLAX Laxative Powder', 'eligible', 'digestive-health'],
  ['Dulcolax Stool Softener Liquid Gels', 'eligible', 'digestive-health'],
  ['Imodium A-D Anti-Diarrheal Caplets', 'eligible', 'digestive-health'],
  ['Gas-X Extra Strength Softgels', 'eligible', 'digestive-health'],
  ['Preparation H Hemorrhoidal Ointment', 'eligible', 'digestive-health'],
  ['Chocolated Ex-Lax Laxative Pieces', 'eligible', 'digestive-health'],
  ['Alka-Seltzer Original Effervescent Tablets', 'eligible', 'digestive-health'],
  ["Phillips' Milk of Magnesia Saline Laxative", 'eligible', 'digestive-health'],
  ['Dramamine Motion Sickness Relief, Less Drowsy', 'eligible', 'motion-sickness'],
  ['ZzzQuil Nighttime Sleep Aid LiquiCaps', 'eligible', 'sleep-aids'],
  ['Unisom SleepTabs Doxylamine Succinate', 'eligible', 'sleep-aids'],
  ['Cortizone-10 Maximum Strength Hydrocortisone Cream', 'eligible', 'skin-treatments'],
  ["Lotrimin AF Athlete's Foot Antifungal Cream", 'eligible', 'skin-treatments'],
  ['Compound W Wart Remover Gel', 'eligible', 'skin-treatments'],
  ['Aveeno Eczema Therapy Daily Moisturizing Cream', 'eligible', 'skin-treatments'],
  ['Eucerin Eczema Relief Body Cream', 'eligible', 'skin-treatments'],
  ['Desitin Maximum Strength Diaper Rash Paste', 'eligible', 'skin-treatments'],
  ['Caladryl Calamine Lotion', 'eligible', 'skin-treatments'],
  ['Neutrogena Oil-Free Acne Wash', 'eligible', 'acne-treatment'],
  ['CeraVe Acne Foaming Cream Cleanser with Benzoyl Peroxide', 'eligible', 'acne-treatment'],
  ['Differin Adapalene Gel 0.1% Acne Treatment', 'eligible', 'acne-treatment'],
  ['Hero Cosmetics Mighty Patch Original Pimple Patches', 'eligible', 'acne-treatment'],
  ['Systane Ultra Lubricant Eye Drops', 'eligible', 'eye-ear-care'],
  ['Visine Red Eye Comfort Eye Drops', 'eligible', 'eye-ear-care'],
  ['Refresh Tears Lubricant Eye Drops', 'eligible', 'eye-ear-care'],
  ['Debrox Earwax Removal Kit', 'eligible', 'eye-ear-care'],
  ['Orajel Severe Toothache Pain Relief Gel', 'eligible', 'oral-pain-cold-sores'],
  ['Abreva Docosanol 10% Cold Sore Treatment', 'eligible', 'oral-pain-cold-sores'],
  ['Nicorette Nicotine Gum 4 mg, Fruit Chill', 'eligible', 'smoking-cessation'],
  ['NicoDerm CQ Step 1 Nicotine Patches', 'eligible', 'smoking-cessation'],
  ['Nicorette Nicotine Mini Lozenges 2 mg', 'eligible', 'smoking-cessation'],
  ['Monistat 3-Day Yeast Infection Treatment', 'eligible', 'womens-health-otc'],
  ['AZO Urinary Pain Relief Maximum Strength', 'eligible', 'womens-health-otc'],
  ['Plan B One-Step Emergency Contraceptive Tablet', 'eligible', 'contraceptives'],
  ['Trojan ENZ Lubricated Condoms, 36 ct', 'eligible', 'contraceptives'],
  ['Durex Invisible Ultra Thin Condoms', 'eligible', 'contraceptives'],
  ['Nix Ultra Lice Treatment', 'eligible', 'lice-treatment'],
  ['Licefreee Spray Head Lice Treatment', 'eligible', 'lice-treatment'],
  ['Band-Aid Brand Flexible Fabric Adhesive Bandages', 'eligible', 'bandages-wound-care'],
  ['Nexcare Waterproof Bandages, 30 ct', 'eligible', 'bandages-wound-care'],
  ['Sterile Gauze Pads 4 x 4 in, 25 ct', 'eligible', 'bandages-wound-care'],
  ['ACE Elastic Bandage with Clips', 'eligible', 'bandages-wound-care'],
  ["Dr. Scholl's Moleskin Plus Padding Roll", 'eligible', 'bandages-wound-care'],
  ['Johnson & Johnson All-Purpose First Aid Kit, 160 pieces', 'eligible', 'first-aid-kits'],
  ['Neosporin Original First Aid Antibiotic Ointment', 'eligible', 'antiseptics'],
  ['Swan Isopropyl Rubbing Alcohol 70%', 'eligible', 'antiseptics'],
  ['Hydrogen Peroxide Topical Solution 3%, 32 fl oz', 'eligible', 'antiseptics'],
  ['Digital Oral Thermometer', 'eligible', 'thermometers'],
  ['Braun ThermoScan 7 Ear Thermometer', 'eligible', 'thermometers'],
  ['iProven No-Touch Forehead Thermometer for Adults and Kids', 'eligible', 'thermometers'],
  ['Omron Platinum Upper Arm Blood Pressure Monitor', 'eligible', 'blood-pressure-monitors'],
  ['Zacurate Pro Series Fingertip Pulse Oximeter', 'eligible', 'diagnostic-devices'],
  ['Contour Next Blood Glucose Test Strips, 100 ct', 'eligible', 'diabetes-care'],
  ['OneTouch Delica Plus Lancets, 100 ct', 'eligible', 'diabetes-care'],
  ['Accu-Chek Guide Glucose Meter Kit', 'eligible', 'diabetes-care'],
  ['BinaxNOW COVID-19 Antigen Self Test, 2 ct', 'eligible', 'diagnostic-tests'],
  ['iHealth COVID-19 Antigen Rapid Test', 'eligible', 'diagnostic-tests'],
  ['First Response Early Result Pregnancy Test', 'eligible', 'pregnancy-fertility-tests'],
  ['Clearblue Advanced Digital Ovulation Test', 'eligible', 'pregnancy-fertility-tests'],
  ['Easy@Home Ovulation Test Strips, 50 ct', 'eligible', 'pregnancy-fertility-tests'],
  ['Tampax Pearl Tampons, Super, 50 ct', 'eligible', 'menstrual-care'],
  ['Always Ultra Thin Pads with Wings, Size 2', 'eligible', 'menstrual-care'],
  ['U by Kotex Security Maxi Pads, Overnight', 'eligible', 'menstrual-care'],
  ['DivaCup Menstrual Cup Model 1', 'eligible', 'menstrual-care'],
  ['Thinx Period Underwear Hiphugger', 'eligible', 'menstrual-care'],
  ['Carefree Acti-Fresh Panty Liners', 'eligible', 'menstrual-care'],
  ['Depend Fit-Flex Incontinence Underwear for Women', 'eligible', 'incontinence'],
  ['Poise Ultra Thin Incontinence Pads', 'eligible', 'incontinence'],
  ['TENA Intimates Overnight Pads', 'eligible', 'incontinence'],
  ['Medela Pump in Style Breast Pump', 'eligible', 'breast-pumps-lactation'],
  ['Lansinoh Breastmilk Storage Bags, 100 ct', 'eligible', 'breast-pumps-lactation'],
  ['Foster Grant Reading Glasses +2.00', 'eligible', 'eyeglasses'],
  ['Prescription Sunglasses, Polarized', 'eligible', 'eyeglasses'],
  ['Acuvue Oasys 2-Week Contact Lenses, 12 pack', 'eligible', 'contact-lenses-care'],
  ['Bausch + Lomb Biotrue Multi-Purpose Solution', 'eligible', 'contact-lenses-care'],
  ['Opti-Free Puremoist Contact Lens Solution', 'eligible', 'contact-lenses-care'],
  ['Duracell Hearing Aid Batteries Size 312, 24 ct', 'eligible', 'hearing-aids'],
  ['Jabra Enhance Select OTC Hearing Aids', 'eligible', 'hearing-aids'],
  ['Drive Medical Folding Walker with Wheels', 'eligible', 'mobility-aids'],
  ['Carex Offset Walking Cane, Adjustable', 'eligible', 'mobility-aids'],
  ['Adjustable Aluminum Crutches, Adult', 'eligible', 'mobility-aids'],
  ['Medline Shower Chair with Back', 'eligible', 'mobility-aids'],
  ['Mueller Hinged Knee Brace', 'eligible', 'braces-supports'],
  ['Futuro Wrist Splint, Right Hand', 'eligible', 'braces-supports'],
  ['KT Tape Pro Kinesiology Tape', 'eligible', 'braces-supports'],
  // No compression grade (mmHg) in the name: sports and comfort socks are sold the same way.
  ['Copper Fit Compression Socks, Unisex', 'requires_review', 'unclear-medical-purpose'],
  ['Jobst Relief 20-30 mmHg Knee High Compression Socks', 'eligible', 'compression-hosiery'],
  ["Dr. Scholl's Plantar Fasciitis Pain Relief Orthotics", 'eligible', 'orthotics-foot-care'],
  ['Powerstep Pinnacle Arch Support Insoles', 'eligible', 'orthotics-foot-care'],
  ['Sunbeam XpressHeat Heating Pad, King Size', 'eligible', 'hot-cold-therapy'],
  ['ThermaCare Lower Back & Hip Heat Wraps', 'eligible', 'hot-cold-therapy'],
  ['Instant Cold Pack, 24 count', 'eligible', 'hot-cold-therapy'],
  ['TENS 7000 Digital TENS Unit', 'eligible', 'tens-pain-devices'],
  ['PARI Trek S Portable Compressor Nebulizer', 'eligible', 'nebulizers-respiratory'],
  ['ResMed AirFit F20 Full Face CPAP Mask', 'eligible', 'cpap-supplies'],
  ['CPAP Tubing, 6 ft', 'eligible', 'cpap-supplies'],
  ['KN95 Face Masks, 20 Pack', 'eligible', 'ppe'],
  ['Purell Advanced Hand Sanitizer Gel, 8 fl oz', 'eligible', 'ppe'],
  ['Disposable Face Masks, 50 ct', 'eligible', 'ppe'],
  ['Neutrogena Ultra Sheer Dry-Touch Sunscreen SPF 70', 'eligible', 'sunscreen'],
  ['Banana Boat Sport Ultra Sunscreen Lotion SPF 30', 'eligible', 'sunscreen'],
  ['La Roche-Posay Anthelios Melt-in Milk Sunscreen SPF 60', 'eligible', 'sunscreen'],
  ['Sunscreen Body Lotion SPF 50, Broad Spectrum', 'eligible', 'sunscreen'],
  ['ChapStick Sun Defense Lip Balm SPF 15', 'eligible', 'sunscreen'],
  ['Lip balm with SPF 30', 'eligible', 'sunscreen'],
  ['CeraVe AM Facial Moisturizing Lotion with Sunscreen SPF 30', 'eligible', 'sunscreen'],
  ['Fixodent Original Denture Adhesive Cream', 'eligible', 'denture-care'],
  ['Polident 3 Minute Denture Cleanser Tablets', 'eligible', 'denture-care'],
  ['Infant Tylenol Acetaminophen Oral Suspension', 'eligible', 'pain-relief'],
  ['Tylenol Cold + Flu Severe Caplets', 'eligible', 'cold-flu-cough'],
  ['Magnesium Citrate Saline Laxative, Lemon', 'eligible', 'digestive-health'],
  ['Sanitizing Wipes, 80 ct', 'eligible', 'ppe'],
  ['Centrum Adults Multivitamin Tablets', 'requires_lmn', 'vitamins-minerals'],
  ['Nature Made Vitamin D3 2000 IU Softgels', 'requires_lmn', 'vitamins-minerals'],
  ["One A Day Women's Multivitamin", 'requires_lmn', 'vitamins-minerals'],
  ['Vitafusion Prenatal Gummy Vitamins', 'eligible', 'prenatal-vitamins'],
  ['Emergen-C 1000 mg Vitamin C Drink Mix', 'requires_lmn', 'vitamins-minerals'],
  ["Nature's Bounty Biotin 10000 mcg", 'requires_lmn', 'vitamins-minerals'],
  ['Caltrate 600+D3 Calcium Supplement', 'requires_lmn', 'vitamins-minerals'],
  ['Halls Defense Vitamin C Drops', 'requires_lmn', 'vitamins-minerals'],
  ['Natrol Melatonin 5 mg Fast Dissolve Tablets', 'requires_lmn', 'dietary-supplements'],
  ['ZzzQuil Pure Zzzs Melatonin Sleep Aid Gummies', 'requires_lmn', 'dietary-supplements'],
  ['Sambucol Black Elderberry Syrup', 'requires_lmn', 'dietary-supplements'],
  ['Qunol Turmeric Curcumin Complex', 'requires_lmn', 'dietary-supplements'],
  ['Osteo Bi-Flex Glucosamine Chondroitin', 'eligible', 'joint-supplements'],
  ['Vital Proteins Collagen Peptides Powder', 'requires_lmn', 'dietary-supplements'],
  ['AZO Cranberry Urinary Tract Health Softgels', 'requires_lmn', 'dietary-supplements'],
  ['Culturelle Daily Probiotic Capsules', 'requires_lmn', 'probiotics'],
  ['AZO Complete Feminine Balance Daily Probiotic', 'requires_lmn', 'probiotics'],
  ['Nordic Naturals Ultimate Omega Fish Oil', 'requires_lmn', 'fish-oil-omega-3'],
  ['Kirkland Signature Omega-3 Fish Oil 1000 mg', 'requires_lmn', 'fish-oil-omega-3'],
  ['Hydroxycut Weight Loss Pills', 'requires_lmn', 'weight-loss'],
  ['Theragun Prime Massage Gun', 'requires_lmn', 'massage-devices'],
  ['HoMedics Shiatsu Neck Massager with Heat', 'requires_lmn', 'massage-devices'],
  ['Levoit Core 300 HEPA Air Purifier', 'requires_lmn', 'air-purifiers'],
  ['Vicks Warm Mist Humidifier', 'requires_lmn', 'humidifiers'],
  ['Crane Ultrasonic Cool Mist Humidifier', 'requires_lmn', 'humidifiers'],
  ['Orthofeet Orthopedic Walking Shoes', 'requires_lmn', 'orthopedic-shoes-bedding'],
  ['Cervical Pillow for Neck Pain', 'requires_lmn', 'orthopedic-shoes-bedding'],
  ['Orthopedic Memory Foam Pillow', 'requires_lmn', 'orthopedic-shoes-bedding'],
  ['Maybelline Great Lash Mascara', 'not_eligible', 'cosmetics'],
  ["L'Oreal Paris Colour Riche Lipstick", 'not_eligible', 'cosmetics'],
  ["Fenty Beauty Pro Filt'r Foundation", 'not_eligible', 'cosmetics'],
  // A cosmetic with SPF is eligible only when sold as a broad-spectrum sunscreen: the label decides, not the name.
  ['Tinted Moisturizer with SPF 30', 'requires_review', 'cosmetics-with-spf'],
  ['IT Cosmetics CC+ Cream SPF 50', 'requires_review', 'cosmetics-with-spf'],
  ['Essie Nail Polish, Ballet Slippers', 'not_eligible', 'cosmetics'],
  ['Banana Boat Deep Tanning Oil SPF 4', 'not_eligible', 'cosmetics'],
  ['CeraVe Daily Moisturizing Lotion', 'not_eligible', 'skin-care'],
  ['TruSkin Vitamin C Serum for Face', 'not_eligible', 'skin-care'],
  ['Vitamin C serum', 'not_eligible', 'skin-care'],
  ['Olay Regenerist Retinol 24 Night Cream', 'not_eligible', 'skin-care'],
  ['The Ordinary Niacinamide 10% + Zinc 1%', 'not_eligible', 'skin-care'],
  ["Burt's Bees Beeswax Lip Balm", 'not_eligible', 'skin-care'],
  ['Hydrating Sheet Face Mask', 'not_eligible', 'skin-care'],
  ['Collagen Face Cream, Anti-Aging', 'not_eligible', 'skin-care'],
  ['Aloe Vera After Sun Gel', 'requires_lmn', 'aloe-vera'],
  ['Pantene Pro-V Daily Moisture Renewal Shampoo', 'not_eligible', 'toiletries'],
  ['Dove Beauty Bar Soap, 4 ct', 'not_eligible', 'toiletries'],
  ['Degree Men Original Antiperspirant Deodorant', 'not_eligible', 'toiletries'],
  ['Q-tips Cotton Swabs, 500 ct', 'not_eligible', 'toiletries'],
  ['Crest Pro-Health Toothpaste', 'not_eligible', 'oral-care'],
  ['Oral-B Pro 1000 Electric Toothbrush', 'not_eligible', 'oral-care'],
  ['Listerine Cool Mint Antiseptic Mouthwash', 'not_eligible', 'oral-care'],
  ['Glide Dental Floss, Mint', 'not_eligible', 'oral-care'],
  ['Orajel Kids Training Toothpaste', 'not_eligible', 'oral-care'],
  ['Crest 3D White Whitestrips', 'not_eligible', 'teeth-whitening'],
  ['Gillette Fusion5 Razor Blade Refills', 'not_eligible', 'hair-removal'],
  ['Nair Hair Remover Lotion', 'not_eligible', 'hair-removal'],
  ["Rogaine Men's 5% Minoxidil Foam", 'not_eligible', 'hair-growth'],
  ['Chanel No. 5 Eau de Parfum', 'not_eligible', 'fragrances'],
  ["Hershey's Milk Chocolate Bar", 'not_eligible', 'candy'],
  ['Chocolate bandage-shaped candy', 'not_eligible', 'candy'],
  ['Skittles Original Bite Size Candies', 'not_eligible', 'candy'],
  ['Candy Canes, Peppermint, 12 ct', 'not_eligible', 'candy'],
  ['Trident Sugar Free Chewing Gum', 'not_eligible', 'candy'],
  ["Lay's Classic Potato Chips", 'not_eligible', 'groceries'],
  ['Honey Nut Cheerios Cereal', 'not_eligible', 'groceries'],
  ['Similac Pro-Advance Infant Formula', 'not_eligible', 'groceries'],
  ['SlimFast Meal Replacement Shake', 'not_eligible', 'groceries'],
  ['Walkers Pure Butter Shortbread', 'not_eligible', 'groceries'],
  ['Coca-Cola Classic 12 fl oz Cans', 'not_eligible', 'beverages'],
  ['Red Bull Energy Drink', 'not_eligible', 'beverages'],
  ['Glaceau Vitamin Water, XXX', 'not_eligible', 'beverages'],
  ['Johnnie Walker Black Label Scotch Whisky', 'not_eligible', 'alcohol'],
  ['Marlboro Red Cigarettes', 'not_eligible', 'tobacco-vaping'],
  ['ZYN Nicotine Pouches, Cool Mint', 'not_eligible', 'tobacco-vaping'],
  ['Pampers Swaddlers Baby Diapers, Size 1', 'not_eligible', 'baby-diapers-gear'],
  ['Huggies Natural Care Baby Wipes', 'not_eligible', 'baby-diapers-gear'],
  ['Planet Fitness Gym Membership', 'requires_lmn', 'exercise-equipment'],
  ['Gaiam Yoga Mat', 'requires_lmn', 'exercise-equipment'],
  ['Optimum Nutrition Gold Standard Whey Protein Powder', 'not_eligible', 'fitness'],
  ['Nike Pegasus Running Shoes', 'not_eligible', 'clothing-accessories'],
  ['Ray-Ban Aviator Sunglasses', 'not_eligible', 'clothing-accessories'],
  ['Hanes Crew Socks, 6 pack', 'not_eligible', 'clothing-accessories'],
  ['Tide Original Liquid Laundry Detergent', 'not_eligible', 'household'],
  ['Bounty Paper Towels, 6 Rolls', 'not_eligible', 'household'],
  ['Kleenex Facial Tissues', 'not_eligible', 'household'],
  ['Blue Buffalo Adult Dog Food', 'not_eligible', 'pet-supplies'],
  ['Zesty Paws Omega-3 Fish Oil for Dogs', 'not_eligible', 'pet-supplies'],
  ['Lavender Essential Oil', 'not_eligible', 'wellness-general'],
  ["Charlotte's Web CBD Gummies", 'not_eligible', 'cannabis-cbd'],
  ['Sunscreen Lotion SPF 8', 'not_eligible', 'sunscreen'],
  ['Contoured Sleep Mask', 'not_eligible', 'wellness-general'],
  ['Charcoal Peel-Off Face Mask', 'not_eligible', 'skin-care'],
  ["Reese's Peanut Butter Cups", 'not_eligible', 'candy'],
  ['Wine Glasses, Set of 4', 'not_eligible', 'household'],
  ['Digital Meat Thermometer for Grilling', 'not_eligible', null],
  ['Pool Thermometer', 'not_eligible', null],
  ['Bluetooth Wireless Headphones', 'not_eligible', 'home-electronics-apparel'],
  ['Garden Hose, 50 ft', 'not_eligible', 'home-electronics-apparel'],
  ['Reusable Ice Pack for Lunch Boxes', 'not_eligible', null],
  ['Baby Walker with Wheels', 'not_eligible', null],
  ['Kindle Paperwhite E-Reader', 'not_eligible', null],
  // Categories of the public lists added after the post-rules set's misses (brand-only antacids, prep wipes, pill
  // planners, homeopathic and postpartum care, ostomy supplies, stress supplements, single minerals, chin straps).
  ['Mylanta Maximum Strength Liquid', 'eligible', 'digestive-health'],
  ['Alcohol Prep Wipes, 200 ct', 'eligible', 'antiseptics'],
  ['Alcohol-Free Baby Wipes, 80 ct', 'not_eligible', 'baby-diapers-gear'],
  ['Weekly Pill Planner, 14 Compartments', 'eligible', 'pill-organizers'],
  ['Arnica Gel Homeopathic Medicine, 2.6 oz', 'eligible', 'homeopathic-remedies'],
  ['Peri Bottle for Postpartum Care', 'eligible', 'postpartum-care'],
  ['Drainable Ostomy Pouch, 10 ct', 'eligible', 'ostomy-urology'],
  ['Sinus Pressure Relief Tablets', 'eligible', 'cold-flu-cough'],
  ['Beach Sport Lotion SPF 50', 'eligible', 'sunscreen'],
  ['Daily Face Moisturizer SPF 30', 'requires_review', 'cosmetics-with-spf'],
  ['Stress Relief Gummies with GABA', 'requires_lmn', 'brain-health-supplements'],
  ['Zinc 50 mg, 100 ct', 'requires_lmn', 'supplement-forms'],
  ['Diabetes Nutrition Shake, Glucose Control', 'requires_lmn', 'medical-nutrition'],
  ['Light Therapy Lamp, 10,000 Lux', 'requires_lmn', 'light-therapy'],
  ['Anti Snore Chin Strap', 'requires_review', 'unclear-medical-purpose'],
  // Categories added after the unseen set of 2026-11-28 was measured (ostomy barriers, bed rails, knee straps, nausea
  // bands, lid sprays, ketone strips, hydrogel dressings, pads named by absorbency, medicines named by use).
  ['Ostomy Barrier Ring, 10 ct', 'eligible', 'ostomy-urology'],
  ['Adjustable Bed Rail for Seniors', 'eligible', 'mobility-aids'],
  ['Patella Knee Strap', 'eligible', 'braces-supports'],
  ['Acupressure Band for Nausea', 'eligible', 'motion-sickness'],
  ['Lid and Lash Cleansing Spray', 'eligible', 'eyelid-care'],
  ['Urine Ketone Test Strips, 100 ct', 'eligible', 'diagnostic-tests'],
  ['Hydrogel Burn Dressing 4 x 4 in', 'eligible', 'bandages-wound-care'],
  ['Organic Cotton Pads Super, 16 ct', 'eligible', 'menstrual-care'],
  ['Daytime Severe Cold Liquid, 8 fl oz', 'eligible', 'cold-flu-cough'],
  ["Children's Pain & Fever Chewables Bubble Gum", 'eligible', 'pain-relief'],
  ['Goody Hair Elastics, 30 ct', 'not_eligible', 'personal-care-items'],
  ['Reflux Wedge Pillow', 'eligible', 'reflux-wedge-pillows'],
  ['Petrolatum Gauze Dressing', 'eligible', 'bandages-wound-care'],
  ['Daily Multi for Men, 60 tablets', 'requires_lmn', 'vitamins-minerals'],
  ['Adjustable Wrist Weights, 2 lb', 'requires_lmn', 'exercise-equipment'],
  ['Knee High Compression Socks', 'requires_review', 'unclear-medical-purpose'],
  // Categories added after the second unseen set was measured (medicines named by use and form, nasal washes, PEG and
  // glycerin laxatives, gas relievers, oatmeal baths, diaphragms, leakproof and reusable menstrual wear, bladder guards,
  // glucose liquids, wound closures, rib belts, toe spreaders, heated wraps, holding chambers, GP lens care, eyelid
  // hypochlorous sprays, pediatric electrolytes, medical foods and specialised formulas by brand, fitness classes and
  // heart-rate straps, memory tablets, skin supplements, lip repair ointments; sunscreen body sprays).
  ['Migraine Formula Caplets, 24 ct', 'eligible', 'pain-relief'],
  ['Sinus Severe Daytime Tablets', 'eligible', 'cold-flu-cough'],
  ['Nasal Wash Kit', 'eligible', 'nasal-care'],
  ['Polyethylene Glycol 3350 Powder', 'eligible', 'digestive-health'],
  ['Glycerin Suppositories, 12 ct', 'eligible', 'digestive-health'],
  ['Gas & Bloating Relief Softgels', 'eligible', 'digestive-health'],
  ['Colloidal Oatmeal Bath Treatment, 8 ct', 'eligible', 'skin-treatments'],
  ['Eczema Relief Skin Protectant Cream', 'eligible', 'skin-treatments'],
  ['Anti-Itch Gel with Aloe', 'eligible', 'skin-treatments'],
  ['Silicone Contraceptive Diaphragm', 'eligible', 'contraceptives'],
  ['Leakproof Sleep Shorts', 'eligible', 'menstrual-care'],
  ['Reusable Cotton Pads Heavy, 3 ct', 'eligible', 'menstrual-care'],
  ['Reusable Makeup Remover Pads', 'not_eligible', 'cosmetics'],
  ['Male Guards for Bladder Leakage', 'eligible', 'incontinence'],
  ['Glucose Liquid Shot, Fruit Punch', 'eligible', 'diabetes-care'],
  ['Butterfly Wound Closures, 20 ct', 'eligible', 'bandages-wound-care'],
  ['Universal Rib Belt', 'eligible', 'braces-supports'],
  ['Gel Toe Spreader, 2 ct', 'eligible', 'orthotics-foot-care'],
  ['Gel Toe Separators for Pedicure', 'not_eligible', null],
  ['Heated Neck Wrap', 'eligible', 'hot-cold-therapy'],
  ['Heated Throw Blanket', 'not_eligible', 'household'],
  ['Valved Holding Chamber', 'eligible', 'nebulizers-respiratory'],
  ['Cleaner for Gas Permeable Lenses', 'eligible', 'contact-lenses-care'],
  ['Hypochlorous Eyelid Spray', 'eligible', 'eyelid-care'],
  ['Pediatric Electrolyte Freezer Pops, 16 ct', 'eligible', 'oral-rehydration'],
  ['Sunscreen Body Spray SPF 30', 'eligible', 'sunscreen'],
  ['Peptamen Junior Vanilla', 'requires_lmn', 'medical-nutrition'],
  ['Nutramigen Infant Formula Powder', 'requires_lmn', 'specialised-infant-formula'],
  ['Fitness Class Credits Membership', 'requires_lmn', 'exercise-equipment'],
  ['Heart Rate Monitor Chest Strap', 'requires_lmn', 'exercise-equipment'],
  ['Memory Tablets, 60 ct', 'requires_lmn', 'brain-health-supplements'],
  ['Memory Foam Pillow', 'not_eligible', 'household'],
  ['Skin Supplement Softgels', 'not_eligible', 'beauty-supplements'],
  ['Lip Repair Ointment', 'requires_review', 'medicated-or-everyday'],
];

describe('checkEligibility by name: labelled product list', () => {
  test.each(LABELLED)('%s → %s (%s)', (name, status, category) => {
    const result = checkEligibility({ name });
    expect(result.status).toBe(status);
    expect(result.category).toBe(category);
    expect(result.source).toBe(category === null ? 'none' : 'name');
    expect(result.hsa_fsa_eligible).toBe(status === 'eligible' || status === 'requires_lmn');
    expect(result.requires_lmn).toBe(status === 'requires_lmn');
  });

  test('the list is large and covers every status', () => {
    expect(LABELLED.length).toBeGreaterThanOrEqual(120);
    for (const status of ['eligible', 'requires_lmn', 'not_eligible'] as const) {
      expect(LABELLED.filter((c) => c[1] === status).length).toBeGreaterThanOrEqual(20);
    }
  });
});

describe('checkEligibility by name: messages and edge cases', () => {
  test('explains an eligible match with category, basis and matched phrase', () => {
    const result = checkEligibility({ name: 'Digital Oral Thermometer' });
    expect(result.message).toBe(
      "Eligible: 'Digital Oral Thermometer' matches category 'Thermometers'. Rule: IRS Pub. 502: diagnostic devices used to diagnose and treat illness. Matched by name on \"oral thermometer\".",
    );
  });

  test('explains a Letter of Medical Necessity decision', () => {
    const result = checkEligibility({ name: 'Centrum Adults Multivitamin' });
    expect(result.message).toMatch(
      /^Eligible only with a Letter of Medical Necessity: 'Centrum Adults Multivitamin' matches category 'Vitamins & minerals'/,
    );
  });

  test('an OTC medicine names the CARES Act as its rule', () => {
    expect(checkEligibility({ name: 'Advil Ibuprofen Tablets 200 mg, 100 ct' }).message).toContain(
      'Rule: CARES Act 2020 (§3702): over-the-counter medicines are eligible without a prescription',
    );
  });

  test('a name that cannot decide is requires_review, not payable, and says what the name does not state', () => {
    const result = checkEligibility({ name: 'Supergoop! Glowscreen SPF 40' });
    expect(result).toMatchObject({
      status: 'requires_review',
      category: 'cosmetics-with-spf',
      source: 'name',
      hsa_fsa_eligible: false,
      requires_lmn: false,
    });
    expect(result.message).toMatch(
      /^Needs review \(not eligible until checked\): 'Supergoop! Glowscreen SPF 40' matches category 'Sunscreen \(SPF 15\+, broad spectrum\)' but does not state that it is a broad-spectrum sunscreen\. Rule: Plan administrators' eligibility lists: /,
    );
  });

  test('a CBD or pet product is not eligible whatever medical words it carries', () => {
    expect(checkEligibility({ name: 'Medterra CBD Pain Relief Cream 500 mg' })).toMatchObject({
      status: 'not_eligible',
      category: 'cannabis-cbd',
    });
    expect(checkEligibility({ name: 'Joint Pain Relief Chews for Dogs' })).toMatchObject({
      status: 'not_eligible',
      category: 'pet-supplies',
    });
  });

  test.each([
    [true, false, 'thermometers', 'eligible'],
    [true, true, 'vitamins-minerals', 'requires_lmn'],
    [false, false, 'cosmetics-with-spf', 'requires_review'],
    [false, false, 'sunscreen', 'not_eligible'],
    [false, false, null, 'not_eligible'],
  ] as const)(
    'a stored decision (eligible %s, lmn %s, category %s) reads back as %s',
    (eligible, lmn, category, status) => {
      expect(storedStatus(eligible, lmn, category)).toBe(status);
    },
  );

  test('a sunscreen below SPF 15 is not eligible and says why', () => {
    const result = checkEligibility({ name: 'Sunscreen Lotion SPF 8' });
    expect(result).toMatchObject({
      status: 'not_eligible',
      category: 'sunscreen',
      source: 'name',
      hsa_fsa_eligible: false,
    });
    expect(result.message).toContain('SPF 8, below the SPF 15 minimum');
  });

  test('nothing recognised: not eligible, source none, asks for a UPC or clearer name', () => {
    const result = checkEligibility({ name: 'Wireless Weather Station' });
    expect(result).toEqual({
      hsa_fsa_eligible: false,
      requires_lmn: false,
      status: 'not_eligible',
      category: null,
      source: 'none',
      message:
        "Not eligible: no HSA/FSA-eligible category was recognised in 'Wireless Weather Station' (IRS Pub. 502: only medical care qualifies). A valid UPC or a clearer product name (e.g. 'digital thermometer') helps.",
    });
  });

  test.each([{}, { name: '' }, { name: '   ', upc_code_or_gtin: '' }, { name: null, upc_code_or_gtin: null }])(
    'empty input %j is not eligible',
    (input) => {
      const result = checkEligibility(input);
      expect(result).toMatchObject({ status: 'not_eligible', category: null, source: 'none', hsa_fsa_eligible: false });
      expect(result.message).toBe('Not eligible: no product name or UPC was given.');
    },
  );

  test('case, punctuation and plurals do not change the decision', () => {
    const a = checkEligibility({ name: 'ADHESIVE BANDAGES!!!' });
    const b = checkEligibility({ name: 'adhesive-bandage' });
    expect([a.status, a.category]).toEqual(['eligible', 'bandages-wound-care']);
    expect([b.status, b.category]).toEqual(['eligible', 'bandages-wound-care']);
  });

  test('matches whole words only', () => {
    // "cane" must not match inside "hurricane", nor "gin" inside "ginger".
    expect(checkEligibility({ name: 'Hurricane Lamp' }).source).toBe('none');
    expect(checkEligibility({ name: 'Ginger Chews' }).source).toBe('none');
  });

  test('a very long name is handled quickly and the message stays short', () => {
    const name = 'thermometer '.repeat(5000);
    const result = checkEligibility({ name });
    expect(result.status).toBe('eligible');
    expect(result.message.length).toBeLessThan(400);
  });

  // Its speed (µs per name) is measured by `npm run bench` (bench/eligibility.ts), not here.
  test('is deterministic: the same name always gets the same answer', () => {
    const names = LABELLED.map((c) => c[0]);
    const first = names.map((name) => checkEligibility({ name }));
    for (let i = 0; i < 3; i++) {
      names.forEach((name, j) => expect(checkEligibility({ name })).toEqual(first[j]));
    }
  });
});

describe('checkEligibility by name: a taste or a smell is not the product', () => {
  test.each<LabelledCase>([
    // The food, drink or candy word before "flavor" or "scented" describes the medicine or supply after or before it.
    ["Fletcher's Laxative for Kids Root Beer Flavor, 2.5 fl oz", 'eligible', 'digestive-health'],
    ['Lavender Scented Epsom Salt 3 lb', 'eligible', 'epsom-salt'],
    ["Children's Tylenol Cherry Flavor", 'eligible', 'pain-relief'],
    // A medicine word in the span still decides; a food named after the marker is still food.
    ['Coca-Cola Cherry Flavored Soda 12 pack', 'not_eligible', 'beverages'],
    // A children's liquid medicine named by its flavour alone, with no marker, is still the medicine.
    ["Equate Children's Acetaminophen Oral Suspension Bubble Gum, 4 fl oz", 'eligible', 'pain-relief'],
    ['Root Beer Flavored Candy Drops', 'not_eligible', 'candy'],
    ['Yankee Candle Vanilla Scented Candle', 'not_eligible', 'wellness-general'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });

  test('without the marker, the same food word still names the product', () => {
    expect(checkEligibility({ name: 'Root Beer, 12 pack' }).status).toBe('not_eligible');
    expect(checkEligibility({ name: "Fletcher's Laxative for Kids Root Beer Flavor" }).status).toBe('eligible');
  });
});

describe("checkEligibility by name: the fifth independent set's classes, in names of their own", () => {
  test.each<LabelledCase>([
    // A supplement named after the marker a monitor measures is a supplement; the monitor stays a diagnostic device.
    ['Nature Made Healthy Blood Sugar Formula, 60 tablets', 'requires_lmn', 'supplement-ingredients'],
    ['Omron Silver Upper Arm Blood Pressure Monitor', 'eligible', 'blood-pressure-monitors'],
    // A home test is a diagnostic even when it names what a supplement would support.
    ['Swimcount Fertility Home Test for Men', 'eligible', 'diagnostic-kits-monitors'],
    // Bedwetting underwear is an incontinence product, not clothing; ordinary underwear stays clothing.
    ['Up&Up Bedwetting Underwear for Boys, L/XL, 30 ct', 'eligible', 'incontinence-products'],
    ['Hanes Boys Boxer Briefs Underwear, 5 pack', 'not_eligible', 'clothing-accessories'],
    // A pressure-relief overlay is home-care equipment; a mattress topper is bedding.
    ['Drive Medical Therapeutic Foam Overlay, Twin', 'eligible', 'home-care-equipment'],
    // A zinc-oxide skin protectant paste is an OTC drug; a healing ointment that names nothing stays for review.
    ['Triple Paste Skin Protectant Paste Zinc Oxide, 2 oz', 'eligible', 'otc-ingredients-medical'],
    // A mineral chew is a supplement; a caramel is candy.
    ['Celebrate Calcium Citrate Soft Chews Caramel, 90 ct', 'requires_lmn', 'vitamins-minerals'],
    ['Werthers Original Chewy Caramels, 5 oz', 'not_eligible', 'candy'],
    // A fitness streaming membership is a fitness program; a video streaming membership is not.
    ['Pvolve Annual Streaming Membership', 'requires_lmn', 'fitness-equipment-types'],
    ['Hulu Annual Streaming Membership', 'not_eligible', null],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe("checkEligibility by name: the sixth independent set's classes, in names of their own", () => {
  test.each<LabelledCase>([
    // Calamine is an OTC skin protectant; sterile cotton is a first-aid supply, cosmetic cotton rounds are not.
    ['CVS Health Calamine Lotion Skin Protectant, 8 fl oz', 'eligible', 'skin-treatments'],
    ['Curad Sterile Cotton Balls, 50 ct', 'eligible', 'clinical-supplies-medical'],
    ['Swisspers Cosmetic Cotton Rounds, 100 ct', 'not_eligible', 'personal-care-items'],
    // Weight-loss programs by name need a letter; a massager that heats is a massager; a travel pillow is a pillow.
    ['Jenny Craig Rapid Results 4-Week Program', 'requires_lmn', 'weight-loss'],
    ['Snailax Heated Shiatsu Back Massager', 'requires_lmn', 'massage-devices'],
    ['Trtl Travel Neck Pillow', 'not_eligible', 'household'],
    // A compression brand's sock without a stated grade is for review; with one it is graded compression.
    ['Sigvaris Travel Socks Knee High', 'requires_review', 'unclear-medical-purpose'],
    ['Sigvaris Cotton Socks 20-30 mmHg', 'eligible', 'compression-hosiery'],
    // An office chair's back support is ergonomic seating; a lumbar brace is a brace.
    ['Fellowes Office Suites Mesh Back Support', 'requires_lmn', 'ergonomic-furniture'],
    ['Mueller Adjustable Lumbar Back Brace', 'eligible', 'braces-supports'],
    // A medical nutrition formula in a chocolate flavour is not candy.
    ['Kate Farms Pediatric Standard 1.2 Nutrition Chocolate, 12 ct', 'requires_lmn', 'medical-nutrition-brands'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by UPC/GTIN', () => {
  test('a listed EAN-13 decides, and the message names the listed product', () => {
    const result = checkEligibility({ upc_code_or_gtin: '9520301200141' });
    expect(result).toEqual({
      hsa_fsa_eligible: true,
      requires_lmn: true,
      status: 'requires_lmn',
      category: 'vitamins-minerals',
      source: 'upc',
      message:
        "EAN 9 520301 200141 is listed as 'Centrum Adults Multivitamin Tablets, 200 ct' (Vitamins & minerals): eligible only with a Letter of Medical Necessity. Rule: IRS Pub. 502: vitamins and nutritional supplements are medical care only when a practitioner recommends them to treat a specific diagnosed condition.",
    });
  });

  test('the 14-digit form with spaces and hyphens finds the same product', () => {
    const result = checkEligibility({ upc_code_or_gtin: '0 952-0204-10307-5' });
    expect(result).toMatchObject({ status: 'eligible', category: 'thermometers', source: 'upc' });
    expect(result.message).toContain("is listed as 'Braun ThermoScan 7 Ear Thermometer' (Thermometers): eligible.");
  });

  test('the UPC decides even when the name suggests otherwise', () => {
    const result = checkEligibility({ name: 'Gift basket', upc_code_or_gtin: '9520409308060' });
    expect(result).toMatchObject({ status: 'not_eligible', category: 'candy', source: 'upc', hsa_fsa_eligible: false });
  });

  test('a valid but unknown UPC falls back to the name and says so', () => {
    const result = checkEligibility({ name: 'Digital Oral Thermometer', upc_code_or_gtin: '036000291452' });
    expect(result).toMatchObject({ status: 'eligible', category: 'thermometers', source: 'name' });
    expect(result.message).toMatch(
      /^UPC 0 36000 29145 2 is not in the eligibility list, so the name decided\. Eligible: 'Digital Oral Thermometer'/,
    );
  });

  test('a valid but unknown UPC without a name is not eligible', () => {
    const result = checkEligibility({ upc_code_or_gtin: '036000291452' });
    expect(result).toMatchObject({ status: 'not_eligible', category: null, source: 'none' });
    expect(result.message).toContain('is not in the eligibility list and no product name was given');
  });

  test('an invalid UPC does not throw: it falls back to the name and says why', () => {
    const result = checkEligibility({ name: 'Tampax Pearl Tampons', upc_code_or_gtin: '036000291453' });
    expect(result).toMatchObject({ status: 'eligible', category: 'menstrual-care', source: 'name' });
    expect(result.message).toMatch(
      /^The barcode '036000291453' is not valid \(Check digit is 3 but should be 2 for this UPC-A barcode\), so the name decided\./,
    );
  });

  test('an invalid UPC without a name is not eligible', () => {
    const result = checkEligibility({ upc_code_or_gtin: 'not-a-barcode' });
    expect(result).toMatchObject({ status: 'not_eligible', category: null, source: 'none' });
    expect(result.message).toContain("The barcode 'not-a-barcode' is not valid");
  });
});

describe('checkEligibility by name: supplement, fitness and furniture lines and their look-alikes', () => {
  test.each([
    // Supplements named by ingredient, salt form or practitioner brand alone.
    ['Holy Basil Tulsi Leaf Extract 60 Veg Caps', 'requires_lmn', 'supplement-ingredients'],
    ['Iron Bisglycinate 25 mg', 'requires_lmn', 'supplement-ingredients'],
    ['Myo-Inositol & D-Chiro Inositol Blend Powder', 'requires_lmn', 'supplement-ingredients'],
    ['Saccharomyces Boulardii 10 Billion', 'requires_lmn', 'supplement-ingredients'],
    ['Klaire Labs Ther-Biotic Complete', 'requires_lmn', 'supplement-brands-wellness'],
    ['Allergy Research Group Lipo-Gold', 'requires_lmn', 'supplement-ingredients'],
    // Equipment, watches, studios and furniture lines.
    ['StairMaster 8Gx Stepmill', 'requires_lmn', 'fitness-equipment-lines'],
    ['Coros Pace 3 GPS Sport Watch', 'requires_lmn', 'fitness-equipment-lines'],
    ['Garmin Venu 3 GPS Smartwatch', 'not_eligible', 'fitness'],
    ['Garmin DriveSmart 66 Car GPS Navigator', 'not_eligible', null],
    ['Speediance Gym Monster 2', 'requires_lmn', 'fitness-brands-wellness'],
    ['Steelcase Gesture Office Chair', 'requires_lmn', 'ergonomic-furniture'],
    ['Mesh Office Chair with Armrests', 'not_eligible', 'ordinary-chairs'],
    ['Memory Foam Seat Cushion for Office Chair', 'requires_lmn', 'ergonomic-seating'],
    ['Uplift V2 Standing Desk 60 x 30', 'requires_lmn', 'ergonomic-furniture'],
    ['HigherDOSE Infrared Sauna Blanket', 'requires_lmn', 'dual-purpose-lines'],
    ['Neoprene Sauna Suit for Men', 'not_eligible', null],
    ['Hormel Thick & Easy Clear Thickened Water', 'requires_lmn', 'medical-nutrition-lines'],
    // Everyday goods that share a medical word or a supplement's name.
    ['Dr. Jart+ Cicapair Tiger Grass Color Correcting Treatment', 'not_eligible', 'beauty-brands-wellness'],
    ['Secret Clinical Strength Antiperspirant', 'not_eligible', 'everyday-medical-words'],
    ["Hill's Prescription Diet k/d Kidney Care", 'not_eligible', 'pet-brands'],
    ['Doctor Pretend Play Kit with Stethoscope', 'not_eligible', 'toys-costumes'],
    ['Stethoscope Keychain', 'not_eligible', 'household-look-alikes'],
    ['Calcium Chloride Ice Melt 50 lb', 'not_eligible', 'household-look-alikes'],
    ['Turmeric Latte Mix', 'not_eligible', null],
    ['Fitbit Charge 6 Replacement Band', 'not_eligible', null],
    ['Beta Alanine Powder, 200 g', 'not_eligible', 'sports-nutrition-types'],
    ['Sleep Aid Lavender Pillow Spray', 'not_eligible', 'household-look-alikes'],
    ['Vionic Walker Classic Leather Sneaker', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Hydrant Electrolyte Drink Mix, 30 sticks', 'requires_lmn', 'electrolyte-mixes'],
    ['Electrolyte Freezer Popsicles, 16 ct', 'not_eligible', null],
    ['20 Volume Hydrogen Peroxide Cream Developer', 'not_eligible', 'household-look-alikes'],
    ['Raspberry Ketones 500 mg', 'requires_lmn', 'supplement-ingredients'],
    ['Exogenous Ketones BHB Powder', 'requires_lmn', 'supplement-ingredients'],
    ['Turmeric Brightening Face Mask', 'not_eligible', 'skin-care'],
    ['Leopard Print Stethoscope Cover', 'not_eligible', 'everyday-medical-words'],
    ['Gut Health Prebiotic Soda, 12 cans', 'not_eligible', 'beverages'],
  ] as const)('%s → %s (%s)', (name, status, category) => {
    const result = checkEligibility({ name });
    expect(result.status).toBe(status);
    expect(result.category).toBe(category);
  });
});

describe('brands and supply types of the eligible side, with the everyday goods that share their words', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Zamst A2-DX', 'eligible', 'brace-compression-foot-brands-medical'],
    ['Thuasne Rebel Reliever', 'eligible', 'brace-compression-foot-brands-medical'],
    ['Phonak CeruShield Disk', 'eligible', 'hearing-vision-brands-medical'],
    ['Power One p675, 60 ct', 'eligible', 'hearing-vision-brands-medical'],
    ['Stomahesive Paste, 2 oz', 'eligible', 'incontinence-ostomy-brands-medical'],
    ['Pride Go-Go Elite Traveller', 'eligible', 'mobility-daily-living-brands-medical'],
    ['Nitrile Exam Gloves, Medium, 100 ct', 'eligible', 'clinical-supplies-medical'],
    ['Cotton Tipped Applicators 6 in, 1000 ct', 'eligible', 'clinical-supplies-medical'],
    ['Robitussin Maximum Strength Honey, 4 oz', 'eligible', 'otc-flavour-lines-medical'],
    ['Bathtub Safety Rail Clamp-On', 'eligible', 'bath-toilet-safety-medical'],
    ['Nitrile Cleaning Gloves Kitchen, 3 pairs', 'not_eligible', null],
    ['Mueller Austria Pro Series Vegetable Chopper', 'not_eligible', null],
    ['Vicks VapoPads Refill Pads, 7 ct', 'not_eligible', null],
    ['Flex Disc Sanding Wheel 4.5 in', 'not_eligible', null],
    ['Duracell AA Batteries, 24 ct', 'not_eligible', 'consumer-brands-wellness'],
    ['Aveeno Baby Daily Moisture Lotion', 'not_eligible', null],
    ['Coola Sunless Tan Dry Oil Mist', 'not_eligible', null],
    ['Ocean Potion Tanning Lotion SPF 4', 'not_eligible', 'cosmetics'],
    ['Hoveround MPV5', 'eligible', 'mobility-daily-living-brands-medical'],
    ['Belladonna 30C Pellets', 'eligible', 'otc-ingredients-medical'],
    ['Belladonna Lily Bulbs, 3 ct', 'not_eligible', null],
    ['Trojan Horse Figurine', 'not_eligible', null],
    ['Grab Bar Kitchen Towel Rail', 'not_eligible', null],
    ['Medline ReadyBath Total Body Cleansing', 'not_eligible', null],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: everyday nouns yield to the medical phrase they name, and the reverse', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Alka-Seltzer Original Effervescent Antacid Tablets, 36 ct', 'eligible', 'digestive-health'],
    ['Lime Seltzer Water 12 pack', 'not_eligible', 'beverages'],
    ['Chocolate Laxative Pieces, 24 ct', 'eligible', 'otc-flavour-lines-medical'],
    ['Twisted Tea Hard Iced Tea 12 pack', 'not_eligible', 'beverages'],
    ['Reusable Gel Ice Pack for Injuries', 'eligible', 'hot-cold-therapy'],
    ['Instant Hot Pack, 10 ct', 'eligible', 'heat-cold-therapy-supplies'],
    ['Sigvaris Business Casual Dress Socks 15-20 mmHg', 'eligible', 'compression-hosiery'],
    ["Men's Dress Socks, Argyle, 6 pair", 'not_eligible', 'clothing-accessories'],
    ['Permethrin Clothing and Gear Insect Repellent 12 oz', 'not_eligible', 'insect-repellent'],
    ['Spinosad Garden Insect Spray 16 oz', 'not_eligible', null],
    ['Sklice Ivermectin Lotion 0.5%', 'eligible', 'lice-treatment'],
    ['Benzyl Alcohol Lotion 5% Lice Treatment', 'eligible', 'lice-treatment'],
    ['Maybelline Fit Me Matte Powder Foundation SPF 22', 'requires_review', 'makeup-with-spf'],
    ['Mineral Sunscreen Primer SPF 30', 'requires_review', 'makeup-with-spf'],
    ['Supergoop Unseen Sunscreen SPF 40', 'eligible', 'sunscreen'],
    ['Radiance Glow Gummies, 60 ct', 'not_eligible', 'beauty-supplements'],
    ['Hot Sauce Sampler Gift Box, 6 bottles', 'not_eligible', 'food-drink-types'],
    ['Wine Lover Gift Basket', 'not_eligible', 'alcohol'],
    ['Self Care Spa Gift Set with Bath Bombs', 'requires_review', 'gift-sets'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: product kinds added by kind, beside the everyday goods that share their words', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Doctor Easy Ear Wash System', 'eligible', 'otc-medicine-types'],
    ['RockTape Kinesiology Tape 2 in', 'eligible', 'braces-supports'],
    ['Hockey Stick Tape, Black', 'not_eligible', null],
    ['Back Stabilizer Belt', 'eligible', 'orthopedic-supports'],
    ['Gimbal Stabilizer for Smartphone', 'not_eligible', null],
    ['Seat Lift Cushion for Standing', 'eligible', 'home-tests-care-medical'],
    ['Touchland Power Mist Hand Sanitizer Watermelon', 'eligible', 'ppe'],
    ['Baby Bottle Sanitizer and Dryer', 'not_eligible', 'baby-diapers-gear'],
    ['Vaginal Infection Screening Test, 2 ct', 'eligible', 'diagnostic-kits-monitors'],
    ['Povidone-Iodine Swabsticks, 50 ct', 'eligible', 'antiseptics'],
    ['Compact Strider Elliptical', 'requires_lmn', 'exercise-equipment'],
    ['Aerobic Step Platform Adjustable', 'requires_lmn', 'fitness-equipment-types'],
    ['Strength Training App Monthly Subscription', 'requires_lmn', 'fitness-equipment-types'],
    ['Stepper Motor Nema 17', 'not_eligible', null],
    ['Lumbar Backrest Support for Office Chair', 'requires_lmn', 'ergonomic-seating'],
    ['Motorcycle Sissy Bar Backrest', 'not_eligible', null],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: everyday goods named by a one-word medical or nutrient keyword, beside the medical products', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Hall Tree Bench with Storage', 'not_eligible', null],
    ['Saline Pool Chlorinator Cell', 'not_eligible', null],
    ['Hot Wheels Fleet Truck 5 Pack', 'not_eligible', null],
    ['Moleskin Trousers, Olive', 'not_eligible', null],
    ['Rattan Cane Accent Chair', 'not_eligible', null],
    ['Roof Truss Hanger, Galvanized', 'not_eligible', null],
    ['Oatey Toilet Flange PVC', 'not_eligible', null],
    ['Hollister Graphic Tee, Navy', 'not_eligible', null],
    ['Magnesium Fire Starter Block', 'not_eligible', null],
    ['Chrome Vanadium Socket Set, 40 pc', 'not_eligible', null],
    ['Aston Martin Vanquish 1:24 Diecast Model', 'not_eligible', null],
    ['Halls Relief Honey Lemon Cough Drops, 30 ct', 'eligible', 'cold-flu-cough'],
    ['Drive Medical Quad Cane with Small Base', 'eligible', 'mobility-aids'],
    ["Dr. Scholl's Moleskin Plus Padding Roll", 'eligible', 'bandages-wound-care'],
    ['Magnesium Glycinate 400 mg Capsules', 'requires_lmn', 'vitamins-minerals'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a candy or clothing word does not swallow a supplement, a remedy or medical wear', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Kids Multivitamin Gummy Bears, 60 ct', 'requires_lmn', 'vitamins-minerals'],
    ['Zinc Lozenges Cherry Candy Flavor', 'requires_lmn', 'vitamins-minerals'],
    ['Haribo Gold-Bears Gummy Bears 5 oz', 'not_eligible', 'candy'],
    ['Prescription Swim Goggles', 'eligible', 'eyeglasses'],
    ['Swim Goggles Anti Fog', 'not_eligible', 'home-electronics-apparel'],
    ['Amoena Mastectomy Bra Pocketed', 'eligible', 'orthopedic-supports'],
    ['Silicone Breast Form Prosthesis Left', 'eligible', 'orthopedic-supports'],
    ['Nursing Bra Seamless', 'not_eligible', 'clothing-accessories'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: janitorial, electronic, media and kitchen goods that share a supply word', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Urinal Screen Deodorizer, 10 ct', 'not_eligible', null],
    ['Hand-Held Urinal for Men', 'eligible', 'ostomy-urology'],
    ['Hall Effect Joystick Controller', 'not_eligible', null],
    ['The Lancet Journal Subscription', 'not_eligible', null],
    ['Bike Kickstand Crutch', 'not_eligible', null],
    ['Medline Underarm Crutches Aluminum', 'eligible', 'mobility-aids'],
    ['Oil Syringe for Hair', 'not_eligible', null],
    ['BD Insulin Syringes 1 mL, 100 ct', 'eligible', 'diabetes-care'],
    ['Ear Wax Candle Cone', 'not_eligible', 'wellness-general'],
    ['Debrox Earwax Removal Kit', 'eligible', 'eye-ear-care'],
    ['Brace Yourself Party Game', 'not_eligible', null],
    ['Knee Brace Hinged', 'eligible', 'braces-supports'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: furniture, pet and food goods beside the letter-of-medical-necessity lines', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Bookcase 5 Shelf White', 'not_eligible', null],
    ['Dual Monitor Arm Desk Mount', 'not_eligible', null],
    ['Flexispot Standing Desk E7', 'requires_lmn', 'ergonomic-furniture'],
    ['Bone Broth Collagen Chicken 32 oz', 'not_eligible', null],
    ['Collagen Peptides Powder Unflavored', 'requires_lmn', 'dietary-supplements'],
    ['Vitamin Shower Filter Head', 'not_eligible', null],
    ['Cat Humidifier Fountain', 'not_eligible', null],
    ['Vicks Filter-Free Cool Mist Humidifier', 'requires_lmn', 'humidifiers'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: the aloe plant is not the aloe gel', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Aloe Vera Plant Live 4 in', 'not_eligible', null],
    ['Potted Aloe Vera Succulent', 'not_eligible', null],
    ['Fruit of the Earth Aloe Vera Gel 12 oz', 'requires_lmn', 'aloe-vera'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: valves, 12V and strips of medical supplies are not hardware', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Hollister Urostomy Pouch with Anti-Reflux Valve', 'eligible', 'ostomy-urology-supplies'],
    ['Drive Medical Rollator Walker with Seat 12V', 'eligible', 'mobility-aids'],
    ['Diaphragm Pump 12V', 'not_eligible', null],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: medicated shampoos (coal tar, psoriasis), vaginal moisturizers, store brands and the classes of the seventh set', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Meijer Coal Tar Dandruff Shampoo Extra Strength, 16 fl oz', 'requires_lmn', 'medicated-shampoo'],
    ['Neutrogena T/Gel Coal Tar Psoriasis Shampoo, 8.5 fl oz', 'requires_lmn', 'medicated-shampoo'],
    ['MG217 Psoriasis Multi-Symptom Coal Tar Ointment, 3.8 oz', 'eligible', 'skin-treatments'],
    ['Equate Coal Tar Shampoo 0.5%, 8 fl oz', 'requires_lmn', 'medicated-shampoo'],
    ['Replens Silky Smooth Vaginal Moisturizer Gel, 35 g', 'requires_lmn', 'personal-lubricants'],
    ['Good Clean Love Vaginal Moisturizer, 2 oz', 'requires_lmn', 'personal-lubricants'],
    ['Pre-Seed Fertility-Friendly Lube, 40 g', 'eligible', 'family-planning-maternity'],
    ['Walgreens Temporary Tooth Filling Material, 1 ct', 'eligible', 'denture-care'],
    ['Harris Teeter Coconut Body Wash, 18 fl oz', 'not_eligible', 'toiletries'],
    ['Harris Teeter Ibuprofen 200 mg, 50 ct', 'eligible', 'pain-relief'],
    ['Spa Bath Pillow with Suction Cups', 'not_eligible', 'household'],
    ['Memory Foam Neck Pillow for Neck Pain', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Lumbar Support Cushion for Car Seat and Office Chair', 'requires_lmn', 'ergonomic-seating'],
    ['Infant Car Seat Cover', 'not_eligible', 'baby-diapers-gear'],
    ['Cystex Urinary Tract Health Drink Mix Cranberry, 12 packets', 'requires_lmn', 'supplement-ingredients'],
    ['Kool-Aid Tropical Punch Drink Mix', 'not_eligible', 'food-drink-types'],
    ['Calcium Soft Chews Caramel 600 mg, 60 ct', 'requires_lmn', 'vitamins-minerals'],
    ['Milk Chocolate Caramels 8 oz', 'not_eligible', 'candy'],
    ['Move Free Advanced Triple Strength, 80 tablets', 'eligible', 'joint-supplements'],
    ['Move Free Ultra Omega Krill Oil, 30 softgels', 'requires_lmn', 'fish-oil-omega-3'],
    ['Neosporin Lip Health Overnight Renewal Therapy, 0.27 oz', 'requires_review', 'medicated-or-everyday'],
    ['Neosporin Original First Aid Antibiotic Ointment, 1 oz', 'eligible', 'antiseptics'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a massager that heats is a massager, a TENS unit that massages is a TENS unit', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Comfier Heated Neck Wrap Massager', 'requires_lmn', 'massage-devices'],
    ['Sunbeam Heating Pad with Massage, King', 'requires_lmn', 'massage-devices'],
    ['Sunbeam XL Heating Pad with Moist Heat, King Size', 'eligible', 'hot-cold-therapy'],
    ['Belifu TENS EMS Unit 24 Modes Electronic Pulse Massager', 'eligible', 'tens-pain-devices'],
    ['Vicks VapoSteam Liquid Medication for Hot Steam Vaporizers, 8 oz', 'eligible', 'cold-flu-cough'],
    ['Vicks V150 Warm Steam Vaporizer', 'requires_lmn', 'humidifiers'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: home-medical and wellness store classes (bath benches, reach aids, AFOs, traction, amplified phones, massage tools, mats, zinc lozenges, light on the face)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Drive Medical Tub Transfer Bench with Back', 'eligible', 'mobility-aids'],
    ['Marcy Adjustable Weight Bench', 'requires_lmn', 'exercise-equipment'],
    ['Vive Reach Aid 32 in', 'eligible', 'daily-living-mobility'],
    ['Ossur Foot-Up Drop Foot Brace', 'eligible', 'braces-supports'],
    ['Harbinger Over Door Cervical Traction Device', 'eligible', 'braces-supports'],
    ['Transcend miniCPAP Auto', 'eligible', 'cpap-supplies'],
    ['Pressure Positive Original Backnobber', 'requires_lmn', 'massage-devices'],
    ['Lacrosse Massage Ball Set, 2 ct', 'requires_lmn', 'massage-devices'],
    ['Lululemon The Reversible Mat 3mm', 'requires_lmn', 'exercise-equipment'],
    ['Balanced Body Pilates Toning Ball 1 lb', 'requires_lmn', 'exercise-equipment'],
    ['Montgomery Strap Dressing Ties, 4 ct', 'eligible', 'bandages-wound-care'],
    ['Dynarex Suture Removal Kit, Sterile', 'eligible', 'bandages-wound-care'],
    ['Conductive Garment Sleeve for TENS Unit', 'eligible', 'tens-pain-devices'],
    ['Clarity Amplified Cordless Phone with Answering Machine', 'eligible', 'hearing-aids'],
    ['CapTel 2400i Captioned Telephone', 'eligible', 'hearing-aids'],
    ['Microlife Asthma Monitor PF100', 'eligible', 'respiratory-and-sleep-therapy'],
    ['Now Foods Zinc Lozenges Mint 23 mg, 60 ct', 'requires_lmn', 'vitamins-minerals'],
    ['Cold-EEZE Cold Remedy Zinc Gluconate Lozenges, 25 ct', 'eligible', 'cold-flu-cough'],
    ['Schiff Joint Health Turmeric Gummies, 60 ct', 'requires_lmn', 'dietary-supplements'],
    ['Osteo Bi-Flex Triple Strength Glucosamine, 80 ct', 'eligible', 'joint-supplements'],
    ['Red Light Therapy Facial Wand Anti Aging', 'not_eligible', 'skin-care'],
    ['Verilux HappyLight Touch Light Therapy Lamp', 'requires_lmn', 'light-therapy'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: marketplace titles (gripe water, non-prescription sunglasses, shin guards, lactation mixes, fever patches, ephedrine, pet dander, diabetic socks)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ["Mommy's Bliss Gripe Water Original, 4 fl oz", 'requires_lmn', 'dietary-supplements'],
    ["Hyland's Baby Homeopathic Gripe Water Colic Relief, 4 fl oz", 'eligible', 'homeopathic-remedies'],
    ['Warby Parker Non-Prescription Sunglasses Polarized', 'not_eligible', null],
    ['Zenni Prescription Sunglasses Single Vision', 'eligible', 'eyeglasses'],
    ['Nike Youth Charge Soccer Shin Guards with Ankle Sleeve', 'not_eligible', 'home-electronics-apparel'],
    ['Legendairy Milk Lactation Drink Mix, Chocolate, 14 ct', 'requires_lmn', 'supplement-ingredients'],
    ['Kinsa Fever Monitor Patch, 24 Hour Temperature Tracking', 'eligible', 'thermometers'],
    ['Primatene Tablets Ephedrine Sulfate Asthma Relief, 60 ct', 'eligible', 'otc-medicine-types'],
    ["Johnson's Baby Powder Pure Cornstarch with Vitamin E, 15 oz", 'not_eligible', 'toiletries'],
    ['Pataday Allergy Eye Drops for Pet Dander and Pollen, 2.5 mL', 'eligible', 'allergy-relief'],
    ['Dog Allergy Relief Chews, 90 ct', 'not_eligible', 'pet-supplies'],
    ['Gold Toe Diabetic Crew Socks, 3 Pairs, Shoe Size 6-12', 'eligible', 'diabetes-care'],
    ['Dr. Comfort Diabetic Walking Shoes, Size 9', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Neutrogena Micellar Water Makeup Remover, 13.5 fl oz', 'not_eligible', 'cosmetics'],
    ['Fitbit Charge 6 Fitness Tracker with Heart Rate, GPS, SpO2', 'requires_lmn', 'exercise-equipment'],
    ['Zacurate Pro Series 500DL Fingertip Pulse Oximeter', 'eligible', 'diagnostic-devices'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: telehealth prescriptions and therapy, and a shampoo for an itchy scalp', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Hims Sildenafil 50 mg, 10 tablets', 'eligible', 'prescription-medicines'],
    ['Ro Tadalafil Daily 5 mg', 'eligible', 'prescription-medicines'],
    ['BetterHelp Online Therapy, 4 Weeks', 'eligible', 'mental-health-care'],
    ['Therapy Session Journal for Self-Care', 'not_eligible', null],
    ['Dove Dermacare Scalp Dryness and Itch Relief Shampoo, 12 fl oz', 'requires_lmn', 'medicated-shampoo'],
    ['Cortizone-10 Anti-Itch Scalp Lotion', 'eligible', 'skin-treatments'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a medicine brand on merchandise, magnesium sold for cramps, caffeine pills', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Tylenol Tote Bag', 'not_eligible', null],
    ['Tylenol Extra Strength Caplets 500 mg, 100 ct', 'eligible', 'pain-relief'],
    ['Magnesium Spray for Leg Cramps, 8 oz', 'requires_lmn', 'vitamins-minerals'],
    ["Hyland's Leg Cramps Tablets, 100 ct", 'eligible', 'pain-relief'],
    ['Natural Calm Magnesium Citrate Drink Mix', 'requires_lmn', 'vitamins-minerals'],
    ['NoDoz Alertness Aid Caplets', 'not_eligible', 'beverages'],
    ['Excedrin Extra Strength Acetaminophen Aspirin Caffeine Caplets', 'eligible', 'pain-relief'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: the big-box aisle (bath products of a remedy, warmers, foot files, scented patches and tissues, empty kits, exercise bars, supplements named like supplies)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Kneipp Arnica Bath Soak Joint and Muscle, 17 oz', 'not_eligible', null],
    ['Boiron Arnicare Arnica Gel, 2.6 oz', 'eligible', 'homeopathic-remedies'],
    ["Dr. Brown's Insta-Feed Bottle Warmer and Breast Milk Warmer", 'not_eligible', 'groceries'],
    ['Lansinoh Breast Milk Storage Bags, 50 ct', 'eligible', 'breast-pumps-lactation'],
    ['Amope Pedi Perfect Electronic Foot File', 'not_eligible', null],
    ["Dr. Scholl's Callus Remover Medicated Pads, 4 ct", 'eligible', 'skin-treatments'],
    ['Vicks VapoPatch Soothing Vapors for Kids, 5 ct', 'not_eligible', null],
    ['Kleenex Lotion Facial Tissues with Vicks Scent', 'not_eligible', 'household'],
    ['Vicks VapoRub Chest Rub Ointment, 1.76 oz', 'eligible', 'cold-flu-cough'],
    ['Empty First Aid Bag Red Trauma Pouch', 'not_eligible', null],
    ['Johnson & Johnson All-Purpose First Aid Kit, 140 pc', 'eligible', 'first-aid-kits'],
    ['TheraBand FlexBar Resistance Bar for Tennis Elbow', 'requires_lmn', 'exercise-equipment'],
    ['Bauerfeind EpiTrain Tennis Elbow Support', 'eligible', 'orthopedic-supports'],
    ['Magic Back Support Upper Back Stretcher', 'requires_lmn', 'exercise-equipment'],
    ['Vive Health Cervical Neck Traction Stretcher', 'eligible', 'braces-supports'],
    ['AZO Bladder Control with Go-Less, 54 capsules', 'requires_lmn', 'supplement-ingredients'],
    ['Depend Fit-Flex Incontinence Underwear, 28 ct', 'eligible', 'incontinence'],
    ['Cystex Urinary Health Maintenance, 60 tablets', 'requires_lmn', 'supplement-ingredients'],
    ['Cystex Urinary Pain Relief Tablets, 24 ct', 'eligible', 'womens-health-otc'],
    ['Mighty Bliss Deep Tissue Back and Body Massager', 'requires_lmn', 'massage-devices'],
    ['Juzo Dynamic Compression Armsleeve, Size 2', 'requires_review', 'unclear-medical-purpose'],
    ['Juzo Dynamic Armsleeve 20-30 mmHg, Size 2', 'eligible', 'compression-hosiery'],
    ['Retainer Brite Cleaning Tablets, 96 ct', 'eligible', 'denture-care'],
    ['Vaunn Medical Bathtub Shower Chair Spa Bench', 'eligible', 'mobility-aids'],
    ['Care Touch Pill Pouches, 200 ct', 'eligible', 'pill-organizers'],
    ['Resplabs CPAP Chin Strap Adjustable', 'eligible', 'cpap-supplies'],
    ['Hyalo Gyn Vaginal Hydrating Gel', 'requires_lmn', 'personal-lubricants'],
    ['Natalist Conception Lube, 6 applicators', 'eligible', 'family-planning-maternity'],
    ['up&up Lubricating Jelly, 4 oz', 'requires_lmn', 'personal-lubricants'],
    ['Sliquid Satin Intimate Moisturizer', 'requires_lmn', 'personal-lubricants'],
    ['Belly Bandit Original Postpartum Belly Wrap', 'eligible', 'family-planning-maternity'],
    ['Force Factor Test X180 Ignite, 120 ct', 'requires_lmn', 'supplement-ingredients'],
    ['Benefiber On the Go Stick Packs, 24 ct', 'requires_lmn', 'supplement-ingredients'],
    ['NRS Healthcare Ankle Cuff Weights 2 lb', 'requires_lmn', 'exercise-equipment'],
    ['WODFitters Pull Up Assistance Bands', 'requires_lmn', 'exercise-equipment'],
    ['Medisana Heated Back Massage Seat', 'requires_lmn', 'massage-devices'],
    ['Badger Healing Balm, 2 oz', 'requires_review', 'medicated-or-everyday'],
    ['Rael Miracle Patch Microcrystal Spot Cover', 'eligible', 'skin-treatments'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: direct-to-consumer storefronts (an EKG kettle, PMS gummies, eczema-prone skin care, sunscreens named by their purpose, strength machines, greens and aminos, protein shakes, vaginal moisturisers, fertility computers, pregnancy packs)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Fellow Stagg EKG Electric Pour-Over Kettle, Matte Black', 'not_eligible', null],
    ['KardiaMobile 6L Personal EKG', 'eligible', 'diagnostic-devices'],
    ['FLO PMS Gummies, 60 ct', 'requires_lmn', 'supplement-ingredients'],
    ['Midol Complete PMS Relief Caplets, 24 ct', 'eligible', 'pain-relief'],
    ['Aveeno Eczema Therapy Itch Relief Balm', 'eligible', 'skin-treatments'],
    ['Cetaphil Soothing Lotion for Eczema-Prone Skin', 'not_eligible', null],
    ['Supergoop Glowscreen SPF 40', 'requires_review', 'cosmetics-with-spf'],
    ["Kiehl's Daily UV Defense SPF 50", 'eligible', 'sunscreen'],
    ['Sun Bum Face Sunscreen SPF 30', 'eligible', 'sunscreen'],
    ['Oxefit XS1 Strength Trainer', 'requires_lmn', 'exercise-equipment'],
    ['BodyBoss Portable Gym 2.0', 'requires_lmn', 'exercise-equipment'],
    ['Spenco Cross Trainer Insoles', 'eligible', 'orthotics-foot-care'],
    ['Ergobaum Prime Ergonomic Crutches, Pair', 'eligible', 'mobility-aids'],
    ['Athletic Greens Greens Powder', 'requires_lmn', 'dietary-supplements'],
    ['Gundry MD Vital Reds', 'requires_lmn', 'supplement-ingredients'],
    ['Kion Aminos Essential Amino Acids', 'requires_lmn', 'supplement-ingredients'],
    ['Ritual Essential Protein Daily Shake', 'not_eligible', 'sports-nutrition-types'],
    ['Ah! Yes VM Vaginal Moisturiser', 'requires_lmn', 'personal-lubricants'],
    ['Evvy Vaginal Microbiome Test', 'eligible', 'diagnostic-kits-monitors'],
    ['Lady-Comp Fertility Computer', 'eligible', 'diagnostic-kits-monitors'],
    ['Perelel 1st Trimester Pregnancy Pack', 'eligible', 'prenatal-vitamins'],
    ['Promescent Delay Spray, 7.4 ml', 'eligible', 'otc-medicine-types'],
    ['Band-IT Forearm Band', 'eligible', 'braces-supports'],
    ['Thermoskin Elbow Wrap', 'eligible', 'braces-supports'],
    ['Sole Active Thick Footbeds', 'eligible', 'orthotics-foot-care'],
    ['Avarelle Acne Cover Patches, 40 ct', 'eligible', 'acne-treatment'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a medicine brand on its merchandise, and goods sold for a symptom (teas, bath soaks, essential oils, bracelets, cramp shots), beside the brand or symptom medicine', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Pepto Bismol Pink Ugly Holiday Sweater, Unisex Large', 'not_eligible', 'clothing-accessories'],
    ['Pepto Bismol Chewable Tablets, Cherry, 30 ct', 'eligible', 'digestive-health'],
    ['Mucinex Mr. Mucus Plush Doll, 10 inch', 'not_eligible', null],
    ['Mucinex Fast-Max Severe Congestion & Cough, 20 caplets', 'eligible', 'cold-flu-cough'],
    ['Alka-Seltzer Speedy Bobblehead Collectible', 'not_eligible', 'beverages'],
    ['Excedrin Vintage Tin Sign', 'not_eligible', null],
    ['Band-Aid Bandage Print Pajama Set, Kids', 'not_eligible', 'home-electronics-apparel'],
    ['Band-Aid Brand Flexible Fabric Adhesive Bandages, 100 ct', 'eligible', 'bandages-wound-care'],
    ['Vicks VapoBath Soothing Vapor Bath, 8 oz', 'not_eligible', null],
    ['Vicks Scented Plug-In Refill, Sweet Dreams Lavender', 'not_eligible', null],
    ['Vicks VapoSteam Liquid Medication for Hot Steam Vaporizers, 8 oz', 'eligible', 'cold-flu-cough'],
    ['Sinus Relief Herbal Tea, 20 bags', 'not_eligible', 'groceries'],
    ['Headache Relief Tea, Peppermint and Ginger', 'not_eligible', 'groceries'],
    ['Traditional Medicinals Organic Gas Relief Tea, 16 bags', 'not_eligible', 'groceries'],
    ['Pink Stork PMS Relief Tea, 20 bags', 'not_eligible', 'groceries'],
    ['Seasonal Allergy Relief Tea', 'not_eligible', 'groceries'],
    [
      'Traditional Medicinals Smooth Move Senna Tea, Stimulant Laxative, 16 Tea Bags',
      'eligible',
      'otc-ingredients-medical',
    ],
    ['Theraflu Severe Cold Relief Powder, Green Tea & Honey Lemon', 'eligible', 'cold-flu-cough'],
    ['Claritin 24 Hour Allergy Relief Tablets', 'eligible', 'allergy-relief'],
    ['Cold & Flu Relief Bath Soak, Eucalyptus, 32 oz', 'not_eligible', null],
    ['Looni Cramp Relief Bath Soak', 'not_eligible', null],
    ['Epsom Salt Bath Soak for Muscle Pain Relief, 3 lb', 'eligible', 'epsom-salt'],
    ['Cold and Flu Season Essential Oil Blend, 10 ml', 'not_eligible', 'wellness-general'],
    ['Copper Bracelet for Arthritis Pain Relief', 'not_eligible', null],
    ['The Pickle Juice Company Pickle Juice Shot for Muscle Cramps, 12 ct', 'not_eligible', 'beverages'],
    ['HotShot Sports Shot for Muscle Cramps', 'not_eligible', null],
    ["Hyland's Leg Cramps Tablets, 50 ct", 'eligible', 'pain-relief'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: supplements, baby goods, aftercare, cookware and skin care sold under a medicine word or brand, beside the medicine', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Quercetin Allergy Support Capsules', 'requires_lmn', 'supplement-types'],
    ['PRN De3 Dry Eye Omega Benefits Softgels', 'requires_lmn', 'fish-oil-omega-3'],
    ['Systane Complete Lubricant Eye Drops', 'eligible', 'eye-ear-care'],
    ['Dramamine Non-Drowsy Naturals with Ginger, 18 Capsules', 'requires_lmn', 'supplement-forms'],
    ['Dramamine All Day Less Drowsy Motion Sickness Relief', 'eligible', 'motion-sickness'],
    ['Beekeepers Naturals Propolis Throat Spray, Immune Support', 'requires_lmn', 'dietary-supplements'],
    ['Chloraseptic Sore Throat Spray, Cherry', 'eligible', 'cold-flu-cough'],
    ['Gerber Teething Sticks, Strawberry Apple', 'not_eligible', null],
    ['Itzy Ritzy Teething Mitt', 'not_eligible', null],
    ['Camilia Homeopathic Teething Relief, 30 doses', 'eligible', 'homeopathic-remedies'],
    ['Baby Eczema Scratch Mittens, 3 pairs', 'not_eligible', null],
    ["Boudreaux's Butt Paste Baby Wash and Shampoo", 'not_eligible', 'toiletries'],
    ["Boudreaux's Butt Paste Baby Wipes, 72 ct", 'not_eligible', 'baby-diapers-gear'],
    ["Boudreaux's Butt Paste Maximum Strength Diaper Rash Cream", 'eligible', 'skin-treatments'],
    ['NeilMed Piercing Aftercare Fine Mist', 'not_eligible', null],
    ['NeilMed Sinus Rinse Original Kit', 'eligible', 'nasal-care'],
    ['Mueller Ultra-Stick Nonstick Frying Pan, 10 inch', 'not_eligible', null],
    ['Mueller Hinged Knee Brace', 'eligible', 'braces-supports'],
    ['Kindred Bravely Sleep Aid Eye Mask', 'not_eligible', null],
    ['Unisom SleepGels Nighttime Sleep Aid', 'eligible', 'sleep-aids'],
    ['Cetaphil Oil-Free Moisturizer for Acne-Prone Skin', 'not_eligible', null],
    ['Neutrogena Hydro Boost Gel Cream for Acne-Prone Skin', 'not_eligible', null],
    ['Neutrogena Oil-Free Acne Wash with Salicylic Acid for Acne-Prone Skin', 'eligible', 'acne-treatment-named'],
    [
      'La Roche-Posay Effaclar Duo Acne Treatment with Benzoyl Peroxide for Acne-Prone Skin',
      'eligible',
      'acne-treatment-named',
    ],
    ['Neutrogena Rapid Clear Acne Spot Gel', 'eligible', 'acne-treatment'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: everyday goods named with a supply word (learning walkers, a house test kit, gauze cloth, a wrist-rest mouse pad), beside the supply', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['VTech Sit-to-Stand Learning Walker', 'not_eligible', null],
    ['Fisher-Price Learning Walker', 'not_eligible', 'consumer-brands-wellness'],
    ['Drive Medical Folding Walker with Wheels', 'eligible', 'mobility-aids'],
    ['3M LeadCheck Lead Paint Test Kit, 8 swabs', 'not_eligible', null],
    ['Everlywell Lyme Disease Test Kit', 'eligible', 'home-tests-care-medical'],
    ['Cotton Gauze Fabric by the Yard', 'not_eligible', null],
    ['Curad Sterile Gauze Pads 4x4, 25 ct', 'eligible', 'bandages-wound-care'],
    ['Mouse Pad with Wrist Support', 'not_eligible', null],
    ['Mueller Wrist Support Brace', 'eligible', 'braces-supports'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: more goods of a medicine or supply brand that are not its medicine or supply (branded merchandise, tanning gels, drinking bottles, anti-chafing gel, belly oil, a bivvy, pest spray, a floss band), beside what the brand sells for care', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Tylenol Vintage Enamel Pin', 'not_eligible', null],
    ['Motrin Baseball Cap', 'not_eligible', null],
    ['Zyrtec Allergy Season Survival Kit Tote', 'not_eligible', null],
    ['Zyrtec 24 Hour Allergy Relief Tablets 10 mg', 'eligible', 'allergy-relief'],
    ['Icy Hot Branded Cooler Bag', 'not_eligible', null],
    ['Vicks Branded Beanie', 'not_eligible', null],
    ['Halls Cough Drops Branded Lanyard', 'not_eligible', null],
    ['Australian Gold Dark Tanning Accelerator Spray Gel', 'not_eligible', null],
    ['Australian Gold Botanical Mineral Sunscreen SPF 50', 'eligible', 'sunscreen'],
    ['Thinksport Insulated Sports Bottle 12 oz', 'not_eligible', null],
    ['Thinksport Kids SPF 50+ Mineral Sunscreen', 'eligible', 'sunscreen'],
    ['Lanacane Anti-Chafing Gel', 'not_eligible', null],
    ['Lanacane Maximum Strength Anti-Itch Cream', 'eligible', 'skin-treatments'],
    ['Frida Mom Pregnancy Belly Oil', 'not_eligible', null],
    ['Frida Mom Upside Down Peri Bottle', 'eligible', 'postpartum-care'],
    ['Adventure Medical Kits SOL Escape Bivvy', 'not_eligible', null],
    ['Adventure Medical Kits Mountain Series Hiker First Aid Kit', 'eligible', 'first-aid-kits'],
    ['Bayer Advanced Home Pest Control Spray', 'not_eligible', null],
    ['Bayer Aspirin Regimen Low Dose 81 mg', 'eligible', 'pain-relief'],
    ['RockTape RockFloss Band', 'not_eligible', null],
    ['RockTape Kinesiology Tape', 'eligible', 'braces-supports'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: comfort goods and sweets sold for a pain or a symptom (relief pillows, mattress toppers, massage oils, cramp chocolate, nausea lollipops), rash guards and orthotic slippers, beside the medicine or supply', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ["O'Neill Men's Rash Guard Long Sleeve", 'not_eligible', null],
    ['Depend Guards for Men, 52 ct', 'eligible', 'incontinence'],
    ['Nausea Relief Lollipops, 10 ct', 'not_eligible', null],
    ['Emetrol Nausea Relief, Cherry', 'eligible', 'digestive-health'],
    ['Menstrual Cramp Relief Chocolate', 'not_eligible', 'candy'],
    ['Pamprin Multi-Symptom Menstrual Pain Relief', 'eligible', 'pain-relief'],
    ['Pain Relief Massage Oil', 'not_eligible', null],
    ['Weleda Arnica Massage Oil', 'not_eligible', null],
    ['Boiron Arnicare Arnica Gel, 2.6 oz', 'eligible', 'homeopathic-remedies'],
    ['Headache Relief Pillow', 'not_eligible', 'household'],
    ['Back Pain Relief Mattress Topper', 'not_eligible', 'household'],
    ['Heartburn Relief Wedge Pillow', 'eligible', 'reflux-wedge-pillows'],
    ['Plantar Fasciitis Slippers Orthotic', 'not_eligible', 'home-electronics-apparel'],
    ['Powerstep Pinnacle Orthotic Insoles', 'eligible', 'orthotics-foot-care'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a battery and a massage gel sold under condom brands, beside their condoms and lubricants', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Trojan T-105 6V Deep Cycle Battery', 'not_eligible', null],
    ['Trojan Magnum Condoms, 12 ct', 'eligible', 'contraceptives'],
    ['Durex Play Massage 2 in 1 Gel', 'not_eligible', null],
    ['Durex Real Feel Condoms, 10 ct', 'eligible', 'contraceptives'],
    ['Trojan Pleasure Pack Condoms', 'eligible', 'contraceptives'],
    ['Durex Play Warming Lubricant', 'requires_lmn', 'personal-lubricants'],
    ['Trojan Arouse and Release Lubricant', 'requires_lmn', 'personal-lubricants'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: hardware, craft, car, livestock, worship and accessory goods named with a supply or medicine word (pipe flanges, mold-making alginate, engine immobilizers, cattle insemination, camphor for pooja, tampon cases, window sunscreen shades, eyeglass chains, piercing saline), beside the supply or medicine', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Stainless Steel Pipe Flange 2 inch', 'not_eligible', null],
    ['Medela PersonalFit Flex Breast Shield Flange 24 mm', 'eligible', 'breast-pumps-lactation'],
    ['Cattle Artificial Insemination Kit', 'not_eligible', null],
    ['Mosie Baby Insemination Kit', 'eligible', 'family-planning-maternity'],
    ['Breastmilk Jewelry Keepsake Ring', 'not_eligible', null],
    ['Camphor Tablets for Pooja, 100 g', 'not_eligible', null],
    ['Camphor Blocks Moth Repellent', 'not_eligible', null],
    ['Campho-Phenique Cold Sore Treatment', 'eligible', 'oral-pain-cold-sores'],
    ['Jack Reacher Collection Lee Child 5 Books', 'not_eligible', null],
    ['Vive Health Reacher Grabber Tool 32 inch', 'eligible', 'daily-living-mobility'],
    ['Tampon Holder Case Pouch', 'not_eligible', null],
    ['Tampax Pearl Tampons Regular, 36 ct', 'eligible', 'menstrual-care'],
    ['Car Windshield Sunscreen Shade', 'not_eligible', null],
    ['Sunscreen Fabric Roller Shades Blackout', 'not_eligible', null],
    ['Neutrogena Ultra Sheer Sunscreen SPF 55', 'eligible', 'sunscreen'],
    ['Alginate Mold Making Powder for Life Casting', 'not_eligible', null],
    ['Kendall Calcium Alginate Wound Dressing 4x4', 'eligible', 'bandages-wound-care'],
    ['Car Engine Immobilizer Anti-Theft', 'not_eligible', null],
    ['Breg Knee Immobilizer', 'eligible', 'orthopedic-supports'],
    ['Eyeglass Chain Holder Beaded', 'not_eligible', null],
    ['Foster Grant Reading Glasses with Case +1.50', 'eligible', 'eyeglasses'],
    ['Saline Solution for Piercings', 'not_eligible', null],
    ['Bausch + Lomb Sensitive Eyes Saline Solution for Contacts', 'eligible', 'contact-lenses-care'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: accessories, garden and animal goods named with a supply (facial ice globes, a lactation brand feeder, wheelchair parking signs, sanitizer holders, sunscreen dispenser stations, garden Epsom salt, night guard cases, horse tape), beside the supply', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Cryotherapy Facial Ice Globes', 'not_eligible', null],
    ['Cold Therapy Ice Pack for Knee', 'eligible', 'hot-cold-therapy'],
    ['Haakaa Fresh Food Feeder', 'not_eligible', null],
    ['Haakaa Silicone Breast Pump 4 oz', 'eligible', 'breast-pumps-lactation'],
    ['Wheelchair Accessible Parking Sign', 'not_eligible', null],
    ['Drive Medical Lightweight Wheelchair', 'eligible', 'mobility-aids'],
    ['Hand Sanitizer Holder Keychain', 'not_eligible', 'household-look-alikes'],
    ['Purell Advanced Hand Sanitizer Gel 8 oz', 'eligible', 'ppe'],
    ['Sunscreen Dispenser Station Wall Mount', 'not_eligible', null],
    ['Epsom Salt for Plants Garden', 'not_eligible', null],
    ["Dr Teal's Epsom Salt Shampoo", 'not_eligible', 'toiletries'],
    ["Dr Teal's Pure Epsom Salt Soaking Solution, 3 lb", 'eligible', 'epsom-salt'],
    ['Bruxism Night Guard Case', 'not_eligible', null],
    ['Plackers Grind No More Night Guard', 'eligible', 'denture-care'],
    ['Kinesiology Tape for Horses', 'not_eligible', null],
    ['KT Tape Pro Kinesiology Tape', 'eligible', 'braces-supports'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a pharmacy-and-wellness store feed (braces on teeth, spinal decompression, foam rollers, exercise peddlers, donut pillows, aromatherapy roll-ons, AEDs, snake-bite kits, kegel weights, cast protectors)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Philips HeartStart OnSite AED Defibrillator', 'eligible', 'first-aid-kits'],
    ['Sawyer Extractor Pump Snake Bite Kit', 'eligible', 'first-aid-kits'],
    ['Intimate Rose Kegel Weights, 6 ct', 'eligible', 'medical-lines-over-common-nouns-medical'],
    ['Sage Comfort Shield Barrier Cream Cloths, 24 ct', 'eligible', 'incontinence'],
    ['Parthenon Devrom Internal Deodorant, 100 ct', 'eligible', 'incontinence'],
    ['CeraVe Acne Control Cleanser Salicylic Acid Face Wash, 8 oz', 'eligible', 'acne-treatment'],
    ['Rifton Pacer Gait Trainer', 'eligible', 'daily-living-mobility'],
    ['Limbo Waterproof Cast Protector Adult Arm', 'eligible', 'first-aid-supplies'],
    ['Platypus Orthodontic Flossers for Braces, 30 ct', 'not_eligible', null],
    ['Mueller Adjustable Back Brace', 'eligible', 'braces-supports'],
    ['Back Bubble Spinal Decompression Device', 'requires_lmn', 'exercise-equipment'],
    ['Gaiam Restore Hot and Cold Foam Roller', 'requires_lmn', 'exercise-equipment'],
    ['Sunbeam Heating Pad, King', 'eligible', 'hot-cold-therapy'],
    ['Drive Medical Exercise Peddler with Digital Display', 'requires_lmn', 'fitness-equipment-lines'],
    ['Vive Donut Pillow for Hemorrhoids', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Preparation H Hemorrhoidal Cooling Gel, 1.8 oz', 'eligible', 'digestive-health'],
    ['Saje Peppermint Halo Headache Roll-On', 'not_eligible', null],
    ['Excedrin Tension Headache Caplets, 100 ct', 'eligible', 'pain-relief'],
    ['Cardinal Health Dental Flossers 90 ct', 'not_eligible', null],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: everyday and dual-purpose goods a medical-supply brand sells (scales, stopwatches, therapy putty, exercise pedals, table sheets), beside its medical lines', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Mabis Digital Bathroom Scale, 400 lb Capacity', 'not_eligible', 'home-electronics-apparel'],
    ['Mabis Sports Stopwatch with Lanyard', 'not_eligible', 'home-electronics-apparel'],
    ['Mabis Automatic Blood Pressure Monitor, Upper Arm', 'eligible', 'blood-pressure-monitors'],
    ['Vive Hand Therapy Putty, 4 Resistance Levels', 'requires_lmn', 'fitness-equipment-lines'],
    ['Vive Adjustable Knee Brace', 'eligible', 'braces-supports'],
    ['Complete Medical Folding Exercise Pedals', 'requires_lmn', 'fitness-equipment-lines'],
    ['Drive Medical Folding Rollator Walker with Seat', 'eligible', 'mobility-aids'],
    ['BodyMed Fitted Massage Table Sheet Set', 'not_eligible', 'home-electronics-apparel'],
    ['BodyMed Dual Head Stethoscope', 'eligible', 'diagnostic-devices'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: medical words in apparel and beauty (trouser braces, aligner cleaners, a red-light hair-growth cap), beside the medical product', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Boys Suspenders Braces Adjustable Elastic Y-Back', 'not_eligible', null],
    ['McDavid Hinged Knee Brace', 'eligible', 'braces-supports'],
    ['Knee Support Pads for Gardening Kneeler', 'not_eligible', null],
    ['Bauerfeind GenuTrain Knee Support', 'eligible', 'braces-supports'],
    ['Invisalign Cleaning Crystals, 28 ct', 'eligible', 'denture-care'],
    ['iRestore Red Light Therapy Hair Growth Cap', 'not_eligible', 'hair-growth'],
    ['Carex Day-Light Classic Plus Bright Light Therapy Lamp', 'requires_lmn', 'light-therapy'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: home goods sold under a medical-supply brand (throws, fitted sheets, fans, shopping trolleys, bags, ice rollers, scales) are not answered by the brand, a foot spa is a massager', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Mabis Soft Fleece Throw 50 x 60', 'not_eligible', null],
    ['Drive Medical Heated Throw with Controller', 'not_eligible', null],
    ['Essential Medical Supply Knit Fitted Sheet, Hospital Bed', 'not_eligible', null],
    ['Duro-Med Portable Lap Desk', 'not_eligible', null],
    ['Carex Rechargeable Personal Fan', 'not_eligible', null],
    ['Nova Medical Products Folding Shopping Trolley', 'not_eligible', null],
    ['Elenker Insulated Cooler Bag', 'not_eligible', null],
    ['Zamst Sports Bag Large', 'not_eligible', null],
    ['Medical King Ice Roller', 'not_eligible', null],
    ['Roscoe Medical Scale Digital, Glass', 'not_eligible', null],
    ['Drive Medical Foot Spa with Heat and Bubbles', 'requires_lmn', 'massage-devices'],
    ['Carex Folding Bath Bench', 'eligible', 'mobility-aids'],
    ['Elenker Upright Rollator Walker', 'eligible', 'mobility-aids'],
    ['Zamst ZK-7 Knee Brace', 'eligible', 'braces-supports'],
    ['Roscoe Medical Compression Stockings 20-30 mmHg', 'eligible', 'compression-hosiery'],
    ['Medical King Knee Brace', 'eligible', 'braces-supports'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: home medical equipment the tables missed (AEDs by line, orthodontic wax, dilators and pessaries, dressing and PICC protectors, stump shrinkers, adaptive strollers, pressure-sore cushions, heel floats, assistive listening), beside the everyday goods that share their words', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Cardiac Science Powerheart G5 AED', 'eligible', 'first-aid-kits'],
    ['AED Wall Cabinet with Alarm and Strobe', 'not_eligible', null],
    ['Prestan AED Trainer Ultratrainer', 'not_eligible', null],
    ['Orthodontic Wax for Braces, 5 pk', 'eligible', 'denture-care'],
    ['Sealing Wax Sticks for Envelopes', 'not_eligible', null],
    ['Soul Source Vaginal Dilator Set of 4', 'eligible', 'medical-lines-over-common-nouns-medical'],
    ['Silicone Ring Pessary with Support, Size 3', 'eligible', 'medical-lines-over-common-nouns-medical'],
    ['Bloccs Waterproof Dressing Protector, Adult Arm', 'eligible', 'daily-living-mobility'],
    ['PICC Line Cover Shower Sleeve', 'eligible', 'first-aid-supplies'],
    ['Below Knee Stump Shrinker, Medium', 'eligible', 'daily-living-mobility'],
    ['Knit-Rite Prosthetic Sock 3 Ply', 'eligible', 'daily-living-mobility'],
    ['Convaid Adaptive Stroller, Special Needs', 'eligible', 'daily-living-mobility'],
    ['Jogging Stroller with Adaptive Fit Canopy', 'not_eligible', 'baby-diapers-gear'],
    ['Gel Seat Cushion for Pressure Sores', 'eligible', 'home-care-equipment'],
    ['Gel Seat Cushion for Office Chair', 'requires_lmn', 'ergonomic-seating'],
    ['Skil-Care Heel Float Boot', 'eligible', 'home-care-equipment'],
    ['Winter Snow Boot with Fleece Heel', 'not_eligible', 'household-look-alikes'],
    ['TV Ears Original Wireless Headset', 'eligible', 'hearing-and-vision-supplies'],
    ['Sonic Alert Bed Shaker Alarm', 'eligible', 'hearing-and-vision-supplies'],
    ['Talking Alarm Clock for Kids', 'not_eligible', null],
    ['Extra Long Shoe Horn, 24 in, Long Handled', 'eligible', 'daily-living-mobility'],
    ['Wooden Shoe Tree and Shoe Horn Set', 'not_eligible', 'clothing-accessories'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a family-health store (pediatric positioning and bath equipment, tracheostomy supplies, pacifier thermometers, pump parts, fitness smartwatches, a trail mix and a microwave meal beside a supplement and a tube feed)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Blue Diamond Trail Mix Omega-3 Snack Packs, 12 ct', 'not_eligible', 'groceries'],
    ['Nordic Naturals Ultimate Omega, 60 softgels', 'requires_lmn', 'fish-oil-omega-3'],
    ['Legendairy Milk Liquid Gold Lactation Supplement, 60 ct', 'requires_lmn', 'supplement-ingredients'],
    ['Momcozy Hands-Free Breast Pump by a Lactation Brand', 'eligible', 'breast-pumps-lactation'],
    ['Hormel Compleats Beef Pot Roast Microwave Meal, 9 oz', 'not_eligible', null],
    ['Nestle Compleat Pediatric Tube Feeding Formula, 250 mL', 'requires_lmn', 'medical-nutrition'],
    ['Shiley Tracheostomy Tube Holder Adult', 'eligible', 'home-care-equipment'],
    ['Rifton Activity Chair Positioning Seat, Size 1', 'eligible', 'daily-living-mobility'],
    ['Tumble Forms Feeder Seat', 'eligible', 'daily-living-mobility'],
    ['Drive Medical Bath Lift Chair', 'eligible', 'daily-living-mobility'],
    ['Stander Couch Cane Standing Handle', 'eligible', 'mobility-aids'],
    ['Summer Infant Pacifier Thermometer', 'eligible', 'thermometers'],
    ['Medela Backflow Protector for Pump in Style, 2 ct', 'eligible', 'breast-pumps-lactation'],
    ['ADC Aneroid Sphygmomanometer Adult Cuff', 'eligible', 'blood-pressure-monitors'],
    ['Fitbit Sense 2 Fitness Smartwatch', 'requires_lmn', 'exercise-equipment'],
    ['Apple Watch SE 40mm Smartwatch', 'not_eligible', 'fitness'],
    ['Emergen-C Kidz Immune Support Drink Mix, 30 ct', 'requires_lmn', 'supplement-ingredients'],
    ['Kool-Aid Drink Mix Tropical Punch', 'not_eligible', 'food-drink-types'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a power chair and its battery beside a power recliner and a gaming chair, a protecting powder beside a setting powder, and "graduated" compression that states no grade', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Golden Technologies Buzzaround Power Chair, Red', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Power Chair Battery 12V 35Ah Sealed Lead Acid', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Electric Power Chair Recliner for Living Room', 'not_eligible', null],
    ['Gaming Power Chair RGB with Footrest', 'not_eligible', null],
    ['Caldesene Medicated Protecting Powder, Talc Free, 5 oz', 'eligible', 'otc-medicine-types'],
    ['Mineral Setting Powder with Zinc Oxide, Translucent', 'not_eligible', 'cosmetics'],
    ['Sockwell Graduated Compression Socks, Women, Medium', 'requires_review', 'unclear-medical-purpose'],
    ['Therafirm Graduated Compression Socks 15-20 mmHg', 'eligible', 'compression-hosiery'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a grocery-and-pharmacy chain (powered callus removers beside callus medicine, incontinence underwear by its absorbency, a nebulizer sold with "cool mist", breathing trainers, a CPAP brand run together, vitamin-enhanced water, first-aid adhesive pads)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Amope PedEgg Powered Callus Remover Refill Set', 'not_eligible', null],
    ['Electric Callus Remover Rechargeable with 3 Rollers', 'not_eligible', null],
    ["Dr. Scholl's Callus Removers with Duragel, 4 ct", 'eligible', 'skin-treatments'],
    ['TopCare Slip-On Underwear Maximum Absorbency, Medium, 18 ct', 'eligible', 'incontinence'],
    ['Tampax Pearl Tampons Super Plus Absorbency, 36 ct', 'eligible', 'menstrual-care'],
    ["Hanes Women's Cotton Underwear Super Soft, 6 Pack", 'not_eligible', 'clothing-accessories'],
    ['Care One Cool Mist Nebulizer Compressor Kit', 'eligible', 'nebulizers-respiratory'],
    ['Vicks Cool Mist Humidifier, 1 Gallon', 'requires_lmn', 'humidifiers'],
    ['Airofit Resistance Breathing Trainer Pro', 'eligible', 'nebulizers-respiratory'],
    ['Resistance Band Trainer Set, 5 Bands', 'requires_lmn', 'exercise-equipment'],
    ['CPAPology Hose Buddy Lift', 'eligible', 'respiratory-brands-medical'],
    ['Garden Hose Lift Holder', 'not_eligible', 'home-electronics-apparel'],
    ['Simple Truth Vitamin Enhanced Water Beverage, Lemon, 20 fl oz', 'not_eligible', 'beverages'],
    ['Centrum Multivitamin Tablets, 200 ct', 'requires_lmn', 'vitamins-minerals'],
    ['Leader Large Patch Adhesive Pads 2 in x 3 in, 10 ct', 'eligible', 'bandages-wound-care'],
    ['Large Patch Iron-On Denim Repair Kit', 'not_eligible', null],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});

describe('checkEligibility by name: a mass merchant (ergonomic keyboards and mice beside plain ones and their covers, exercise floor mats beside play mats, bandage scissors, a tooth-preserving kit, breast-milk bags named by a pump line)', () => {
  test.each<[string, EligibilityStatus, string | null]>([
    ['Microsoft Sculpt Ergonomic Keyboard for Business', 'requires_lmn', 'ergonomic-input-devices'],
    ['Anker Wireless Vertical Ergonomic Optical Mouse', 'requires_lmn', 'ergonomic-input-devices'],
    ['Logitech MX Master 3S Wireless Mouse', 'not_eligible', 'consumer-brands-wellness'],
    ['Ergonomic Keyboard Cover Silicone Skin', 'not_eligible', 'home-electronics-apparel'],
    ['Ergonomic Mouse Pad with Gel Wrist Rest', 'not_eligible', null],
    ['Tomcat Ergonomic Mouse Trap, 2 ct', 'not_eligible', null],
    ['BalanceFrom Puzzle Exercise Floor Mat with EVA Foam Tiles', 'requires_lmn', 'exercise-equipment'],
    ['Kids Interlocking Foam Play Floor Mats, Alphabet', 'not_eligible', null],
    ['Dynarex Lister Bandage Scissors 5.5 in', 'eligible', 'clinical-supplies-medical'],
    ['Fiskars Kitchen Scissors, 8 in', 'not_eligible', 'home-electronics-apparel'],
    ['Save-A-Tooth Tooth Preserving System', 'eligible', 'clinical-supplies-medical'],
    ['Elvie Stride Spill-Proof Milk Bags, 50 ct', 'eligible', 'breast-pumps-lactation'],
    ['Horizon Organic Whole Milk, Half Gallon', 'not_eligible', 'groceries'],
  ])('%s → %s', (name, status, category) => {
    expect(checkEligibility({ name })).toMatchObject({ status, category });
  });
});
