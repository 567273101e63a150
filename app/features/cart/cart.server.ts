import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lte, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type CurrencyCode, money, sumMoney, timesQuantity } from "~/commerce/money";
import { shopMoney } from "~/commerce/shop-money.server";
import { variantOptions } from "~/commerce/variant-options.server";
import type { Database } from "~/db/client.server";
import { CHECK_VIOLATION, failedWith } from "~/db/errors.server";
import { fixedStatement } from "~/db/fixed-statement.server";
import { onSale } from "~/db/product-on-sale";
import { cartLines, carts, products, productVariants, stockLevels } from "~/db/schema";
import { MOST_IN_ONE_LINE } from "./cart-limits";
import type { CartLine } from "./cart-schema";

/**
 * The shopper's cart (docs/decisions/0039): a guest's behind a cookie's
 * token, an account's behind its user. Every quantity is a whole number from
 * 1 to 99 and never above the stock on hand, decided by the database in the
 * statement that writes it, so two tabs adding at once cannot pass it.
 */

/** Whose cart: an account's, or a guest's by the token in their cookie. */
export type CartOwner = { userId: string } | { guestToken: string };

/** How long a guest's cart is kept after its last change. */
export const GUEST_CART_DAYS = 30;

interface CartView {
  lines: CartLine[];
  itemCount: number;
  /** In whole minor units of `currency`, the shop's. */
  subtotalCents: number;
  currency: CurrencyCode;
  /**
   * The currency the cart was priced in before the shop changed its own: its
   * lines are today's prices in the new one, and the cart says so once.
   */
  repricedFrom: CurrencyCode | null;
}

export type AddOutcome =
  | {
      outcome: "added";
      /** The cart it is in (made for a guest's first add). */
      cartId: string;
      /** The variant added: the one asked for, or the product's only one. */
      variantId: number;
      quantity: number /** Less than asked: the stock (or 99) capped it. */;
      capped: boolean;
      stock: number;
    }
  | { outcome: "unknown-product" }
  /** The product has more than one variant on sale and none was chosen. */
  | { outcome: "variant-required" }
  /** The variant asked for is not one of the product's. */
  | { outcome: "unknown-variant" }
  /** Archived by the owner, or none on hand: nothing added. */
  | { outcome: "sold-out"; variantId: number | null };

/** The cart of a visitor who has none yet: nothing in it, in the shop's currency. */
export function emptyCart(): CartView {
  return { lines: [], itemCount: 0, subtotalCents: 0, currency: shopMoney().currency, repricedFrom: null };
}

/** A new guest's cart token, for an httpOnly cookie. */
export function newGuestToken(): string {
  return randomBytes(32).toString("base64url");
}

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/** Which cart is the owner's: an account's by its user, a guest's by its token while it has not expired. */
function ownersCart(owner: CartOwner) {
  return "userId" in owner ? eq(carts.userId, owner.userId) : guestsCart(hashOf(owner.guestToken));
}

/** A guest's cart, by its token's hash, while it has not expired. */
const guestsCart = (tokenHash: string | Placeholder) =>
  sql`${carts.tokenHash} = ${tokenHash} and (${carts.expiresAt} is null or ${carts.expiresAt} > now())`;

/* Fixed statements (docs/decisions/0047): every checkout finds its cart. */
const accountsCartId = fixedStatement<{ id: string }, "userId">(
  (value) => sql`select ${carts.id} as "id" from ${carts} where ${carts.userId} = ${value("userId")}`,
);
const guestsCartId = fixedStatement<{ id: string }, "tokenHash">(
  (value) => sql`select ${carts.id} as "id" from ${carts} where ${guestsCart(value("tokenHash"))}`,
);

/**
 * The owner's cart id, or null when they have none (or a guest's has
 * expired). Checkout places the cart by its id: its lines are read in the
 * placing transaction, under a lock on the cart's row.
 */
