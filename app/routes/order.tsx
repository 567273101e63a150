import { data } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { orderViewerOf } from "~/context.server";
import { OrderDetails } from "~/features/orders/components/order-details";
import { orderPageData } from "~/features/orders/order-view.server";
import type { Route } from "./+types/order";

/**
 * An order's confirmation and status page (/orders/BL-7Q4K9), for its owner
 * or whoever holds its signed link (?token=…, from the email). Anyone else,
 * and a number nobody has, get the shop's 404: the page never says which.
 * The token is in the address, so no Referer carries it to another site
 * (Stripe's page included) and no cache keeps the page. `same-origin`, not
 * `no-referrer`: under no-referrer a browser sends its form posts (Pay by
 * card) with `Origin: null`, which the shop refuses as cross-site.
 */
const PRIVATE_PAGE = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };

export function headers(): HeadersInit {
  return PRIVATE_PAGE;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const order = await orderPageData(await orderViewerOf(request, context), params, new URL(request.url));
  if (!order) throw data(null, { status: 404, headers: PRIVATE_PAGE });
  return order;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return pageMeta({
    title: `Order ${loaderData.number} | Backline`,
    description: "Your Backline order: what you ordered, where it goes and how to pay.",
    noindex: true,
  });
}

export default function Order({ loaderData }: Route.ComponentProps) {
  return <OrderDetails order={loaderData} />;
}
