import { StarIcon } from "~/components/ui/icons";

/**
 * Five stars filled to the rating (to the nearest half), with the number
 * beside them and in words for screen readers.
 */
export function StarRating({ rating }: { rating: number }) {
  // A rating of 0 means nobody has rated it yet, not that everybody hated it.
  if (!(rating > 0)) return <p className="text-sm text-slate-600">No reviews yet</p>;
  const clamped = Math.min(Math.max(rating, 0), 5);
  const fill = `${(Math.round(clamped * 2) / 2 / 5) * 100}%`;
  return (
    <p className="flex items-center gap-1.5">
      <span className="sr-only">{`Rated ${clamped.toFixed(1)} out of 5`}</span>
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
        {clamped.toFixed(1)}
      </span>
    </p>
  );
}

const stars = (className: string) =>
  [0, 1, 2, 3, 4].map((index) => <StarIcon key={index} className={`size-4 shrink-0 ${className}`} />);
const EMPTY_STARS = stars("forced-colors:stroke-[CanvasText] forced-colors:[stroke-width:1.5]");
const FILLED_STARS = stars("");
