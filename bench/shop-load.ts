/**
 * The two ways bench/shop.ts loads a server (the shop or its floor) with
 * guest shoppers (bench/shoppers.ts):
 *
 * - closed loop, for saturation: `connections` loops, each sending its next
 *   request as soon as the previous one is answered — what the server can
 *   do at most;
 * - open loop, for latency at a given pace: a request every 1/rate seconds
 *   whatever the answers, as independent shoppers arrive, and each latency
 *   measured from the moment its request was due, not from when it was sent,
 *   so a server that falls behind is charged for the wait of every request
 *   it delayed (no coordinated omission).
 */
import { performance } from "node:perf_hooks";
import { type Answer, basketOf, type ShopClient, type Shopper, Tally } from "./shoppers";

/** The carts waiting to be checked out, oldest first. */
export class CartQueue {
  private readonly shoppers: Shopper[] = [];
  private next = 0;
  push(shopper: Shopper) {
    this.shoppers.push(shopper);
  }
  take(): Shopper | undefined {
    return this.shoppers[this.next++];
  }
  get waiting() {
    return this.shoppers.length - Math.min(this.next, this.shoppers.length);
  }
}

/** The units each 201 ordered, by product: what the database must hold in order_lines. */
export type Ordered = Map<number, number>;

/** A checkout's answer checked: a 201 whose lines are the shopper's basket, its units counted in `ordered`. */
function checkedOrder(shopper: Shopper, answer: Answer, tally: Tally, ordered: Ordered) {
  if (answer.status !== 201) {
    tally.fail(`checkout ${shopper.address}: ${answer.status} ${answer.body.slice(0, 300)}`);
    return;
  }
  const { order } = JSON.parse(answer.body) as {
    order: { lines: { productId: number; quantity: number }[] };
  };
  const basket = basketOf(shopper);
  const matches =
    order.lines.length === basket.size &&
    order.lines.every((line) => basket.get(line.productId) === line.quantity);
  if (!matches) tally.fail(`order of ${shopper.address} is not its cart: ${JSON.stringify(order.lines)}`);
  for (const line of order.lines) {
    ordered.set(line.productId, (ordered.get(line.productId) ?? 0) + line.quantity);
  }
}

/**
 * Shoppers adding their baskets, `connections` at a time, while `going()`:
 * each shopper's clicks one after the other, as a person makes them. A
 * shopper whose every click was answered 200 joins `ready`, to check out.
 */
export async function adding(
  client: ShopClient,
  nextShopper: () => Shopper,
  connections: number,
  going: () => boolean,
  ready: CartQueue,
): Promise<Tally> {
  const tally = new Tally(200);
  tally.start();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (going()) {
        const shopper = nextShopper();
        let complete = true;
        for (const add of shopper.adds) {
          if (!going()) {
            complete = false;
            break;
          }
          const answer = await client.add(shopper, add);
          tally.record(answer);
          if (answer.status !== 200) {
            tally.fail(`add ${JSON.stringify(add)}: ${answer.status} ${answer.body.slice(0, 300)}`);
            complete = false;
            break;
          }
        }
        if (complete) ready.push(shopper);
      }
    }),
  );
  tally.stop();
  return tally;
}

/**
 * Checkouts of ready carts, `connections` at a time, for `seconds` or until
 * no cart is left. Each 201's lines must be the shopper's basket.
 */
export async function checkingOut(
  client: ShopClient,
  ready: CartQueue,
  connections: number,
  seconds: number,
  ordered: Ordered,
) {
  const tally = new Tally(201);
  let ranOut = false;
  const deadline = performance.now() + seconds * 1000;
  tally.start();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const shopper = ready.take();
        if (!shopper) {
          ranOut = true;
          return;
        }
        const answer = await client.checkout(shopper);
        tally.record(answer);
        checkedOrder(shopper, answer, tally, ordered);
      }
    }),
  );
  tally.stop();
  return { tally, ranOut };
}

/**
 * Calls `send(dueAt)` `rate` times a second for `seconds`, on time whatever
 * the answers (a late timer sends the overdue ones at once), and waits for
 * every one to be answered.
 */
async function onSchedule(rate: number, seconds: number, send: (dueAt: number) => Promise<void>) {
  const interval = 1000 / rate;
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let at = 0; at < Math.round(rate * seconds); at++) {
    const dueAt = start + at * interval;
    const wait = dueAt - performance.now();
    if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
    sent.push(send(dueAt));
  }
  await Promise.all(sent);
}

/** The answer with its latency counted from when its request was due. */
const fromDue = (answer: Answer, dueAt: number): Answer =>
  answer.status === 0 ? answer : { ...answer, ms: performance.now() - dueAt };

/**
 * Adds at a fixed `rate` a second for `seconds` (open loop). Each add is a
 * shopper's next click once their previous one was answered, or a new
 * shopper's first; a shopper whose every click was answered 200 joins
 * `ready`.
 */
export async function addingOnSchedule(
  client: ShopClient,
  nextShopper: () => Shopper,
  rate: number,
  seconds: number,
  ready: CartQueue,
): Promise<Tally> {
  const tally = new Tally(200);
  const between: { shopper: Shopper; next: number }[] = [];
  tally.start();
  await onSchedule(rate, seconds, async (dueAt) => {
    const turn = between.shift() ?? { shopper: nextShopper(), next: 0 };
    const add = turn.shopper.adds[turn.next] as Shopper["adds"][number];
    const answer = await client.add(turn.shopper, add);
    tally.record(fromDue(answer, dueAt));
    if (answer.status !== 200) {
      tally.fail(`add ${JSON.stringify(add)}: ${answer.status} ${answer.body.slice(0, 300)}`);
    } else if (turn.next + 1 < turn.shopper.adds.length) {
      between.push({ shopper: turn.shopper, next: turn.next + 1 });
    } else {
      ready.push(turn.shopper);
    }
  });
  tally.stop();
  return tally;
}

/** Checkouts of ready carts at a fixed `rate` a second for `seconds` (open loop); `ranOut` if a cart was missing. */
export async function checkingOutOnSchedule(
  client: ShopClient,
  ready: CartQueue,
  rate: number,
  seconds: number,
  ordered: Ordered,
) {
  const tally = new Tally(201);
  let ranOut = false;
  tally.start();
  await onSchedule(rate, seconds, async (dueAt) => {
    const shopper = ready.take();
    if (!shopper) {
      ranOut = true;
      return;
    }
    const answer = await client.checkout(shopper);
    tally.record(fromDue(answer, dueAt));
    checkedOrder(shopper, answer, tally, ordered);
  });
  tally.stop();
  return { tally, ranOut };
}
