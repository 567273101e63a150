import { Link } from "react-router";
import { useAmountFormat } from "~/commerce/use-money";
import { buttonClasses } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { useShopperLocale } from "~/utils/locale";
import { itemCount, orderDate } from "../order-format";
import type { OrderHistoryData } from "../order-view.server";

const pageHref = (page: number) => (page === 1 ? "/account/orders" : `/account/orders?page=${page}`);

/**
 * A signed-in shopper's orders, newest first, a page at a time: each one's
 * number (a link to its page: the owner needs no token), date, status, items
 * and total. With none yet, the way to the shop.
 */
export function OrderHistory({ history }: { history: OrderHistoryData }) {
  const formatAmount = useAmountFormat();
  const locale = useShopperLocale();
  if (history.orders.length === 0) {
    return (
      <div>
        <p className="text-slate-700">You have not ordered anything yet.</p>
        <Link to="/" className={buttonClasses("primary", "md", "mt-4")}>
          Find something in the shop
        </Link>
      </div>
    );
  }
  return (
    <div>
      <ul className="divide-y divide-slate-200">
        {history.orders.map((order) => (
          <li key={order.number} className="py-4">
            <Link
              to={`/orders/${order.number}`}
              className="text-lg font-semibold text-indigo-700 underline-offset-4 hover:underline"
            >
              Order {order.number}
            </Link>
            <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
              <div>
                <dt className="text-slate-600">Placed on</dt>
                <dd className="font-medium text-slate-900">{orderDate(order.placedAt, locale)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Status</dt>
                <dd className="font-medium text-slate-900">{order.status}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Items</dt>
                <dd className="font-medium text-slate-900">{itemCount(order.itemCount)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Total</dt>
                <dd className="font-medium text-slate-900 tabular-nums">
                  {formatAmount(order.totalCents, order.currency)}
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <div className="mt-6">
        <Pagination
          page={history.page}
          totalPages={history.totalPages}
          hrefFor={pageHref}
          label="Pages of your orders"
        />
      </div>
    </div>
  );
}
