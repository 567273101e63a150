import { sql } from "drizzle-orm";
import { minorAtMost } from "~/commerce/money";
import { shopMoney } from "~/commerce/shop-money.server";
import { writeVariantsIn } from "~/commerce/variant-writing.server";
import { productVariantsSchema } from "~/commerce/variants-schema";
import type { Database, Transaction } from "../client.server";
import { brands, categories, type NewProductRow, products, stockLevels } from "../schema";
import { DEMO_BRANDS, DEMO_CATEGORIES } from "./demo-brands-and-categories";
import { DEMO_PRODUCTS, type DemoProduct } from "./demo-catalog";
import { insertDemoReviews } from "./demo-review-rows.server";
import { DEMO_VARIANTS, demoVariantSku } from "./demo-variants";
import productImages from "./product-images.generated.json";

const DAY_MS = 24 * 60 * 60 * 1000;

// Any fixed number shared by every Backline process (the migration lock is
// 4_207_001): it makes two processes seeding one PostgreSQL take turns.
const SEED_LOCK_KEY = 4_207_002;

const IMAGES: Readonly<Record<string, string>> = productImages;

/** The URL of a demo product's picture; fails loudly if the pictures were not regenerated. */
export function demoProductImage(slug: string): string {
  const image = IMAGES[slug];
  if (!image) {
    throw new Error(
      `No picture for demo product "${slug}": run \`npm run db:generate-images\` and commit the result.`,
    );
  }
  return image;
}

function demoProductRow(product: DemoProduct, now: Date): NewProductRow {
  return {
    // The demo's own keys: an export of the demo catalogue names its products by them.
    sku: product.slug,
    name: product.name,
    description: product.description,
    image: demoProductImage(product.slug),
    // The demo's prices are written as amounts (189.99): in the shop's currency, to its minor unit.
    priceMinor: minorAtMost(product.price, shopMoney().currency),
    ratings: product.ratings,
    bandName: product.bandName,
    category: product.category,
    creationDate: new Date(now.getTime() - product.daysAgo * DAY_MS),
  };
}

/**
 * The demo's stock by a product's place in the catalogue (oldest first): most
 * in good supply, four nearly gone (1 to 3 left) and three sold out, so every
 * stock state shows in the shop.
 */
function demoStock(position: number): number {
  if (position % 20 === 7) return 0;
  if (position % 20 === 3) return 1 + (position % 3);
  return 8 + ((position * 13) % 40);
}

/**
 * The demo's five brands and five categories, in the specification's order,
 * unless they are there already (an owner may have relabelled them).
 */
export async function insertDemoBrandsAndCategories(db: Pick<Database, "insert">): Promise<void> {
  const rows = (values: readonly { value: string; label: string }[]) =>
    values.map(({ value, label }, index) => ({ value, label, position: index + 1 }));
  await db.insert(brands).values(rows(DEMO_BRANDS)).onConflictDoNothing();
  await db.insert(categories).values(rows(DEMO_CATEGORIES)).onConflictDoNothing();
}

/** The demo products in sizes and colours get their variants, as the owner's form writes them. */
async function writeDemoVariants(tx: Transaction, idOf: Map<string, number>): Promise<void> {
  const { currency } = shopMoney();
  for (const demo of DEMO_VARIANTS) {
    const productId = idOf.get(demo.slug);
    if (productId === undefined) continue;
    const asked = productVariantsSchema.parse({
      options: demo.options,
      variants: demo.variants.map((variant) => ({
        values: variant.values,
        sku: demoVariantSku(demo.slug, variant.values),
        priceMinor: minorAtMost(variant.price, currency),
        compareAtMinor: variant.compareAt === undefined ? null : minorAtMost(variant.compareAt, currency),
        onHand: variant.onHand,
      })),
    });
    await writeVariantsIn(tx, productId, asked, null);
  }
}

/**
 * Loads the demo catalogue into an empty products table; does nothing when
 * the shop already has products (a shop owner's catalogue is never touched).
 * Safe when several processes start at once against one PostgreSQL: they
 * take turns on an advisory lock and re-check emptiness inside it.
 */
export async function seedDemoCatalog(db: Database, now = new Date()): Promise<{ inserted: number }> {
  // Oldest first, so ids grow with creation dates as they would in a real shop.
  const rows = [...DEMO_PRODUCTS]
    .sort((a, b) => b.daysAgo - a.daysAgo)
    .map((product) => demoProductRow(product, now));

  const inserted = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    const existing = await tx.select({ id: products.id }).from(products).limit(1);
    if (existing.length > 0) return 0;
    await insertDemoBrandsAndCategories(tx);
    const added = await tx.insert(products).values(rows).returning({ id: products.id, sku: products.sku });
    const position = new Map(rows.map((row, at) => [row.sku, at]));
    // Each demo product is one variant, its stock row made at 0 with it (drizzle/0021, 0022).
    const ids = added.map(({ id }) => id);
    const counts = added.map(({ sku }) => demoStock(position.get(sku) ?? 0));
    await tx.execute(sql`
      update ${stockLevels} set on_hand = given.on_hand
        from unnest(${sql.param(ids)}::int[], ${sql.param(counts)}::int[]) as given(product_id, on_hand)
       where ${stockLevels.productId} = given.product_id`);
    const idOf = new Map(added.map(({ id, sku }) => [sku, id]));
    await writeDemoVariants(tx, idOf);
    await insertDemoReviews(
      tx,
      rows.map((row) => ({ ...row, id: idOf.get(row.sku ?? "") as number })),
      now,
    );
    return rows.length;
  });
  // Fresh statistics, so the planner picks the catalogue's indexes right away.
  if (inserted > 0) await db.execute(sql`analyze products, brands, categories`);
  return { inserted };
}
