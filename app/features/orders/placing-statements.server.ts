import { sql } from "drizzle-orm";
import type { OrderStatus } from "~/commerce/order-states";
import { variantOptions } from "~/commerce/variant-options.server";
import { fixedStatement } from "~/db/fixed-statement.server";
import { cartLines, carts, orderLines, orders, products, productVariants } from "~/db/schema";

/**
 * The statements of placing an order (place-order.server.ts), each built once
 * (docs/decisions/0047): they run on every checkout.
 */

/** The key claimed with the order's row, its totals written once its lines are known; no row when the key was used. */
export const claimKey = fixedStatement<
  { id: number },
  | "number"
  | "scope"
  | "key"
  | "requestHash"
  | "userId"
  | "email"
  | "address"
  | "shippingMethod"
  | "paymentMethod"
  | "status"
  | "paymentDueAt"
  | "currency"
>(
  (value) => sql`
    insert into ${orders} (number, idempotency_scope, idempotency_key, request_hash, user_id, email,
                           shipping_address, shipping_method, payment_method, status, payment_due_at,
                           subtotal_cents, shipping_cents, total_cents, currency)
    values (${value("number")}, ${value("scope")}, ${value("key")}, ${value("requestHash")}, ${value("userId")},
            ${value("email")}, ${value("address")}, ${value("shippingMethod")}, ${value("paymentMethod")},
            ${value("status")}, ${value("paymentDueAt")}, 0, 0, 0, ${value("currency")})
    on conflict (idempotency_scope, idempotency_key) do nothing
    returning ${orders.id} as "id"`,
  { numbers: ["id"] },
);

/** The cart's row locked: a second checkout of it waits here until this one ends. */
export const lockCart = fixedStatement<{ id: string }, "cartId">(
  (value) => sql`select ${carts.id} as "id" from ${carts} where ${carts.id} = ${value("cartId")} for update`,
);

export const cartLinesOf = fixedStatement<
  { productId: number; variantId: number; quantity: number },
  "cartId"
>(
  (value) => sql`
    select ${cartLines.productId} as "productId", ${cartLines.variantId} as "variantId",
           ${cartLines.quantity} as "quantity"
      from ${cartLines} where ${cartLines.cartId} = ${value("cartId")}`,
);

/** What each variant sells as now: its product's name, its SKU, option values, price, tax class and weight. */
export const variantsNow = fixedStatement<
  {
    variantId: number;
    productId: number;
    name: string;
    sku: string;
    options: Record<string, string>;
    unitPriceCents: number;
    taxClass: string | null;
    weightGrams: number | null;
  },
  "variantIds"
>(
  (value) => sql`
    select v.id as "variantId", v.product_id as "productId", ${products.name} as "name", v.sku as "sku",
           ${variantOptions(sql`v`)} as "options", v.price_minor as "unitPriceCents",
           ${products.taxClass} as "taxClass", v.weight_grams as "weightGrams"
      from ${productVariants} v join ${products} on ${products.id} = v.product_id
     where v.id = any(${value("variantIds")}::int[])`,
  { numbers: ["unitPriceCents"] },
);

/** Every line in one statement, column by column. */
export const writeLines = fixedStatement<
  never,
  | "orderId"
  | "productIds"
  | "variantIds"
  | "names"
  | "skus"
  | "options"
  | "unitPrices"
  | "quantities"
  | "lineTotals"
  | "lineTaxes"
>(
  (value) => sql`
    insert into ${orderLines} (order_id, product_id, variant_id, name, sku, options, unit_price_cents, quantity,
                               line_total_cents, tax_cents)
    select ${value("orderId")}, line.*
      from unnest(${value("productIds")}::int[], ${value("variantIds")}::int[], ${value("names")}::text[],
                  ${value("skus")}::text[], ${value("options")}::jsonb[], ${value("unitPrices")}::bigint[],
                  ${value("quantities")}::int[], ${value("lineTotals")}::bigint[],
                  ${value("lineTaxes")}::bigint[]) as line`,
);

export const emptyCart = fixedStatement<never, "cartId">(
  (value) => sql`delete from ${cartLines} where ${cartLines.cartId} = ${value("cartId")}`,
);

export const writeTotals = fixedStatement<
  { number: string; status: OrderStatus; totalCents: number },
  "orderId" | "subtotal" | "shipping" | "total" | "tax" | "taxes" | "pricesIncludeTax" | "methodName"
>(
  (value) => sql`
    update ${orders} set subtotal_cents = ${value("subtotal")}, shipping_cents = ${value("shipping")},
                         total_cents = ${value("total")}, tax_cents = ${value("tax")},
                         taxes = ${value("taxes")}::jsonb, prices_include_tax = ${value("pricesIncludeTax")},
                         shipping_method_name = ${value("methodName")}
     where ${orders.id} = ${value("orderId")}
    returning ${orders.number} as "number", ${orders.status} as "status", ${orders.totalCents} as "totalCents"`,
  { numbers: ["totalCents"] },
);
