import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { productOptions, productVariants, stockLevels } from "~/db/schema";

/**
 * A product's options and live variants with their stock, as its page and
 * `GET /api/products/{id}` show them: two small reads by the product's key
 * (the search index keeps one bit of stock per product, not its variants).
 */
export async function productVariantsOf(
  db: Pick<Database, "select">,
  productId: number,
): Promise<ProductVariants> {
  const read = await variantsOfProducts(db, [productId]);
  return read.get(productId) as ProductVariants;
}

/** Products read per pair of queries by variantsOfProducts. */
const BATCH = 5_000;

/**
 * The options and live variants of many products, by product id (each one asked is there, with
 * none for a product without options): what the catalogue's import compares and its export
 * writes, two queries per 5,000 products. The queries run in turn: `db` may be a transaction,
 * one connection.
 */
export async function variantsOfProducts(
  db: Pick<Database, "select">,
  productIds: readonly number[],
): Promise<Map<number, ProductVariants>> {
  const read = new Map<number, ProductVariants>();
  for (let start = 0; start < productIds.length; start += BATCH) {
    const ids = productIds.slice(start, start + BATCH);
    for (const id of ids) read.set(id, { options: [], variants: [] });
    const options = await db
      .select({
        productId: productOptions.productId,
        name: productOptions.name,
        values: productOptions.values,
      })
      .from(productOptions)
      .where(inArray(productOptions.productId, ids))
      .orderBy(asc(productOptions.productId), asc(productOptions.position));
    const variants = await db
      .select({
        productId: productVariants.productId,
        id: productVariants.id,
        sku: productVariants.sku,
        option1: productVariants.option1,
        option2: productVariants.option2,
        option3: productVariants.option3,
        priceMinor: productVariants.priceMinor,
        compareAtMinor: productVariants.compareAtMinor,
        weightGrams: productVariants.weightGrams,
        stock: stockLevels.onHand,
        image: productVariants.image,
      })
      .from(productVariants)
      .innerJoin(stockLevels, eq(stockLevels.variantId, productVariants.id))
      .where(and(inArray(productVariants.productId, ids), isNull(productVariants.archivedAt)))
      .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
    for (const { productId, ...option } of options) read.get(productId)?.options.push(option);
    for (const { productId, option1, option2, option3, ...variant } of variants) {
      const product = read.get(productId);
      if (!product) continue;
      // Options are read first: a variant has one value for each.
      const values = [option1, option2, option3].slice(0, product.options.length).map((value) => value ?? "");
      product.variants.push({ ...variant, values });
    }
  }
  return read;
}

export interface PageVariant {
  id: number;
  sku: string;
  /** One per option, in the options' order. */
  values: string[];
  priceMinor: number;
  compareAtMinor: number | null;
  weightGrams: number | null;
  stock: number;
  /** Its own picture, or null for the product's. */
  image: string | null;
}

export interface PageOption {
  name: string;
  values: { value: string; swatch?: string | undefined }[];
}

/** The product's options and live variants, as the page reads them. */
export interface ProductVariants {
  options: PageOption[];
  variants: PageVariant[];
}
