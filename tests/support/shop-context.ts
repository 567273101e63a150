import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { minorAtMost } from "~/commerce/money";
import { createTaxShippingStore } from "~/commerce/tax-shipping-store.server";
import { requestInfoContext, type ShopServices, servicesContext } from "~/context.server";
import type { Database } from "~/db/client.server";
import {
  brands,
  categories,
  orderEvents,
  orders,
  products,
  productVariants,
  stockLevels,
  users,
} from "~/db/schema";
import { createAuthService } from "~/features/auth/auth.server";
import { createAuthRateLimiter } from "~/features/auth/rate-limit.server";
import { createCatalog } from "~/features/catalog/browsing/catalog.server";
import type { CardPaymentServices } from "~/features/orders/card-payments/card-payments.server";
import type { OrderServices } from "~/features/orders/orders.server";
import { type OrderRequest, placeOrder } from "~/features/orders/place-order.server";
import type { MailQueue } from "~/utils/mail-queue.server";
import { createShopSettings } from "~/utils/shop-settings.server";
import { createShoppingRateLimit, type ShoppingRateLimits } from "~/utils/shopping-rate-limit.server";
import { recordingMail } from "./recording-mailer";
import { SHOPPER_ADDRESS } from "./shopper";
import { flatShippingSetup } from "./tax-setups";
import type { TestDatabase } from "./test-database";

const TEST_SECRET = "test-secret-test-secret-test-secret-0123";

/**
 * A router context for calling the shop's loaders and actions directly: the
 * database, accounts, orders and the shop's origin, as server/services.ts
 * gives them; `mail` holds every email the services queued.
 */
export function shopContext(
  engine: TestDatabase,
  {
    shoppingLimits,
    ownerEmails,
    card = null,
  }: { shoppingLimits?: ShoppingRateLimits; ownerEmails?: string[]; card?: CardPaymentServices | null } = {},
) {
  const mail = recordingMail(engine.db);
  const auth = createAuthService({
    db: engine.db,
    secret: TEST_SECRET,
    baseUrl: "http://localhost:3000",
    google: null,
    limiter: createAuthRateLimiter(),
    mail: mail.queue,
    ownerEmails,
  });
  const orders: OrderServices = {
    linkSecret: TEST_SECRET,
    baseUrl: "http://localhost:3000",
    bankDetails: ["Backline Test Ltd.", "IBAN: GB33 BUKB 2020 1555 5555 55"],
    mail: mail.queue,
    db: engine.db,
    card,
  };
  const settings = createShopSettings(engine.db, {
    currency: "USD",
    locale: "en-US",
    standardShippingCents: 499,
    freeShippingFromCents: 5_000,
    expressShippingCents: 1_499,
    bankDetails: orders.bankDetails,
    lowStockAt: 5,
    fewLeftAt: 5,
  });
  const taxShipping = createTaxShippingStore(engine.db, settings);
  const context = new RouterContextProvider();
  context.set(servicesContext, {
    auth,
    database: engine.handle,
    baseUrl: "http://localhost:3000",
    orders,
    shoppingLimit: createShoppingRateLimit(shoppingLimits),
    // No cache: a test reads what it just wrote.
    catalog: createCatalog(engine.db, { cacheSeconds: 0 }),
    settings,
    taxShipping,
  } as unknown as ShopServices);
  context.set(requestInfoContext, { cspNonce: "test-nonce", clientAddress: "203.0.113.9" });

  /** A new account; the cookies of its session, as a browser sends them. */
  async function signedUp(email: string): Promise<string> {
    const result = await auth
      .for({ request: new Request("http://localhost:3000/"), address: "203.0.113.9" })
      .credentials.signUp({
        name: "Ada",
        email,
        photo: "https://example.com/ada.png",
        password: "Str0ng!Pass",
      });
    if (!result.ok) throw new Error("sign-up failed");
    return result.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
  }

  /** A new account with a back-office role (made as an owner's change would make it, without the audit entry). */
  async function signedUpAs(email: string, role: "shopper" | "staff" | "owner"): Promise<string> {
    const cookie = await signedUp(email);
    await engine.db.update(users).set({ role }).where(eq(users.email, email));
    return cookie;
  }

  return { auth, context, signedUp, signedUpAs, mail, orders, taxShipping };
}