export async function cartIdOf(db: Database, owner: CartOwner): Promise<string | null> {
  const [cart] =
    "userId" in owner
      ? await accountsCartId(db, { userId: owner.userId })
      : await guestsCartId(db, { tokenHash: hashOf(owner.guestToken) });
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

/** The units on hand of a variant, as SQL: what every quantity written is capped by. */
const onHandOf = (variantId: number | Placeholder | SQL) =>
  sql`(select ${stockLevels.onHand} from ${stockLevels} where ${stockLevels.variantId} = ${variantId})`;

/** The statement of an add, for the cart `cart` makes or keeps (an account's, or a guest's). */
const addStatement = <Name extends string>(cart: (value: (name: Name | AddValue) => Placeholder) => SQL) =>
  fixedStatement<AddedRow, Name | AddValue>(
    (value) => sql`
      with cart as (${cart(value)}),
      -- The variant asked for, or the product's only one on sale; an archived product or variant is
      -- no longer sold (no line: addToCart says why).
      variant as (
        select v.id, s.on_hand, v.price_minor as price_cents, count(*) over () as choices
          from ${productVariants} v
          join ${products} on ${products.id} = v.product_id
          join ${stockLevels} s on s.variant_id = v.id
         where v.product_id = ${value("productId")} and v.archived_at is null and ${onSale}
           and (${value("variantId")}::int is null or v.id = ${value("variantId")}::int)),
      chosen as (select * from variant where choices = 1),
      before as (
        select l.quantity from ${cartLines} l join cart on l.cart_id = cart.id join chosen on l.variant_id = chosen.id),
      line as (
        insert into ${cartLines} (cart_id, variant_id, product_id, quantity, unit_price_cents_seen, currency_seen)
        select cart.id, chosen.id, ${value("productId")}, least(${value("quantity")}, ${MOST_IN_ONE_LINE}, chosen.on_hand),
               chosen.price_cents, ${value("currency")}
          from cart, chosen where chosen.on_hand > 0
        on conflict (cart_id, variant_id) do update
          set quantity = least(${cartLines.quantity} + ${value("quantity")}, ${MOST_IN_ONE_LINE}, ${onHandOf(sql`excluded.variant_id`)}),
              -- Added again from a page showing today's price: that is the price seen now.
              unit_price_cents_seen = excluded.unit_price_cents_seen,
              currency_seen = excluded.currency_seen
        returning quantity)
      select (select id from cart) as "cartId", (select id from chosen) as "variantId",
             (select on_hand from chosen) as "stock",
             (select quantity from before) as "before", (select quantity from line) as "quantity"`,
  );
type AddValue = "productId" | "variantId" | "quantity" | "currency";

const addToAccountsCart = addStatement<"userId">(
  (value) => sql`insert into ${carts} (user_id) values (${value("userId")})
                 on conflict (user_id) do update set expires_at = null returning id`,
);
const addToGuestsCart = addStatement<"tokenHash">(
  (value) => sql`insert into ${carts} (token_hash, expires_at)
                 values (${value("tokenHash")}, now() + ${GUEST_CART_DAYS} * interval '1 day')
                 on conflict (token_hash) do update set expires_at = excluded.expires_at returning id`,
);

/**
 * Adds `quantity` of a variant (1 to 99), up to what is on hand and 99 in
 * all, in one statement (the busiest write a shop has: one round trip): the
 * cart is made or kept 30 more days, the variant and its stock read, the line
 * written, and what it held before read from the same snapshot. Without a
 * variant, the product's only one on sale is meant.
 */
export async function addToCart(
  db: Database,
  owner: CartOwner,
  line: { productId: number; variantId?: number | undefined; quantity: number },
): Promise<AddOutcome> {
  const { productId, quantity } = line;
  const values = { productId, variantId: line.variantId ?? null, quantity, currency: shopMoney().currency };
  try {
    const [row] =
      "userId" in owner
        ? await addToAccountsCart(db, { ...values, userId: owner.userId })
        : await addToGuestsCart(db, { ...values, tokenHash: hashOf(owner.guestToken) });
    if (!row || row.stock === null || row.variantId === null) return whyNotAdded(db, line);
    if (row.quantity === null) return { outcome: "sold-out", variantId: row.variantId };
    const added = Number(row.quantity);
    return {
      outcome: "added",
      cartId: row.cartId,
      variantId: row.variantId,
      quantity: added,
      capped: added < Number(row.before ?? 0) + quantity,
      stock: Number(row.stock),
    };
  } catch (error) {
    // Sold out since it was read: least(…, 0) breaks the 1–99 check, and nothing is written.
    if (failedWith(error, CHECK_VIOLATION)) return { outcome: "sold-out", variantId: line.variantId ?? null };
    throw error;
  }
}

/** Why an add found no variant to add (rare: read only then). */
async function whyNotAdded(
  db: Database,
  line: { productId: number; variantId?: number | undefined },
): Promise<AddOutcome> {
  const variants = await db
    .select({ id: productVariants.id, archived: sql<boolean>`${productVariants.archivedAt} is not null` })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(productVariants.productId, line.productId), onSale));
  const live = variants.filter((variant) => !variant.archived);
  if (live.length === 0) return { outcome: "unknown-product" };
  if (line.variantId === undefined) return { outcome: "variant-required" };
  const asked = variants.find((variant) => variant.id === line.variantId);
  if (!asked) return { outcome: "unknown-variant" };
  return { outcome: "sold-out", variantId: asked.id };
}

