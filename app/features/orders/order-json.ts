import type { OrderStatus } from "~/commerce/order-states";
import { dollarsFromCents } from "~/utils/money";

interface LinesInCents {
  lines: {
    productId: number;
    name: string;
    unitPriceCents: number;
    quantity: number;
    lineTotalCents: number;
  }[];
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
}

interface OrderInCents extends LinesInCents {
  number: string;
  status: OrderStatus;
}

/** An order's lines and totals as the JSON API writes them: dollars with two decimals, every sum made in cents before. */
export function linesInDollars(order: LinesInCents) {
  return {
    lines: order.lines.map((line) => ({
      productId: line.productId,
      name: line.name,
      unitPrice: dollarsFromCents(line.unitPriceCents),
      quantity: line.quantity,
      lineTotal: dollarsFromCents(line.lineTotalCents),
    })),
    subtotal: dollarsFromCents(order.subtotalCents),
    shipping: dollarsFromCents(order.shippingCents),
    total: dollarsFromCents(order.totalCents),
  };
}

/**
 * An order as the JSON API writes it (the checkout's answer, GET
 * /api/orders/{number}): money in dollars with two decimals, every sum made
 * in cents before.
 */
export function orderInDollars(order: OrderInCents) {
  return { number: order.number, status: order.status, ...linesInDollars(order) };
}
