import { and, eq, lte, sql } from "drizzle-orm";
import { onlyTransition } from "~/commerce/order-states";
import { failedOnLockCycle } from "~/db/errors.server";
import { orders } from "~/db/schema";
import { recordOrderEvent, SHOP_CLOCK_ACTOR } from "../order-events.server";
import { returnStock } from "../order-stock.server";
import type { OrderServices } from "../orders.server";
import { notPaidInTimeEmail } from "./card-payment-emails.server";
import { type CardPaymentServices, expireLeftOpenSessions, windowInWords } from "./card-payments.server";

/**
 * Card orders left unpaid past their window (CARD_PAYMENT_MINUTES) are
 * cancelled and their stock put back (docs/decisions/0040). Every process
 * runs a sweeper, so a restart or a dead process loses nothing: each order
 * is cancelled in a transaction that locks its row with SKIP LOCKED and
 * changes it only if it still waits and is due, so of several processes one
 * does it, once. The sweeper looks when an order it placed falls due, and
 * at least every minute (or every window, if shorter) for the others'.
 */

type Deps = Pick<OrderServices, "db" | "mail" | "linkSecret" | "baseUrl"> & {
  /**
   * The window, and Stripe to expire sessions at — null once card payments
   * are turned off: the orders placed before still fall due, and their
   * stock comes back (their sessions expire at Stripe on Stripe's own clock).
   */
  card: Pick<CardPaymentServices, "windowMinutes"> & { gateway: CardPaymentServices["gateway"] | null };
};

/** Orders cancelled per transaction batch: a long backlog is worked through pass after pass. */
const BATCH = 50;
/** The shortest wait between two passes. */
const MIN_WAIT_MS = 250;

/** One pass: every due order cancelled (by this process or another), then sessions left open expired. */
export async function cancelUnpaidCardOrders(deps: Deps): Promise<number> {
  const windowClosed = onlyTransition("payment-window-closed");
  const due = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, windowClosed.from), lte(orders.paymentDueAt, sql`now()`)))
    .orderBy(orders.paymentDueAt)
    .limit(BATCH);
  let cancelled = 0;
  for (const { id } of due) {
    if (await cancelIfStillDue(deps, id)) cancelled += 1;
  }
  if (deps.card.gateway) await expireLeftOpenSessions(deps.db, deps.card.gateway);
  return cancelled;
}

async function cancelIfStillDue(deps: Deps, orderId: number): Promise<boolean> {
  const windowClosed = onlyTransition("payment-window-closed");
  const window = windowInWords(deps.card.windowMinutes);
  try {
    return await deps.mail.transaction(async (tx, add) => {
      const [order] = await tx
        .select({
          id: orders.id,
          number: orders.number,
          email: orders.email,
          shippingAddress: orders.shippingAddress,
          totalCents: orders.totalCents,
          currency: orders.currency,
        })
        .from(orders)
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.status, windowClosed.from),
            lte(orders.paymentDueAt, sql`now()`),
          ),
        )
        // Another process cancelling it, or a webhook paying it, holds the row: theirs to finish.
        .for("update", { skipLocked: true });
      if (!order) return false;
      // Conditional on the status read under the lock: belt and braces for the same guarantee.
      const changed = await tx
        .update(orders)
        .set({ status: windowClosed.to, paymentDueAt: null })
        .where(and(eq(orders.id, order.id), eq(orders.status, windowClosed.from)))
        .returning({ id: orders.id });
      if (changed.length === 0) return false;
      await returnStock(tx, order.id);
      await recordOrderEvent(tx, {
        orderId: order.id,
        from: windowClosed.from,
        to: windowClosed.to,
        actor: SHOP_CLOCK_ACTOR,
        note: `Not paid within ${window}`,
      });
      await add(notPaidInTimeEmail(order, deps, window));
      return true;
    });
  } catch (error) {
    // A checkout or import holding the same stock rows: this order is due again at the next pass.
    if (failedOnLockCycle(error)) return false;
    throw error;
  }
}

export interface UnpaidOrderSweeper {
  /** An order this process placed falls due at `at`: look then, if sooner than planned. */
  dueAt(at: Date): void;
  /** No new pass; the one running finishes. */
  stop(): Promise<void>;
  /** Runs a pass now and waits for it (tests). */
  sweepNow(): Promise<number>;
}

/** Runs passes on this process: now, when an order it knows of falls due, and at least every `maxWaitMs`. */
export function keepUnpaidCardOrdersSwept(
  deps: Deps,
  onError: (error: unknown) => void,
  maxWaitMs = Math.min(60_000, deps.card.windowMinutes * 60_000),
): UnpaidOrderSweeper {
  let timer: NodeJS.Timeout | undefined;
  let plannedAt = Number.POSITIVE_INFINITY;
  let running: Promise<number> | undefined;
  let stopped = false;

  const plan = (at: number) => {
    if (stopped || at >= plannedAt) return;
    clearTimeout(timer);
    plannedAt = at;
    timer = setTimeout(() => void pass(), Math.max(0, at - Date.now()));
    timer.unref();
  };

  const pass = (): Promise<number> => {
    plannedAt = Number.POSITIVE_INFINITY;
    clearTimeout(timer);
    running ??= (async () => {
      let cancelled = 0;
      try {
        cancelled = await cancelUnpaidCardOrders(deps);
        const next = await secondsUntilNextDue(deps);
        // At least a moment between passes: an order due but locked (a webhook paying it, another
        // process cancelling it) stays due until that transaction ends, and must not make passes spin.
        const wait = cancelled >= BATCH ? 0 : Math.min(maxWaitMs, (next ?? Infinity) * 1000);
        plan(Date.now() + Math.max(MIN_WAIT_MS, wait));
      } catch (error) {
        onError(error);
        plan(Date.now() + maxWaitMs);
      } finally {
        running = undefined;
      }
      return cancelled;
    })();
    return running;
  };

  void pass();
  return {
    dueAt: (at) => plan(at.getTime()),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    sweepNow: async () => {
      await running;
      return pass();
    },
  };
}

async function secondsUntilNextDue(deps: Deps): Promise<number | null> {
  const [next] = await deps.db
    .select({
      seconds: sql<number | null>`extract(epoch from min(${orders.paymentDueAt}) - now())::float8`,
    })
    .from(orders)
    .where(eq(orders.status, onlyTransition("payment-window-closed").from));
  return next?.seconds === null || next?.seconds === undefined ? null : Number(next.seconds);
}
