import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { QuoteRefusal, TaxAmount } from "~/commerce/checkout-quote";
import type { OrderStatus } from "~/commerce/order-states";
import { takeStock as takeStockLines } from "~/commerce/stock.server";
import type { TaxShippingSetup } from "~/commerce/tax-shipping-setup";
import type { Transaction } from "~/db/client.server";
import { failedOnLockCycle, failedWith, UNIQUE_VIOLATION } from "~/db/errors.server";
import { orders } from "~/db/schema";
import type { MailQueue, QueuedMessage } from "~/utils/mail-queue.server";
import type { ShortLine } from "./checkout-schema";
import { chargedAtAddress, type PricedLine } from "./order-charge";
import type { AddressSnapshot } from "./order-format";
import { orderLinesOf } from "./order-lines.server";
import { newOrderNumber } from "./order-number";
import {
  cartLinesOf,
  claimKey,
  emptyCart,
  lockCart,
  variantsNow,
  writeLines,
  writeTotals,
} from "./placing-statements.server";

/**
 * Placing an order in one transaction (docs/decisions/0027): the
 * idempotency key is claimed first, the stock taken with conditional
 * updates that never go below zero, the lines snapshotted at the prices the
 * database holds now, in integer cents, and charged the quote of the shop's
 * tax and shipping setup at its address (commerce/checkout-quote.ts): the
 * method's price, each line's tax. A short line takes nothing at all.
 * The confirmation email is written by the same transaction (the mail
 * queue's, decision 0025), so it exists exactly when the order does: a retry
 * that finds its order, a short line and an empty cart write none.
 */

export interface OrderRequest {
  /** Whose key space the key is in ("user:<id>", "cart:<id>"): one shopper's key never finds another's order. */
  idempotencyScope: string;
  idempotencyKey: string;
  userId: string | null;
  email: string;
  shippingAddress: AddressSnapshot;
  shippingMethod: string;
  paymentMethod: string;
  /**
   * The shop's tax and shipping setup: the order is charged its quote for the
   * lines read in the placing transaction, at the shipping address, by `shippingMethod`.
   */
  setup: TaxShippingSetup;
  /** The shop's currency now (ISO 4217): its prices and shipping are in it, and the order records it. */
  currency: string;
  /**
   * The total the shopper was shown and agreed to, in cents: when the order
   * comes to another (a price, the cart or the shipping method changed since),
   * nothing is placed. Null places it at whatever it comes to.
   */
  expectedTotalCents?: number | null;
  /** What to order when there is no cart (`cartId`): a cart's lines are read in the placing transaction. */
  lines?: OrderedLine[];
  /**
   * The cart to order: its lines are read under a lock on its row in the
   * placing transaction, and emptied by it, and only then.
   */
  cartId?: string;
  /**
   * The status it starts in: `placed`, or `awaiting-payment` for a card order,
   * which is cancelled once `paymentDueAt` passes unpaid (docs/decisions/0032).
   */
  status: "placed" | "awaiting-payment";
  paymentDueAt: Date | null;
  /**
   * The confirmation email of the order just placed (order-email.server.ts),
   * queued in its transaction; none for a card order, confirmed once paid.
   */
  confirmation: ((order: OrderToConfirm) => QueuedMessage) | null;
}

/** A variant and how many of it, its product beside it. */
interface OrderedLine {
  productId: number;
  variantId: number;
  quantity: number;
}

export interface PlacedOrderLine {
  productId: number;
  variantId: number;
  name: string;
  sku: string;
  /** Its option values when sold, by option name; `{}` for a product without options. */
  options: Record<string, string>;
  unitPriceCents: number;
  quantity: number;
  lineTotalCents: number;
  /** Its tax: contained in `lineTotalCents` when the order's prices include tax, else added to it. */
  taxCents: number;
}

/** The tax an order was charged: each rate's, their sum, and whether the prices contain it. */
export interface OrderTaxes {
  taxCents: number;
  taxes: TaxAmount[];
  pricesIncludeTax: boolean;
}

interface PlacedOrder extends OrderTaxes {
  id: number;
  number: string;
  status: OrderStatus;
  subtotalCents: number;
  shippingCents: number;
  /** The shipping method's name as its zone offered it ("Express"). */
  shippingMethodName: string | null;
  totalCents: number;
  /** What its amounts are in (ISO 4217): the shop's currency when it was placed. */
  currency: string;
  lines: PlacedOrderLine[];
}

/** What the confirmation email says: the order as placed, and what the shopper chose for it. */
export interface OrderToConfirm
  extends PlacedOrder,
    Pick<OrderRequest, "email" | "shippingAddress" | "shippingMethod" | "paymentMethod"> {}

/** What the order would come to now: its lines at today's prices and its totals, in cents. */
interface OrderQuote extends OrderTaxes {
  lines: PlacedOrderLine[];
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  currency: string;
}

export type Placement =
  | { outcome: "placed"; order: PlacedOrder /** The key had made this order already. */; replayed: boolean }
  | { outcome: "short"; lines: ShortLine[] }
  /** Nothing placed: the order comes to another total than the one expected. */
  | { outcome: "total-changed"; expectedTotalCents: number; order: OrderQuote }
  | { outcome: "empty" }
  | { outcome: "key-reused" }
  /** Nothing placed: the shop does not ship or sell to the address, or not by that method. */
  | { outcome: "not-quoted"; refusal: QuoteRefusal };

