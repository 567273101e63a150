import { percentOf, type TaxAmount } from "~/commerce/checkout-quote";
import { decimalAmount, money } from "~/commerce/money";
import type { OrderStatus } from "~/commerce/order-states";

interface LinesInCents {
  lines: {
    productId: number;
    variantId: number;
    name: string;
    sku: string;
    options: Record<string, string>;
    unitPriceCents: number;
    quantity: number;
    lineTotalCents: number;
    taxCents: number;
  }[];
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  taxCents: number;
  taxes: TaxAmount[];
  pricesIncludeTax: boolean;
  /** What every amount is in (ISO 4217). */
  currency: string;
}

interface OrderInCents extends LinesInCents {
  number: string;
  status: OrderStatus;
}

/**
 * An order's lines and totals as the JSON API writes them: decimals of its
 * currency (12.5 for 12.50), with the currency beside them; every sum made in
 * whole minor units before.
 */
export function linesInDollars(order: LinesInCents) {
  const decimal = (minor: number) => decimalAmount(money(minor, order.currency));
  return {
    lines: order.lines.map((line) => ({
      productId: line.productId,
      variantId: line.variantId,
      name: line.name,
      sku: line.sku,
      options: line.options,
      unitPrice: decimal(line.unitPriceCents),
      quantity: line.quantity,
      lineTotal: decimal(line.lineTotalCents),
      tax: decimal(line.taxCents),
    })),
    subtotal: decimal(order.subtotalCents),
    shipping: decimal(order.shippingCents),
    tax: decimal(order.taxCents),
    taxes: order.taxes.map((tax) => ({
      name: tax.name,
      rate: percentOf(tax.rate),
      amount: decimal(tax.amount),
    })),
    taxIncluded: order.pricesIncludeTax,
    total: decimal(order.totalCents),
    currency: order.currency,
  };
}

/**
 * An order as the JSON API writes it (the checkout's answer, GET
 * /api/orders/{number}): money as decimals of its currency, every sum made in
 * whole minor units before.
 */
export function orderInDollars(order: OrderInCents) {
  return { number: order.number, status: order.status, ...linesInDollars(order) };
}
