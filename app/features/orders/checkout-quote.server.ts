import { and, asc, eq, isNull } from "drizzle-orm";
import { percentOf, type QuoteLine, quoteFor, quoteLineOf } from "~/commerce/checkout-quote";
import { type CurrencyCode, decimalAmount, money } from "~/commerce/money";
import type { TaxShippingSetup } from "~/commerce/tax-shipping-setup";
import type { Database } from "~/db/client.server";
import { cartLines, products, productVariants } from "~/db/schema";
import { apiError, parsedJsonBody } from "~/utils/http.server";
import { quoteAnswerSchema, quoteRequestSchema } from "./checkout-quote-schema";
import { quoteRefusalAt } from "./quote-refusal.server";

/**
 * POST /api/checkout/quote (issue 35): the visitor's cart at an address, as
 * the setup prices it (commerce/checkout-quote.ts) — each live line at
 * today's price with its product's tax class and its variant's weight.
 * Nothing is written; the checkout works out the same figures when it places.
 */

export interface QuoteCaller {
  db: Pick<Database, "select">;
  /** The visitor's cart, or null without one. */
  cartId: string | null;
  setup: TaxShippingSetup;
  currency: CurrencyCode;
}

/** The cart's live lines as a quote takes them, in the order they were added (the quote's API, the checkout page). */
export async function quoteLinesOf(db: Pick<Database, "select">, cartId: string): Promise<QuoteLine[]> {
  const rows = await db
    .select({
      lineId: cartLines.variantId,
      quantity: cartLines.quantity,
      unitPrice: productVariants.priceMinor,
      weightGrams: productVariants.weightGrams,
      taxClass: products.taxClass,
    })
    .from(cartLines)
    .innerJoin(productVariants, eq(productVariants.id, cartLines.variantId))
    .innerJoin(products, eq(products.id, cartLines.productId))
    .where(and(eq(cartLines.cartId, cartId), isNull(products.archivedAt), isNull(productVariants.archivedAt)))
    .orderBy(asc(cartLines.addedAt), asc(cartLines.variantId));
  return rows.map(quoteLineOf);
}

export async function quoteResponse(request: Request, caller: QuoteCaller): Promise<Response> {
  const body = await parsedJsonBody(
    request,
    quoteRequestSchema,
    "{ shippingAddress: { country, region? }, shippingMethod? }",
  );
  if (!body.ok) return body.response;
  const lines = caller.cartId ? await quoteLinesOf(caller.db, caller.cartId) : [];
  if (lines.length === 0) {
    return apiError(409, { code: "cart_empty", message: "Your cart is empty: add a product first." });
  }
  const destination = body.value.shippingAddress;
  const answer = quoteFor(caller.setup, lines, destination, body.value.shippingMethod);
  if (!answer.ok) return apiError(422, quoteRefusalAt(answer.refusal, destination));
  const { quote } = answer;
  const amount = (minor: number) => decimalAmount(money(minor, caller.currency));
  return Response.json(
    quoteAnswerSchema.parse({
      currency: caller.currency,
      lines: quote.lines.map((line) => ({
        lineId: line.lineId,
        total: amount(line.total),
        tax: amount(line.tax),
      })),
      subtotal: amount(quote.subtotal),
      shippingMethods: quote.shippingMethods.map((method) => ({ ...method, price: amount(method.price) })),
      shippingMethod: quote.shippingMethod.id,
      shipping: amount(quote.shipping),
      taxes: quote.taxes.map((tax) => ({
        name: tax.name,
        rate: percentOf(tax.rate),
        amount: amount(tax.amount),
      })),
      taxIncluded: quote.taxIncluded,
      total: amount(quote.total),
    }),
    { headers: { "Cache-Control": "no-store" } },
  );
}
