import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useNavigation } from "react-router";
import type { CatalogQuery } from "./catalog-schema";
import { type CatalogFormValues, formValuesFromQuery, shopHref } from "./catalog-url";

/** How long the shop waits after the last keystroke (or slider move) before it asks for results. */
const FILTER_DEBOUNCE_MS = 300;

export interface CatalogFilterControls {
  values: CatalogFormValues;
  /** A select changed: apply at once. */
  choose<K extends "band" | "category" | "sort">(field: K, value: CatalogFormValues[K]): void;
  /** The slider moved: show the value now, apply once it rests. */
  slide(range: number): void;
  /** A keystroke in the search box: apply once typing pauses. */
  type(search: string): void;
  /** Enter or the submit button: apply now. */
  applyNow(): void;
  /** The search box lost focus: the next search starts a new history entry. */
  endTyping(): void;
}

/**
 * The filter form's state. The URL is the truth: the form shows the URL's
 * filters and follows it on Back/Forward and on links such as "Reset
 * filters". Each change navigates to the new URL (a history entry, page
 * dropped, scroll kept); React Router cancels a navigation that a newer one
 * overtakes, so a slow, stale answer never replaces a newer one.
 */
export function useCatalogFilters(query: CatalogQuery): CatalogFilterControls {
  const navigate = useNavigate();
  const location = useLocation();
  const navigation = useNavigation();
  // Where the page is, or is about to be: a change back to the current URL
  // while another one is loading must still navigate, to cancel that one.
  const destination = navigation.location ?? location;
  const destinationHref = useRef("");
  destinationHref.current = `${destination.pathname}${destination.search}`;
  const committed = formValuesFromQuery(query);
  const committedKey = shopHref(committed);

  const [values, setValues] = useState(committed);
  const valuesRef = useRef(values);
  valuesRef.current = values;
  /** The search text this form last sent, to tell its own navigations from outside ones. */
  const sentSearch = useRef(committed.search);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** True once a search-as-you-type run has its history entry: its later steps replace it. */
  const typing = useRef(false);

  const cancelPending = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);

  // Follow the URL whenever it changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: committedKey is the URL state; `committed` is derived from it
  useEffect(() => {
    const fromUrl = formValuesFromQuery(query);
    const ownSearch = fromUrl.search === sentSearch.current;
    if (!ownSearch) {
      // Back/Forward or a link changed the search: drop whatever was about to be sent.
      cancelPending();
      typing.current = false;
      sentSearch.current = fromUrl.search;
    }
    setValues((current) => ({
      ...fromUrl,
      // Our own search just landed while the shopper kept typing: keep what they typed.
      search: ownSearch ? current.search : fromUrl.search,
    }));
  }, [committedKey]);

  useEffect(() => cancelPending, [cancelPending]);

  const apply = useCallback(
    (next: CatalogFormValues, options: { replace?: boolean } = {}) => {
      cancelPending();
      const href = shopHref(next);
      sentSearch.current = next.search.trim();
      if (href === destinationHref.current) return;
      navigate(href, { preventScrollReset: true, replace: options.replace ?? false });
    },
    [cancelPending, navigate],
  );

  const later = useCallback(
    (run: "slider" | "search") => {
      cancelPending();
      timer.current = setTimeout(() => {
        // The form as it is when the pause ends, not as it was at the keystroke:
        // Back may have changed another filter meanwhile.
        apply(valuesRef.current, { replace: run === "search" && typing.current });
        if (run === "search") typing.current = true;
      }, FILTER_DEBOUNCE_MS);
    },
    [apply, cancelPending],
  );

  const update = (patch: Partial<CatalogFormValues>): CatalogFormValues => {
    const next = { ...valuesRef.current, ...patch };
    valuesRef.current = next;
    setValues(next);
    return next;
  };

  return {
    values,
    choose(field, value) {
      typing.current = false;
      apply(update({ [field]: value }));
    },
    slide(range) {
      typing.current = false;
      update({ range });
      later("slider");
    },
    type(search) {
      update({ search });
      later("search");
    },
    applyNow() {
      typing.current = false;
      apply(valuesRef.current);
    },
    endTyping() {
      typing.current = false;
    },
  };
}
