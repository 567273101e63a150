import { minorAtMost } from "~/commerce/money";
import { shopMoney } from "~/commerce/shop-money.server";

/** A listing's `range` (a price in the shop's currency, 49.99) as the most minor units a product may cost. */
export const priceCapOf = (range: number): number => minorAtMost(range, shopMoney().currency);
