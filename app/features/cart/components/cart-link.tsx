import { useEffect, useRef, useState } from "react";
import { Link, useFetchers } from "react-router";
import { CartIcon } from "~/components/ui/icons";

const items = (count: number) => `${count} ${count === 1 ? "item" : "items"}`;

/**
 * The navbar's cart: a link to /cart with the number of items, which counts
 * an Add to cart at once (while its answer is on the way) and is announced
 * to screen readers when it changes. `itemCount` null: the count could not be
 * read (the link still works).
 */
export function CartLink({ itemCount }: { itemCount: number | null }) {
  const beingAdded = useItemsBeingAdded();
  const count = itemCount === null ? null : itemCount + beingAdded;
  const announcement = useChangeAnnouncement(count);
  return (
    <>
      <Link
        to="/cart"
        aria-label={count === null ? "Cart" : `Cart, ${items(count)}`}
        className="relative inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 hover:text-slate-900"
      >
        <CartIcon className="size-6" />
        {count ? (
          <span className="absolute -top-1 -right-1 min-w-5 rounded-full bg-indigo-700 px-1 text-center text-xs leading-5 font-bold text-white">
            {count > 99 ? "99+" : count}
          </span>
        ) : null}
      </Link>
      <span role="status" className="sr-only">
        {announcement}
      </span>
    </>
  );
}

/** Units of Add to cart forms sent and not yet answered: shown in the count before the server says so. */
function useItemsBeingAdded(): number {
  return useFetchers().reduce((sum, fetcher) => {
    const form = fetcher.formData;
    // Until idle: while the root's new count loads, the form is still there, so the count never dips.
    if (fetcher.state === "idle" || form?.get("intent") !== "add") return sum;
    return sum + (Number(form.get("quantity")) || 1);
  }, 0);
}

/** "Your cart has 3 items." once the count changes after the first render (not on every page). */
function useChangeAnnouncement(count: number | null): string {
  const [announcement, setAnnouncement] = useState("");
  const previous = useRef(count);
  useEffect(() => {
    if (count !== null && previous.current !== null && count !== previous.current) {
      setAnnouncement(`Your cart has ${items(count)}.`);
    }
    previous.current = count;
  }, [count]);
  return announcement;
}
