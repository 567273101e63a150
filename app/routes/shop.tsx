import { data, isRouteErrorResponse, redirect } from "react-router";
import { catalogClientFor, servicesContext } from "~/context.server";
import { revalidateUnlessCartChange } from "~/features/cart/cart-revalidation";
import { AddToCart } from "~/features/cart/components/add-to-cart";
import {
  canonicalShopUrl,
  formValuesFromQuery,
  productHref,
  shopHref,
  shopListingFromAddress,
  withoutEmptyParameters,
} from "~/features/catalog/browsing/catalog-url";
import { ShopListing, ShopListingError } from "~/features/catalog/browsing/components/shop-listing";
import { rangeOnSlider } from "~/features/catalog/browsing/price-range";
import { shopListingMeta } from "~/features/catalog/browsing/shop-listing";
import { readShopListing } from "~/features/catalog/browsing/shop-listing.server";
import { parseCatalogQuery } from "~/features/catalog/core/catalog-schema";
import { searchRefusal } from "~/features/catalog/search/index.server";
import type { Route } from "./+types/shop";

/** A refused search's Retry-After reaches the page's response (the loader throws it). */
export function headers({ errorHeaders }: Route.HeadersArgs): HeadersInit {
  const retryAfter = errorHeaders?.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : {};
}

export async function loader({ url, context }: Route.LoaderArgs) {
  // The no-JavaScript form sends every field, empty or not: answer with the tidy URL.
  const tidy = withoutEmptyParameters(url.searchParams);
  if (tidy) throw redirect(tidy.size > 0 ? `/?${tidy}` : "/");

  const parsed = parseCatalogQuery(url.searchParams);
  if (!parsed.ok) throw data(parsed.error.message, { status: 400 });
  // A price the slider cannot show (range=47, range=500): the address moves to the one it shows.
  if (parsed.value.range !== undefined && rangeOnSlider(parsed.value.range) !== parsed.value.range) {
    const onSlider = { ...formValuesFromQuery(parsed.value), range: rangeOnSlider(parsed.value.range) };
    throw redirect(`${shopHref({ ...onSlider, page: parsed.value.page })}${url.hash}`);
  }
  // A search counts against the client's share, as the JSON API's do (search-rate-limit.server.ts).
  const { catalog, baseUrl } = context.get(servicesContext);
  let done = () => {};
  if (parsed.value.search !== undefined) {
    const client = catalogClientFor(context);
    const admission = await client.searchLimit.admit(client.key, parsed.value.search);
    if (!admission.allowed) {
      const { status, message, headers } = searchRefusal(admission);
      throw data(message, { status, headers });
    }
    done = admission.done;
  }
  try {
    const { listing, status } = await readShopListing(catalog, baseUrl, parsed.value);
    return data(listing, { status });
  } finally {
    // Whatever happened, a long search's turn passes to the next.
    done();
  }
}

/**
 * In the browser, the shop asks the server for each new listing. When that
 * fails (the shopper went offline, the server answered 500), the page keeps
 * its filters and shows the same inline error and Retry as when the server
 * says the catalogue is down, instead of the whole-page error. A link the
 * shop cannot read (400) and redirects still go their usual way.
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  try {
    return await serverLoader();
  } catch (error) {
    if (error instanceof Response || (isRouteErrorResponse(error) && error.status < 500)) throw error;
    const query = shopListingFromAddress(new URL(request.url).searchParams);
    return {
      status: "unavailable" as const,
      query,
      canonicalUrl: canonicalShopUrl(window.location.origin, query),
    };
  }
}

// A cart form sent from this page reads the root's cart count again, not this page's data.
export const shouldRevalidate = revalidateUnlessCartChange;

export function meta({ loaderData }: Route.MetaArgs) {
  return shopListingMeta(loaderData);
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  return (
    <ShopListing
      listing={loaderData}
      cardAction={(product) => (
        <AddToCart
          productId={product.id}
          productName={product.name}
          stock={product.stock}
          chooseAt={product.variantCount > 1 ? productHref(product) : undefined}
        />
      )}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ShopListingError error={error} />;
}