/** A product of a brand and category made for it, with `onHand` units at `price` dollars. */
export async function productInStock(engine: TestDatabase, onHand: number, price = 12.5): Promise<number> {
  await engine.db
    .insert(brands)
    .values({ value: "blendMaster", label: "BlendMaster", position: 1 })
    .onConflictDoNothing();
  await engine.db
    .insert(categories)
    .values({ value: "home goods", label: "Home goods", position: 1 })
    .onConflictDoNothing();
  const [row] = await engine.db
    .insert(products)
    .values({
      name: `Teapot ${Math.random().toString(36).slice(2, 8)}`,
      description: "Makes tea.",
      image: "/images/products/teapot.webp",
      priceMinor: minorAtMost(price, "USD"),
      ratings: 4,
      bandName: "blendMaster",
      category: "home goods",
      creationDate: new Date("2026-01-01T00:00:00Z"),
    })
    .returning({ id: products.id });
  const id = (row as { id: number }).id;
  await engine.db.update(stockLevels).set({ onHand }).where(eq(stockLevels.productId, id));
  return id;
}

/** The id of a product's only variant (a product made without options has exactly one). */
export async function onlyVariantOf(db: Pick<Database, "select">, productId: number): Promise<number> {
  const variants = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(eq(productVariants.productId, productId));
  if (variants.length !== 1) throw new Error(`product ${productId} has ${variants.length} variants, not one`);
  return (variants[0] as { id: number }).id;
}

/**
 * A placed order of `quantity` units of a product, as a guest's checkout
 * places it (standard shipping at $4.99, paid by `paymentMethod`), with
 * what the test changes: its number, or the refusal as an error.
 */
export async function placeTestOrder(
  mail: MailQueue,
  productId: number,
  quantity: number,
  changes: Partial<OrderRequest> = {},
): Promise<string> {
  const placement = await placeOrder(mail, {
    idempotencyScope: `test:${randomUUID()}`,
    idempotencyKey: randomUUID(),
    userId: null,
    email: "shopper@example.com",
    shippingAddress: SHOPPER_ADDRESS,
    shippingMethod: "standard",
    paymentMethod: "bank-transfer",
    setup: flatShippingSetup(499),
    currency: "USD",
    status: "placed",
    paymentDueAt: null,
    lines: [{ productId, variantId: await mail.transaction((tx) => onlyVariantOf(tx, productId)), quantity }],
    confirmation: (order) => ({
      kind: "order-confirmation",
      to: order.email,
      subject: `Order ${order.number}`,
      text: "",
      html: "",
    }),
    ...changes,
  });
  if (placement.outcome !== "placed") throw new Error(placement.outcome);
  return placement.order.number;
}

/** An order's status changes, oldest first: from, to, by whom and why. */
export function orderEventsOf(engine: TestDatabase, number: string) {
  return engine.db
    .select({
      from: orderEvents.fromStatus,
      to: orderEvents.toStatus,
      by: orderEvents.actorName,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .innerJoin(orders, eq(orders.id, orderEvents.orderId))
    .where(eq(orders.number, number))
    .orderBy(asc(orderEvents.id));
}

/** /admin/settings as its form sends the shop's defaults (a test adds or changes fields). */
export const SETTINGS_FORM: Record<string, string> = {
  currency: "USD",
  locale: "en-US",
  standardShipping: "4.99",
  freeShippingFrom: "50",
  expressShipping: "14.99",
  bankDetails: "Backline Test Ltd.\nIBAN: GB33 BUKB 2020 1555 5555 55",
  lowStockAt: "5",
  fewLeftAt: "5",
};
