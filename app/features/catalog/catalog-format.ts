import type { Product } from "./catalog-schema";

/**
 * How the shop writes dates, money and prices. A fixed locale and the UTC
 * time zone make the server's HTML and the browser's render identical, so
 * hydration never mismatches whatever the visitor's settings.
 */
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const MONEY_FORMAT = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const WHOLE_MONEY_FORMAT = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});

/** "Mar 4, 2025" for an ISO 8601 date-time. */
export function formatDate(iso: string): string {
  return DATE_FORMAT.format(new Date(iso));
}

/** "$1,234.50". */
export function formatPrice(amount: number): string {
  return MONEY_FORMAT.format(amount);
}

/** "$150": slider steps are whole dollars. */
export function formatWholePrice(amount: number): string {
  return WHOLE_MONEY_FORMAT.format(amount);
}

/** "1 product", "64 products". */
export function productCount(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "product" : "products"}`;
}

/** A product as the shop page needs it: the description is never shown, so it is not sent. */
export type ShopProduct = Omit<Product, "description">;
