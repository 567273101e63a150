import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { writeProductVariants, writeVariantsIn } from "~/commerce/variant-writing.server";
import { productVariantsSchema } from "~/commerce/variants-schema";
import { cartLines, carts, mailQueue, orderLines, orders, products, stockLevels } from "~/db/schema";
import { COMMAND_LINE } from "~/utils/audit-log.server";
import { productWithVariants } from "../../../tests/support/product-variants";
import { racingCheckouts } from "../../../tests/support/racing-checkouts";
import { recordingMail } from "../../../tests/support/recording-mailer";
import { onlyVariantOf, productInStock } from "../../../tests/support/shop-context";
import { SHOPPER_ADDRESS } from "../../../tests/support/shopper";
import { flatShippingSetup } from "../../../tests/support/tax-setups";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { isOrderNumber } from "./order-number";
import { type OrderRequest, type Placement, placeOrder } from "./place-order.server";

const engines = await openTestDatabases();

/** Each test product's one variant, by the product's id: what a line of it orders. */
const variantOf = new Map<number, number>();

const request = (lines: { productId: number; quantity: number }[], key = randomUUID()): OrderRequest => ({
  idempotencyScope: "cart:test",
  idempotencyKey: key,
  userId: null,
  email: "shopper@example.com",
  shippingAddress: SHOPPER_ADDRESS,
  shippingMethod: "standard",
  paymentMethod: "cash-on-delivery",
  setup: flatShippingSetup(499),
  currency: "USD",
  status: "placed",
  paymentDueAt: null,
  lines: lines.map((line) => ({ ...line, variantId: variantOf.get(line.productId) ?? 0 })),
  // The message names its order, so a test can count each order's emails.
  confirmation: (order) => ({
    kind: "order-confirmation",
    to: order.email,
    subject: order.number,
    text: `Order ${order.number}`,
    html: `<p>Order ${order.number}</p>`,
  }),
});

const outcomes = (placements: Placement[]) =>
  placements.reduce<Record<string, number>>((counts, placement) => {
    counts[placement.outcome] = (counts[placement.outcome] ?? 0) + 1;
    return counts;
  }, {});

