import { sql } from "drizzle-orm";
import type { Database } from "../../app/db/client.server";
import { demoBrandLabel as brandLabel, DEMO_BRANDS } from "../../app/db/seed/demo-brands-and-categories";
import { DEMO_PRODUCTS } from "../../app/db/seed/demo-catalog";
import { DEMO_BUYERS } from "../../app/db/seed/demo-reviews";
import { demoProductImage, insertDemoBrandsAndCategories } from "../../app/db/seed/seed.server";
import { seededRandom } from "./seeded-random";
import { giveSyntheticVariants } from "./synthetic-variants";

/**
 * The synthetic catalogue generator (`npm run db:generate-catalog`): a build
 * and benchmark tool, not part of the running shop.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
/** Synthetic products are dated within this many days before `now`, like the demo ones. */
const CATALOG_AGE_DAYS = 730;

export interface GenerateCatalogOptions {
  /** How many products to add (0 or more). */
  count: number;
  /** Rows per INSERT; a few thousand keeps each statement's parameters small and the round trips few. */
  batchSize?: number;
  /** Dates are spread over the two years before this moment. */
  now?: Date;
  /** Same seed (and `now`), same catalogue. */
  seed?: number;
  /** Empty the table first (ids restart at 1). */
  replace?: boolean;
  /**
   * Give each product one of this many made-up model names ("the Veranto"),
   * in its description: a catalogue with a vocabulary this large, as a shop
   * with many model names has (the search benchmark's 100,000 words). 0: none.
   */
  coinedWords?: number;
  /** Give a third of the products 2 to 12 variants in sizes and colours (synthetic-variants.ts). */
  variants?: boolean;
}

export const MODEL_WORDS = [
  "Plus",
  "Lite",
  "Max",
  "Mini",
  "Pro",
  "Air",
  "Eco",
  "Studio",
  "Sport",
  "Classic",
  "Compact",
  "Touring",
  "Urban",
  "Signature",
  "Essential",
  "Edition",
] as const;

const EXTRA_SENTENCES = [
  "Now in a new colour.",
  "Backed by a two-year warranty.",
  "Ships in recyclable packaging.",
  "A customer favourite, restocked.",
  "Designed and tested by the Backline team.",
  "Easy to clean and built to last.",
] as const;

interface CatalogBatch {
  names: string[];
  descriptions: string[];
  images: string[];
  prices: number[];
  ratings: string[];
  brands: string[];
  categories: string[];
  dates: string[];
}

/**
 * Fills the catalogue with `count` synthetic products for benchmarks and
 * pagination at scale: deterministic combinations of the demo data (its
 * names, descriptions and pictures by category), prices 5–200, ratings 0–5,
 * creation dates over the last two years, oldest first.
 *
 * Rows go in as column arrays through `unnest`, one statement per batch, all
 * in one transaction (a failure leaves the previous catalogue as it was);
 * then VACUUM ANALYZE, so the planner has statistics and index-only scans
 * can use the visibility map.
 */
export async function generateCatalog(
  db: Database,
  options: GenerateCatalogOptions,
): Promise<{ inserted: number }> {
  const {
    count,
    batchSize = 5000,
    now = new Date(),
    seed = 1,
    replace = false,
    coinedWords = 0,
    variants = false,
  } = options;
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number of 0 or more, not ${count}.`);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batchSize must be a whole number of 1 or more, not ${batchSize}.`);

  const nextProduct = syntheticProducts(count, now, seed, coinedWords);
  await db.transaction(async (tx) => {
    if (replace) {
      // The demo's own orders and reviews (its demo buyers', docs/decisions/0033) go with the demo.
      await tx.execute(
        sql`delete from orders where user_id in (${sql.join(
          DEMO_BUYERS.map((buyer) => sql`${buyer.id}`),
          sql`, `,
        )})`,
      );
      // Orders keep the products they name (docs/decisions/0027): a shop that has sold is not replaced.
      const sold = await tx.execute(sql`select 1 from order_lines limit 1`);
      if ((sold as unknown as { rows: unknown[] }).rows.length > 0)
        throw new Error(
          "This shop has orders, which name its products: a generated catalogue cannot replace it.",
        );
      // TRUNCATE wants every table that references products: order_lines is empty (checked above);
      // cart lines and reviews of products that are gone go with them.
      await tx.execute(
        sql`truncate products, product_options, product_variants, stock_levels, order_lines, cart_lines, reviews, review_helpful_votes restart identity`,
      );
    }
    // The synthetic products carry the demo's brands and categories.
    await insertDemoBrandsAndCategories(tx);
    for (let start = 0; start < count; start += batchSize) {
      const batch = nextBatch(nextProduct, Math.min(batchSize, count - start));
      await tx.execute(sql`
        insert into products (name, description, image, price_minor, ratings, band_name, category, creation_date)
        select * from unnest(
          ${sql.param(batch.names)}::text[],
          ${sql.param(batch.descriptions)}::text[],
          ${sql.param(batch.images)}::text[],
          ${sql.param(batch.prices)}::bigint[],
          ${sql.param(batch.ratings)}::numeric[],
          ${sql.param(batch.brands)}::text[],
          ${sql.param(batch.categories)}::text[],
          ${sql.param(batch.dates)}::timestamptz[]
        )`);
    }
    if (variants) await giveSyntheticVariants(tx);
  });
  // VACUUM refuses to run inside a transaction, so it comes after the commit.
  await db.execute(sql`vacuum analyze products`);
  if (variants) await db.execute(sql`vacuum analyze product_variants, product_options, stock_levels`);
  return { inserted: count };
}

