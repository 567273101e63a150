import type { ReactNode } from "react";
import { Link, useRevalidator } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { AlertIcon, BoxIcon, ResetIcon } from "~/components/ui/icons";
import { productCount, quoted, type ShopProduct } from "../../core/catalog-format";
import type { SearchWord } from "../../core/search-words";
import { ProductCard } from "./product-card";

/** How many cards can sit in the first row (three columns on wide screens): their pictures load at once. */
const FIRST_ROW = 3;

/**
 * The cards: one column on phones, two from 640 px, three from 1280 px. Each
 * card takes four rows of the grid (picture, category and date, name and
 * brand, rating, price and stock) as a subgrid, so the cards of one row share
 * those rows and their names line up, however long one card's category is;
 * five with `cardAction`, the route's slot at the bottom of each card.
 */
export function ProductGrid({
  products,
  locale,
  fewLeftAt,
  hrefFor,
  label = "Products",
  eager = true,
  searchWords,
  cardAction,
}: {
  products: readonly ShopProduct[];
  locale: string;
  /** Shoppers are told how many are left from this many units down (useFewLeftAt). */
  fewLeftAt: number;
  /** Each product's page. */
  hrefFor: (product: ShopProduct) => string;
  label?: string;
  /** The grid is at the top of the page: the first row's pictures load at once. */
  eager?: boolean;
  /** The listing's search, word by word, to mark in the names. */
  searchWords?: readonly SearchWord[] | null;
  /** What the route puts at the bottom of each card (the cart's "Add to cart"). */
  cardAction?: (product: ShopProduct) => ReactNode;
}) {
  return (
    <ul aria-label={label} className="grid grid-cols-1 gap-6 sm:grid-cols-2 xl:grid-cols-3">
      {products.map((product, index) => (
        <li
          key={product.id}
          className={`${cardAction ? "row-span-5" : "row-span-4"} grid grid-rows-subgrid gap-y-0`}
        >
          <ProductCard
            product={product}
            href={hrefFor(product)}
            locale={locale}
            fewLeftAt={fewLeftAt}
            eager={eager && index < FIRST_ROW}
            priority={eager && index === 0}
            searchWords={searchWords}
            // Null rather than nothing for a product without one: every card keeps the fifth row.
            action={cardAction ? (cardAction(product) ?? null) : undefined}
          />
        </li>
      ))}
    </ul>
  );
}

function StatePanel({
  icon,
  title,
  children,
  tone = "neutral",
}: {
  icon: React.ReactNode;
  title: string;
  children: React.ReactNode;
  tone?: "neutral" | "error";
}) {
  return (
    <div
      // An error is announced as it appears; the other states are read with the status line.
      role={tone === "error" ? "alert" : undefined}
      className={`flex flex-col items-center rounded-2xl border px-6 py-14 text-center ${
        tone === "error" ? "border-red-200 bg-red-50" : "border-dashed border-slate-300 bg-white"
      }`}
    >
      <div
        className={`flex size-12 items-center justify-center rounded-full ${
          tone === "error" ? "bg-red-100 text-red-700" : "bg-indigo-50 text-indigo-600"
        }`}
      >
        {icon}
      </div>
      <h3 className="mt-4 text-lg font-bold text-slate-900">{title}</h3>
      {children}
    </div>
  );
}

/**
 * Nothing matches the filters. When dropping one of them brings products
 * back, that one change is offered first, with what it would show.
 */
export function NoProductsMatch({
  wayBack,
  didYouMean,
}: {
  wayBack: { text: string; href: string; count: number } | null;
  /** The search respelled as the catalogue spells it, when that finds products. */
  didYouMean?: { search: string; href: string; count: number } | null;
}) {
  return (
    <StatePanel icon={<BoxIcon className="size-6" />} title="No products match">
      {didYouMean ? (
        <p className="mt-2 max-w-sm text-base text-slate-800">
          {/* The whole question is the link: its name makes sense in a list of links. */}
          <Link
            to={`${didYouMean.href}#results`}
            preventScrollReset
            className="font-semibold text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
          >
            {didYouMeanQuestion(didYouMean.search)}
          </Link>
          {` ${productCount(didYouMean.count)}`}
        </p>
      ) : null}
      <p className="mt-2 max-w-sm text-sm text-slate-600">
        {wayBack
          ? "These filters together leave nothing. One change brings products back:"
          : "Try another search word, a different brand or category, or a higher price."}
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {wayBack ? (
          <Link
            to={`${wayBack.href}#results`}
            preventScrollReset
            className={buttonClasses("primary", "md", "", { wraps: true })}
          >
            {wayBackLabel(wayBack)}
          </Link>
        ) : null}
        <Link to="/" preventScrollReset className={buttonClasses(wayBack ? "secondary" : "primary", "md")}>
          <ResetIcon className="size-4" />
          Reset filters
        </Link>
      </div>
    </StatePanel>
  );
}