describe.each(engines)("placing orders on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const { queue: mail } = recordingMail(db);

  const product = async (onHand: number, price = 19.99) => {
    const id = await productInStock(engine, onHand, price);
    variantOf.set(id, await onlyVariantOf(db, id));
    return id;
  };

  const onHand = async (id: number) =>
    (
      await db.select({ onHand: stockLevels.onHand }).from(stockLevels).where(eq(stockLevels.productId, id))
    )[0]?.onHand;

  const ordersNaming = async (id: number) =>
    Number(
      (
        await db.select({ count: sql<number>`count(*)` }).from(orderLines).where(eq(orderLines.productId, id))
      )[0]?.count,
    );

  it("gives every new product a stock level, starting at 0", async () => {
    await product(1); // its brand and category
    const [row] = await db
      .insert(products)
      .values({
        name: "Uncounted lamp",
        description: "Nobody has counted these yet.",
        image: "/images/products/lamp.webp",
        priceMinor: 1000,
        ratings: 0,
        bandName: "blendMaster",
        category: "home goods",
        creationDate: new Date(),
      })
      .returning({ id: products.id });
    expect(await onHand((row as { id: number }).id)).toBe(0);
  });

  it("takes the stock and writes the order with its lines at today's prices, in whole cents", async () => {
    const kettle = await product(5, 19.99);
    const cup = await product(10, 0.1);
    const placement = await placeOrder(
      mail,
      request([
        { productId: kettle, quantity: 2 },
        { productId: cup, quantity: 3 },
      ]),
    );
    expect(placement.outcome).toBe("placed");
    if (placement.outcome !== "placed") return;
    expect(isOrderNumber(placement.order.number)).toBe(true);
    expect(placement.order).toMatchObject({
      status: "placed",
      subtotalCents: 2 * 1999 + 3 * 10,
      shippingCents: 499,
      totalCents: 2 * 1999 + 3 * 10 + 499,
    });
    expect(
      placement.order.lines.map(({ productId, unitPriceCents, quantity, lineTotalCents }) => ({
        productId,
        unitPriceCents,
        quantity,
        lineTotalCents,
      })),
    ).toEqual([
      { productId: kettle, unitPriceCents: 1999, quantity: 2, lineTotalCents: 3998 },
      { productId: cup, unitPriceCents: 10, quantity: 3, lineTotalCents: 30 },
    ]);
    expect([await onHand(kettle), await onHand(cup)]).toEqual([3, 7]);
  });

  it("takes nothing when one line is short, and names each short line with what is left", async () => {
    const scarce = await product(2);
    const plenty = await product(50);
    const key = randomUUID();
    const placement = await placeOrder(
      mail,
      request(
        [
          { productId: plenty, quantity: 4 },
          { productId: scarce, quantity: 3 },
        ],
        key,
      ),
    );
    expect(placement).toEqual({
      outcome: "short",
      lines: [{ productId: scarce, variantId: variantOf.get(scarce), asked: 3, left: 2 }],
    });
    expect([await onHand(scarce), await onHand(plenty)]).toEqual([2, 50]);
    expect(await db.select().from(orders).where(eq(orders.idempotencyKey, key))).toEqual([]);
  });

  it("takes every line or none: a basket of three with one short and one archived names both, in product order", async () => {
    const plenty = await product(50);
    const scarce = await product(1);
    const archived = await product(30);
    await db.update(products).set({ archivedAt: new Date() }).where(eq(products.id, archived));
    const placement = await placeOrder(
      mail,
      request([
        { productId: archived, quantity: 2 },
        { productId: scarce, quantity: 2 },
        { productId: plenty, quantity: 5 },
      ]),
    );
    expect(placement).toEqual({
      outcome: "short",
      lines: [
        { productId: scarce, variantId: variantOf.get(scarce), asked: 2, left: 1 },
        { productId: archived, variantId: variantOf.get(archived), asked: 2, left: 0 },
      ],
    });
    expect([await onHand(plenty), await onHand(scarce), await onHand(archived)]).toEqual([50, 1, 30]);
  });

  it("200 checkouts at once of two variants with 5 left each: 10 orders, both at 0, their sibling untouched", async () => {
    const shirt = await productWithVariants(engine, {
      options: [{ name: "Size", values: ["S", "M", "L"] }],
      variants: [
        { values: ["S"], priceMinor: 1500, onHand: 5 },
        { values: ["M"], priceMinor: 1500, onHand: 5 },
        { values: ["L"], priceMinor: 1700, onHand: 40 },
      ],
    });
    const [small, medium, large] = shirt.variantIds as [number, number, number];
    const sizeOf = (at: number) => (at % 2 === 0 ? small : medium);
    const placements = await Promise.all(
      Array.from({ length: 200 }, (_, at) =>
        placeOrder(mail, {
          ...request([]),
          lines: [{ productId: shirt.productId, variantId: sizeOf(at), quantity: 1 }],
        }),
      ),
    );
    expect(outcomes(placements)).toEqual({ placed: 10, short: 190 });
    const placedSizes = placements.flatMap((placement) =>
      placement.outcome === "placed" ? placement.order.lines.map((line) => line.options.Size) : [],
    );
    expect(placedSizes.sort()).toEqual(["M", "M", "M", "M", "M", "S", "S", "S", "S", "S"]);
    const levels = await db
      .select({ variantId: stockLevels.variantId, onHand: stockLevels.onHand })
      .from(stockLevels)
      .where(eq(stockLevels.productId, shirt.productId))
      .orderBy(stockLevels.variantId);
    expect(levels).toEqual([
      { variantId: small, onHand: 0 },
      { variantId: medium, onHand: 0 },
      { variantId: large, onHand: 40 },
    ]);
    const sold = await db
      .select({ variantId: orderLines.variantId, sku: orderLines.sku, options: orderLines.options })
      .from(orderLines)
      .where(eq(orderLines.variantId, small));
    expect(sold).toHaveLength(5);
    expect(sold[0]).toEqual({ variantId: small, sku: `${shirt.sku}-1`, options: { Size: "S" } });
  });

  it("restocks and archives variants while 60 checkouts take a sibling's last units: no deadlock, exact books", async () => {
    const productId = await productInStock(engine, 0);
    const prefix = randomUUID().slice(0, 8);
    const sizes = [{ name: "Size", values: [{ value: "S" }, { value: "M" }, { value: "L" }] }];
    const asked = (large: number, withLarge = true) =>
      productVariantsSchema.parse({
        options: sizes,
        variants: [
          { values: ["S"], sku: `${prefix}-S`, priceMinor: 1000 },
          { values: ["M"], sku: `${prefix}-M`, priceMinor: 1000 },
          ...(withLarge ? [{ values: ["L"], sku: `${prefix}-L`, priceMinor: 1100, onHand: large }] : []),
        ],
      });
    const first = await writeProductVariants(db, productId, asked(5), COMMAND_LINE);
    if (!first.ok) throw new Error(first.message);
    const [small] = first.variantIds as [number];
    await db.update(stockLevels).set({ onHand: 10 }).where(eq(stockLevels.variantId, small));
    const checkouts = racingCheckouts(mail, {
      count: 60,
      key: prefix,
      lines: [{ productId, variantId: small, quantity: 1 }],
    });
    // The owner saves the table again and again meanwhile: L restocked, archived, brought back. Each
    // in one transaction, not retried: a lock cycle would fail it here.
    const writes = [asked(7), asked(0, false), asked(9), asked(3)].map((each) =>
      db.transaction((tx) => writeVariantsIn(tx, productId, each, COMMAND_LINE)),
    );
    const [placements] = await Promise.all([checkouts.placements, Promise.all(writes)]);
    expect(checkouts.attempts()).toBe(60);
    expect(placements.filter((placement) => placement.outcome === "placed")).toHaveLength(10);
    expect(placements.filter((placement) => placement.outcome === "short")).toHaveLength(50);
    const [level] = await db.select().from(stockLevels).where(eq(stockLevels.variantId, small));
    expect(level?.onHand).toBe(0);
    const sold = await db.select().from(orderLines).where(eq(orderLines.variantId, small));
    expect(sold).toHaveLength(10);
  });

  it("200 checkouts at once for the last 10 units: exactly 10 orders, stock 0, 190 told it is short", async () => {
    const last = await product(10);
    const placements = await Promise.all(
      Array.from({ length: 200 }, () => placeOrder(mail, request([{ productId: last, quantity: 1 }]))),
    );
    expect(outcomes(placements)).toEqual({ placed: 10, short: 190 });
    for (const placement of placements) {
      if (placement.outcome === "short")
        expect(placement.lines).toEqual([
          { productId: last, variantId: variantOf.get(last), asked: 1, left: 0 },
        ]);
    }
    expect(await onHand(last)).toBe(0);
    expect(await ordersNaming(last)).toBe(10);
  });

  it("two lines of one product ask for their sum, which cannot pass the stock", async () => {
    const kettle = await product(10);
    const placement = await placeOrder(
      mail,
      request([
        { productId: kettle, quantity: 6 },
        { productId: kettle, quantity: 6 },
      ]),
    );
    expect(placement).toEqual({
      outcome: "short",
      lines: [{ productId: kettle, variantId: variantOf.get(kettle), asked: 12, left: 10 }],
    });
    expect(await onHand(kettle)).toBe(10);
  });

  it("the same key sent 20 times at once makes one order, and every answer is that order", async () => {
    const kettle = await product(100);
    const key = randomUUID();
    const placements = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder(mail, request([{ productId: kettle, quantity: 2 }], key))),
    );
    expect(outcomes(placements)).toEqual({ placed: 20 });
    const numbers = new Set(
      placements.map((placement) => placement.outcome === "placed" && placement.order.number),
    );
    expect(numbers.size).toBe(1);
    expect(
      placements.filter((placement) => placement.outcome === "placed" && !placement.replayed),
    ).toHaveLength(1);
    expect(await onHand(kettle)).toBe(98);
    expect(
      await db.select({ id: orders.id }).from(orders).where(eq(orders.idempotencyKey, key)),
    ).toHaveLength(1);
  });

  it("refuses a key used before for another order, and keeps one shopper's keys apart from another's", async () => {
    const kettle = await product(100);
    const key = randomUUID();
    const first = await placeOrder(mail, request([{ productId: kettle, quantity: 1 }], key));
    expect(first.outcome).toBe("placed");
    const another = {
      ...request([{ productId: kettle, quantity: 1 }], key),
      email: "someone-else@example.com",
    };
    expect((await placeOrder(mail, another)).outcome).toBe("key-reused");
    const elsewhere = await placeOrder(mail, {
      ...request([{ productId: kettle, quantity: 1 }], key),
      idempotencyScope: "cart:another",
    });
    expect(elsewhere).toMatchObject({ outcome: "placed", replayed: false });
    expect(await onHand(kettle)).toBe(98);
  });

  it("empties the cart it came from when the order is placed, and leaves it when a line is short", async () => {
    const kettle = await product(3);
    const [cart] = await db.insert(carts).values({ tokenHash: randomUUID() }).returning({ id: carts.id });
    const cartId = (cart as { id: string }).id;
    await db.insert(cartLines).values({
      cartId,
      productId: kettle,
      variantId: variantOf.get(kettle) as number,
      quantity: 4,
      unitPriceCentsSeen: 1999,
      currencySeen: "USD",
    });
    const inCart = async () => (await db.select().from(cartLines).where(eq(cartLines.cartId, cartId))).length;

    // The cart's lines are what is ordered, read in the placing transaction (not the request's).
    const short = await placeOrder(mail, { ...request([{ productId: kettle, quantity: 1 }]), cartId });
    expect(short).toEqual({
      outcome: "short",
      lines: [{ productId: kettle, variantId: variantOf.get(kettle), asked: 4, left: 3 }],
    });
    expect(await inCart()).toBe(1);
    await db.update(cartLines).set({ quantity: 2 }).where(eq(cartLines.cartId, cartId));
    const placed = await placeOrder(mail, { ...request([{ productId: kettle, quantity: 4 }]), cartId });
    expect(placed).toMatchObject({
      outcome: "placed",
      order: { lines: [{ productId: kettle, quantity: 2 }] },
    });
    expect(await inCart()).toBe(0);
  });

  it("one cart checked out twice at once with two keys (two tabs) makes one order", async () => {
    const kettle = await product(50);
    const [cart] = await db.insert(carts).values({ tokenHash: randomUUID() }).returning({ id: carts.id });
    const cartId = (cart as { id: string }).id;
    await db.insert(cartLines).values({
      cartId,
      productId: kettle,
      variantId: variantOf.get(kettle) as number,
      quantity: 2,
      unitPriceCentsSeen: 1999,
      currencySeen: "USD",
    });
    const tabs = await Promise.all(
      Array.from({ length: 5 }, () =>
        placeOrder(mail, { ...request([{ productId: kettle, quantity: 2 }]), cartId }),
      ),
    );
    expect(outcomes(tabs)).toEqual({ placed: 1, empty: 4 });
    expect(await onHand(kettle)).toBe(48);
  });

  const confirmationsOf = async (number: string) =>
    (await db.select({ id: mailQueue.id }).from(mailQueue).where(eq(mailQueue.subject, number))).length;
  const allConfirmations = async () =>
    (await db.select({ id: mailQueue.id }).from(mailQueue).where(eq(mailQueue.kind, "order-confirmation")))
      .length;

  it("queues one confirmation email with the order, and none when the same key comes again, even 10 at once", async () => {
    const kettle = await product(100);
    const key = randomUUID();
    const first = await placeOrder(mail, request([{ productId: kettle, quantity: 1 }], key));
    if (first.outcome !== "placed") throw new Error(`not placed: ${first.outcome}`);
    expect(await confirmationsOf(first.order.number)).toBe(1);
    const [queued] = await db.select().from(mailQueue).where(eq(mailQueue.subject, first.order.number));
    expect(queued).toMatchObject({ status: "pending", recipient: "shopper@example.com" });

    const replays = await Promise.all(
      Array.from({ length: 10 }, () => placeOrder(mail, request([{ productId: kettle, quantity: 1 }], key))),
    );
    expect(replays.every((replay) => replay.outcome === "placed" && replay.replayed)).toBe(true);
    expect(await confirmationsOf(first.order.number)).toBe(1);
  });

  it("queues no email when a line is short or there is nothing to order", async () => {
    const scarce = await product(1);
    const before = await allConfirmations();
    expect((await placeOrder(mail, request([{ productId: scarce, quantity: 2 }]))).outcome).toBe("short");
    expect((await placeOrder(mail, request([]))).outcome).toBe("empty");
    expect(await allConfirmations()).toBe(before);
  });

  it("a total other than the one the shopper was shown places nothing, and leaves the key for the shown total", async () => {
    const kettle = await product(5, 19.99);
    const key = randomUUID();
    const before = await allConfirmations();
    const shown = { ...request([{ productId: kettle, quantity: 2 }], key), expectedTotalCents: 2 * 1999 };
    const refused = await placeOrder(mail, shown);
    expect(refused).toEqual({
      outcome: "total-changed",
      expectedTotalCents: 2 * 1999,
      order: {
        lines: [expect.objectContaining({ productId: kettle, unitPriceCents: 1999, quantity: 2 })],
        subtotalCents: 2 * 1999,
        shippingCents: 499,
        totalCents: 2 * 1999 + 499,
        taxCents: 0,
        taxes: [],
        pricesIncludeTax: false,
        currency: "USD",
      },
    });
    // Nothing taken, no order, no email: the whole transaction rolled back, the key's claim with it.
    expect(await onHand(kettle)).toBe(5);
    expect(await db.select().from(orders).where(eq(orders.idempotencyKey, key))).toEqual([]);
    expect(await allConfirmations()).toBe(before);
    // Confirmed with the total it was told, the same key places it.
    const confirmed = await placeOrder(mail, { ...shown, expectedTotalCents: 2 * 1999 + 499 });
    expect(confirmed).toMatchObject({
      outcome: "placed",
      replayed: false,
      order: { totalCents: 2 * 1999 + 499 },
    });
    expect(await onHand(kettle)).toBe(3);
    // Sent again as it was, the placed order is found; with another expected total, it is another request.
    expect(await placeOrder(mail, { ...shown, expectedTotalCents: 2 * 1999 + 499 })).toMatchObject({
      outcome: "placed",
      replayed: true,
    });
    expect((await placeOrder(mail, shown)).outcome).toBe("key-reused");
  });

  it("an email that cannot be written leaves no order either: the two commit together", async () => {
    const kettle = await product(5);
    const key = randomUUID();
    const failing: OrderRequest = {
      ...request([{ productId: kettle, quantity: 2 }], key),
      confirmation: () => {
        throw new Error("the email could not be composed");
      },
    };
    await expect(placeOrder(mail, failing)).rejects.toThrow("could not be composed");
    expect(await onHand(kettle)).toBe(5);
    expect(await db.select().from(orders).where(eq(orders.idempotencyKey, key))).toEqual([]);
  });

  it("an order's product cannot be deleted: it stays for the books", async () => {
    const kettle = await product(5);
    await placeOrder(mail, request([{ productId: kettle, quantity: 1 }]));
    await expect(db.delete(products).where(inArray(products.id, [kettle]))).rejects.toThrow();
  });
  it("two checkouts that each sell a product out never deadlock on the catalogue's revision", async () => {
    // A sells out `first` (its trigger takes the catalogue's revision row) and then wants `second`;
    // B holds `second` and sells it out, wanting the revision row: unless every stock row is locked
    // before any is taken, each holds what the other waits for, and PostgreSQL fails one.
    for (let round = 0; round < 15; round++) {
      const first = await product(1);
      const second = await product(1);
      const placements = await Promise.all([
        placeOrder(
          mail,
          request([
            { productId: first, quantity: 1 },
            { productId: second, quantity: 1 },
          ]),
        ),
        placeOrder(mail, request([{ productId: second, quantity: 1 }])),
      ]);
      expect(outcomes(placements)).toMatchObject({ placed: 1 });
      expect(((await onHand(first)) ?? 0) + ((await onHand(second)) ?? 0)).toBeLessThanOrEqual(1);
    }
  });
});
reportPostgresSkipped("placing orders on $name");
