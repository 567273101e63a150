import { and, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from "drizzle-orm";
import { isOrderStatus, type OrderStatus, STATUS_LABELS } from "~/commerce/order-states";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import { escapeLike } from "~/utils/sql-like";
import {
  ADMIN_ORDER_LIST_PARAMETERS,
  type AdminOrderListQuery,
  adminOrderListSchema,
} from "./order-admin-schema";
import type { AddressSnapshot } from "./order-format";
import { isOrderNumber } from "./order-number";
import { paymentMethod } from "./payment-methods.server";

/**
 * The back office's list of orders (/admin/orders): newest first, a page at
 * a time, filtered by status and by the days they were placed, and searched
 * by what staff have at hand when a customer calls — the order number, the
 * email, or the name on the parcel. Guests are found here, by their email:
 * the customers list holds accounts only (features/customers).
 *
 * Each filter rides an index: created_at for the newest first and the days,
 * (status, created_at) for a status, email for an email, the number's unique
 * index for a number. A name is the one search without one: it reads the
 * address snapshot of the orders walked newest first, which the page's size
 * bounds once enough match.
 */
const ORDERS_PER_ADMIN_PAGE = 25;

const DAY_MS = 24 * 60 * 60 * 1000;

function conditionsOf(query: AdminOrderListQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(orders.status, query.status));
  if (query.from) conditions.push(gte(orders.createdAt, new Date(`${query.from}T00:00:00Z`)));
  // `to` is a whole day: everything before the next one starts.
  if (query.to) conditions.push(lt(orders.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)));
  const q = query.q;
  if (q) {
    if (isOrderNumber(q.toUpperCase())) conditions.push(eq(orders.number, q.toUpperCase()));
    else if (q.includes("@")) {
      conditions.push(or(eq(orders.email, q), eq(orders.email, q.toLowerCase())) as SQL);
    } else conditions.push(ilike(sql`${orders.shippingAddress}->>'name'`, `%${escapeLike(q)}%`));
  }
  return conditions.length > 0 ? and(...conditions) : undefined;
}

interface AdminOrderRow {
  number: string;
  status: OrderStatus;
  statusLabel: string;
  placedAt: string;
  name: string;
  email: string;
  paymentMethod: string;
  totalCents: number;
  currency: string;
}

async function searchOrders(db: Database, query: AdminOrderListQuery) {
  const where = conditionsOf(query);
  const [counted, rows] = await Promise.all([
    db.select({ total: count() }).from(orders).where(where),
    db
      .select({
        number: orders.number,
        status: orders.status,
        placedAt: orders.createdAt,
        shippingAddress: orders.shippingAddress,
        email: orders.email,
        paymentMethod: orders.paymentMethod,
        totalCents: orders.totalCents,
        currency: orders.currency,
      })
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(ORDERS_PER_ADMIN_PAGE)
      .offset((query.page - 1) * ORDERS_PER_ADMIN_PAGE),
  ]);
  const total = Number(counted[0]?.total ?? 0);
  return {
    total,
    totalPages: Math.ceil(total / ORDERS_PER_ADMIN_PAGE),
    orders: rows.map(
      (row): AdminOrderRow => ({
        number: row.number,
        status: row.status,
        statusLabel: isOrderStatus(row.status) ? STATUS_LABELS[row.status] : row.status,
        placedAt: row.placedAt.toISOString(),
        name: (row.shippingAddress as AddressSnapshot).name,
        email: row.email,
        paymentMethod: paymentMethod(row.paymentMethod).label,
        totalCents: row.totalCents,
        currency: row.currency,
      }),
    ),
  };
}

/**
 * The list's page from its URL: the orders, or — for a parameter that does
 * not read (an unknown status, a date that is not one) — no orders and each
 * problem named by its parameter, for the page to answer 400 with its form.
 */
export async function adminOrderListData(db: Database, url: URL) {
  const raw = Object.fromEntries(
    ADMIN_ORDER_LIST_PARAMETERS.map((name) => [name, url.searchParams.get(name) ?? undefined]),
  );
  const filters = { status: raw.status ?? "", from: raw.from ?? "", to: raw.to ?? "", q: raw.q ?? "" };
  const parsed = adminOrderListSchema.safeParse(raw);
  if (!parsed.success) {
    const problems: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "q");
      problems[field] ??= issue.message;
    }
    return { ok: false as const, filters, problems, page: 1, total: 0, totalPages: 0, orders: [] };
  }
  const found = await searchOrders(db, parsed.data);
  return { ok: true as const, filters, problems: {}, page: parsed.data.page, ...found };
}

export type AdminOrderListData = Awaited<ReturnType<typeof adminOrderListData>>;
