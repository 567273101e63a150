import { inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { shopSettings } from "~/db/schema";
import {
  type CurrencyCode,
  formatMoney,
  isCurrencyCode,
  isKnownLocale,
  money,
  type ShopMoney,
} from "./money";

/** The rows of `shop_settings` an owner's currency and locale are kept in (/admin/settings). */
const SHOP_MONEY_SETTINGS = ["currency", "locale"] as const;

let configured: ShopMoney | undefined;
let settled: ShopMoney | undefined;

/** The configuration's currency and locale (SHOP_CURRENCY, SHOP_LOCALE; default USD and en-US). */
function configuredShopMoney(): ShopMoney {
  if (configured) return configured;
  const currency = process.env.SHOP_CURRENCY?.trim() || "USD";
  const locale = process.env.SHOP_LOCALE?.trim() || "en-US";
  if (!isCurrencyCode(currency)) throw new Error(`SHOP_CURRENCY=${currency} is no ISO 4217 currency`);
  if (!isKnownLocale(locale)) throw new Error(`SHOP_LOCALE=${locale} is no locale Intl knows`);
  configured = { currency, locale };
  return configured;
}

/**
 * The shop's currency and how it writes amounts, as this process uses them
 * now: what prices are in, what a new order records and what a card is
 * charged in. The configuration gives them until an owner sets others at
 * /admin/settings. They change in a process only when its catalogue index
 * has been read again in the new currency (a change of currency is a change
 * of the whole catalogue, drizzle/0020), so a page never writes the index's
 * decimal prices in another currency than the one they were written in.
 * Kept synchronous on purpose: a price is written in many places that have
 * no database at hand (an email, a card's JSON), and all of them must agree.
 * An order keeps the currency it was placed in.
 */
export function shopMoney(): ShopMoney {
  return settled ?? configuredShopMoney();
}

/** The process writes amounts this way from here on: at start, and once its catalogue index is in this currency. */
export function settleShopMoney({ currency, locale }: ShopMoney): void {
  settled = { currency, locale };
}

/** A saved value that is still a currency or locale, or the fallback's (a row written by hand is not trusted). */
export function shopMoneyOf(
  saved: { currency?: unknown; locale?: unknown },
  fallback: ShopMoney = configuredShopMoney(),
): ShopMoney {
  return {
    currency:
      typeof saved.currency === "string" && isCurrencyCode(saved.currency)
        ? saved.currency
        : fallback.currency,
    locale: typeof saved.locale === "string" && isKnownLocale(saved.locale) ? saved.locale : fallback.locale,
  };
}

/**
 * The currency and locale the database holds now (the owner's, else the
 * configuration's): read by the catalogue index after its revision, before it
 * writes its cards' decimal prices, and once at start.
 */
export async function readShopMoney(db: Pick<Database, "select">): Promise<ShopMoney> {
  const rows = await db
    .select({ name: shopSettings.name, value: shopSettings.value })
    .from(shopSettings)
    .where(inArray(shopSettings.name, [...SHOP_MONEY_SETTINGS]));
  return shopMoneyOf(Object.fromEntries(rows.map((row) => [row.name, row.value])));
}

/** Whole minor units of `currency` as the shop writes them in its emails and notes: "$12.50", "12,50 €". */
export function formatAmount(minor: number, currency: CurrencyCode): string {
  return formatMoney(money(minor, currency), shopMoney().locale);
}
