import { data } from "react-router";
import { pageMeta } from "~/components/layout/page-meta";
import { cartVisitorOf, servicesContext, shoppingRefusalOf } from "~/context.server";
import { cartFormAction, cartPageData } from "~/features/cart/cart-page.server";
import type { CartFormAnswer } from "~/features/cart/cart-schema";
import { CartView } from "~/features/cart/components/cart-view";
import { RepricedNote } from "~/features/cart/components/repriced-note";
import { productHref } from "~/features/catalog/browsing/catalog-url";
import { pictureSrcSet } from "~/features/catalog/core/catalog-format";
import { useFewLeftAt } from "~/utils/few-left";
import { shoppingRefusalMessage } from "~/utils/shopping-rate-limit.server";
import { z } from "~/utils/zod";
import type { Route } from "./+types/cart";

/** `?added=<variantId>`: what the cart just took, after an Add to cart sent without JavaScript. */
const addedSchema = z.coerce.number().int().positive();

export async function loader({ request, context }: Route.LoaderArgs) {
  const [cart, setup] = await Promise.all([
    cartPageData(request, await cartVisitorOf(request, context)),
    context.get(servicesContext).taxShipping.current(),
  ]);
  const addedId = addedSchema.safeParse(new URL(request.url).searchParams.get("added") ?? undefined);
  const addedLine = addedId.success ? cart.lines.find((line) => line.variantId === addedId.data) : undefined;
  // Without JavaScript the answer's "Only N left" is gone with the redirect: the line says it again.
  const capped = addedLine && addedLine.quantity >= addedLine.stock;
  const added = addedLine
    ? `${addedLine.name} is in your cart.${capped ? ` Only ${addedLine.stock} left: your cart has ${addedLine.quantity}.` : ""}`
    : null;
  return data(
    {
      lines: cart.lines,
      itemCount: cart.itemCount,
      added,
      currency: cart.currency,
      repricedFrom: cart.repricedFrom,
      taxIncluded: setup.pricesIncludeTax,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** Every cart form of the shop (Add to cart, a quantity, Remove) is sent here. */
export async function action({ request, context }: Route.ActionArgs) {
  const refused = await shoppingRefusalOf(context, "cart-change");
  if (refused) {
    const error = shoppingRefusalMessage("cart-change", refused.retryAfterSeconds);
    return data({ ok: false, productId: null, variantId: null, error } satisfies CartFormAnswer, {
      status: 429,
      headers: { "Retry-After": String(refused.retryAfterSeconds), "Cache-Control": "no-store" },
    });
  }
  return cartFormAction(request, await cartVisitorOf(request, context));
}

export function meta() {
  return pageMeta({
    title: "Your cart | Backline",
    description: "The products in your cart.",
    noindex: true,
  });
}

export default function CartPage({ loaderData, actionData }: Route.ComponentProps) {
  const { lines, itemCount, added, currency, repricedFrom, taxIncluded } = loaderData;
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const fewLeftAt = useFewLeftAt();
  return (
    <main id="main" className="mx-auto w-full max-w-5xl px-4 pt-6 pb-16 sm:px-6 lg:px-8 lg:pt-10">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Your cart</h1>
      {itemCount > 0 ? (
        <p className="mt-1 text-sm text-slate-700">{`${itemCount} ${itemCount === 1 ? "item" : "items"}`}</p>
      ) : null}
      {added ? (
        <p
          role="status"
          className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900"
        >
          {added}
        </p>
      ) : null}
      <RepricedNote from={repricedFrom} to={currency} />
      {failure && !lines.some((line) => line.variantId === failure.variantId) ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800"
        >
          {failure.error}
        </p>
      ) : null}
      <CartView
        lines={lines}
        failure={failure}
        fewLeftAt={fewLeftAt}
        taxIncluded={taxIncluded}
        // A line of a product sold in variants opens its page on that variant.
        hrefFor={(line) =>
          `${productHref({ id: line.productId, name: line.name })}${Object.keys(line.options).length > 0 ? `?variant=${line.variantId}` : ""}`
        }
        pictureFor={(line) => ({ src: line.image, srcSet: pictureSrcSet(line.image) })}
      />
    </main>
  );
}
