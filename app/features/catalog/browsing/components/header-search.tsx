import { useEffect, useState } from "react";
import { Form, useLocation } from "react-router";
import { formValuesFromQuery, shopListingFromAddress } from "../catalog-url";
import { useShopSearch } from "../shop-search";
import { SearchBox } from "./search-box";

/**
 * The search in the header of every page: a GET form to the shop (`/?search=…`)
 * that works without JavaScript, with the search box's suggestions once it
 * runs. On the shop page it is the listing's own search (shop-search.ts):
 * it shows the listing's search, the listing follows the typing, and a search
 * keeps the other filters — through hidden fields without JavaScript.
 */
export function HeaderSearch({ onEscape }: { onEscape?: () => void }) {
  const location = useLocation();
  const onShopPage = location.pathname === "/";
  const listing = onShopPage
    ? formValuesFromQuery(shopListingFromAddress(new URLSearchParams(location.search)))
    : null;
  const shop = useShopSearch();
  // What is in the field: the listing's search on the shop page (the address, then the filter
  // form's), what the shopper typed elsewhere.
  const [text, setText] = useState(listing?.search ?? "");
  const shopValue = shop?.value;
  useEffect(() => {
    if (shopValue !== undefined) setText(shopValue);
  }, [shopValue]);
  // Another page than the shop: an empty box (a search typed before and left is not carried along).
  const [pathname, setPathname] = useState(location.pathname);
  if (pathname !== location.pathname) {
    setPathname(location.pathname);
    if (!onShopPage) setText("");
  }

  return (
    <Form
      method="get"
      action="/"
      role="search"
      aria-label="Products"
      onSubmit={(event) => {
        if (!shop) return;
        // On the shop page the filter form sends it, with the other filters and one history entry.
        event.preventDefault();
        shop.applyNow();
      }}
    >
      {/* Without JavaScript a search from the shop page keeps its filters and order, in the order
          of the shop's own addresses (a tidy URL, no redirect). */}
      {listing ? (
        <>
          {listing.band.map((band) => (
            <input key={`band=${band}`} type="hidden" name="band" value={band} />
          ))}
          {listing.category.map((category) => (
            <input key={`category=${category}`} type="hidden" name="category" value={category} />
          ))}
          {listing.range > 0 ? <input type="hidden" name="range" value={listing.range} /> : null}
        </>
      ) : null}
      <SearchBox
        value={text}
        onType={(search) => {
          setText(search);
          shop?.type(search);
        }}
        onEndRun={shop?.endRun}
        onLeave={shop?.leave}
        onEscape={onEscape}
        labelClassName="sr-only"
      />
      {/* After the search, as the shop's addresses write it. */}
      {listing?.sort ? <input type="hidden" name="sort" value={listing.sort} /> : null}
    </Form>
  );
}
