import { quoteFor, quoteLineOf } from "~/commerce/checkout-quote";
import type { OrderRequest, OrderTaxes, PlacedOrderLine } from "./place-order.server";

/** A line at today's price, with what its quote needs: its product's tax class, its variant's weight. */
export type PricedLine = Omit<PlacedOrderLine, "taxCents"> & {
  taxClass: string | null;
  weightGrams: number | null;
};

/**
 * What the order is charged at its address: the setup's quote for its lines
 * (commerce/checkout-quote.ts), each line with its tax; or why there is none.
 */
export function chargedAtAddress(
  request: Pick<OrderRequest, "setup" | "shippingAddress" | "shippingMethod">,
  priced: readonly PricedLine[],
) {
  const { country, region } = request.shippingAddress;
  const answer = quoteFor(
    request.setup,
    priced.map((line) => quoteLineOf({ ...line, lineId: line.variantId, unitPrice: line.unitPriceCents })),
    { country, region },
    request.shippingMethod,
  );
  if (!answer.ok) return answer;
  const { quote } = answer;
  const taxOfLine = new Map(quote.lines.map((line) => [line.lineId, line.tax]));
  const soldLines: PlacedOrderLine[] = priced.map(({ taxClass, weightGrams, ...line }) => ({
    ...line,
    taxCents: taxOfLine.get(line.variantId) ?? 0,
  }));
  const taxes: OrderTaxes = {
    taxCents: quote.tax,
    taxes: quote.taxes,
    pricesIncludeTax: quote.taxIncluded,
  };
  return {
    ok: true as const,
    order: {
      soldLines,
      subtotalCents: quote.subtotal,
      shippingCents: quote.shipping,
      shippingMethodName: quote.shippingMethod.name,
      totalCents: quote.total,
      taxes,
    },
  };
}
