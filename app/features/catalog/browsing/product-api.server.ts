import { decimalAmount, money } from "~/commerce/money";
import { amountSchema, currencySchema } from "~/commerce/money-schema";
import { shopMoney } from "~/commerce/shop-money.server";
import type { Database } from "~/db/client.server";
import { apiError } from "~/utils/http.server";
import { z } from "~/utils/zod";
import { productVariantsOf } from "../core/product-variants.server";
import type { Catalog } from "./catalog.server";
import { unlessUnavailable } from "./catalog-api.server";

/**
 * `GET /api/products/{id}`: one product on sale with its options and live
 * variants, each with its SKU, price, "was" price, stock, weight and
 * picture (docs/decisions/0045). Reviews and ratings are the product's.
 */

/** The largest id there can be (a PostgreSQL integer): past it, no product, and a 400. */
const productIdSchema = z.coerce.number().int().positive().max(2_147_483_647);

export const productAnswerSchema = z.object({
  id: z.number().int(),
  name: z.answerString(),
  description: z.answerString(),
  bandName: z.answerString().describe("Its brand's value, as `/all-products`' `band` takes it."),
  category: z.answerString(),
  ratings: z.number().min(0).max(5),
  ratingCount: z.number().int().min(0),
  options: z
    .array(z.object({ name: z.answerString(), values: z.array(z.answerString()) }))
    .describe(
      "Its options in order (`Size`, `Colour`), each with its values in the owner's order; empty without options.",
    ),
  variants: z
    .array(
      z.object({
        id: z.number().int().describe("What `POST /api/cart/lines` takes as `variantId`."),
        sku: z.answerString(),
        options: z
          .record(z.string(), z.answerString())
          .describe('Its value of each option (`{ "Size": "M" }`).'),
        price: amountSchema(),
        compareAtPrice: amountSchema()
          .nullable()
          .describe("The “was” price, above `price`, when it is on sale."),
        stock: z.number().int().min(0),
        weightGrams: z.number().int().min(0).nullable(),
        image: z.answerString().nullable().describe("Its own picture; null shows the product's."),
      }),
    )
    .describe("Its variants on sale, in the owner's order: one for a product without options."),
  currency: currencySchema,
});

/** The product's JSON, or the error answer: 400 for an id that is none, 404 for no product on sale, 503 unread. */
export async function productApiResponse(
  catalog: Catalog,
  db: Database,
  idText: string | undefined,
): Promise<Response> {
  const id = productIdSchema.safeParse(idText);
  if (!id.success) {
    return apiError(400, { code: "invalid_parameter", message: "id must be a product's id.", field: "id" });
  }
  const found = await unlessUnavailable(catalog.product(id.data));
  const variants = found?.value ? await unlessUnavailable(productVariantsOf(db, id.data)) : null;
  if (found === null || (found.value && variants === null)) {
    return apiError(
      503,
      { code: "catalog_unavailable", message: "The catalogue cannot be read right now." },
      { "Retry-After": "5" },
    );
  }
  const product = found.value;
  if (!product || !variants || variants.variants.length === 0) {
    return apiError(404, { code: "unknown_product", message: "There is no such product.", field: "id" });
  }
  const { currency } = shopMoney();
  const decimal = (minor: number) => decimalAmount(money(minor, currency));
  const answer = productAnswerSchema.parse({
    id: product.id,
    name: product.name,
    description: product.description,
    bandName: product.bandName,
    category: product.category,
    ratings: product.ratings,
    ratingCount: product.ratingCount,
    options: variants.options.map((option) => ({
      name: option.name,
      values: option.values.map((value) => value.value),
    })),
    variants: variants.variants.map((variant) => ({
      id: variant.id,
      sku: variant.sku,
      options: Object.fromEntries(variants.options.map((option, at) => [option.name, variant.values[at]])),
      price: decimal(variant.priceMinor),
      compareAtPrice: variant.compareAtMinor === null ? null : decimal(variant.compareAtMinor),
      stock: variant.stock,
      weightGrams: variant.weightGrams,
      image: variant.image,
    })),
    currency,
  });
  // Stock changes with every sale: answered fresh, as the cart is.
  return Response.json(answer, { headers: { "Cache-Control": "no-store" } });
}
