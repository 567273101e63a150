import type { ReactNode } from "react";
import { Link } from "react-router";
import { usePriceFormat } from "~/commerce/use-money";
import { formatDate, pictureSrcSet, type ShopProduct } from "../../core/catalog-format";
import type { SearchWord } from "../../core/search-words";
import { HighlightedText } from "./highlighted-text";
import { StarRating } from "./star-rating";
import { StockState } from "./stock-state";

interface ProductCardProps {
  product: ShopProduct;
  /** The product's page. */
  href: string;
  /** The shopper's locale, for the date added. */
  locale: string;
  /** Shoppers are told how many are left from this many units down (useFewLeftAt). */
  fewLeftAt: number;
  /** Above the fold on first paint: load the picture at once instead of lazily. */
  eager?: boolean;
  /** The page's most important picture (the largest contentful paint). */
  priority?: boolean;
  /** The listing's search, word by word: its matches are marked in the name. */
  searchWords?: readonly SearchWord[] | null;
  /**
   * What the route puts at the bottom of the card (the cart's "Add to cart"):
   * a fifth row of the subgrid, above the stretched link, so it stays clickable.
   */
  action?: ReactNode;
}

/** Product pictures are 4:3 (800×600); width and height reserve the space, so nothing shifts. */
const PRODUCT_IMAGE_SIZE = { width: 800, height: 600 } as const;

/**
 * A product in a listing. The whole card leads to the product's page, through
 * one link (its name, stretched over the card), so a screen reader hears one
 * link per product and the card's other text stays selectable. Its four parts
 * (five with an action) are rows of the listing's grid (a subgrid,
 * ProductGrid), so names line up across a row.
 */
export function ProductCard({
  product,
  href,
  locale,
  fewLeftAt,
  eager = false,
  priority = false,
  searchWords,
  action,
}: ProductCardProps) {
  const formatPrice = usePriceFormat();
  return (
    <article
      className={`group relative ${action === undefined ? "row-span-4" : "row-span-5"} grid grid-rows-subgrid gap-y-0 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-indigo-600 has-[a:focus-visible]:ring-offset-2`}
    >
      <div className="aspect-[4/3] overflow-hidden bg-slate-100">
        <img
          src={product.image}
          srcSet={pictureSrcSet(product.image)}
          sizes="(min-width: 1280px) 22rem, (min-width: 640px) 50vw, 100vw"
          alt={product.name}
          width={PRODUCT_IMAGE_SIZE.width}
          height={PRODUCT_IMAGE_SIZE.height}
          loading={eager ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : undefined}
          decoding="async"
          className="size-full object-cover motion-safe:transition-transform motion-safe:duration-300 motion-safe:group-hover:scale-[1.03]"
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1.5 px-5 pt-5 text-xs">
        <span className="min-w-0 rounded-full bg-indigo-50 px-2.5 py-1 font-semibold break-words text-indigo-700">
          <span className="sr-only">Category: </span>
          {product.categoryLabel}
        </span>
        <span className="whitespace-nowrap text-slate-600">
          Added <time dateTime={product.creationDate}>{formatDate(product.creationDate, locale)}</time>
        </span>
      </div>
      <div className="px-5 pt-3">
        <h3 className="text-base leading-snug font-semibold text-slate-900">
          <Link
            to={href}
            className="after:absolute after:inset-0 after:content-[''] hover:text-indigo-700 focus-visible:outline-none"
          >
            <HighlightedText
              text={product.name}
              words={searchWords}
              markClassName="rounded-sm bg-amber-100 text-inherit underline decoration-2 underline-offset-2"
            />
          </Link>
        </h3>
        <p className="mt-1 text-sm text-slate-600">
          <span className="sr-only">Brand: </span>
          {product.brandLabel}
        </p>
      </div>
      <div className="flex flex-col gap-2 px-5 pt-4 pb-5">
        <div className="flex items-end justify-between gap-3">
          <StarRating rating={product.ratings} count={product.ratingCount} />
          <p className="text-lg font-bold text-slate-900 tabular-nums">
            <span className="sr-only">Price: </span>
            {/* Its variants differ in price: the lowest, said to be the lowest. */}
            {product.priceMax > product.price
              ? `From ${formatPrice(product.price)}`
              : formatPrice(product.price)}
            {/* The cheapest variant is on sale: its "was" price, struck through and said in words. */}
            {product.compareAtPrice === null ? null : (
              <s className="ml-2 text-sm font-semibold text-slate-700">
                <span className="sr-only">Was </span>
                {formatPrice(product.compareAtPrice)}
              </s>
            )}
          </p>
        </div>
        <StockState stock={product.stock} fewLeftAt={fewLeftAt} />
      </div>
      {action === undefined ? null : <div className="relative z-10 px-5 pb-5">{action}</div>}
    </article>
  );
}
