import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { CHECK_VIOLATION, failedWith } from "~/db/errors.server";
import { priceCents } from "~/db/price-cents";
import { cartLines, carts, products, stockLevels } from "~/db/schema";

/**
 * The shopper's cart (docs/decisions/0027): a guest's behind a cookie's
 * token, an account's behind its user. Every quantity is a whole number from
 * 1 to 99 and never above the stock on hand, decided by the database in the
 * statement that writes it, so two tabs adding at once cannot pass it.
 */

/** Whose cart: an account's, or a guest's by the token in their cookie. */
export type CartOwner = { userId: string } | { guestToken: string };

/** How long a guest's cart is kept after its last change. */
export const GUEST_CART_DAYS = 30;
/** The most of one product a cart holds. */
const MAX_QUANTITY = 99;

interface CartLine {
  productId: number;
  name: string;
  image: string;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** On hand now. */
  stock: number;
  /** The unit price changed since the line was added (it is charged at the new one). */
  priceChanged: boolean;
}

interface CartView {
  lines: CartLine[];
  itemCount: number;
  subtotalCents: number;
}

export type AddOutcome =
  | {
      outcome: "added";
      quantity: number /** Less than asked: the stock (or 99) capped it. */;
      capped: boolean;
      stock: number;
    }
  | { outcome: "unknown-product" }
  | { outcome: "sold-out" };

/** A new guest's cart token, for an httpOnly cookie. */
export function newGuestToken(): string {
  return randomBytes(32).toString("base64url");
}

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** The owner's cart id, or null when they have none (or a guest's has expired). */
async function cartIdOf(db: Database, owner: CartOwner): Promise<string | null> {
  const where =
    "userId" in owner
      ? eq(carts.userId, owner.userId)
      : and(
          eq(carts.tokenHash, hashOf(owner.guestToken)),
          or(isNull(carts.expiresAt), gt(carts.expiresAt, sql`now()`)),
        );
  const [cart] = await db.select({ id: carts.id }).from(carts).where(where);
  return cart?.id ?? null;
}

/** The owner's cart id, made when they have none; a guest's is kept 30 more days. */
async function cartFor(db: Database, owner: CartOwner): Promise<string> {
  const values =
    "userId" in owner
      ? { userId: owner.userId }
      : {
          tokenHash: hashOf(owner.guestToken),
          expiresAt: sql`now() + ${GUEST_CART_DAYS} * interval '1 day'`,
        };
  const target = "userId" in owner ? carts.userId : carts.tokenHash;
  const [cart] = await db
    .insert(carts)
    .values(values)
    .onConflictDoUpdate({ target, set: { expiresAt: "userId" in owner ? null : values.expiresAt } })
    .returning({ id: carts.id });
  return (cart as { id: string }).id;
}

/** The units on hand of a product, as SQL: what every quantity written is capped by. */
const onHandOf = (productId: number) =>
  sql`(select ${stockLevels.onHand} from ${stockLevels} where ${stockLevels.productId} = ${productId})`;

/** Adds `quantity` of a product (1 to 99), up to what is on hand and 99 in all. */
export async function addToCart(
  db: Database,
  owner: CartOwner,
  productId: number,
  quantity: number,
): Promise<AddOutcome> {
  const [product] = await db
    .select({ stock: stockLevels.onHand })
    .from(products)
    .innerJoin(stockLevels, eq(stockLevels.productId, products.id))
    .where(eq(products.id, productId));
  if (!product) return { outcome: "unknown-product" };
  if (product.stock === 0) return { outcome: "sold-out" };
  const cartId = await cartFor(db, owner);
  const [before] = await db
    .select({ quantity: cartLines.quantity })
    .from(cartLines)
    .where(and(eq(cartLines.cartId, cartId), eq(cartLines.productId, productId)));
  const previous = before?.quantity ?? 0;
  try {
    const [line] = await db
      .insert(cartLines)
      .values({
        cartId,
        productId,
        quantity: sql`least(${quantity}, ${MAX_QUANTITY}, ${onHandOf(productId)})`,
        unitPriceCentsSeen: sql`(select ${priceCents} from ${products} where ${products.id} = ${productId})`,
      })
      .onConflictDoUpdate({
        target: [cartLines.cartId, cartLines.productId],
        set: {
          quantity: sql`least(${cartLines.quantity} + ${quantity}, ${MAX_QUANTITY}, ${onHandOf(productId)})`,
        },
      })
      .returning({ quantity: cartLines.quantity, stock: onHandOf(productId) });
    const added = (line as { quantity: number }).quantity;
    return {
      outcome: "added",
      quantity: added,
      capped: added < previous + quantity,
      stock: Number(line?.stock),
    };
  } catch (error) {
    // Sold out since it was read: least(…, 0) breaks the 1–99 check, and nothing is written.
    if (failedWith(error, CHECK_VIOLATION)) return { outcome: "sold-out" };
    throw error;
  }
}

