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
  /** Where this form last sent the shopper, to tell its own navigations from outside ones (Back, a link). */
  const sentHref = useRef(committedKey);
  /** Fields changed since the last navigation this form sent, waiting for a pause (the search, the price). */
  const pending = useRef(new Set<"search" | "range">());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** True once a search-as-you-type run has its history entry: its later steps replace it. */
  const typing = useRef(false);

  const stopTimer = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);
  /** Nothing is waiting to be sent any more: it was sent, or the address changed from outside. */
  const cancelPending = useCallback(() => {
    stopTimer();
    pending.current.clear();
  }, [stopTimer]);

  // Follow the URL whenever it changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: committedKey is the URL state; `committed` is derived from it
  useEffect(() => {
    const fromUrl = formValuesFromQuery(query);
    if (committedKey !== sentHref.current) {
      // Back/Forward or a link: the address wins, and whatever was about to be sent is dropped.
      cancelPending();
      typing.current = false;
      sentHref.current = committedKey;
      setValues(fromUrl);
      return;
    }
    // This form's own navigation landed while the shopper kept typing or sliding: keep what they did since.
    const kept = [...pending.current];
    setValues((current) => ({
      ...fromUrl,
      ...Object.fromEntries(kept.map((field) => [field, current[field]])),
    }));
  }, [committedKey]);

  useEffect(() => cancelPending, [cancelPending]);

  const apply = useCallback(
    (next: CatalogFormValues, options: { replace?: boolean } = {}) => {
      cancelPending();
      const href = shopHref(next);
      sentHref.current = href;
      if (href === destinationHref.current) return;
      navigate(href, { preventScrollReset: true, replace: options.replace ?? false });
    },
    [cancelPending, navigate],
  );

  const later = useCallback(
    (run: "slider" | "search") => {
      stopTimer();
      timer.current = setTimeout(() => {
        // The form as it is when the pause ends, not as it was at the keystroke:
        // Back may have changed another filter meanwhile.
        apply(valuesRef.current, { replace: run === "search" && typing.current });
        if (run === "search") typing.current = true;
      }, FILTER_DEBOUNCE_MS);
    },
    [apply, stopTimer],
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
      pending.current.add("range");
    },
    type(search) {
      update({ search });
      later("search");
      pending.current.add("search");
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
