import type { DemoBrandValue, DemoCategoryValue } from "./demo-brands-and-categories";

/**
 * The curated catalogue an empty shop starts with: enough products to page
 * through (13 per category, every brand in several categories), prices that
 * tie on purpose so every sort needs its tie-breaker, and names whose words
 * stem ("Running", "Mixers", "Mixing") so search can be tested on them.
 * The pictures are generated from these entries by scripts/generate-product-images.ts (scripts/catalog/product-image.ts).
 */
export interface DemoProduct {
  /** Stable kebab-case key: names the product picture file. */
  slug: string;
  name: string;
  description: string;
  price: number;
  ratings: number;
  bandName: DemoBrandValue;
  category: DemoCategoryValue;
  /** Creation date = seed time minus this many days (0–729, so within two years). */
  daysAgo: number;
}

// biome-ignore format: one product per line reads as a table
export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  // Electronics
  { slug: "teachpro-smart-tablet-10", name: "TeachPro Smart Tablet 10", description: "A 10-inch classroom tablet with a drop-proof case and a stylus that clips into the frame. Twelve hours of battery for a full school day.", price: 189.99, ratings: 4.6, bandName: "teachPro", category: "electronics", daysAgo: 12 },
  { slug: "teachpro-wireless-headphones", name: "TeachPro Wireless Headphones", description: "Closed-back headphones with soft ear cushions and a volume limiter for younger listeners. Folds flat into its case.", price: 99.95, ratings: 4.3, bandName: "teachPro", category: "electronics", daysAgo: 41 },
  { slug: "teachpro-document-camera", name: "TeachPro Document Camera", description: "Shows worksheets, books and experiments on any projector in sharp 4K. The flexible arm folds away into a drawer.", price: 149.0, ratings: 4.1, bandName: "teachPro", category: "electronics", daysAgo: 203 },
  { slug: "teachpro-mini-bluetooth-speaker", name: "TeachPro Mini Bluetooth Speaker", description: "A palm-sized speaker with surprisingly full sound and a splash-proof shell. Pairs in one press.", price: 39.99, ratings: 4.4, bandName: "teachPro", category: "electronics", daysAgo: 88 },
  { slug: "teachpro-graphing-calculator", name: "TeachPro Graphing Calculator", description: "A colour graphing calculator approved for most exams, with a rechargeable battery and a protective slide cover.", price: 89.99, ratings: 4.7, bandName: "teachPro", category: "electronics", daysAgo: 377 },
  { slug: "teachpro-portable-projector", name: "TeachPro Portable Projector", description: "A bright, quiet projector for lessons and movie nights that fills a wall from two metres away.", price: 199.0, ratings: 3.9, bandName: "teachPro", category: "electronics", daysAgo: 156 },
  { slug: "teachpro-wireless-presenter", name: "TeachPro Wireless Presenter", description: "Slide clicker with a red laser pointer and a receiver that stores inside the handle.", price: 24.99, ratings: 4.0, bandName: "teachPro", category: "electronics", daysAgo: 512 },
  { slug: "cyclefit-heart-rate-monitor", name: "CycleFit Heart Rate Monitor", description: "A comfortable chest strap that streams accurate heart rate to your phone, watch or bike computer.", price: 59.99, ratings: 4.5, bandName: "cycleFit", category: "electronics", daysAgo: 64 },
  { slug: "cyclefit-gps-bike-computer", name: "CycleFit GPS Bike Computer", description: "Turn-by-turn directions, climb profiles and training data on a screen you can read in full sun.", price: 129.0, ratings: 4.2, bandName: "cycleFit", category: "electronics", daysAgo: 290 },
  { slug: "artistry-drawing-tablet", name: "Artistry Drawing Tablet", description: "A pressure-sensitive pen tablet for sketching, painting and photo retouching. Works with every major art app.", price: 79.99, ratings: 4.6, bandName: "artistry", category: "electronics", daysAgo: 33 },
  { slug: "artistry-digital-photo-frame", name: "Artistry Digital Photo Frame", description: "A matte 10-inch screen in an oak frame that shows family photos shared from any phone.", price: 69.5, ratings: 4.0, bandName: "artistry", category: "electronics", daysAgo: 441 },
  { slug: "campsafe-solar-power-bank", name: "CampSafe Solar Power Bank", description: "A rugged 20,000 mAh battery with a fold-out solar panel that keeps phones and lights charged off the grid.", price: 44.99, ratings: 3.8, bandName: "campSafe", category: "electronics", daysAgo: 97 },
  { slug: "campsafe-emergency-weather-radio", name: "CampSafe Emergency Weather Radio", description: "A hand-crank and solar radio with weather alerts, a flashlight and a USB port for emergencies.", price: 34.99, ratings: 4.4, bandName: "campSafe", category: "electronics", daysAgo: 608 },

  // Fitness
  { slug: "cyclefit-running-shoes", name: "CycleFit Running Shoes", description: "Light, cushioned road shoes with a breathable knit upper for daily miles.", price: 74.99, ratings: 4.5, bandName: "cycleFit", category: "fitness", daysAgo: 5 },
  { slug: "cyclefit-adjustable-dumbbells", name: "CycleFit Adjustable Dumbbells", description: "One pair that replaces fifteen: turn the dial to pick from 2 to 24 kg.", price: 119.99, ratings: 4.8, bandName: "cycleFit", category: "fitness", daysAgo: 140 },
  { slug: "cyclefit-indoor-cycling-bike", name: "CycleFit Indoor Cycling Bike", description: "A quiet belt-drive studio bike with magnetic resistance and a tablet holder for classes at home.", price: 199.99, ratings: 4.4, bandName: "cycleFit", category: "fitness", daysAgo: 260 },
  { slug: "cyclefit-yoga-mat-pro", name: "CycleFit Yoga Mat Pro", description: "A 6 mm non-slip mat that grips even in hot yoga, with alignment lines printed on top.", price: 29.99, ratings: 4.2, bandName: "cycleFit", category: "fitness", daysAgo: 71 },
  { slug: "cyclefit-resistance-bands-set", name: "CycleFit Resistance Bands Set", description: "Five latex-free bands from light to extra heavy, with handles, ankle straps and a door anchor.", price: 19.99, ratings: 4.1, bandName: "cycleFit", category: "fitness", daysAgo: 330 },
  { slug: "cyclefit-foam-roller", name: "CycleFit Foam Roller", description: "A firm textured roller that works out tight calves and shoulders after training.", price: 24.99, ratings: 3.7, bandName: "cycleFit", category: "fitness", daysAgo: 480 },
  { slug: "cyclefit-kettlebell-12kg", name: "CycleFit Kettlebell 12 kg", description: "Cast iron with a smooth powder-coated handle, flat base and colour-coded weight band.", price: 49.99, ratings: 4.6, bandName: "cycleFit", category: "fitness", daysAgo: 198 },
  { slug: "cyclefit-speed-jump-rope", name: "CycleFit Speed Jump Rope", description: "A ball-bearing rope with adjustable cable for double-unders and quick warm-ups.", price: 9.99, ratings: 3.9, bandName: "cycleFit", category: "fitness", daysAgo: 702 },
  { slug: "teachpro-fitness-tracker", name: "TeachPro Fitness Tracker", description: "Counts steps, sleep and heart rate, and nudges you to stand up during long study sessions.", price: 49.99, ratings: 4.0, bandName: "teachPro", category: "fitness", daysAgo: 119 },
  { slug: "teachpro-smart-body-scale", name: "TeachPro Smart Body Scale", description: "A glass scale that tracks weight and body composition and syncs to the TeachPro app.", price: 39.99, ratings: 3.6, bandName: "teachPro", category: "fitness", daysAgo: 555 },
  { slug: "artistry-cork-yoga-block", name: "Artistry Cork Yoga Block", description: "A natural cork block with rounded edges that supports deep stretches and balance poses.", price: 14.99, ratings: 4.3, bandName: "artistry", category: "fitness", daysAgo: 2 },
  { slug: "blendmaster-protein-shaker", name: "BlendMaster Protein Shaker", description: "A leak-proof shaker with a steel whisk ball that mixes protein shakes without lumps.", price: 12.99, ratings: 4.1, bandName: "blendMaster", category: "fitness", daysAgo: 245 },
  { slug: "campsafe-running-hydration-vest", name: "CampSafe Running Hydration Vest", description: "A snug trail vest with two soft flasks and pockets for keys, gels and a light jacket.", price: 64.99, ratings: 4.5, bandName: "campSafe", category: "fitness", daysAgo: 27 },

  // Home appliances
  { slug: "blendmaster-pro-900-blender", name: "BlendMaster Pro 900 Blender", description: "A 900 W blender that crushes ice and frozen fruit in seconds. Six presets and a self-cleaning cycle.", price: 89.99, ratings: 4.5, bandName: "blendMaster", category: "home appliances", daysAgo: 10 },
  { slug: "blendmaster-stand-mixer-5qt", name: "BlendMaster Stand Mixer 5 Qt", description: "Kneads bread dough and whips cream with a quiet, powerful motor. Comes with a dough hook, whisk and flat beater.", price: 179.99, ratings: 4.8, bandName: "blendMaster", category: "home appliances", daysAgo: 58 },
  { slug: "blendmaster-hand-mixers-duo", name: "BlendMaster Hand Mixers Duo", description: "Two cordless hand mixers, one for batter and one for cream, sharing a single charging dock.", price: 54.99, ratings: 4.0, bandName: "blendMaster", category: "home appliances", daysAgo: 302 },
  { slug: "blendmaster-personal-smoothie-blender", name: "BlendMaster Personal Smoothie Blender", description: "Blend straight into a travel cup and take your smoothie with you.", price: 34.99, ratings: 4.2, bandName: "blendMaster", category: "home appliances", daysAgo: 134 },
  { slug: "blendmaster-food-processor", name: "BlendMaster Food Processor", description: "A 12-cup processor that slices, shreds and chops, with a wide chute for whole vegetables.", price: 129.99, ratings: 4.4, bandName: "blendMaster", category: "home appliances", daysAgo: 411 },
  { slug: "blendmaster-electric-kettle", name: "BlendMaster Electric Kettle", description: "A 1.7 litre glass kettle with five temperature settings for green tea, coffee and everything between.", price: 44.99, ratings: 4.6, bandName: "blendMaster", category: "home appliances", daysAgo: 77 },
  { slug: "blendmaster-drip-coffee-maker", name: "BlendMaster Drip Coffee Maker", description: "Brews ten cups into a thermal carafe that keeps coffee hot for hours without a hot plate.", price: 69.99, ratings: 3.8, bandName: "blendMaster", category: "home appliances", daysAgo: 520 },
  { slug: "blendmaster-slow-juicer", name: "BlendMaster Slow Juicer", description: "A cold-press juicer that squeezes greens, carrots and citrus gently for more juice and less foam.", price: 149.99, ratings: 4.3, bandName: "blendMaster", category: "home appliances", daysAgo: 189 },
  { slug: "blendmaster-two-slice-toaster", name: "BlendMaster Two-Slice Toaster", description: "Extra-wide slots for bagels and thick bread, with a defrost button and a lift lever for crumpets.", price: 39.99, ratings: 4.0, bandName: "blendMaster", category: "home appliances", daysAgo: 650 },
  { slug: "teachpro-compact-air-purifier", name: "TeachPro Compact Air Purifier", description: "A whisper-quiet HEPA purifier sized for classrooms, offices and bedrooms.", price: 119.0, ratings: 4.2, bandName: "teachPro", category: "home appliances", daysAgo: 366 },
  { slug: "teachpro-robot-vacuum-lite", name: "TeachPro Robot Vacuum Lite", description: "A slim robot vacuum that maps your rooms and docks itself to recharge.", price: 199.0, ratings: 3.5, bandName: "teachPro", category: "home appliances", daysAgo: 0 },
  { slug: "artistry-ultrasonic-aroma-diffuser", name: "Artistry Ultrasonic Aroma Diffuser", description: "A ceramic diffuser with a soft amber light that fills a room with a fine scented mist.", price: 32.5, ratings: 4.1, bandName: "artistry", category: "home appliances", daysAgo: 225 },
  { slug: "campsafe-electric-cooler", name: "CampSafe Electric Cooler", description: "A 25 litre cooler that runs from a car socket or mains and keeps drinks cold on long trips.", price: 159.99, ratings: 4.0, bandName: "campSafe", category: "home appliances", daysAgo: 459 },

  // Home goods
  { slug: "artistry-ceramic-vase", name: "Artistry Ceramic Vase", description: "A hand-glazed stoneware vase for fresh or dried flowers. Every glaze runs a little differently.", price: 38.0, ratings: 4.7, bandName: "artistry", category: "home goods", daysAgo: 45 },
  { slug: "artistry-linen-throw-pillow", name: "Artistry Linen Throw Pillow", description: "A stonewashed linen cover with a feather insert, soft from the first day.", price: 27.5, ratings: 4.4, bandName: "artistry", category: "home goods", daysAgo: 180 },
  { slug: "artistry-scented-soy-candle", name: "Artistry Scented Soy Candle", description: "Hand-poured soy wax with notes of cedar and fig in a reusable amber glass jar. Burns for about 45 hours.", price: 18.99, ratings: 4.8, bandName: "artistry", category: "home goods", daysAgo: 22 },
  { slug: "artistry-woven-wall-hanging", name: "Artistry Woven Wall Hanging", description: "A cotton and wool weave on a driftwood rod that brings texture to a bare wall.", price: 59.0, ratings: 4.2, bandName: "artistry", category: "home goods", daysAgo: 389 },
  { slug: "artistry-walnut-serving-board", name: "Artistry Walnut Serving Board", description: "A solid walnut board for bread, cheese and charcuterie, finished with food-safe oil.", price: 45.0, ratings: 4.6, bandName: "artistry", category: "home goods", daysAgo: 268 },
  { slug: "artistry-stoneware-mug-set", name: "Artistry Stoneware Mug Set", description: "Four speckled stoneware mugs that feel good in the hand and keep tea warm.", price: 34.99, ratings: 4.5, bandName: "artistry", category: "home goods", daysAgo: 101 },
  { slug: "artistry-brass-table-lamp", name: "Artistry Brass Table Lamp", description: "A brushed brass lamp with a linen shade that casts a warm, even glow.", price: 89.99, ratings: 4.3, bandName: "artistry", category: "home goods", daysAgo: 612 },
  { slug: "artistry-framed-botanical-print", name: "Artistry Framed Botanical Print", description: "A giclée print of a pressed fern, framed in light oak behind glass.", price: 49.99, ratings: 0.0, bandName: "artistry", category: "home goods", daysAgo: 1 },
  { slug: "blendmaster-glass-mixing-bowls", name: "BlendMaster Glass Mixing Bowls", description: "Three nesting glass bowls with lids, safe in the oven, microwave and dishwasher.", price: 29.99, ratings: 4.4, bandName: "blendMaster", category: "home goods", daysAgo: 350 },
  { slug: "blendmaster-chef-knife-block", name: "BlendMaster Chef Knife Block", description: "Five forged knives and sharpening steel in a slim bamboo block.", price: 99.0, ratings: 4.1, bandName: "blendMaster", category: "home goods", daysAgo: 577 },
  { slug: "teachpro-led-desk-lamp", name: "TeachPro LED Desk Lamp", description: "A dimmable desk lamp with a warm-to-cool colour dial and a USB port for charging a phone.", price: 42.0, ratings: 4.5, bandName: "teachPro", category: "home goods", daysAgo: 150 },
  { slug: "campsafe-wool-camp-blanket", name: "CampSafe Wool Camp Blanket", description: "A thick wool blend blanket for cold evenings by the fire or on the sofa.", price: 69.0, ratings: 4.7, bandName: "campSafe", category: "home goods", daysAgo: 425 },
  { slug: "campsafe-enamel-dinnerware-set", name: "CampSafe Enamel Dinnerware Set", description: "Plates, bowls and mugs for four in speckled enamel, equally at home on the porch or the trail.", price: 39.0, ratings: 3.9, bandName: "campSafe", category: "home goods", daysAgo: 690 },

  // Outdoor
  { slug: "campsafe-trail-lantern", name: "CampSafe Trail Lantern", description: "A rechargeable LED lantern with a warm glow and 40 hours of light on its lowest setting.", price: 24.99, ratings: 4.6, bandName: "campSafe", category: "outdoor", daysAgo: 19 },
  { slug: "campsafe-dome-tent-2p", name: "CampSafe Dome Tent 2P", description: "A two-person tent that pitches in five minutes and stays dry in a downpour.", price: 179.0, ratings: 4.5, bandName: "campSafe", category: "outdoor", daysAgo: 84 },
  { slug: "campsafe-down-sleeping-bag", name: "CampSafe Down Sleeping Bag", description: "A three-season down bag rated to -5 °C that packs down to the size of a loaf of bread.", price: 149.0, ratings: 4.7, bandName: "campSafe", category: "outdoor", daysAgo: 310 },
  { slug: "campsafe-compact-camping-stove", name: "CampSafe Compact Camping Stove", description: "A folding gas stove with a piezo igniter that boils a litre of water in three minutes.", price: 49.5, ratings: 4.2, bandName: "campSafe", category: "outdoor", daysAgo: 236 },
  { slug: "campsafe-headlamp-400", name: "CampSafe Headlamp 400", description: "A 400-lumen headlamp with a red night mode and a USB-C rechargeable battery.", price: 19.99, ratings: 4.3, bandName: "campSafe", category: "outdoor", daysAgo: 47 },
  { slug: "campsafe-insulated-water-bottle", name: "CampSafe Insulated Water Bottle", description: "A double-walled steel bottle that keeps water cold for a day and tea hot until evening.", price: 27.99, ratings: 4.8, bandName: "campSafe", category: "outdoor", daysAgo: 163 },
  { slug: "campsafe-folding-camp-chair", name: "CampSafe Folding Camp Chair", description: "A sturdy folding chair with a cup holder and a carry bag, good for festivals and campsites.", price: 39.99, ratings: 4.0, bandName: "campSafe", category: "outdoor", daysAgo: 539 },
  { slug: "campsafe-trekking-poles", name: "CampSafe Trekking Poles", description: "A pair of carbon poles with cork grips and quick locks, light enough to forget you carry them.", price: 59.99, ratings: 4.4, bandName: "campSafe", category: "outdoor", daysAgo: 394 },
  { slug: "campsafe-first-aid-kit", name: "CampSafe First Aid Kit", description: "A compact, well-organised kit for cuts, blisters and sprains on the trail.", price: 29.99, ratings: 4.6, bandName: "campSafe", category: "outdoor", daysAgo: 728 },
  { slug: "cyclefit-bike-helmet", name: "CycleFit Bike Helmet", description: "A ventilated road helmet with a rear light and a dial fit system.", price: 54.99, ratings: 4.4, bandName: "cycleFit", category: "outdoor", daysAgo: 110 },
  { slug: "cyclefit-trail-running-backpack", name: "CycleFit Trail Running Backpack", description: "A 12 litre pack that hugs your back on fast descents, with a bladder sleeve and pole loops.", price: 79.0, ratings: 4.1, bandName: "cycleFit", category: "outdoor", daysAgo: 275 },
  { slug: "blendmaster-portable-blender-go", name: "BlendMaster Portable Blender Go", description: "A rechargeable blender bottle for fresh smoothies at the beach, the park or the campsite.", price: 39.99, ratings: 3.8, bandName: "blendMaster", category: "outdoor", daysAgo: 14 },
  { slug: "artistry-plein-air-easel", name: "Artistry Plein Air Easel", description: "A beechwood field easel with telescopic legs and a paint drawer for painting outdoors.", price: 84.0, ratings: 4.2, bandName: "artistry", category: "outdoor", daysAgo: 466 },
];
