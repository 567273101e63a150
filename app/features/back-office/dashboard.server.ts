import { sql } from "drizzle-orm";
import { optionsLabel } from "~/commerce/options-label";
import type { OrderStatus } from "~/commerce/order-states";
import { hasSaleStatus, isShopperOrder } from "~/commerce/sales";
import { variantOptions } from "~/commerce/variant-options.server";
import type { Database } from "~/db/client.server";
import { onSale } from "~/db/product-on-sale";

/**
 * The back office's dashboard (`/admin`): orders and revenue today, over 7
 * and over 30 days, and each of the last 30 days; the orders waiting for
 * action; the products low on stock. Days are UTC days, whatever the
 * visitor's clock (the page says so). Revenue is the orders' totals in
 * integer cents, summed by the database, without cancelled orders nor card
 * orders still waiting for their payment; the order counts include every
 * order placed. Card payments that need a refund (paid after their order
 * was cancelled) are listed until refunded.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** How many days the chart and its table show, today included. */
const DASHBOARD_DAYS = 30;
/** Low-stock products listed by name; the count says how many there are in all. */
const LOW_STOCK_LISTED = 10;
/** Counts past this are shown as "10,000 or more": counting further would read rows no one needs. */
const COUNTED_UP_TO = 10_000;
/** Orders waiting for action listed by number, oldest first. */
const WAITING_LISTED = 5;

export interface PeriodFigures {
  orders: number;
  /** The sales in the shop's currency now, in its minor units. */
  revenueCents: number;
  /** Sales in another currency (placed before the owner changed it): counted in `orders`, not in revenue. */
  otherCurrencySales: number;
}

export interface DayFigures extends PeriodFigures {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
}

interface WaitingOrder {
  number: string;
  status: OrderStatus;
  placedAt: string;
  totalCents: number;
  /** What its total is in (ISO 4217). */
  currency: string;
}

/** A variant low on stock (a product of one variant: the product), with its product's page. */
interface LowStockProduct {
  id: number;
  variantId: number;
  name: string;
  sku: string;
  /** Its option values ("Size M · Colour Red"); empty for a product without options. */
  options: string;
  onHand: number;
}

export interface Dashboard {
  /** The UTC day "today" is, YYYY-MM-DD. */
  today: string;
  periods: { today: PeriodFigures; last7Days: PeriodFigures; last30Days: PeriodFigures };
  days: DayFigures[];
  waiting: { placed: number; paid: number; oldest: WaitingOrder[] };
  /** The currency revenue is summed in: the shop's now. */
  currency: string;
  /** Card payments to refund, oldest first (docs/decisions/0032), each in its order's currency. */
  toRefund: { number: string; amountCents: number; currency: string }[];
  lowStock: { at: number; count: number; products: LowStockProduct[] };
  /** The counts above stop here: a count that reaches it means "this many or more". */
  countedUpTo: number;
}

const startOfUtcDay = (at: Date) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

// A bigint sum arrives as text from PostgreSQL; cents stay integers (Number is exact to 2^53).
const cents = (value: unknown) => Number(value ?? 0);

