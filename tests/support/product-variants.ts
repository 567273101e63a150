import { eq } from "drizzle-orm";
import { writeProductVariants } from "~/commerce/variant-writing.server";
import { products } from "~/db/schema";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { productInStock } from "./shop-context";
import type { TestDatabase } from "./test-database";

interface VariantsAsked {
  options: { name: string; values: string[] }[];
  variants: { values: string[]; priceMinor: number; onHand: number }[];
}

/**
 * A product with options and its variants, written as the owner writes them (the variant writer):
 * SKUs `<product's SKU>-1`, `-2`, … in the order given. Its variants' ids come back in that order.
 */
export async function productWithVariants(
  engine: TestDatabase,
  asked: VariantsAsked,
): Promise<{ productId: number; sku: string; variantIds: number[] }> {
  const productId = await productInStock(engine, 0);
  const [product] = await engine.db
    .select({ sku: products.sku })
    .from(products)
    .where(eq(products.id, productId));
  const sku = (product as { sku: string }).sku;
  const written = await writeProductVariants(
    engine.db,
    productId,
    {
      options: asked.options.map((option) => ({
        name: option.name,
        values: option.values.map((value) => ({ value })),
      })),
      variants: asked.variants.map((variant, at) => ({ ...variant, sku: `${sku}-${at + 1}` })),
    },
    COMMAND_LINE,
  );
  if (!written.ok) throw new Error(`the variants were refused: ${written.message}`);
  return { productId, sku, variantIds: written.variantIds };
}
