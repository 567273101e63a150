import { useId } from "react";
import { useShopMoney, useWholeAmountFormat } from "~/commerce/use-money";
import { PRICE_RANGE } from "../../core/catalog-vocabulary";
import {
  type PriceTone,
  priceRangeLabel,
  priceTone,
  SLIDER_MAX,
  SLIDER_MIN,
  SLIDER_STEP,
} from "../price-range";

interface PriceRangeSliderProps {
  name: string;
  value: number;
  onChange(value: number): void;
}

const TONE_BADGE: Record<PriceTone, string> = {
  any: "bg-slate-100 text-slate-700 ring-slate-200",
  green: "bg-green-100 text-green-800 ring-green-300",
  yellow: "bg-yellow-100 text-yellow-900 ring-yellow-400",
  red: "bg-red-100 text-red-800 ring-red-300",
};

/** Track colours (the native slider's accent). */
const TONE_ACCENT: Record<PriceTone, string> = {
  any: "#64748b",
  green: "#16a34a",
  // yellow-700: the lighter yellows fall below the 3:1 a control needs against white.
  yellow: "#a16207",
  red: "#dc2626",
};

/**
 * The price slider: a maximum price from $5 to $200 in $5 steps, with "Any
 * price" at the far left. Its value is written out next to the label and
 * coloured by the specification's bands; the words carry the meaning, the
 * colour only repeats it.
 */
export function PriceRangeSlider({ name, value, onChange }: PriceRangeSliderProps) {
  const id = useId();
  const tone = priceTone(value);
  const label = priceRangeLabel(value, useShopMoney());
  const formatWhole = useWholeAmountFormat();
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-semibold text-slate-800">
          Max price
        </label>
        {/* Not a live region: the slider's aria-valuetext already tells screen readers the value. */}
        <span
          data-price-value
          data-tone={tone}
          className={`rounded-full px-2.5 py-0.5 text-sm font-semibold tabular-nums ring-1 ring-inset ${TONE_BADGE[tone]}`}
        >
          {label}
        </span>
      </div>
      <input
        id={id}
        type="range"
        name={name}
        min={SLIDER_MIN}
        max={SLIDER_MAX}
        step={SLIDER_STEP}
        value={value}
        aria-valuetext={label}
        onChange={(event) => onChange(Number(event.currentTarget.value))}
        className="mt-3 h-2 w-full cursor-pointer"
        style={{ accentColor: TONE_ACCENT[tone] }}
      />
      <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-600">
        <span>Any</span>
        <span>{formatWhole(PRICE_RANGE.max)}</span>
      </div>
    </div>
  );
}
