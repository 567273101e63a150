import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders } from "~/db/schema";
import { addToCart, readCart } from "~/features/cart/cart.server";
import { productForEditing } from "~/features/catalog/management/product-editing.server";
import { placeOrder } from "~/features/orders/place-order.server";
import { recordingMail } from "../support/recording-mailer";
import { onlyVariantOf, productInStock } from "../support/shop-context";
import { SHOPPER_ADDRESS } from "../support/shopper";
import { flatShippingSetup } from "../support/tax-setups";
import { openTestDatabases, type TestDatabase } from "../support/test-database";

/**
 * Amounts past 32 bits of cents ($21,474,836.47): the dearest price the shop
 * accepts (99,999,999.99, as the import, the back office and the API allow) and
 * the most of one line (99) of a $300,000 product. Each used to answer 500.
 */
const engines = await openTestDatabases();

describe.each(engines)("amounts past 32 bits of cents, on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const { queue: mail } = recordingMail(db);

  it("adds the dearest product to a cart and reads the cart's subtotal exactly", async () => {
    const yacht = await productInStock(engine, 3, 99_999_999.99);
    const shopper = { guestToken: randomUUID() };
    expect(await addToCart(db, shopper, { productId: yacht, quantity: 2 })).toMatchObject({
      outcome: "added",
    });
    const cart = await readCart(db, shopper);
    expect(cart.lines[0]).toMatchObject({ unitPriceCents: 9_999_999_999, lineTotalCents: 19_999_999_998 });
    expect(cart.subtotalCents).toBe(19_999_999_998);
  });

  it("shows the dearest product's price on its back-office page", async () => {
    const yacht = await productInStock(engine, 1, 99_999_999.99);
    expect((await productForEditing(db, yacht))?.priceCents).toBe(9_999_999_999);
  });

  it("places 99 of a $300,000 product and keeps every total to the cent", async () => {
    const house = await productInStock(engine, 99, 300_000);
    const placement = await placeOrder(mail, {
      idempotencyScope: "cart:large",
      idempotencyKey: randomUUID(),
      userId: null,
      email: "buyer@example.com",
      shippingAddress: SHOPPER_ADDRESS,
      shippingMethod: "standard",
      paymentMethod: "cash-on-delivery",
      setup: flatShippingSetup(499),
      currency: "USD",
      status: "placed",
      paymentDueAt: null,
      lines: [{ productId: house, variantId: await onlyVariantOf(db, house), quantity: 99 }],
      confirmation: (order) => ({
        kind: "order-confirmation",
        to: order.email,
        subject: order.number,
        text: "",
        html: "",
      }),
    });
    expect(placement.outcome).toBe("placed");
    const total = 99 * 30_000_000 + 499;
    if (placement.outcome !== "placed") return;
    expect(placement.order).toMatchObject({ subtotalCents: 2_970_000_000, totalCents: total });
    const [stored] = await db
      .select({ subtotal: orders.subtotalCents, total: orders.totalCents })
      .from(orders)
      .where(eq(orders.id, placement.order.id));
    expect(stored).toEqual({ subtotal: 2_970_000_000, total });
  });
});