/** Thrown inside the transaction to roll it back when a line is short. */
class StockShort extends Error {
  constructor(readonly lines: ShortLine[]) {
    super("stock short");
  }
}

/** Thrown inside the transaction to roll back the key's claim when there is nothing to order. */
class NothingToOrder extends Error {}

/** Thrown inside the transaction when the setup has no quote for the address: the key's claim rolls back too. */
class NotQuoted extends Error {
  constructor(readonly refusal: QuoteRefusal) {
    super("not quoted");
  }
}

/**
 * Thrown inside the transaction when the order's total is not the one the
 * shopper was shown: everything rolls back, the key's claim too, so the same
 * key sent again with the new total places the order (docs/decisions/0039).
 */
class TotalChanged extends Error {
  constructor(
    readonly expectedTotalCents: number,
    readonly order: OrderQuote,
  ) {
    super("total changed");
  }
}

/** Number draws before a collision of random order numbers is taken for a fault. */
const NUMBER_DRAWS = 3;

type AddMessage = (message: QueuedMessage) => Promise<void>;

/** Places the order in a transaction of the shop's mail queue (its database), which also writes the email. */
export async function placeOrder(mail: MailQueue, request: OrderRequest): Promise<Placement> {
  const lines = mergedLines(request.lines ?? []);
  const requestHash = hashOf(request);
  for (let draw = 1; ; draw++) {
    try {
      return await mail.transaction((tx, add) => placeIn(tx, add, request, lines, requestHash));
    } catch (error) {
      if (error instanceof StockShort) return { outcome: "short", lines: error.lines };
      if (error instanceof NothingToOrder) return { outcome: "empty" };
      if (error instanceof NotQuoted) return { outcome: "not-quoted", refusal: error.refusal };
      if (error instanceof TotalChanged) {
        return { outcome: "total-changed", expectedTotalCents: error.expectedTotalCents, order: error.order };
      }
      if (draw < NUMBER_DRAWS && failedWith(error, UNIQUE_VIOLATION, "orders_number_unique")) continue;
      // Ended by PostgreSQL to break a lock cycle (an import writing the same products): nothing was
      // written, so the same placement runs again.
      if (draw < NUMBER_DRAWS && failedOnLockCycle(error)) {
        continue;
      }
      throw error;
    }
  }
}

async function placeIn(
  tx: Transaction,
  add: AddMessage,
  request: OrderRequest,
  requestedLines: OrderedLine[],
  requestHash: string,
): Promise<Placement> {
  let lines = requestedLines;
  // The key first: a second request with it waits here until the first ends, then finds its order.
  const [claimed] = await claimKey(tx, {
    number: newOrderNumber(),
    scope: request.idempotencyScope,
    key: request.idempotencyKey,
    requestHash,
    userId: request.userId,
    email: request.email,
    address: JSON.stringify(request.shippingAddress),
    shippingMethod: request.shippingMethod,
    paymentMethod: request.paymentMethod,
    status: request.status,
    paymentDueAt: request.paymentDueAt?.toISOString() ?? null,
    // What the prices and shipping below are in; the order keeps it whatever the shop later sells in.
    currency: request.currency,
  });
  if (!claimed) {
    const existing = await readOrderByKey(tx, request.idempotencyScope, request.idempotencyKey);
    if (!existing || existing.requestHash !== requestHash) return { outcome: "key-reused" };
    return { outcome: "placed", order: existing.order, replayed: true };
  }

  // The cart's lines as they are now, its row locked: a second checkout of the same cart (another
  // tab, another key) waits here until this one ends, then finds the cart empty.
  if (request.cartId) lines = await lockedCartLines(tx, request.cartId);
  // Checked after the key: a retry of a placed order finds its cart empty, and its order above.
  if (lines.length === 0) throw new NothingToOrder();

  const charged = chargedAtAddress(request, await linesAtTodaysPrices(tx, lines));
  if (!charged.ok) throw new NotQuoted(charged.refusal);
  const { soldLines, subtotalCents, shippingCents, totalCents, taxes } = charged.order;
  const { expectedTotalCents } = request;
  if (expectedTotalCents != null && expectedTotalCents !== totalCents) {
    // A short line is said first: the shopper's next step is the cart, not the new total.
    await takeStock(tx, lines);
    throw new TotalChanged(expectedTotalCents, {
      lines: soldLines,
      subtotalCents,
      shippingCents,
      totalCents,
      ...taxes,
      currency: request.currency,
    });
  }
  // Everything but the stock is written first: the popular products' stock rows are what checkouts
  // wait on, so they are locked last and held only until the commit (docs/decisions/0027). A short
  // line rolls all of it back.
  const orderId = claimed.id;
  await writeLines(tx, {
    orderId,
    productIds: soldLines.map((line) => line.productId),
    variantIds: soldLines.map((line) => line.variantId),
    names: soldLines.map((line) => line.name),
    skus: soldLines.map((line) => line.sku),
    options: soldLines.map((line) => JSON.stringify(line.options)),
    unitPrices: soldLines.map((line) => line.unitPriceCents),
    quantities: soldLines.map((line) => line.quantity),
    lineTotals: soldLines.map((line) => line.lineTotalCents),
    lineTaxes: soldLines.map((line) => line.taxCents),
  });
  if (request.cartId) await emptyCart(tx, { cartId: request.cartId });
  const [order] = await writeTotals(tx, {
    orderId,
    subtotal: subtotalCents,
    shipping: shippingCents,
    total: totalCents,
    tax: taxes.taxCents,
    taxes: JSON.stringify(taxes.taxes),
    pricesIncludeTax: taxes.pricesIncludeTax,
    methodName: charged.order.shippingMethodName,
  });
  if (!order) throw new Error("the order just written is missing");
  const placed: PlacedOrder = {
    id: orderId,
    number: order.number,
    status: order.status,
    subtotalCents,
    shippingCents,
    shippingMethodName: charged.order.shippingMethodName,
    totalCents: order.totalCents,
    ...taxes,
    currency: request.currency,
    lines: soldLines,
  };
  const { email, shippingAddress, shippingMethod, paymentMethod } = request;
  if (request.confirmation) {
    await add(request.confirmation({ ...placed, email, shippingAddress, shippingMethod, paymentMethod }));
  }
  await takeStock(tx, lines);
  return { outcome: "placed", replayed: false, order: placed };
}

