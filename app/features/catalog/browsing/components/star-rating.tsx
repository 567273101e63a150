import { StarIcon } from "~/components/ui/icons";

/**
 * Five stars filled to the mean of the product's published reviews (to the
 * nearest half), with the number and how many reviews made it beside them,
 * and all of it in words for screen readers. Without a review it says so:
 * a rating an import brought, unbacked by any buyer, is not shown as one.
 */
export function StarRating({ rating, count }: { rating: number; count: number }) {
  if (!(count > 0) || !(rating > 0)) return <p className="text-sm text-slate-600">No reviews yet</p>;
  const clamped = Math.min(Math.max(rating, 0), 5);
  const reviews = `${count} ${count === 1 ? "review" : "reviews"}`;
  const fill = `${(Math.round(clamped * 2) / 2 / 5) * 100}%`;
  return (
    <p className="flex items-center gap-1.5">
      <span className="sr-only">{`Rated ${clamped.toFixed(1)} out of 5 from ${reviews}`}</span>
      {/* Forced colours (Windows high contrast) would paint every star the one text colour, so
          4.5 would look like 5: there the empty stars are outlines and the filled ones solid. */}
      <span
        aria-hidden="true"
        className="relative inline-flex text-slate-300 forced-colors:text-[Canvas] forced-colors:forced-color-adjust-none"
      >
        {EMPTY_STARS}
        <span
          className="absolute inset-0 flex overflow-hidden text-amber-400 forced-colors:text-[CanvasText]"
          style={{ width: fill }}
        >
          {FILLED_STARS}
        </span>
      </span>
      <span aria-hidden="true" className="text-sm font-medium text-slate-600 tabular-nums">
        {`${clamped.toFixed(1)} (${count})`}
      </span>
    </p>
  );
}

const stars = (className: string) =>
  [0, 1, 2, 3, 4].map((index) => <StarIcon key={index} className={`size-4 shrink-0 ${className}`} />);
const EMPTY_STARS = stars("forced-colors:stroke-[CanvasText] forced-colors:[stroke-width:1.5]");
const FILLED_STARS = stars("");
