/**
 * What the shop says of a product's stock, the same words on cards, the
 * product page and the cart: "In stock", "Only 3 left" or "Sold out".
 * A plain function of the number and the owner's few-left line (which the
 * root loader gives every page), so the browser needs nothing else to say it.
 */

export type StockLevel = "in-stock" | "few-left" | "sold-out";

/**
 * Which of the three a stock of `onHand` units is, when shoppers are told how
 * many are left from `fewLeftAt` units down (0: never, only "Sold out").
 */
export function stockLevelOf(onHand: number, fewLeftAt: number): StockLevel {
  if (onHand <= 0) return "sold-out";
  return onHand <= fewLeftAt ? "few-left" : "in-stock";
}

/** "In stock", "Only 3 left" (`fewLeftAt` or fewer), "Sold out". */
export function stockWords(onHand: number, fewLeftAt: number): string {
  switch (stockLevelOf(onHand, fewLeftAt)) {
    case "sold-out":
      return "Sold out";
    case "few-left":
      return `Only ${onHand} left`;
    default:
      return "In stock";
  }
}