interface AddedRow {
  cartId: string;
  variantId: number | null;
  stock: number | null;
  before: number | null;
  quantity: number | null;
}

/**
 * Sets a line's quantity (0 removes it), up to what is on hand and 99: a
 * retry sets the same again. A line is a variant. Answers the quantity now
 * in the cart (0 once removed), or null when the cart has no such line
 * (removed in another tab).
 */
export async function setLineQuantity(
  db: Database,
  owner: CartOwner,
  variantId: number,
  quantity: number,
): Promise<number | null> {
  const cartId = await cartIdOf(db, owner);
  if (!cartId) return null;
  const line = and(eq(cartLines.cartId, cartId), eq(cartLines.variantId, variantId));
  if (quantity > 0) {
    const [updated] = await db
      .update(cartLines)
      .set({ quantity: sql`least(${quantity}, ${MOST_IN_ONE_LINE}, ${onHandOf(variantId)})` })
      .where(and(line, sql`${onHandOf(variantId)} > 0`))
      .returning({ quantity: cartLines.quantity });
    if (updated) return updated.quantity;
  }
  // Removed, asked for 0, or sold out: a line of nothing is no line.
  const removed = await db.delete(cartLines).where(line).returning({ variantId: cartLines.variantId });
  return removed.length > 0 ? 0 : null;
}

/** A cart's line as the database holds it. */
interface CartLineRow {
  productId: number;
  variantId: number;
  name: string;
  sku: string;
  options: Record<string, string>;
  image: string;
  unitPriceCents: number;
  unitPriceCentsSeen: number;
  currencySeen: string;
  quantity: number;
  stock: number;
}

/** The lines of the cart `where` names, in the order they were added (fixed: read on every add). */
const cartLinesWhere = <Name extends string>(where: (value: (name: Name) => Placeholder) => SQL) =>
  fixedStatement<CartLineRow, Name>(
    (value) => sql`
      select ${cartLines.productId} as "productId", ${cartLines.variantId} as "variantId",
             ${products.name} as "name", v.sku as "sku", ${variantOptions(sql`v`)} as "options",
             coalesce(v.image, ${products.image}) as "image",
             v.price_minor as "unitPriceCents", ${cartLines.unitPriceCentsSeen} as "unitPriceCentsSeen",
             ${cartLines.currencySeen} as "currencySeen", ${cartLines.quantity} as "quantity",
             ${stockLevels.onHand} as "stock"
        from ${cartLines}
        join ${carts} on ${carts.id} = ${cartLines.cartId}
        join ${productVariants} v on v.id = ${cartLines.variantId}
        join ${products} on ${products.id} = ${cartLines.productId}
        join ${stockLevels} on ${stockLevels.variantId} = ${cartLines.variantId}
       where ${where(value)}
       order by ${cartLines.addedAt}, ${cartLines.productId}, ${cartLines.variantId}`,
    { numbers: ["unitPriceCents", "unitPriceCentsSeen"] },
  );
