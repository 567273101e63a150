import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { isDemoOrder } from "~/db/seed/demo-orders";
import type { OrderStatus } from "./order-states";

/**
 * What counts as a sale, in one place: the customers' spending, the
 * dashboard's revenue, a review's verified buyer and any later report use
 * these, never a status list of their own.
 */

/** An order in one of these has sold its lines: a cancelled order, or a card order still awaiting its payment, has not. */
const SALE_STATUSES = ["placed", "paid", "shipped"] as const satisfies readonly OrderStatus[];

const SALE_STATUS_LIST = sql.raw(SALE_STATUSES.map((status) => `'${status}'`).join(", "));

/** The order's status is a sale's (SQL). */
export const hasSaleStatus = (status: AnyColumn | SQL): SQL => sql`${status} in (${SALE_STATUS_LIST})`;

/**
 * A shopper's order (SQL): any order but the demo buyers' (docs/decisions/0033), which exist only so
 * that the demo's reviews come from buyers. The shop's figures count only shoppers' orders, and only
 * a shopper's order keeps a product an import prunes: the others go with it.
 */
export const isShopperOrder = (order: { idempotencyScope: AnyColumn | SQL }): SQL =>
  sql`(not ${isDemoOrder(order)})`;

/** A sale, as the shop's figures count it: a shopper's order with a sale's status. */
export const isSale = (order: { status: AnyColumn | SQL; idempotencyScope: AnyColumn | SQL }): SQL =>
  sql`(${hasSaleStatus(order.status)} and ${isShopperOrder(order)})`;
