import { count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { isSale } from "~/commerce/sales";
import type { Database } from "~/db/client.server";
import { orders, users } from "~/db/schema";
import { escapeLike } from "~/utils/sql-like";
import {
  type CustomerListQuery,
  customerListSchema,
  customerOrdersQuerySchema,
  customerParamsSchema,
} from "./customer-schema";

/**
 * The back office's customers (/admin/customers): the shop's accounts, each
 * with how many orders it placed and what it spent (its orders' totals, the
 * cancelled ones left out), newest account first, searched by email or name.
 *
 * A customer is an account. A guest's orders carry an email and no account,
 * and the same person may check out as a guest under several spellings of
 * it, so guests are not gathered into customers here: they are found by
 * their email on /admin/orders, which the list's page says.
 */
const CUSTOMERS_PER_PAGE = 25;
const CUSTOMER_ORDERS_PER_PAGE = 20;

/** The account's orders and spending, each read through orders' (user_id, created_at) index. */
// Written out: a subquery's bare column names would resolve to the orders table, not the account's row.
const orderCount = sql<number>`(select count(*)::int from orders o where o.user_id = "users"."id")`;
// One sum per currency the account bought in (a shop may have changed currency): amounts in two currencies are never added.
const spent = sql<
  Spent[]
>`(select coalesce(json_agg(json_build_object('currency', s.currency, 'minor', s.minor) order by s.currency), '[]'::json) from (select o.currency, sum(o.total_cents)::bigint as minor from orders o where o.user_id = "users"."id" and ${isSale({ status: sql.raw("o.status"), idempotencyScope: sql.raw("o.idempotency_scope") })} group by o.currency) s)`;

/** What an account spent in one currency, in its minor units. */
export interface Spent {
  currency: string;
  minor: number;
}

/** A customer as the list and their page show them. */
const CUSTOMER_COLUMNS = {
  id: users.id,
  name: users.name,
  email: users.email,
  since: users.createdAt,
  orderCount,
  spent,
};

/** A row of CUSTOMER_COLUMNS as the pages take it: numbers as numbers (a driver may hand them back as text). */
function customerOf(row: {
  id: string;
  name: string;
  email: string;
  since: Date;
  orderCount: number;
  spent: Spent[];
}) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    since: row.since.toISOString(),
    orderCount: Number(row.orderCount),
    spent: row.spent.map(({ currency, minor }) => ({ currency, minor: Number(minor) })),
  };
}

function searchOf(query: CustomerListQuery): SQL | undefined {
  if (!query.q) return undefined;
  const pattern = `%${escapeLike(query.q)}%`;
  return or(ilike(users.email, pattern), ilike(users.name, pattern));
}

async function searchCustomers(db: Database, query: CustomerListQuery) {
  const where = searchOf(query);
  const [counted, rows] = await Promise.all([
    db.select({ total: count() }).from(users).where(where),
    db
      .select(CUSTOMER_COLUMNS)
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(CUSTOMERS_PER_PAGE)
      .offset((query.page - 1) * CUSTOMERS_PER_PAGE),
  ]);
  const total = Number(counted[0]?.total ?? 0);
  return {
    total,
    totalPages: Math.ceil(total / CUSTOMERS_PER_PAGE),
    customers: rows.map(customerOf),
  };
}

/** The list's page from its URL; a parameter that does not read comes back named, with no customers. */
export async function customerListData(db: Database, url: URL) {
  const raw = { q: url.searchParams.get("q") ?? undefined, page: url.searchParams.get("page") ?? undefined };
  const parsed = customerListSchema.safeParse(raw);
  if (!parsed.success) {
    const problems: Record<string, string> = {};
    for (const issue of parsed.error.issues) problems[String(issue.path[0] ?? "q")] ??= issue.message;
    return { ok: false as const, q: raw.q ?? "", problems, page: 1, total: 0, totalPages: 0, customers: [] };
  }
  const found = await searchCustomers(db, parsed.data);
  return { ok: true as const, q: raw.q ?? "", problems: {}, page: parsed.data.page, ...found };
}

export type CustomerListData = Awaited<ReturnType<typeof customerListData>>;

/**
 * One customer (/admin/customers/<id>): the account, its totals, and a page
 * of its orders, newest first. Null for an id nobody has (the page's 404);
 * `badPage` for a page parameter that does not read.
 */
export async function customerPageData(db: Database, params: Record<string, string | undefined>, url: URL) {
  const address = customerParamsSchema.safeParse(params);
  if (!address.success) return null;
  const [customer] = await db
    .select(CUSTOMER_COLUMNS)
    .from(users)
    .where(eq(users.id, address.data.customerId));
  if (!customer) return null;
  const query = customerOrdersQuerySchema.safeParse({ page: url.searchParams.get("page") ?? undefined });
  const page = query.success ? query.data.page : 1;
  const listed = await db
    .select({
      number: orders.number,
      status: orders.status,
      placedAt: orders.createdAt,
      totalCents: orders.totalCents,
      currency: orders.currency,
    })
    .from(orders)
    .where(eq(orders.userId, customer.id))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(CUSTOMER_ORDERS_PER_PAGE)
    .offset((page - 1) * CUSTOMER_ORDERS_PER_PAGE);
  const orderTotal = Number(customer.orderCount);
  return {
    badPage: query.success ? null : (query.error.issues[0]?.message ?? "page is a whole number from 1."),
    customer: customerOf(customer),
    page,
    totalPages: Math.ceil(orderTotal / CUSTOMER_ORDERS_PER_PAGE),
    orders: listed.map((order) => ({ ...order, placedAt: order.placedAt.toISOString() })),
  };
}

export type CustomerPageData = NonNullable<Awaited<ReturnType<typeof customerPageData>>>;