/** The rows of a raw query, on either engine (both drivers answer with `rows`). */
async function rowsOf<Row>(db: Database, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

export async function dashboardOf(
  db: Database,
  { now = new Date(), lowStockAt, currency }: { now?: Date; lowStockAt: number; currency: string },
): Promise<Dashboard> {
  const today = startOfUtcDay(now);
  const since7 = new Date(today.getTime() - 6 * DAY_MS);
  const since30 = new Date(today.getTime() - (DASHBOARD_DAYS - 1) * DAY_MS);
  // Each query reads only its range of orders (orders_created_at_idx, orders_status_created_at_idx)
  // or the low stock levels, never the whole catalogue's rows into the process.
  const [daily, [waitingCounts], oldest, lowStock, [lowStockCount], toRefund] = await Promise.all([
    // Amounts in different currencies are never added: revenue is the sales in the shop's currency.
    rowsOf<{ day: string; orders: number; revenue_cents: string; other_currency_sales: number }>(
      db,
      sql`
      select (created_at at time zone 'UTC')::date::text as day,
             count(*)::int as orders,
             coalesce(sum(total_cents) filter (where ${hasSaleStatus(sql.raw("status"))} and currency = ${currency}), 0)::bigint as revenue_cents,
             (count(*) filter (where ${hasSaleStatus(sql.raw("status"))} and currency <> ${currency}))::int as other_currency_sales
      from orders
      where created_at >= ${since30.toISOString()}::timestamptz
        -- The demo buyers' orders (docs/decisions/0033) are not the shop's: neither counted nor summed.
        and ${isShopperOrder({ idempotencyScope: sql.raw("idempotency_scope") })}
      group by 1`,
    ),
    // Counted up to a bound: a shop with more waiting than that needs the list, not the number.
    rowsOf<{ placed: number; paid: number }>(
      db,
      sql`
      select (select count(*) from (select 1 from orders where status = 'placed' limit ${COUNTED_UP_TO}) placed)::int as placed,
             (select count(*) from (select 1 from orders where status = 'paid' limit ${COUNTED_UP_TO}) paid)::int as paid`,
    ),
    rowsOf<{
      number: string;
      status: OrderStatus;
      created_at: string | Date;
      total_cents: number | string;
      currency: string;
    }>(
      db,
      sql`
      select number, status, created_at, total_cents, currency from orders
      where status = 'placed' order by created_at, id limit ${WAITING_LISTED}`,
    ),
    // The lowest levels first, then their products (an index lookup each): never a join of the
    // whole catalogue. Archived products keep their levels, so a few more are read than listed.
    rowsOf<{
      id: number;
      variant_id: number;
      name: string;
      sku: string;
      options: Record<string, string>;
      on_hand: number;
    }>(
      db,
      sql`
      select products.id, v.id as variant_id, products.name, v.sku, ${variantOptions(sql`v`)} as options, low.on_hand
      from (select product_id, variant_id, on_hand from stock_levels where on_hand <= ${lowStockAt}
            order by on_hand, product_id, variant_id limit ${LOW_STOCK_LISTED * 50}) low
      join products on products.id = low.product_id
      join product_variants v on v.id = low.variant_id
      where ${onSale} and v.archived_at is null
      order by low.on_hand, low.product_id, low.variant_id
      limit ${LOW_STOCK_LISTED}`,
    ),
    rowsOf<{ count: number }>(
      db,
      sql`
      select count(*)::int as count from (
        select 1 from stock_levels
        where on_hand <= ${lowStockAt}
          and exists (select 1 from products where products.id = stock_levels.product_id and ${onSale})
          and exists (select 1 from product_variants v where v.id = stock_levels.variant_id and v.archived_at is null)
        limit ${COUNTED_UP_TO}) low`,
    ),
    // A partial index holds exactly these (card_payments_needs_refund_idx): few, however many orders.
    rowsOf<{ number: string; amount_cents: number | string; currency: string }>(
      db,
      sql`
      select orders.number, card_payments.amount_cents, orders.currency from card_payments
      join orders on orders.id = card_payments.order_id
      where card_payments.needs_refund
      order by card_payments.paid_at, card_payments.id
      limit ${WAITING_LISTED}`,
    ),
  ]);
  const byDay = new Map(daily.map((row) => [row.day, row]));
  const days: DayFigures[] = Array.from({ length: DASHBOARD_DAYS }, (_, at) => {
    const day = dayOf(new Date(since30.getTime() + at * DAY_MS));
    const row = byDay.get(day);
    return {
      day,
      orders: row?.orders ?? 0,
      revenueCents: cents(row?.revenue_cents),
      otherCurrencySales: row?.other_currency_sales ?? 0,
    };
  });
  const sumFrom = (from: Date): PeriodFigures =>
    days
      .filter(({ day }) => day >= dayOf(from))
      .reduce(
        (sum, { orders, revenueCents, otherCurrencySales }) => ({
          orders: sum.orders + orders,
          revenueCents: sum.revenueCents + revenueCents,
          otherCurrencySales: sum.otherCurrencySales + otherCurrencySales,
        }),
        { orders: 0, revenueCents: 0, otherCurrencySales: 0 },
      );
  return {
    today: dayOf(today),
    periods: { today: sumFrom(today), last7Days: sumFrom(since7), last30Days: sumFrom(since30) },
    days,
    waiting: {
      placed: waitingCounts?.placed ?? 0,
      paid: waitingCounts?.paid ?? 0,
      oldest: oldest.map((row) => ({
        number: row.number,
        status: row.status,
        placedAt: new Date(row.created_at).toISOString(),
        // bigint: text from node-postgres.
        totalCents: Number(row.total_cents),
        currency: row.currency,
      })),
    },
    currency,
    toRefund: toRefund.map((row) => ({
      number: row.number,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
    })),
    countedUpTo: COUNTED_UP_TO,
    lowStock: {
      at: lowStockAt,
      count: lowStockCount?.count ?? 0,
      products: lowStock.map(({ id, variant_id, name, sku, options, on_hand }) => ({
        id,
        variantId: variant_id,
        name,
        sku,
        options: optionsLabel(options),
        onHand: on_hand,
      })),
    },
  };
}