interface SyntheticProduct {
  name: string;
  description: string;
  image: string;
  /** Decimal strings: exact money, no float rounding on the way in. */
  /** In cents: the generated shop sells in dollars. */
  priceMinor: number;
  ratings: string;
  bandName: string;
  category: string;
  creationDate: string;
}

function nextBatch(next: () => SyntheticProduct, size: number): CatalogBatch {
  const batch: CatalogBatch = {
    names: [],
    descriptions: [],
    images: [],
    prices: [],
    ratings: [],
    brands: [],
    categories: [],
    dates: [],
  };
  for (let i = 0; i < size; i++) {
    const product = next();
    batch.names.push(product.name);
    batch.descriptions.push(product.description);
    batch.images.push(product.image);
    batch.prices.push(product.priceMinor);
    batch.ratings.push(product.ratings);
    batch.brands.push(product.bandName);
    batch.categories.push(product.category);
    batch.dates.push(product.creationDate);
  }
  return batch;
}

const ONSETS = [
  "b",
  "br",
  "c",
  "cl",
  "d",
  "dr",
  "f",
  "g",
  "gr",
  "k",
  "l",
  "m",
  "n",
  "p",
  "pr",
  "r",
  "s",
  "st",
  "t",
  "tr",
  "v",
  "z",
];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "io", "ou"];
const CODAS = ["", "", "n", "r", "s", "l", "x", "nd", "rt", "st"];

/**
 * `size` distinct made-up words of three or four syllables ("veranto",
 * "klostaire"): pronounceable, so they lie as close to each other as a real
 * vocabulary's words do, which is what a search's close spellings must walk.
 */
function coinedWordList(size: number, seed = 7): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 3 + Math.floor(random() * 2);
    let word = "";
    for (let at = 0; at < syllables; at++) word += pick(ONSETS) + pick(VOWELS);
    words.add(word + pick(CODAS));
  }
  return [...words];
}

/** A generator of `count` products; call it once per product. */
function syntheticProducts(
  count: number,
  now: Date,
  seed: number,
  coinedWords: number,
): () => SyntheticProduct {
  const random = seededRandom(seed);
  const coined = coinedWordList(coinedWords);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const templates = DEMO_PRODUCTS.map((product) => ({
    product,
    image: demoProductImage(product.slug),
    // "BlendMaster Pro 900 Blender" → "Pro 900 Blender", to be re-branded.
    baseName: product.name.slice(brandLabel(product.bandName).length).trim(),
  }));
  const oldest = now.getTime() - CATALOG_AGE_DAYS * DAY_MS;
  const step = (CATALOG_AGE_DAYS * DAY_MS) / Math.max(count, 1);
  let index = 0;

  return () => {
    const template = pick(templates);
    // Mostly the template's own brand, sometimes another, so every brand meets every category.
    const bandName = random() < 0.75 ? template.product.bandName : pick(DEMO_BRANDS).value;
    const model = random() < 0.5 ? ` ${(1 + Math.floor(random() * 9)) * 100}` : "";
    const extra = random() < 0.6 ? ` ${pick(EXTRA_SENTENCES)}` : "";
    const modelName = coined.length > 0 ? ` Also sold as the ${coined[index % coined.length]}.` : "";
    const cents = 500 + Math.floor(random() * 19_501);
    // Most products are rated 3 to 5; a few are new and unrated.
    const ratings = random() < 0.05 ? 0 : Math.min(50, Math.round(30 + 20 * Math.sqrt(random())));
    // Evenly spread from two years ago to now (oldest first), with up to a day of jitter.
    const time = Math.min(now.getTime(), oldest + DAY_MS + index * step + random() * DAY_MS - DAY_MS / 2);
    index++;
    return {
      name: `${brandLabel(bandName)} ${template.baseName} ${pick(MODEL_WORDS)}${model}`,
      description: `${template.product.description}${extra}${modelName}`,
      image: template.image,
      priceMinor: cents,
      ratings: (ratings / 10).toFixed(1),
      bandName,
      category: template.product.category,
      creationDate: new Date(Math.round(time)).toISOString(),
    };
  };
}
