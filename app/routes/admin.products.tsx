import { data, Link, useLocation } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { useFlashToast } from "~/components/back-office/use-flash-toast";
import { buttonClasses } from "~/components/ui/button";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { backOfficeListing } from "~/features/catalog/browsing/back-office-listing.server";
import {
  BackOfficeProductList,
  listingHref,
} from "~/features/catalog/management/components/back-office-product-list";
import { productFlash } from "~/features/catalog/management/index.server";
import type { Route } from "./+types/admin.products";

/**
 * `/admin/products`: every product, archived ones too, with the shop's own
 * search, filters, order and paging (the same parameters:
 * `/admin/products?search=kettle`), its SKU and stock; `?stock=low` keeps
 * those at or under the owner's low-stock line.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context);
  const { database, catalog, settings } = context.get(servicesContext);
  const { lowStockAt } = await settings.current();
  const listing = await backOfficeListing(database.db, catalog, new URL(request.url).searchParams, {
    lowStockAt,
  });
  if (!listing.ok) throw data(listing.error.message, { status: 400 });
  const flash = await productFlash.take(request);
  return data(
    { listing: listing.value, toast: flash?.toast ?? null },
    flash ? { headers: { "Set-Cookie": flash.clear } } : undefined,
  );
}

export default function Products({ loaderData }: Route.ComponentProps) {
  const { search } = useLocation();
  useFlashToast(loaderData.toast);
  return (
    <BackOfficePage
      title={loaderData.listing.lowStock ? "Products low on stock" : "Products"}
      intro={
        loaderData.listing.lowStock
          ? `Products with ${loaderData.listing.lowStockAt} or fewer units on hand, archived ones included.`
          : "Every product, archived ones included, with the shop's own search and filters."
      }
      actions={
        <>
          <Link to="/admin/products/new" className={buttonClasses("primary", "sm")}>
            New product
          </Link>
          <Link
            to={
              loaderData.listing.lowStock
                ? listingHref(search, { stock: undefined })
                : "/admin/products?stock=low"
            }
            className={buttonClasses("secondary", "sm")}
          >
            {loaderData.listing.lowStock ? "All products" : "Low stock"}
          </Link>
          <Link to="/admin/products/brands-and-categories" className={buttonClasses("secondary", "sm")}>
            Brands and categories
          </Link>
        </>
      }
    >
      <BackOfficeProductList listing={loaderData.listing} search={search} />
    </BackOfficePage>
  );
}
