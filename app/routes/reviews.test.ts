import { randomInt, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, orderEvents, orderLines, orders, products, reviews, users } from "~/db/schema";
import { type ImportRow, importCatalogRows } from "~/features/catalog/management/catalog-import.server";
import { saveReview } from "~/features/reviews/review-writing.server";
import { callRoute, type RouteCall, type RouteHandler } from "../../tests/support/route-call";
import { onlyVariantOf, productInStock, shopContext } from "../../tests/support/shop-context";
import { orderRow } from "../../tests/support/shopper";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action as reviewsAdminAction, loader as reviewsAdminLoader } from "./admin.reviews";
import { action as productAction, loader as productLoader } from "./product";

/**
 * Reviews from verified buyers (issue 26, docs/decisions/0033), on both
 * engines, through the product page's loader and action and the back
 * office's: who may review and why not, one review per shopper and product,
 * editing and deleting, the rating as the mean of published reviews with
 * its count, helpful once, the server's limits, hiding, a deleted account,
 * an import's rating.
 */

const engines = await openTestDatabases();

describe.each(engines)("reviews on $name", (engine: TestDatabase) => {
  const { db } = engine;
  const shop = shopContext(engine);

  const call = (handler: RouteHandler, path: string, options: RouteCall) =>
    callRoute(handler, path, { context: shop.context, ...options });

  /**
   * A shopper with an account; their cookie and id. Signed up through a context of its own: one
   * address may sign up only so many accounts an hour, and these are many shoppers.
   */
  async function shopper(label = "reviewer") {
    const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
    const cookie = await shopContext(engine).signedUp(email);
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return { cookie, id: row?.id as string, email };
  }

  /** An order of the product by the shopper, placed, and shipped when asked. */
  async function bought(userId: string, productId: number, shipped: boolean) {
    const [order] = await db
      .insert(orders)
      .values(
        orderRow({
          number: `BL-${Array.from({ length: 5 }, () => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[randomInt(32)]).join("")}`,
          idempotencyScope: `test:${randomUUID()}`,
          userId,
          status: shipped ? "shipped" : "paid",
          email: "reviewer@example.com",
          subtotalCents: 1250,
          shippingCents: 0,
          totalCents: 1250,
        }),
      )
      .returning({ id: orders.id });
    await db.insert(orderLines).values({
      orderId: order?.id as number,
      productId,
      variantId: await onlyVariantOf(db, productId),
      name: "Teapot",
      sku: "TEAPOT",
      unitPriceCents: 1250,
      quantity: 1,
      lineTotalCents: 1250,
    });
    if (shipped) {
      await db.insert(orderEvents).values({
        orderId: order?.id as number,
        fromStatus: "paid",
        toStatus: "shipped",
        actorName: "Sam Staff",
      });
    }
  }

  const pathOf = async (productId: number) => {
    const [row] = await db.select({ name: products.name }).from(products).where(eq(products.id, productId));
    return `/products/${productId}-${(row?.name ?? "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")}`;
  };
  const page = async (productId: number, cookie?: string, query = "") => {
    const path = await pathOf(productId);
    return call(productLoader, `${path}${query}`, {
      cookie,
      params: { product: path.slice("/products/".length) },
    });
  };
  const post = async (productId: number, cookie: string | undefined, form: Record<string, string>) => {
    const path = await pathOf(productId);
    return call(productAction, path, { cookie, form, params: { product: path.slice("/products/".length) } });
  };
  const ratingOf = async (productId: number) =>
    (
      await db
        .select({ ratings: products.ratings, count: products.ratingCount })
        .from(products)
        .where(eq(products.id, productId))
    )[0];

  it("tells each shopper why they may not review: signed out, not bought, not shipped yet", async () => {
    const productId = await productInStock(engine, 5);
    expect((await page(productId)).body?.reviews).toMatchObject({
      notAllowed: expect.stringMatching(/^Sign in to review/),
      own: null,
    });
    const stranger = await shopper("stranger");
    expect((await page(productId, stranger.cookie)).body?.reviews.notAllowed).toMatch(
      /^Only shoppers who bought this product/,
    );
    const waiting = await shopper("waiting");
    await bought(waiting.id, productId, false);
    expect((await page(productId, waiting.cookie)).body?.reviews.notAllowed).toMatch(
      /once your order of it has been shipped/,
    );
    const refused = await post(productId, waiting.cookie, { intent: "save", rating: "5" });
    expect(refused.status).toBe(403);
    expect(refused.body?.review.error[""]).toEqual([
      expect.stringMatching(/once your order of it has been shipped/),
    ]);
    expect((await post(productId, undefined, { intent: "save", rating: "5" })).status).toBe(401);
    expect(await ratingOf(productId)).toEqual({ ratings: 4, count: 0 });
  });

  it("a verified buyer reviews once; the rating is the mean of the reviews, with their count; editing and deleting follow", async () => {
    const productId = await productInStock(engine, 5);
    const ada = await shopper("ada");
    const bo = await shopper("bo");
    await bought(ada.id, productId, true);
    await bought(bo.id, productId, true);
    expect((await page(productId, ada.cookie)).body?.reviews.notAllowed).toBeNull();

    const posted = await post(productId, ada.cookie, {
      intent: "save",
      rating: "5",
      title: "  Great   pot ",
      body: "Pours well.\r\nNo drips.",
    });
    expect(posted.status).toBe(303);
    expect(posted.location).toMatch(/\?review=created#reviews$/);
    await post(productId, bo.cookie, { intent: "save", rating: "2" });
    expect(await ratingOf(productId)).toEqual({ ratings: 3.5, count: 2 });

    // A second review from another tab (the form showed none) is refused, the first kept.
    const again = await post(productId, ada.cookie, { intent: "save", rating: "1", title: "Second" });
    expect(again.status).toBe(409);
    expect(again.body?.review.error[""]).toEqual([
      expect.stringMatching(/^You have reviewed this product already/),
    ]);
    expect(await ratingOf(productId)).toEqual({ ratings: 3.5, count: 2 });
    // Changed from the form that shows it: still two reviews.
    expect(
      (await post(productId, ada.cookie, { intent: "save", editing: "1", rating: "4", title: "Good pot" }))
        .location,
    ).toMatch(/review=updated/);
    expect(await ratingOf(productId)).toEqual({ ratings: 3, count: 2 });
    const shown = (await page(productId, ada.cookie)).body?.reviews;
    expect(shown.own).toEqual({ rating: 4, title: "Good pot", body: null, hidden: false });
    expect(shown.distribution).toEqual([
      { rating: 5, count: 0 },
      { rating: 4, count: 1 },
      { rating: 3, count: 0 },
      { rating: 2, count: 1 },
      { rating: 1, count: 0 },
    ]);
    expect(shown.reviews).toHaveLength(2);
    expect(shown.reviews.filter((review: { mine: boolean }) => review.mine)).toEqual([
      expect.objectContaining({ rating: 4, title: "Good pot" }),
    ]);

    expect((await post(productId, ada.cookie, { intent: "delete" })).location).toMatch(/review=deleted/);
    expect(await ratingOf(productId)).toEqual({ ratings: 2, count: 1 });
    await post(productId, bo.cookie, { intent: "delete" });
    // No review left: no rating, and the page says so.
    expect(await ratingOf(productId)).toEqual({ ratings: 0, count: 0 });
    expect((await page(productId)).body?.reviews.total).toBe(0);
  });

  it("a cancelled order bought nothing: its shopper is told only buyers review", async () => {
    const productId = await productInStock(engine, 5);
    const buyer = await shopper("cancelled");
    await bought(buyer.id, productId, false);
    await db.update(orders).set({ status: "cancelled" }).where(eq(orders.userId, buyer.id));
    expect((await page(productId, buyer.cookie)).body?.reviews.notAllowed).toMatch(
      /^Only shoppers who bought/,
    );
  });

  it("answers a reviews parameter it does not know with a 400 naming it", async () => {
    const productId = await productInStock(engine, 5);
    for (const [query, parameter] of [
      ["?reviewsPage=abc", "reviewsPage"],
      ["?reviewsPage=1000000000", "reviewsPage"],
      ["?reviews=best", "reviews"],
    ] as const) {
      const answer = await page(productId, undefined, query);
      expect(answer.status, query).toBe(400);
      expect(answer.body?.problem.parameter).toBe(parameter);
    }
  });

  it("refuses what the server must not take, naming the field: stars out of range, a long title or text, control characters", async () => {
    const productId = await productInStock(engine, 5);
    const buyer = await shopper();
    await bought(buyer.id, productId, true);
    for (const [form, field] of [
      [{ intent: "save" }, "rating"],
      [{ intent: "save", rating: "6" }, "rating"],
      [{ intent: "save", rating: "4.5" }, "rating"],
      [{ intent: "save", rating: "5", title: "t".repeat(121) }, "title"],
      [{ intent: "save", rating: "5", body: "b".repeat(5_001) }, "body"],
      [{ intent: "save", rating: "5", body: "bell\u0007" }, "body"],
      [{ intent: "rate-it" }, "intent"],
    ] as const) {
      const answer = await post(productId, buyer.cookie, form as Record<string, string>);
      expect(answer.status, JSON.stringify(form)).toBe(400);
      expect(Object.keys(answer.body?.review.error)).toEqual([field]);
    }
    // HTML is kept as the text it is: the page shows it as text, never as markup.
    await post(productId, buyer.cookie, {
      intent: "save",
      rating: "3",
      body: '<a href="https://evil.example">win</a>',
    });
    expect((await page(productId, buyer.cookie)).body?.reviews.reviews[0].body).toBe(
      '<a href="https://evil.example">win</a>',
    );
    expect(await ratingOf(productId)).toEqual({ ratings: 3, count: 1 });
  });

  it("a shopper posts at most 10 reviews a day; deleting one does not give it back", async () => {
    const buyer = await shopper("busy");
    const items = await Promise.all(Array.from({ length: 12 }, () => productInStock(engine, 5)));
    for (const productId of items) await bought(buyer.id, productId, true);
    for (const productId of items.slice(0, 10)) {
      expect((await post(productId, buyer.cookie, { intent: "save", rating: "4" })).status).toBe(303);
    }
    await post(items[0] as number, buyer.cookie, { intent: "delete" });
    const eleventh = await post(items[10] as number, buyer.cookie, {
      intent: "save",
      rating: "4",
      title: "Kept",
    });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body?.review.error[""]).toEqual([expect.stringMatching(/10 reviews today/)]);
    // Editing one posted today is no new post.
    expect(
      (await post(items[1] as number, buyer.cookie, { intent: "save", editing: "1", rating: "5" })).status,
    ).toBe(303);
  });

  it("ten posts at once from one shopper never make eleven", async () => {
    const buyer = await shopper("burst");
    const items = await Promise.all(Array.from({ length: 14 }, () => productInStock(engine, 5)));
    for (const productId of items) await bought(buyer.id, productId, true);
    const outcomes = await Promise.all(
      items.map((productId) => saveReview(db, buyer.id, productId, { rating: 4 })),
    );
    expect(outcomes.filter((outcome) => outcome.outcome === "created")).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.outcome === "limited")).toHaveLength(4);
  });

  it("reviews written at once by many buyers all count", async () => {
    const productId = await productInStock(engine, 5);
    const buyers = await Promise.all(Array.from({ length: 8 }, (_, at) => shopper(`crowd${at}`)));
    for (const buyer of buyers) await bought(buyer.id, productId, true);
    await Promise.all(
      buyers.map((buyer, at) => saveReview(db, buyer.id, productId, { rating: (at % 5) + 1 })),
    );
    // 1+2+3+4+5+1+2+3 = 21 stars over 8 reviews: 2.625, shown as 2.6.
    expect(await ratingOf(productId)).toEqual({ ratings: 2.6, count: 8 });
  });

  it("a signed-in shopper marks another's review helpful once, never their own; most helpful first follows", async () => {
    const productId = await productInStock(engine, 5);
    const [ada, bo, cy] = await Promise.all([shopper("ada"), shopper("bo"), shopper("cy")]);
    for (const buyer of [ada, bo]) await bought(buyer.id, productId, true);
    await post(productId, ada.cookie, { intent: "save", rating: "5", title: "Ada's" });
    await post(productId, bo.cookie, { intent: "save", rating: "1", title: "Bo's" });
    const listed = (await page(productId, cy.cookie)).body?.reviews.reviews as {
      id: number;
      title: string;
    }[];
    const adas = listed.find((review) => review.title === "Ada's")?.id as number;
    expect(
      (await post(productId, cy.cookie, { intent: "helpful", reviewId: String(adas) })).location,
    ).toMatch(/review=helpful/);
    await post(productId, cy.cookie, { intent: "helpful", reviewId: String(adas) });
    await post(productId, ada.cookie, { intent: "helpful", reviewId: String(adas) });
    const helpful = (await page(productId, cy.cookie, "?reviews=helpful")).body?.reviews;
    expect(
      helpful.reviews.map((review: { title: string; helpfulCount: number; markedHelpful: boolean }) => [
        review.title,
        review.helpfulCount,
        review.markedHelpful,
      ]),
    ).toEqual([
      ["Ada's", 1, true],
      ["Bo's", 0, false],
    ]);
    // A review that is not this product's, or not shown, says so and counts nothing.
    const elsewhere = await productInStock(engine, 5);
    expect(
      (await post(elsewhere, cy.cookie, { intent: "helpful", reviewId: String(adas) })).location,
    ).toMatch(/review=gone/);
    expect((await post(productId, cy.cookie, { intent: "helpful", reviewId: "999999999" })).location).toMatch(
      /review=gone/,
    );
    expect(
      (await post(productId, ada.cookie, { intent: "helpful", reviewId: String(adas) })).location,
    ).toMatch(/review=own/);
    const [counted] = await db
      .select({ helpful: reviews.helpfulCount })
      .from(reviews)
      .where(eq(reviews.id, adas));
    expect(counted?.helpful).toBe(1);
  });

  it("staff hide a review with the reason in the audit log: it stops counting, its author still sees it; restored, it counts again", async () => {
    const productId = await productInStock(engine, 5);
    const [ada, bo] = await Promise.all([shopper("ada"), shopper("bo")]);
    for (const buyer of [ada, bo]) await bought(buyer.id, productId, true);
    await post(productId, ada.cookie, { intent: "save", rating: "1", title: "Spam spam" });
    await post(productId, bo.cookie, { intent: "save", rating: "5" });
    const staff = await shopContext(engine).signedUpAs(
      `staff-${randomUUID().slice(0, 8)}@example.com`,
      "staff",
    );
    const list = await call(reviewsAdminLoader, "/admin/reviews", { cookie: staff });
    const spam = ((list.body?.page.reviews ?? []) as { id: number; title: string | null }[]).find(
      (review) => review.title === "Spam spam",
    );
    expect(
      (
        await call(reviewsAdminAction, "/admin/reviews", {
          cookie: staff,
          form: { intent: "hide", reviewId: String(spam?.id) },
        })
      ).status,
    ).toBe(400);
    const hidden = await call(reviewsAdminAction, "/admin/reviews", {
      cookie: staff,
      form: { intent: "hide", reviewId: String(spam?.id), reason: "Advertising, not a review" },
    });
    expect(hidden).toMatchObject({ status: 303, location: expect.stringMatching(/done=hidden/) });
    expect(await ratingOf(productId)).toEqual({ ratings: 5, count: 1 });
    expect((await page(productId, bo.cookie)).body?.reviews.reviews).toHaveLength(1);
    expect((await page(productId, ada.cookie)).body?.reviews.own).toMatchObject({ hidden: true });
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.subject, `review:${spam?.id}`));
    expect(entry).toMatchObject({
      action: "review.hidden",
      after: { hidden: true, reason: "Advertising, not a review" },
    });

    // Its author may change it, not delete it: deleting and posting again would undo the shop's decision.
    expect((await post(productId, ada.cookie, { intent: "delete" })).status).toBe(403);
    await post(productId, ada.cookie, { intent: "save", editing: "1", rating: "2", title: "Spam spam" });
    expect(await ratingOf(productId)).toEqual({ ratings: 5, count: 1 });
    // A reason with a control character is refused by name, not stored.
    const nul = await call(reviewsAdminAction, "/admin/reviews", {
      cookie: staff,
      form: { intent: "hide", reviewId: String(spam?.id), reason: "bad\u0000reason" },
    });
    expect(nul.status).toBe(400);
    await call(reviewsAdminAction, "/admin/reviews", {
      cookie: staff,
      form: { intent: "restore", reviewId: String(spam?.id) },
    });
    expect(await ratingOf(productId)).toEqual({ ratings: 3.5, count: 2 });
    // A shopper is refused the back office's reviews: the shop's 404.
    expect((await call(reviewsAdminLoader, "/admin/reviews", { cookie: bo.cookie })).status).toBe(404);
  });

  it("deleting an account deletes its reviews, and the rating follows", async () => {
    const productId = await productInStock(engine, 5);
    const [ada, bo] = await Promise.all([shopper("leaver"), shopper("stayer")]);
    for (const buyer of [ada, bo]) await bought(buyer.id, productId, true);
    await post(productId, ada.cookie, { intent: "save", rating: "1" });
    await post(productId, bo.cookie, { intent: "save", rating: "5" });
    expect(await ratingOf(productId)).toEqual({ ratings: 3, count: 2 });
    await db.delete(users).where(eq(users.id, ada.id));
    expect(await db.select().from(reviews).where(eq(reviews.userId, ada.id))).toEqual([]);
    expect(await ratingOf(productId)).toEqual({ ratings: 5, count: 1 });
  });

  it("an import's rating is kept only for a product nobody has reviewed", async () => {
    const reviewed = await productInStock(engine, 5);
    const unreviewed = await productInStock(engine, 5);
    const buyer = await shopper();
    await bought(buyer.id, reviewed, true);
    await post(reviewed, buyer.cookie, { intent: "save", rating: "2" });
    const skus = await db
      .select({ id: products.id, sku: products.sku, name: products.name })
      .from(products)
      .where(sql`${products.id} in (${reviewed}, ${unreviewed})`);
    await importCatalogRows(
      db,
      skus.map(
        (product, line): ImportRow => ({
          line: line + 2,
          sku: product.sku,
          name: product.name,
          price: 12.5,
          rating: 4.9,
          brand: "blendMaster",
          category: "home goods",
          created: undefined,
        }),
      ),
      {
        prune: false,
        keep: new Set(skus.map((product) => product.sku)),
        now: new Date(),
        onPlan: () => true,
      },
    );
    expect(await ratingOf(reviewed)).toEqual({ ratings: 2, count: 1 });
    expect(await ratingOf(unreviewed)).toEqual({ ratings: 4.9, count: 0 });
  });
});

reportPostgresSkipped("reviews on $name");