/**
 * Sets a line's quantity (0 removes it), up to what is on hand and 99: a
 * retry sets the same again. Answers the quantity now in the cart.
 */
export async function setLineQuantity(
  db: Database,
  owner: CartOwner,
  productId: number,
  quantity: number,
): Promise<number> {
  const cartId = await cartIdOf(db, owner);
  if (!cartId) return 0;
  const line = and(eq(cartLines.cartId, cartId), eq(cartLines.productId, productId));
  if (quantity > 0) {
    const [updated] = await db
      .update(cartLines)
      .set({ quantity: sql`least(${quantity}, ${MAX_QUANTITY}, ${onHandOf(productId)})` })
      .where(and(line, sql`${onHandOf(productId)} > 0`))
      .returning({ quantity: cartLines.quantity });
    if (updated) return updated.quantity;
  }
  // Removed, asked for 0, or sold out: a line of nothing is no line.
  await db.delete(cartLines).where(line);
  return 0;
}

/** The owner's cart as it is now: today's prices and stock beside each line. */
export async function readCart(db: Database, owner: CartOwner): Promise<CartView> {
  const cartId = await cartIdOf(db, owner);
  if (!cartId) return { lines: [], itemCount: 0, subtotalCents: 0 };
  const rows = await db
    .select({
      productId: cartLines.productId,
      name: products.name,
      image: products.image,
      unitPriceCents: priceCents,
      unitPriceCentsSeen: cartLines.unitPriceCentsSeen,
      quantity: cartLines.quantity,
      stock: stockLevels.onHand,
    })
    .from(cartLines)
    .innerJoin(products, eq(products.id, cartLines.productId))
    .innerJoin(stockLevels, eq(stockLevels.productId, cartLines.productId))
    .where(eq(cartLines.cartId, cartId))
    .orderBy(asc(cartLines.addedAt), asc(cartLines.productId));
  const lines = rows.map(({ unitPriceCentsSeen, ...row }) => {
    const unitPriceCents = Number(row.unitPriceCents);
    return {
      ...row,
      unitPriceCents,
      lineTotalCents: unitPriceCents * row.quantity,
      priceChanged: unitPriceCents !== unitPriceCentsSeen,
    };
  });
  return {
    lines,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotalCents: lines.reduce((sum, line) => sum + line.lineTotalCents, 0),
  };
}

/**
 * On sign-in: the guest's cart joins the account's — quantities added,
 * capped by stock and 99 — and the guest's is gone, in one transaction.
 */
export async function mergeGuestCart(db: Database, guestToken: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const guest = await cartIdOf(tx as unknown as Database, { guestToken });
    if (!guest) return;
    const account = await cartFor(tx as unknown as Database, { userId });
    await tx.execute(sql`
      insert into ${cartLines} (cart_id, product_id, quantity, unit_price_cents_seen)
      select ${account}::uuid, g.product_id, least(g.quantity, ${MAX_QUANTITY}, s.on_hand), g.unit_price_cents_seen
        from ${cartLines} g join ${stockLevels} s on s.product_id = g.product_id
       where g.cart_id = ${guest}::uuid and s.on_hand > 0
      on conflict (cart_id, product_id) do update
        set quantity = least(${cartLines.quantity} + excluded.quantity, ${MAX_QUANTITY},
                             (select on_hand from ${stockLevels} where product_id = excluded.product_id))`);
    await tx.delete(carts).where(eq(carts.id, guest));
  });
}

/** Guest carts past their 30 days, removed with their lines (a periodic clean-up). */
export async function removeExpiredCarts(db: Database): Promise<number> {
  const removed = await db
    .delete(carts)
    .where(and(isNull(carts.userId), lte(carts.expiresAt, sql`now()`)))
    .returning({ id: carts.id });
  return removed.length;
}

/** The owner's cart id and lines, as checkout places them; null without a cart. */
export async function cartForCheckout(
  db: Database,
  owner: CartOwner,
): Promise<{ id: string; lines: { productId: number; quantity: number }[] } | null> {
  const cartId = await cartIdOf(db, owner);
  if (!cartId) return null;
  const lines = await db
    .select({ productId: cartLines.productId, quantity: cartLines.quantity })
    .from(cartLines)
    .where(eq(cartLines.cartId, cartId));
  return { id: cartId, lines };
}

/** How often each process removes guest carts past their 30 days. */
const TIDY_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * Removes expired guest carts now and every 6 hours, in the background: each
 * process does it, and a delete that finds nothing costs nothing. A failure
 * (the database away) is logged and tried at the next turn.
 */
export function keepCartsTidy(
  db: Database,
  onFailure: (error: unknown) => void,
): { stop(): void /** The first tidying, begun at once. */; first: Promise<void> } {
  const tidy = () => removeExpiredCarts(db).then(() => undefined, onFailure);
  const first = tidy();
  const timer = setInterval(tidy, TIDY_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), first };
}
