/*
 * The cart's rules in words and numbers, without zod: the shop page's Add to
 * cart and the cart's page use them, and the page's JavaScript stays small.
 */

/** The most of one product a cart's line holds. */
export const MOST_IN_ONE_LINE = 99;

/** What a shopper is told when the stock capped a quantity. */
export const onlyLeftNotice = (stock: number, quantity: number) =>
  `Only ${stock} left: your cart has ${quantity}.`;
