import { checkEligibility, type EligibilityStatus } from './eligibility.engine.js';

type Case = [name: string, status: EligibilityStatus, category: string | null];

const expectAnswers = (name: string, status: EligibilityStatus, category: string | null): void => {
  expect(checkEligibility({ name })).toMatchObject({ status, category });
};

describe('recall audit, home medical equipment: Spanish-English store titles, beside the trekking poles, selfie sticks, volleyball knee pads, anklets, shapewear, kitchen thermometers and headphones that share their words', () => {
  test.each<Case>([
    ['Bastón Plegable Ajustable para Adultos Mayores, Aluminio', 'eligible', 'equipment-spanish-titles'],
    ['Bastón de cuatro puntas para caminar', 'eligible', 'equipment-spanish-titles'],
    ['Bastón de Trekking Aluminio Plegable', 'not_eligible', null],
    ['Bastón Selfie Extensible Bluetooth', 'not_eligible', null],
    ['Andador para Adultos con Asiento y Ruedas', 'eligible', 'equipment-spanish-titles'],
    ['Andador para Bebe Musical', 'not_eligible', null],
    ['Silla de Ruedas Plegable Ligera', 'eligible', 'equipment-spanish-titles'],
    ['Silla de Ruedas para Perro Ajustable', 'not_eligible', null],
    ['Silla para Ducha Adultos Mayores Antideslizante', 'eligible', 'equipment-spanish-titles'],
    ['Silla de Ducha para Bebe Antideslizante', 'not_eligible', null],
    ['Tensiometro Digital de Brazo para Presion Arterial', 'eligible', 'equipment-spanish-titles'],
    ['Monitor de Presion Arterial de Muneca', 'eligible', 'equipment-spanish-titles'],
    ['Oxímetro de Pulso para Dedo', 'eligible', 'equipment-spanish-titles'],
    ['Termometro Digital para Bebe Frente y Oido', 'eligible', 'equipment-spanish-titles'],
    ['Termometro para Cocina Digital Carne', 'not_eligible', null],
    ['Termometro Ambiente Interior Higrometro', 'not_eligible', null],
    ['Calcetines para Diabeticos sin Elastico', 'eligible', 'equipment-spanish-titles'],
    ['Rodillera Ortopedica con Bisagras', 'eligible', 'equipment-spanish-titles'],
    ['Rodilleras para Voleibol Juveniles', 'not_eligible', null],
    ['Rodilleras de Trabajo Construccion Gel', 'not_eligible', null],
    ['Tobillera Elastica Deportiva de Compresion', 'eligible', 'equipment-spanish-titles'],
    ['Tobillera de Plata para Mujer Cadena', 'not_eligible', null],
    ['Muñequera para Tunel Carpiano', 'eligible', 'equipment-spanish-titles'],
    ['Muñequera Deportiva para Sudor Algodon', 'not_eligible', null],
    ['Faja Lumbar para Dolor de Espalda', 'eligible', 'equipment-spanish-titles'],
    ['Faja Colombiana Moldeadora Reductora', 'not_eligible', null],
    ['Bolsa de Agua Caliente', 'eligible', 'equipment-spanish-titles'],
    ['Electrodos para TENS Reutilizables', 'eligible', 'equipment-spanish-titles'],
    ['Audifonos para Sordera Recargables', 'eligible', 'equipment-spanish-titles'],
    ['Audifonos Bluetooth Inalambricos con Microfono', 'not_eligible', null],
    ['Lentes de Lectura +2.50', 'eligible', 'equipment-spanish-titles'],
    ['Lentes de Sol Polarizados para Hombre', 'not_eligible', null],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment: mobility, transfer and pressure-care parts and aids, beside playground trapezes, toddler helmets, potty-training seats, sports bras, tonic water and stump remover', () => {
  test.each<Case>([
    ['ROHO High Profile Single Compartment Cushion', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Power Chair Batteries Group 22NF Pair', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Rollator Seat Cushion Replacement', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Walker Seat Cushion Padded Replacement', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Pivot Disc Transfer Turntable', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Bed Trapeze Bar Overhead', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Trapeze Bar Swing for Kids Playground', 'not_eligible', null],
    ['Bed Sore Cushion Donut Ring', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Lanolin-Free Stump Sock Prosthetic', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Stump Remover Granules 1 lb', 'not_eligible', null],
    ['Geri-Sleeves Arm Protectors Pair', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Epilepsy Seizure Helmet Soft Shell', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Pediatric Helmet for Plagiocephaly', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Bicycle Helmet Toddler Kids', 'not_eligible', 'home-electronics-apparel'],
    ['Adaptive Car Seat Special Needs Booster', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Car Seat Organizer Kick Mats, 2 pk', 'not_eligible', 'baby-diapers-gear'],
    ['Bottom Buddy Toilet Aid', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Toilet Tissue Aid Self Wiping', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Kids Potty Training Toilet Aid Seat', 'not_eligible', null],
    ['Compression Bra Post Surgery Front Closure', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Sports Bra High Impact Compression', 'not_eligible', null],
    ['Philadelphia Collar Two Piece', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Philadelphia Eagles Dog Collar', 'not_eligible', 'pet-supplies'],
    ['Fever Strips Forehead Disposable, 12 ct', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Fever Tree Premium Tonic Water, 8 pk', 'not_eligible', null],
    ['TENS Unit Lead Wire Cables, 2 pk', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Speaker Lead Wire 16 Gauge 50 ft', 'not_eligible', 'home-electronics-apparel'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment: low-vision, assistive-listening, CPAP humidifier, oximetry and adaptive eating aids, beside coin microscopes, hobby sensor modules, room humidifiers, toddler plates and clock keys', () => {
  test.each<Case>([
    ['Video Magnifier Electronic Reading Aid CCTV', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Digital Magnifier Portable 5 in for Macular Degeneration', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Eschenbach Mobilux LED Magnifier', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Digital Microscope Magnifier USB for Coins', 'not_eligible', 'home-electronics-apparel'],
    ['Reizen Talking Watch for Visually Impaired', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Pocketalker Ultra Personal Amplifier', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Serene Innovations TV Sound Box Amplifier', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Guitar Amplifier 20 W Practice Amp', 'not_eligible', null],
    ['Vibrating Alarm Clock for Heavy Sleepers Deaf', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Humidifier Water Chamber for AirSense 10', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Cool Mist Humidifier Water Tank Replacement', 'requires_lmn', 'humidifiers'],
    ['Oximetry Finger Sensor Reusable Adult', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Spo2 Finger Probe Reusable Pediatric', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['SpO2 Sensor Module MAX30102 Arduino', 'not_eligible', 'equipment-look-alikes'],
    ['Heat and Moisture Exchanger HME Filter Trach', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Providence Spillproof Scoop Plate', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Ezpz Happy Mat Toddler Scoop Plate Silicone', 'not_eligible', null],
    ['Nosey Cup Cut-Out Cup for Dysphagia', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Kennedy Cup with Lid for Dysphagia', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Ableware Key Turner Aid', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Clock Key Turner Wind Up Brass', 'not_eligible', null],
    ['Zipper Pull Helper for Arthritis', 'eligible', 'equipment-sensory-respiratory-aids'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment: everyday goods that took an equipment word (log books, foot warmers, plumbing urinals, milk scales) are not the device, the device still is', () => {
  test.each<Case>([
    ['Blood Pressure Log Book', 'not_eligible', 'equipment-look-alikes'],
    ['Diabetes Log Book Blood Sugar Tracker', 'not_eligible', 'equipment-look-alikes'],
    ['Omron 10 Series Wireless Upper Arm Blood Pressure Monitor', 'eligible', 'blood-pressure-monitors'],
    ['Electric Foot Warmer Heated Pad', 'not_eligible', 'equipment-look-alikes'],
    ['Sunbeam XpressHeat Heating Pad', 'eligible', 'hot-cold-therapy'],
    ['Wall Urinal Porcelain Commercial', 'not_eligible', 'equipment-look-alikes'],
    ['Male Urinal Bottle 32 oz with Lid', 'eligible', 'ostomy-urology'],
    ['Breast Milk Scale for Feeding', 'not_eligible', 'equipment-look-alikes'],
    ['Breast Milk Storage Bags, 100 ct', 'eligible', 'breast-pumps-lactation'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment: a power lift recliner is a lift chair and a CPAP pillow an orthopedic pillow (both dual-purpose, LMN), beside a recliner sofa and a bed pillow', () => {
  test.each<Case>([
    ['Catnapper Power Lift Recliner', 'requires_lmn', 'ergonomic-seating'],
    ['La-Z-Boy Power Lift Recliner with Heat and Massage', 'requires_lmn', 'ergonomic-seating'],
    ['Power Recliner Sofa Leather 3-Seat', 'not_eligible', 'home-electronics-apparel'],
    ['CPAP Pillow Memory Foam for Side Sleepers', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Contour CPAP Pillow 2.0 with Cooling Cover', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Memory Foam Bed Pillow Queen, 2 pk', 'not_eligible', 'household'],
    ['CPAP Mask Liners, 30 ct', 'eligible', 'cpap-supplies'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment, second pass: walking frames, bed ladders, slide boards, lift cushions, stocking donners, adaptive writing and drinking aids, sleep-apnea and oxygen masks, BP and pulse-ox abbreviations, Holter electrodes, fetal dopplers, IT-band straps, lymphedema pumps, surgical ice machines, captioned phones and deaf alerts, beside the bunk-bed ladders, hockey slide boards, pencil grips, shop vacuums, gas-station cards, sign-language books, countertop ice makers and lifting wraps that share their words', () => {
  test.each<Case>([
    ['Zimmer Frame Lightweight Aluminium', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Foldable Walking Frame for Seniors with Wheels', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Baby Walking Frame Push Toy Wooden', 'not_eligible', null],
    ['Bed Ladder Pull Up Assist Strap', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Bunk Bed Ladder Hook-On Wood', 'not_eligible', null],
    ['Slide Board Bariatric Transfer', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Hockey Slide Board Training 8 ft', 'requires_lmn', 'fitness-equipment-kinds'],
    ['Sliding Sheet Tube for Repositioning', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Satin Sliding Sheet Set Queen', 'not_eligible', null],
    ['Lift Cushion Power Seat Elevating', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Mattress Pressure Relief Bubble Pad with Air Pump', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Camping Air Mattress with Built-In Pump Queen', 'not_eligible', 'household'],
    ['Positioning Pillow for Bedridden Patients', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Holter Monitor Electrodes, 50 ct', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Fetal Doppler Baby Heartbeat Monitor', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Doppler Radar Weather Station', 'not_eligible', null],
    ['IT Band Strap Support', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Pneumatic Compression Device Leg Massager Lymphedema', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Leg Massager Air Compression for Circulation', 'requires_lmn', 'massage-devices'],
    ['Ice Machine for Knee Surgery Recovery', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Ice Machine Countertop Nugget 26 lb', 'not_eligible', null],
    ['Electrode Gel for TENS Units 8 oz', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Pill Timer Cap Bottle Reminder', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Timer Cap Water Bottle Tracker', 'not_eligible', 'home-electronics-apparel'],
    ['Sock Slider Donning Aid Compression Stockings', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Compression Stocking Donner Butler', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Easy Grip Pen Arthritis Writing Aid', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Pencil Grips for Kids Writing Aid, 10 pk', 'not_eligible', null],
    ['Foam Grip Tubing Closed Cell for Utensils', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Foam Pipe Insulation Tubing 6 ft', 'not_eligible', 'equipment-look-alikes'],
    ['Suction Plate Adult Dementia', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Suction Plate for Toddlers Silicone', 'not_eligible', null],
    ['Full Face Mask Cushion Replacement Medium Sleep Apnea', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Sleep Apnea Pillow for Side Sleepers', 'requires_lmn', 'orthopedic-shoes-bedding'],
    ['Oxygen Mask Non-Rebreather Adult', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Oxygen Bubble Facial Mask Sheet Korean', 'not_eligible', 'skin-care'],
    ['Oxygen Bubble Humidifier Bottle', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Cool Mist Humidifier Negative Ion Oxygen Bar', 'requires_lmn', 'humidifiers'],
    ['Portable Suction Unit Rechargeable', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Shop Vac Wet Dry Suction Unit 5 Gallon', 'not_eligible', null],
    ['Automatic BP Cuff Wrist Digital', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['BP Gas Station Gift Card $50', 'not_eligible', 'home-electronics-apparel'],
    ['Pulse Ox Monitor Adult Fingertip', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Pulse Ox Replacement Battery AAA, 4 pk', 'not_eligible', null],
    ['Caption Phone for Hard of Hearing', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['TV Listening Device Wireless Headphones for Hearing Impaired', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Doorbell Flasher for Deaf', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Sign Language Book for Hearing Impaired Kids', 'not_eligible', null],
    ['Flash Cards Hard of Hearing ASL', 'not_eligible', null],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment, second pass: sports gear and beauty devices that took a brace, sleeve or electrode word, and massaging knee wraps (dual-purpose, LMN)', () => {
  test.each<Case>([
    ['Football Neck Roll Collar Youth', 'not_eligible', 'equipment-look-alikes'],
    ['Gym Lifting Knee Sleeves 7 mm Powerlifting', 'not_eligible', 'equipment-look-alikes'],
    ['Knee Wrap for Gym Lifting 72 in', 'not_eligible', 'equipment-look-alikes'],
    ['Open Patella Knee Sleeve Neoprene', 'eligible', 'braces-supports'],
    ['Electrode Gel Pads for EMS Face Device', 'not_eligible', 'equipment-look-alikes'],
    ['NuFace Mini EMS Facial Toning Device', 'not_eligible', 'equipment-look-alikes'],
    ['iReliev TENS EMS Unit for Back Pain', 'eligible', 'tens-pain-devices'],
    ['Heated Knee Wrap Massager', 'requires_lmn', 'equipment-massager-wraps'],
    ['Knee Brace with Side Stabilizers and Patella Gel Pad', 'eligible', 'braces-supports'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment, third pass: car transfer aids, tub and transfer lift chairs, button aids, adaptive combs and brushes, pill-bottle openers, anti-decubitus mattresses, bi-level PAP, oxygen flowmeters, carriers and finger meters, assistive listening for hearing loss, beside sublimation tape, sewing buttons, styling combs, welding and scuba gear, water testers, tinnitus caplets, aromatherapy nebulizers, hearing-impaired decals and slipcovers', () => {
  test.each<Case>([
    ['Swivel Cushion Seat Car Transfer Aid', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Vehicle Transfer Handle Portable', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Heat Transfer Aid Tape for Sublimation', 'not_eligible', null],
    ['Bath Tub Lift Chair Electric', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Transfer Lift Chair Manual Hydraulic', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Lift Chair Recliner Slipcover Stretch', 'requires_lmn', 'ergonomic-seating'],
    ['Button Aid for Arthritis', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Button Aid Sewing Kit Refill', 'not_eligible', null],
    ['Easy Reach Long Handle Comb', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Comb Set Long Handle Rat Tail Styling', 'not_eligible', 'toiletries'],
    ['Pill Bottle Opener for Arthritis', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Anti Decubitus Air Mattress Pump Replacement', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Bi-Level PAP Machine', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Oxygen Flowmeter 0-15 LPM', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Argon Flowmeter Regulator TIG Welding', 'not_eligible', null],
    ['Portable Oxygen Bottle Backpack Carrier', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Scuba Oxygen Backpack Tank Harness', 'not_eligible', 'home-electronics-apparel'],
    ['Oxygen Meter Finger Pulse', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Dissolved Oxygen Meter Water Quality Tester', 'not_eligible', null],
    ['Assistive Listening Device Personal Amplifier', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Amplified Headphones for TV Hearing Loss', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Lipo-Flavonoid Plus Tinnitus Relief for Hearing Loss Caplets', 'requires_lmn', 'supplement-forms'],
    ['Hearing Impaired Driver Sticker Decal', 'not_eligible', null],
    ['Nebulizador de Aceites Esenciales Aromaterapia', 'not_eligible', null],
    ['Oximetro Digital para Niños y Adultos', 'eligible', 'equipment-spanish-titles'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment, third pass: goods that took a device word (an industrial laser thermometer, a hearing-aid-compatible phone, a glasses case, a heated car seat cushion) are not the device', () => {
  test.each<Case>([
    ['Non Contact Infrared Thermometer Industrial Laser Gun', 'not_eligible', 'equipment-look-alikes'],
    ['Laser Thermometer for Cooking Pizza Oven', 'not_eligible', 'equipment-look-alikes'],
    ['Exergen Temporal Artery Thermometer', 'eligible', 'thermometers'],
    ['Hearing Aid Compatible Cell Phone Flip', 'not_eligible', 'equipment-look-alikes'],
    ['Hearing Aid Cleaning Wipes, 30 ct', 'eligible', 'hearing-aids'],
    ['Reading Glasses Case Hard', 'not_eligible', 'equipment-look-alikes'],
    ['Eyeglasses Case Leather Slim', 'not_eligible', 'equipment-look-alikes'],
    ['Foster Grant Reading Glasses +2.00, 3 pk', 'eligible', 'eyeglasses'],
    ['Heated Seat Cushion Car', 'not_eligible', 'equipment-look-alikes'],
    ['Coccyx Cushion for Office Chair', 'requires_lmn', 'ergonomic-seating'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment, fourth pass: makers whose name tells the device (ROHO, Marena, BioSkin, Molift, Caire, O2 Concepts, MaxiAids), hydrocollators, oxygen conservers, snap electrodes, TV listening systems, talking watches and clocks, bariatric mattresses and lymphedema leggings, beside the picture frames, sofa supports, embroidery discs, lazy susans, glass lifters, monitor calibrators, kids talking toys and warm insoles that share their words', () => {
  test.each<Case>([
    ['Roho Mosquito Seat Cushion', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Marena Recovery Compression Girdle Stage 1', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Marena Sports Bra Seamless', 'not_eligible', 'clothing-accessories'],
    ['BioSkin Trilok Patellar Stabilizer', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Molift Smart 150 Mobile Lift', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Caire FreeStyle Comfort POC', 'eligible', 'equipment-mobility-pressure-parts'],
    ['O2 Concepts Oxlife Independence', 'eligible', 'equipment-mobility-pressure-parts'],
    ['EasyPulse Oxygen Conserver', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Chattanooga Hydrocollator Heating Unit', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Chattanooga Lookouts Baseball Cap', 'not_eligible', null],
    ['Compex Snap Electrodes 2 in x 2 in', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Welding Electrodes 7018 1/8 in 10 lb', 'not_eligible', null],
    ['Drive Medical Bariatric Foam Mattress', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Solidea Lymphedema Leggings', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Zimmer Frame Picture Gallery Wall', 'not_eligible', null],
    ['Lift Cushion for Couch Sagging', 'not_eligible', null],
    ['Transfer Disc for Embroidery Hoop', 'not_eligible', null],
    ['Pivot Disc Lazy Susan Bearing 12 in', 'not_eligible', null],
    ['Sennheiser Set 860 TV Listening System', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['MaxiAids Talking Watch', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Independent Living Aids Big Button Talking Clock', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Talking Watch for Kids Toy Learning', 'not_eligible', null],
    ['Color Saturation Monitor Calibrator Display', 'not_eligible', null],
    ['Suction Unit Cups for Glass Lifting', 'not_eligible', null],
    ['Thermacell Heated Insoles', 'not_eligible', 'equipment-look-alikes'],
    ['Ugg Sheepskin Insoles', 'not_eligible', 'equipment-look-alikes'],
    ['Powerstep Pinnacle Orthotic Insoles', 'eligible', 'orthotics-foot-care'],
  ])('%s → %s', expectAnswers);
});

describe('recall audit, home medical equipment, look-alikes of the audit phrases themselves: a memoir, a T-shirt, a parking sign, a clock radio, a pet cone and an egg timer that share an aid’s words, beside the aid', () => {
  test.each<Case>([
    ['Bedridden Book A Memoir Paperback', 'not_eligible', null],
    ['Positioning Pillow for Bedridden Patients', 'eligible', 'equipment-mobility-pressure-parts'],
    ['Hard of Hearing Funny T-Shirt Grandpa', 'not_eligible', 'clothing-accessories'],
    ['Hearing Impaired Parking Sign Aluminum', 'not_eligible', null],
    ['Assistive Listening Headset Church', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Talking Clock Radio Vintage', 'not_eligible', null],
    ['Talking Watch for Visually Impaired Men Atomic', 'eligible', 'equipment-sensory-respiratory-aids'],
    ['Collarin Isabelino para Gato', 'not_eligible', null],
    ['Collarin Cervical Ajustable Rigido', 'eligible', 'equipment-spanish-titles'],
    ['Pill Timer Kitchen Egg Timer', 'not_eligible', null],
    ['Blood Glucose Meter Kit with Log Book', 'eligible', 'diabetes-care'],
    ['Reading Glasses +2.50 with Glasses Case', 'eligible', 'eyeglasses'],
  ])('%s → %s', expectAnswers);
});
