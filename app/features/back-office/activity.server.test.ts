import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, orderLines, orders, products, users } from "~/db/schema";
import { onlyVariantOf, productInStock } from "../../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { activityPage } from "./activity.server";

/**
 * Entries written before the log kept names (drizzle/0016's backfill): a
 * cancellation's lines get their names and SKUs from the order, a product
 * its name from the entry or the catalogue, a person their name; and they
 * are found by those names like new entries.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the activity log's older entries on $name");

/** drizzle/0016's statements after its columns are added: what it does to the entries already there. */
const BACKFILL = readFileSync("drizzle/0017_audit_log_names.sql", "utf8")
  .split("--> statement-breakpoint")
  .map((statement) => statement.trim())
  .filter((statement) => !statement.startsWith("ALTER TABLE"));

describe.each(engines)("the activity log's older entries on $name", (engine: TestDatabase) => {
  it("names what older entries changed, and finds them by those names", async () => {
    const kettle = await productInStock(engine, 3);
    await engine.db.update(products).set({ name: "Old Kettle", sku: "OK-1" }).where(sql`id = ${kettle}`);
    const gone = 99_999_999;
    const [order] = await engine.db
      .insert(orders)
      .values({
        number: "BL-OLD01",
        idempotencyScope: "test",
        idempotencyKey: "old-1",
        requestHash: "hash",
        status: "cancelled",
        email: "shopper@example.com",
        shippingAddress: {},
        shippingMethod: "standard",
        paymentMethod: "bank-transfer",
        subtotalCents: 2500,
        shippingCents: 0,
        totalCents: 2500,
        currency: "USD",
      })
      .returning({ id: orders.id });
    await engine.db.insert(orderLines).values({
      orderId: order?.id ?? 0,
      productId: kettle,
      variantId: await onlyVariantOf(engine.db, kettle),
      name: "Old Kettle as sold",
      sku: "OLD-KETTLE",
      unitPriceCents: 1250,
      quantity: 2,
      lineTotalCents: 2500,
    });
    await engine.db.insert(users).values({
      id: "old-person",
      name: "Grace",
      email: "grace@example.com",
      emailVerified: true,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const who = "owner@example.com";
    // As the log wrote them before: subjects by id, a cancellation's lines by product id.
    await engine.db.insert(auditLog).values([
      {
        actorEmail: who,
        action: "order.cancelled",
        subject: "order:BL-OLD01",
        before: { status: "placed" },
        after: { status: "cancelled", stockReturned: [{ productId: kettle, quantity: 2 }] },
      },
      {
        actorEmail: who,
        action: "order.shipped",
        subject: "order:BL-GONE1",
        before: { status: "paid" },
        after: { status: "shipped", trackingNumber: null },
      },
      {
        actorEmail: who,
        action: "product.updated",
        subject: `product:${kettle}`,
        before: { priceCents: 1250 },
        after: { priceCents: 999 },
      },
      {
        actorEmail: who,
        action: "product.deleted",
        subject: `product:${gone}`,
        before: { name: "Lost Lamp", sku: "LL-9", priceCents: 500 },
      },
      {
        actorEmail: "command line",
        action: "person.role-changed",
        subject: "person:grace@example.com",
        before: { role: "shopper" },
        after: { role: "owner" },
      },
    ]);
    for (const statement of BACKFILL) await engine.db.execute(sql.raw(statement));

    const sentences = async (search?: string) =>
      (await activityPage(engine.db, { search })).entries.map((entry) => entry.sentence);
    expect(await sentences()).toEqual([
      "The command line changed the role of Grace (grace@example.com) from shopper to owner.",
      "owner@example.com deleted Lost Lamp (SKU LL-9).",
      "owner@example.com changed Old Kettle (SKU OK-1): price from $12.50 to $9.99.",
      "owner@example.com marked order BL-GONE1 shipped, with no tracking number.",
      "owner@example.com cancelled order BL-OLD01 and put 2 × Old Kettle as sold (SKU OK-1) back in stock.",
    ]);
    expect(await sentences("ok-1")).toHaveLength(2);
    expect(await sentences("Lost Lamp")).toEqual(["owner@example.com deleted Lost Lamp (SKU LL-9)."]);
    expect(await sentences("grace@EXAMPLE.com")).toHaveLength(1);
    expect(await sentences("bl-old01")).toHaveLength(1);
  });
});
