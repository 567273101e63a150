import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { taxShippingSetupSchema } from "~/commerce/tax-shipping-setup";
import { orderLines, orders, products, stockLevels } from "~/db/schema";
import { recordingMail } from "../../../tests/support/recording-mailer";
import { onlyVariantOf, productInStock } from "../../../tests/support/shop-context";
import { germanShopDocument, PARIS_ADDRESS } from "../../../tests/support/tax-setups";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { type OrderRequest, placeOrder } from "./place-order.server";

/**
 * An order charged the quote of the shop's tax and shipping setup (issue 35):
 * what it keeps — each line's tax, the taxes by rate, the method's name — and
 * what it refuses, placing nothing.
 */

const engines = await openTestDatabases();

const german = (outside: "no-tax" | "refuse" = "no-tax") =>
  taxShippingSetupSchema("EUR").parse(germanShopDocument(outside));

/** A shop in Ohio's way: sales tax added to prices, Ohio's rate for Ohio, none elsewhere in the US. */
const ohio = taxShippingSetupSchema("USD").parse({
  pricesIncludeTax: false,
  outsideTaxZones: "no-tax",
  taxZones: [{ name: "Ohio", areas: ["US-OH"], rate: 5.75, taxShipping: false }],
  shippingZones: [
    { name: "US", areas: ["US"], methods: [{ id: "ground", name: "Ground", estimate: "3-5 days", flat: 5 }] },
  ],
});

const COLUMBUS = {
  name: "Ada Shopper",
  line1: "1 High Street",
  city: "Columbus",
  postalCode: "43215",
  country: "US",
  region: "US-OH",
};

describe.each(engines)("an order's taxes on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const { queue: mail } = recordingMail(db);

  const line = async (quantity: number, price: number, taxClass: string | null = null) => {
    const productId = await productInStock(engine, 10, price);
    if (taxClass) await db.update(products).set({ taxClass }).where(eq(products.id, productId));
    return { productId, variantId: await onlyVariantOf(db, productId), quantity };
  };

  const request = (changes: Partial<OrderRequest>): OrderRequest => ({
    idempotencyScope: "cart:taxes",
    idempotencyKey: randomUUID(),
    userId: null,
    email: "shopper@example.com",
    shippingAddress: PARIS_ADDRESS,
    shippingMethod: "standard",
    paymentMethod: "bank-transfer",
    setup: german(),
    currency: "EUR",
    status: "placed",
    paymentDueAt: null,
    confirmation: null,
    ...changes,
  });

  it("keeps each line's tax and each rate's sum where prices include tax (a German shop's French buyer)", async () => {
    const kettle = await line(2, 19.99);
    const tea = await line(3, 0.1, "reduced");
    const placement = await placeOrder(mail, request({ lines: [kettle, tea] }));
    if (placement.outcome !== "placed") throw new Error(`not placed: ${placement.outcome}`);
    // 39.98 at France's 20 % contains 6.66; 0.30 at its reduced 5.5 % contains 0.02; shipping 4.90 contains 0.82.
    expect(placement.order).toMatchObject({
      subtotalCents: 4028,
      shippingCents: 490,
      shippingMethodName: "Standard",
      totalCents: 4518,
      taxCents: 750,
      pricesIncludeTax: true,
      taxes: [
        { name: "France", rate: 200_000, amount: 748 },
        { name: "France (reduced)", rate: 55_000, amount: 2 },
      ],
    });
    const [row] = await db.select().from(orders).where(eq(orders.id, placement.order.id));
    expect(row).toMatchObject({ taxCents: 750, pricesIncludeTax: true, totalCents: 4518 });
    expect(row?.taxes).toEqual(placement.order.taxes);
    const lines = await db
      .select({ variantId: orderLines.variantId, taxCents: orderLines.taxCents })
      .from(orderLines)
      .where(eq(orderLines.orderId, placement.order.id));
    expect(lines).toEqual(
      expect.arrayContaining([
        { variantId: kettle.variantId, taxCents: 666 },
        { variantId: tea.variantId, taxCents: 2 },
      ]),
    );
  });

  it("adds the tax to the total where prices exclude it, and a replay answers the same figures", async () => {
    const kettle = await line(2, 19.99);
    const asked = request({
      setup: ohio,
      currency: "USD",
      shippingAddress: COLUMBUS,
      shippingMethod: "ground",
      lines: [kettle],
    });
    const placed = await placeOrder(mail, asked);
    // 39.98 × 5.75 % = 2.29885, 2.30; shipping is not taxed in Ohio's zone.
    expect(placed).toMatchObject({
      outcome: "placed",
      order: {
        subtotalCents: 3998,
        shippingCents: 500,
        taxCents: 230,
        totalCents: 4728,
        pricesIncludeTax: false,
      },
    });
    const replayed = await placeOrder(mail, asked);
    expect(replayed).toMatchObject({ outcome: "placed", replayed: true });
    if (placed.outcome !== "placed" || replayed.outcome !== "placed") return;
    expect(replayed.order).toEqual(placed.order);
  });

  it("places nothing where the shop does not ship, does not sell, or not by that method", async () => {
    const kettle = await line(1, 19.99);
    const onHand = async () =>
      (await db.select().from(stockLevels).where(eq(stockLevels.variantId, kettle.variantId)))[0]?.onHand;
    const refused = [
      // Shipped to (the EU zone lists Austria), but a shop that refuses outside its tax zones does not sell there.
      await placeOrder(
        mail,
        request({
          setup: german("refuse"),
          shippingAddress: { ...PARIS_ADDRESS, country: "AT" },
          lines: [kettle],
        }),
      ),
      await placeOrder(mail, request({ shippingAddress: COLUMBUS, lines: [kettle] })),
      await placeOrder(mail, request({ shippingMethod: "ground", lines: [kettle] })),
    ];
    expect(refused).toEqual([
      { outcome: "not-quoted", refusal: "not-taxed" },
      { outcome: "not-quoted", refusal: "not-shipped" },
      { outcome: "not-quoted", refusal: "unknown-method" },
    ]);
    expect(await onHand()).toBe(10);
    const key = randomUUID();
    await placeOrder(mail, request({ idempotencyKey: key, shippingAddress: COLUMBUS, lines: [kettle] }));
    // The key's claim rolled back with the rest: the same key to an address the shop ships to places the order.
    expect(await placeOrder(mail, request({ idempotencyKey: key, lines: [kettle] }))).toMatchObject({
      outcome: "placed",
      replayed: false,
    });
  });
});

reportPostgresSkipped("an order's taxes on $name");
