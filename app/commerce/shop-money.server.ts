import {
  type CurrencyCode,
  formatMoney,
  isCurrencyCode,
  isKnownLocale,
  money,
  type ShopMoney,
} from "./money";

let cached: ShopMoney | undefined;

/**
 * The shop's currency and how it writes amounts, from its configuration
 * (SHOP_CURRENCY, SHOP_LOCALE; default USD and en-US): what prices are in,
 * what a new order records and what a card is charged in. An order keeps
 * the currency it was placed in. Start-up refuses a bad value with the rest of
 * the configuration (env.server.ts); read here on its own, so the code that
 * needs only these two never needs the whole configuration.
 */
export function shopMoney(): ShopMoney {
  if (cached) return cached;
  const currency = process.env.SHOP_CURRENCY?.trim() || "USD";
  const locale = process.env.SHOP_LOCALE?.trim() || "en-US";
  if (!isCurrencyCode(currency)) throw new Error(`SHOP_CURRENCY=${currency} is no ISO 4217 currency`);
  if (!isKnownLocale(locale)) throw new Error(`SHOP_LOCALE=${locale} is no locale Intl knows`);
  cached = { currency, locale };
  return cached;
}

/** Whole minor units of `currency` as the shop writes them in its emails and notes: "$12.50", "12,50 €". */
export function formatAmount(minor: number, currency: CurrencyCode): string {
  return formatMoney(money(minor, currency), shopMoney().locale);
}
