import { and, asc, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { productOptions, productVariants, stockLevels } from "~/db/schema";

/**
 * A product's options and live variants with their stock, as its page and
 * `GET /api/products/{id}` show them: two small reads by the product's key
 * (the search index keeps one bit of stock per product, not its variants).
 */
export async function productVariantsOf(db: Database, productId: number): Promise<ProductVariants> {
  const [options, variants] = await Promise.all([
    db
      .select({ name: productOptions.name, values: productOptions.values })
      .from(productOptions)
      .where(eq(productOptions.productId, productId))
      .orderBy(asc(productOptions.position)),
    db
      .select({
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
      .where(and(eq(productVariants.productId, productId), isNull(productVariants.archivedAt)))
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
  ]);
  return {
    options,
    variants: variants.map(({ option1, option2, option3, ...variant }) => ({
      ...variant,
      values: [option1, option2, option3].slice(0, options.length).map((value) => value ?? ""),
    })),
  };
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
