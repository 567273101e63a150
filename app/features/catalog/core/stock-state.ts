/**
 * What the shop says of a product's stock, the same words on cards, the
 * product page and the cart: "In stock", "Only 3 left" or "Sold out".
 * A plain function of the number, so the browser needs nothing else to say it.
 */

/** From this many units down, a shopper is told how many are left. */
const FEW_LEFT = 5;

export type StockLevel = "in-stock" | "few-left" | "sold-out";

/** Which of the three a stock of `onHand` units is. */
export function stockLevelOf(onHand: number): StockLevel {
  if (onHand <= 0) return "sold-out";
  return onHand <= FEW_LEFT ? "few-left" : "in-stock";
}

/** "In stock", "Only 3 left" (5 or fewer), "Sold out". */
export function stockWords(onHand: number): string {
  switch (stockLevelOf(onHand)) {
    case "sold-out":
      return "Sold out";
    case "few-left":
      return `Only ${onHand} left`;
    default:
      return "In stock";
  }
}