/**
 * The order's lines at the prices the database holds now, in (product,
 * variant) order. A line whose variant is gone is left out here; taking the
 * stock finds it short.
 */
async function linesAtTodaysPrices(tx: Transaction, lines: OrderedLine[]): Promise<PricedLine[]> {
  const quantities = new Map(lines.map((line) => [line.variantId, line]));
  const sold = await variantsNow(tx, { variantIds: [...quantities.keys()] });
  return sold
    .filter((variant) => variant.productId === quantities.get(variant.variantId)?.productId)
    .map((variant) => {
      const { quantity } = quantities.get(variant.variantId) as OrderedLine;
      return { ...variant, quantity, lineTotalCents: variant.unitPriceCents * quantity };
    })
    .sort(inProductOrder);
}

const inProductOrder = (a: OrderedLine, b: OrderedLine) =>
  a.productId - b.productId || a.variantId - b.variantId;

/** Takes the lines' stock (app/commerce/stock.server.ts), or throws StockShort naming every short line. */
async function takeStock(tx: Transaction, lines: OrderedLine[]) {
  const short = await takeStockLines(tx, lines);
  if (short.length > 0) {
    throw new StockShort(
      short.map(({ productId, variantId, asked, left }) => ({ productId, variantId, asked, left })),
    );
  }
}

async function readOrderByKey(
  tx: Transaction,
  scope: string,
  key: string,
): Promise<{ order: PlacedOrder; requestHash: string } | null> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.idempotencyScope, scope), eq(orders.idempotencyKey, key)));
  if (!row) return null;
  const lines = await orderLinesOf(tx, row.id);
  const { id, number, status, subtotalCents, shippingCents, shippingMethodName, totalCents, currency } = row;
  const { taxCents, taxes, pricesIncludeTax } = row;
  return {
    order: {
      ...{ id, number, status, subtotalCents, shippingCents, shippingMethodName, totalCents, currency },
      ...{ taxCents, taxes, pricesIncludeTax, lines },
    },
    requestHash: row.requestHash,
  };
}

/** The cart's lines, read under a lock on its row (the cart that placing empties). */
async function lockedCartLines(tx: Transaction, cartId: string): Promise<OrderedLine[]> {
  await lockCart(tx, { cartId });
  return mergedLines(await cartLinesOf(tx, { cartId }));
}

/** Lines by variant, in (product, variant) order, quantities added: two lines of one variant ask for their sum. */
function mergedLines(lines: readonly OrderedLine[]): OrderedLine[] {
  const merged = new Map<number, OrderedLine>();
  for (const line of lines) {
    const before = merged.get(line.variantId);
    merged.set(line.variantId, { ...line, quantity: (before?.quantity ?? 0) + line.quantity });
  }
  return [...merged.values()].sort(inProductOrder);
}

/**
 * What the client asked, in a fixed order: the same request hashes the same,
 * whatever the key. Not the lines: they are the cart's, which the order
 * empties, so a retry of a placed order comes with none. The region and the
 * expected total only when sent, so a request without them hashes as it did
 * before they existed (a retry of an older order still finds it).
 */
function hashOf(request: OrderRequest): string {
  const { name, line1, line2 = "", city, postalCode, country, region } = request.shippingAddress;
  const { expectedTotalCents } = request;
  const asked = [
    request.userId,
    request.email,
    [name, line1, line2, city, postalCode, country, ...(region ? [region] : [])],
    request.shippingMethod,
    request.paymentMethod,
    ...(expectedTotalCents != null ? [expectedTotalCents] : []),
  ];
  return createHash("sha256").update(JSON.stringify(asked)).digest("base64url");
}
