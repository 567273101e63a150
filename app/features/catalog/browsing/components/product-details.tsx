import type { ReactNode } from "react";
import { Link } from "react-router";
import { usePriceFormat } from "~/commerce/use-money";
import { formatDate, pictureSrcSet, type ShopProduct } from "../../core/catalog-format";
import { StarRating } from "./star-rating";
import { StockState } from "./stock-state";

/** The product page's picture is shown large; its box is reserved so nothing shifts as it loads. */
const PICTURE_SIZE = { width: 800, height: 600 } as const;

/**
 * One product, whole: large picture, name, brand, category, price, rating,
 * stock, date added, description; and the route's buy box (the cart's), in
 * the right column below the details (below them on phones too), which then
 * says the stock itself.
 */
export function ProductDetails({
  product,
  description,
  locale,
  fewLeftAt,
  categoryHref,
  brandHref,
  buyBox,
  compareAtPrice = null,
}: {
  product: ShopProduct;
  description: string;
  locale: string;
  /** Shoppers are told how many are left from this many units down (useFewLeftAt). */
  fewLeftAt: number;
  categoryHref: string;
  brandHref: string;
  /** What the route puts beside the details (the cart's "Add to cart"); without it, the stock shows by the price. */
  buyBox?: ReactNode;
  /** The "was" price of the variant shown, struck through beside its price; null when it is not on sale. */
  compareAtPrice?: number | null;
}) {
  const formatPrice = usePriceFormat();
  return (
    <div className="grid gap-8 lg:grid-cols-2 lg:gap-12">
      {/* As tall as the picture, not the row: stretched beside a long description, it cropped the picture's sides. */}
      <div className="self-start overflow-hidden rounded-2xl border border-slate-200 bg-slate-100">
        <img
          src={product.image}
          srcSet={pictureSrcSet(product.image)}
          sizes="(min-width: 1024px) 50vw, 100vw"
          alt={product.name}
          width={PICTURE_SIZE.width}
          height={PICTURE_SIZE.height}
          fetchPriority="high"
          // The whole picture, whatever its shape (an owner's import may not be 4:3): never cropped.
          className="aspect-[4/3] h-auto w-full object-contain"
        />
      </div>
      <div className="flex min-w-0 flex-col gap-5">
        <div>
          <p className="text-sm font-semibold text-indigo-700">
            <Link to={brandHref} className="hover:underline">
              <span className="sr-only">Brand: </span>
              {product.brandLabel}
            </Link>
          </p>
          <h1 className="mt-1 text-3xl font-extrabold tracking-tight break-words text-slate-900 sm:text-4xl">
            {product.name}
          </h1>
        </div>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
          <p className="text-3xl font-bold text-slate-900 tabular-nums">
            <span className="sr-only">Price: </span>
            {formatPrice(product.price)}
            {compareAtPrice === null ? null : (
              <s className="ml-3 text-lg font-semibold text-slate-700">
                <span className="sr-only">Was </span>
                {formatPrice(compareAtPrice)}
              </s>
            )}
          </p>
          <StarRating rating={product.ratings} count={product.ratingCount} />
          {buyBox === undefined ? <StockState stock={product.stock} fewLeftAt={fewLeftAt} /> : null}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-slate-600">Category</dt>
          <dd>
            <Link to={categoryHref} className="font-semibold text-indigo-700 hover:underline">
              {product.categoryLabel}
            </Link>
          </dd>
          <dt className="text-slate-600">Added</dt>
          <dd className="text-slate-800">
            <time dateTime={product.creationDate}>{formatDate(product.creationDate, locale)}</time>
          </dd>
        </dl>
        {buyBox === undefined ? null : <div>{buyBox}</div>}
        <div>
          <h2 className="text-base font-bold text-slate-900">Description</h2>
          {/* Plain text, rendered as text: never as HTML. */}
          <p className="mt-2 leading-7 whitespace-pre-line text-slate-700">{description}</p>
        </div>
      </div>
    </div>
  );
}

/** Where the product sits: the listing the shopper came from (its filters kept), its category, the product. */
export function Breadcrumbs({ items }: { items: { label: string; href?: string }[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600">
        {items.map((item, index) => (
          <li key={`${item.label}:${item.href ?? ""}`} className="flex min-w-0 items-center gap-2">
            {index > 0 ? (
              <span aria-hidden="true" className="text-slate-400">
                /
              </span>
            ) : null}
            {item.href ? (
              <Link to={item.href} className="font-semibold text-indigo-700 hover:underline">
                {item.label}
              </Link>
            ) : (
              <span aria-current="page" className="break-words text-slate-800">
                {item.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
