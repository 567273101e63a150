import { useRouteLoaderData } from "react-router";
import {
  type CurrencyCode,
  formatMoney,
  formatWholeAmount,
  minorAtMost,
  money,
  type ShopMoney,
  wholeUnitsOf,
} from "./money";

/** The shop's currency and locale when the root loader gave them; null on an error page that came before it. */
export function useShopMoneyIfKnown(): ShopMoney | null {
  const root = useRouteLoaderData("root") as { money?: ShopMoney } | null | undefined;
  return root?.money ?? null;
}

/** The shop's currency and locale, as the root loader gives them to every page. */
export function useShopMoney(): ShopMoney {
  const money = useShopMoneyIfKnown();
  // Every page that shows an amount renders under the root's data; a component test gives its own.
  if (!money) throw new Error("useShopMoney needs the root loader's `money`");
  return money;
}

/**
 * Writes whole minor units as the shop does, "$12.50" or "12,50 €": in the
 * shop's currency, or in the `currency` given (an order keeps the one it was
 * placed in).
 */
export function useAmountFormat(): (minor: number, currency?: CurrencyCode) => string {
  const shop = useShopMoney();
  return (minor, currency = shop.currency) => formatMoney(money(minor, currency), shop.locale);
}

/** Writes a product's decimal price (the API's `price`, 12.5) in the shop's currency: "$12.50". */
export function usePriceFormat(): (price: number) => string {
  const { currency, locale } = useShopMoney();
  return (price) => formatMoney(money(minorAtMost(price, currency), currency), locale);
}

/** Writes a whole amount of the shop's currency as the price slider's ends do: "$150". */
export function useWholeAmountFormat(): (whole: number) => string {
  const { currency, locale } = useShopMoney();
  return (whole) => formatWholeAmount(whole, currency, locale);
}

/** Writes minor units as whole major ones, the rest dropped, as a chart's axis does: "$1,234". */
export function useWholeUnitsFormat(): (minor: number) => string {
  const { currency, locale } = useShopMoney();
  return (minor) => formatWholeAmount(wholeUnitsOf(money(minor, currency)), currency, locale);
}
