import { useEffect, useRef, useSyncExternalStore } from "react";
import type { CatalogFilterControls } from "./use-catalog-filters";

/**
 * The header's search box and the shop page's filters, joined. On the shop
 * page the header's box is the listing's search (there is no second one in
 * the filter panel): what it shows is the filter form's search, and what is
 * typed in it goes through the form, so the listing follows the typing in one
 * history entry and the box follows the address (Back, Reset filters), as
 * the panel's box did. The shop page shares its filter controls here while it
 * is shown; elsewhere there are none and the header's box is a plain search
 * that leads to the shop (docs/decisions/0020).
 */
export interface ShopSearch {
  value: string;
  type(search: string): void;
  endRun(): void;
  leave(): void;
  applyNow(): void;
}

let shared: ShopSearch | null = null;
const listeners = new Set<() => void>();

function share(next: ShopSearch | null) {
  shared = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The shop page's search while it is shown (never in the server's HTML), else null. */
export function useShopSearch(): ShopSearch | null {
  return useSyncExternalStore(
    subscribe,
    () => shared,
    () => null,
  );
}

/** Called by the shop page: the header's search box becomes its search while it is shown. */
export function useShareShopSearch(filters: CatalogFilterControls) {
  // The controls are made afresh on each render; the shared ones always call the newest.
  const latest = useRef(filters);
  useEffect(() => {
    latest.current = filters;
  });
  const value = filters.values.search;
  useEffect(() => {
    share({
      value,
      type: (search) => latest.current.type(search),
      endRun: () => latest.current.endRun(),
      leave: () => latest.current.leave(),
      applyNow: () => latest.current.applyNow(),
    });
  }, [value]);
  useEffect(() => () => share(null), []);
}
