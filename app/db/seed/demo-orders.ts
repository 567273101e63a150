import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * The demo buyers' orders (docs/decisions/0033): they exist only so that the demo's reviews come
 * from buyers who bought and received what they review. They are not the shop's: its figures leave
 * them out, and they keep no product an import prunes. What marks them is known here only.
 */

/** Their idempotency scope starts with this; no shopper's scope (an account, a guest's cart) does. */
const DEMO_ORDER_SCOPE_PREFIX = "demo:";

/** The idempotency scope of a demo buyer's order. */
export const demoOrderScope = (buyerId: string): string => `${DEMO_ORDER_SCOPE_PREFIX}${buyerId}`;

/** The order is one of the demo buyers' (SQL). */
export const isDemoOrder = (order: { idempotencyScope: AnyColumn | SQL }): SQL =>
  sql`(${order.idempotencyScope} like ${`${DEMO_ORDER_SCOPE_PREFIX}%`})`;
