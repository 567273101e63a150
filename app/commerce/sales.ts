import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { DEMO_ORDER_SCOPE_PREFIX } from "~/db/seed/demo-reviews";
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
 * A sale, as the shop's figures count it: a sale's status, and not one of the
 * demo buyers' orders (docs/decisions/0033), which exist only so that the
 * demo's reviews come from buyers.
 */
export const isSale = (order: { status: AnyColumn | SQL; idempotencyScope: AnyColumn | SQL }): SQL =>
  sql`(${hasSaleStatus(order.status)} and ${order.idempotencyScope} not like ${`${DEMO_ORDER_SCOPE_PREFIX}%`})`;
