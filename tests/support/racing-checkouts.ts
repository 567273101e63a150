import { type OrderRequest, type Placement, placeOrder } from "~/features/orders/place-order.server";
import type { MailQueue } from "~/utils/mail-queue.server";
import { SHOPPER_ADDRESS } from "./shopper";
import { flatShippingSetup } from "./tax-setups";

/**
 * `count` guests checking out the same lines at once (pay on delivery, no email, each with its
 * own key), and how many placing transactions ran: a checkout ended to break a lock cycle would
 * be tried again and counted twice, so a test of lock order expects exactly `count`.
 */
export function racingCheckouts(
  mail: MailQueue,
  { count, key, lines }: { count: number; key: string; lines: OrderRequest["lines"] },
): { placements: Promise<Placement[]>; attempts(): number } {
  let attempts = 0;
  const counting: MailQueue = {
    ...mail,
    transaction: (work) => {
      attempts++;
      return mail.transaction(work);
    },
  };
  const placements = Promise.all(
    Array.from({ length: count }, (_, at) =>
      placeOrder(counting, {
        idempotencyScope: "cart:race",
        idempotencyKey: `${key}-${at}`,
        userId: null,
        email: "racer@example.com",
        shippingAddress: SHOPPER_ADDRESS,
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
        setup: flatShippingSetup(0),
        currency: "USD",
        status: "placed",
        paymentDueAt: null,
        lines,
        confirmation: null,
      }),
    ),
  );
  return { placements, attempts: () => attempts };
}
