import { data, redirect } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { orderViewerOf } from "~/context.server";
import { AccountSection } from "~/features/auth/components/account-section";
import { loginPath } from "~/features/auth/redirect";
import { OrderHistory } from "~/features/orders/components/order-history";
import { orderHistoryData } from "~/features/orders/order-view.server";
import type { Route } from "./+types/account.orders";

/*
 * /account/orders: the signed-in shopper's orders, in the account page's
 * layout. The account feature knows nothing of orders; this route puts the
 * orders' list in the account's frame.
 */

export function meta() {
  return pageMeta({
    title: "Your orders | Backline",
    description: "Your Backline orders: their numbers, dates, status and totals.",
    noindex: true,
  });
}

/** A visitor is sent to log in and comes back here; a page past the last is a 404. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const viewer = await orderViewerOf(request, context);
  if (!viewer.userId) throw redirect(loginPath(url.pathname + url.search));
  const history = await orderHistoryData({ ...viewer, userId: viewer.userId }, url);
  if (!history) throw data(null, { status: 404 });
  return history;
}

export default function AccountOrders({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mt-8">
      <AccountSection id="orders" title="Your orders">
        <OrderHistory history={loaderData} />
      </AccountSection>
    </div>
  );
}