const linesByCart = cartLinesWhere<"cartId">((value) => sql`${carts.id} = ${value("cartId")}`);
const linesByAccount = cartLinesWhere<"userId">((value) => sql`${carts.userId} = ${value("userId")}`);
const linesByGuest = cartLinesWhere<"tokenHash">((value) => guestsCart(value("tokenHash")));

function cartLineRows(db: Database, owner: CartOwner | { cartId: string }): Promise<CartLineRow[]> {
  if ("cartId" in owner) return linesByCart(db, { cartId: owner.cartId });
  if ("userId" in owner) return linesByAccount(db, { userId: owner.userId });
  return linesByGuest(db, { tokenHash: hashOf(owner.guestToken) });
}

/** The owner's cart as it is now: today's prices and stock beside each line. */
export async function readCart(db: Database, owner: CartOwner | { cartId: string }): Promise<CartView> {
  const rows = await cartLineRows(db, owner);
  const { currency } = shopMoney();
  const repricedFrom = rows.find((row) => row.currencySeen !== currency)?.currencySeen ?? null;
  const lines = rows.map(({ unitPriceCentsSeen, currencySeen, ...row }) => ({
    ...row,
    lineTotalCents: timesQuantity(money(row.unitPriceCents, currency), row.quantity).minor,
    // A price seen in another currency is no price to compare with: the cart's note says why they all changed.
    priceChanged: currencySeen === currency && row.unitPriceCents !== unitPriceCentsSeen,
  }));
  if (repricedFrom !== null && lines.length > 0) await repriceInShopCurrency(db, owner, currency);
  return {
    lines,
    itemCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotalCents: sumMoney(
      currency,
      lines.map((line) => money(line.lineTotalCents, currency)),
    ).minor,
    currency,
    repricedFrom,
  };
}

/**
 * The shop changed its currency since these lines were added: they are seen
 * at today's prices in the new one from now on (the note is shown once).
 */
async function repriceInShopCurrency(
  db: Database,
  owner: CartOwner | { cartId: string },
  currency: CurrencyCode,
): Promise<void> {
  const cartId = "cartId" in owner ? owner.cartId : await cartIdOf(db, owner);
  if (!cartId) return;
  await db.execute(sql`
    update ${cartLines} l set currency_seen = ${currency}, unit_price_cents_seen = v.price_minor
      from ${productVariants} v
     where l.cart_id = ${cartId}::uuid and l.variant_id = v.id and l.currency_seen <> ${currency}`);
}

/** How many items the owner's cart holds, for the navbar: one sum over the cart's lines. */
export async function cartItemCount(db: Database, owner: CartOwner): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`coalesce(sum(${cartLines.quantity}), 0)::int` })
    .from(cartLines)
    .innerJoin(carts, eq(carts.id, cartLines.cartId))
    .where(ownersCart(owner));
  return Number(row?.count ?? 0);
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
      insert into ${cartLines} (cart_id, variant_id, product_id, quantity, unit_price_cents_seen, currency_seen)
      select ${account}::uuid, g.variant_id, g.product_id, least(g.quantity, ${MOST_IN_ONE_LINE}, s.on_hand),
             g.unit_price_cents_seen, g.currency_seen
        from ${cartLines} g join ${stockLevels} s on s.variant_id = g.variant_id
       where g.cart_id = ${guest}::uuid and s.on_hand > 0
      on conflict (cart_id, variant_id) do update
        set quantity = least(${cartLines.quantity} + excluded.quantity, ${MOST_IN_ONE_LINE},
                             ${onHandOf(sql`excluded.variant_id`)})`);
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