/** "Did you mean “blender”?" */
const didYouMeanQuestion = (search: string) => `Did you mean ${quoted([search])}?`;

/** "Remove “Outdoor”: 14 products" */
const wayBackLabel = (wayBack: { text: string; count: number }) =>
  `${wayBack.text}: ${productCount(wayBack.count)}`;

/**
 * What a listing with no results offers, in words, for the results' status
 * line (focus stays in the field the shopper typed in, so the panel's links
 * are not read): ". Did you mean “blender”? 3 products".
 */
export function noResultsOffer(
  didYouMean: { search: string; count: number } | null,
  wayBack: { text: string; count: number } | null,
): string {
  if (didYouMean) return `. ${didYouMeanQuestion(didYouMean.search)} ${productCount(didYouMean.count)}`;
  if (wayBack) return `. ${wayBackLabel(wayBack)}`;
  return "";
}

/**
 * Says which words of the search the shop respelled, so a shopper who did
 * mean "blendr" knows why blenders show: "No product has “blendr”: showing “blender”."
 * The status region is always on the page, empty when nothing was respelled,
 * so a screen reader hears the note when it appears (a region added with its
 * text already in it is often not read).
 */
export function CloseSpellings({ words }: { words: readonly SearchWord[] }) {
  const corrected = words.filter((word) => word.corrected);
  const note =
    corrected.length > 0
      ? `No product has ${quoted(
          corrected.map((word) => word.typed),
          " or ",
        )}: showing ${corrected.map((word) => quoted(word.alike, " or ")).join(" and ")}.`
      : "";
  return (
    <p role="status" className={note ? "mt-4 text-sm text-slate-700" : "sr-only"}>
      {note}
    </p>
  );
}

/** A page number past the last page (an old bookmark, a hand-edited URL). */
export function PageOutOfRange({
  page,
  totalPages,
  firstPageHref,
}: {
  page: number;
  totalPages: number;
  firstPageHref: string;
}) {
  return (
    // Products do match (the summary beside it counts them): this page is simply past the last one.
    <StatePanel
      icon={<BoxIcon className="size-6" />}
      title={`Page ${page.toLocaleString("en-US")} is past the end`}
    >
      <p className="mt-2 max-w-sm text-sm text-slate-600">
        {`There is no page ${page.toLocaleString("en-US")}: these filters fill ${totalPages.toLocaleString("en-US")} ${
          totalPages === 1 ? "page" : "pages"
        }.`}
      </p>
      <Link to={firstPageHref} className={buttonClasses("primary", "md", "mt-6")}>
        Go to page 1
      </Link>
    </StatePanel>
  );
}

/**
 * The catalogue could not be read. Retry asks the server again for this same
 * URL (a revalidation, no reload); without JavaScript the button is a plain
 * GET of the same address.
 */
export function CatalogUnavailable({ retryHref }: { retryHref: string }) {
  const revalidator = useRevalidator();
  const retrying = revalidator.state === "loading";
  const [action, search] = retryHref.split("?");
  return (
    <StatePanel tone="error" icon={<AlertIcon className="size-6" />} title="We couldn't load the products">
      <p className="mt-2 max-w-sm text-sm text-slate-700">
        The catalogue can't be read right now. Please try again in a moment.
      </p>
      <form
        method="get"
        action={action}
        onSubmit={(event) => {
          event.preventDefault();
          revalidator.revalidate();
        }}
      >
        {[...new URLSearchParams(search)].map(([name, value]) => (
          <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" disabled={retrying} className={buttonClasses("primary", "md", "mt-6")}>
          {retrying ? "Retrying…" : "Retry"}
        </button>
      </form>
    </StatePanel>
  );
}
