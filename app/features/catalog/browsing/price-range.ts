import { formatWholeAmount, type ShopMoney } from "~/commerce/money";
import { PRICE_RANGE } from "../core/catalog-vocabulary";

/**
 * The price slider's scale: 0 means "Any price" and sits at the far left;
 * every other position is a maximum price from PRICE_RANGE.min to
 * PRICE_RANGE.max in PRICE_RANGE.step steps (5, 10, … 200).
 */
export const SLIDER_MIN = 0;
export const SLIDER_MAX = PRICE_RANGE.max;
export const SLIDER_STEP = PRICE_RANGE.step;

/** The specification's colour bands: green below 50, yellow from 50 to below 150, red from 150. */
const PRICE_TONE_THRESHOLDS = { yellow: 50, red: 150 } as const;

export type PriceTone = "any" | "green" | "yellow" | "red";

export function priceTone(range: number): PriceTone {
  if (!range || range <= 0) return "any";
  if (range < PRICE_TONE_THRESHOLDS.yellow) return "green";
  if (range < PRICE_TONE_THRESHOLDS.red) return "yellow";
  return "red";
}

/** The slider's value in words: the colour is never the only signal. */
export function priceRangeLabel(range: number, { currency, locale }: ShopMoney): string {
  return range > 0 ? `Up to ${formatWholeAmount(range, currency, locale)}` : "Any price";
}

/**
 * A price cap as the slider can show it: on a step, within the scale. A link
 * may carry any price (`range=47`, `range=500`); the shop page moves it to the
 * nearest step (47 → 45, 48 → 50) and to the scale's ends (3 → 5, 500 → 200),
 * so the thumb, the written value and the results always agree. 0 stays
 * "Any price".
 */
export function rangeOnSlider(range: number): number {
  if (range <= 0) return 0;
  const nearestStep = Math.round(range / SLIDER_STEP) * SLIDER_STEP;
  return Math.min(PRICE_RANGE.max, Math.max(PRICE_RANGE.min, nearestStep));
}
