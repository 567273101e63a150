import type { ProductWithStock } from "./catalog-schema";
import { labelOf } from "./catalog-vocabulary";

/**
 * How the catalogue writes dates, counts and pictures. Dates follow the
 * shopper's locale (passed in, the same on server and browser, so hydration
 * never mismatches) in UTC: a product's date added is a calendar date, the
 * same everywhere. Prices are money: app/commerce/money.ts writes them.
 */
const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** "Mar 4, 2025" (en-US), "04.03.2025" (de-DE)… for an ISO 8601 date-time. */
export function formatDate(iso: string, locale: string): string {
  let format = DATE_FORMATS.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
    DATE_FORMATS.set(locale, format);
  }
  return format.format(new Date(iso));
}

/** Words as the shop quotes what a shopper chose or typed: “Outdoor” and “Home goods”. */
export function quoted(items: readonly string[], joiner = " and "): string {
  return items.map((item) => `“${item}”`).join(joiner);
}

/** "1 product", "64 products". */
export function productCount(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "product" : "products"}`;
}

/**
 * A product as the shop page needs it: the description is never shown, so it
 * is not sent; its brand and category come with the labels shoppers read.
 */
export type ShopProduct = Omit<ProductWithStock, "description"> & {
  brandLabel: string;
  categoryLabel: string;
};

type Labelled = readonly { value: string; label: string }[];

/** A product as a card shows it: without its description, with its brand's and category's labels. */
export function shopProduct(
  { description: _description, ...product }: ProductWithStock,
  labels: { brands: Labelled; categories: Labelled },
): ShopProduct {
  return {
    ...product,
    brandLabel: labelOf(labels.brands, product.bandName),
    categoryLabel: labelOf(labels.categories, product.category),
  };
}

/**
 * The raster twin of a product picture, for link previews (Open Graph wants
 * a JPEG or PNG, not an SVG): the shop's SVG pictures each have a .jpg beside
 * them (scripts/generate-product-images.ts); any other picture is used as it is.
 */
export function socialImage(image: string): string {
  const imported = importedPicture(image);
  if (imported) return `/pictures/${pictureName(imported, PICTURE_WIDTHS[2])}`;
  return image.replace(/\.svg$/, ".jpg");
}

/**
 * The widths an imported picture is kept in (4:3, WebP): a card on a phone,
 * a card or the product page on a wide screen (and on a phone's dense
 * screen), and link previews.
 */
export const PICTURE_WIDTHS = [400, 800, 1200] as const;

/**
 * The picture files the shop takes — an upload in the back office, an
 * import's picture — as sharp reads them (`format`, and for AVIF the HEIF
 * container's `compression`). Every one is drawn again as WebP in each of
 * PICTURE_WIDTHS, an SVG too: its drawing is rasterised, never served.
 * The refusals, the file field's `accept` and its hint all say this list.
 */
export const PICTURE_FORMATS = [
  { name: "PNG", type: "image/png", format: "png" },
  { name: "JPEG", type: "image/jpeg", format: "jpeg" },
  { name: "WebP", type: "image/webp", format: "webp" },
  { name: "GIF", type: "image/gif", format: "gif" },
  { name: "AVIF", type: "image/avif", format: "heif", compression: "av1" },
  { name: "SVG", type: "image/svg+xml", format: "svg" },
] as const;

/** "PNG, JPEG, WebP, GIF, AVIF or SVG": the formats as a sentence says them. */
export const PICTURE_FORMAT_NAMES = `${PICTURE_FORMATS.slice(0, -1)
  .map((format) => format.name)
  .join(", ")} or ${PICTURE_FORMATS.at(-1)?.name}`;

/** An imported picture's file name: its content's hash and its width. */
export function pictureName(hash: string, width: number): string {
  return `${hash}-${width}.webp`;
}

/** The picture a product shows when its own could not be read at import. */
export const PLACEHOLDER_PICTURE = "/images/placeholder-product.svg";

const IMPORTED_PICTURE = /^\/pictures\/([0-9a-f]{20})-800\.webp$/;

function importedPicture(image: string): string | undefined {
  return IMPORTED_PICTURE.exec(image)?.[1];
}

/** The `srcSet` of an imported picture (each width it is kept in); undefined for any other. */
export function pictureSrcSet(image: string): string | undefined {
  const hash = importedPicture(image);
  if (!hash) return undefined;
  return PICTURE_WIDTHS.map((width) => `/pictures/${pictureName(hash, width)} ${width}w`).join(", ");
}
