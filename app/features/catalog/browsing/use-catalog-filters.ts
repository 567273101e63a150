import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useNavigation, useNavigationType } from "react-router";
import type { CatalogQuery } from "../core/catalog-schema";
import { type CatalogFormValues, formValuesFromQuery, shopHref } from "./catalog-url";

/** How long the shop waits after the last keystroke (or slider move) before it asks for results. */
const FILTER_DEBOUNCE_MS = 300;

/** A control whose value is chosen at once: a select, the "In stock only" checkbox. */
type ChoiceField = "sort" | "inStock";
/** A facet whose values are ticked one by one. */
type FacetField = "band" | "category" | "option";
/** A control whose changes come in runs: keystrokes, slider steps, arrow-key steps through a select. */
type RunControl = "search" | "range" | ChoiceField;

export interface CatalogFilterControls {
  values: CatalogFormValues;
  /**
   * A select changed: apply at once, or, when the shopper is stepping through
   * it with the keyboard, once the steps rest (one request and one history
   * entry for the run, not one per step).
   */
  choose<K extends ChoiceField>(field: K, value: CatalogFormValues[K], how?: { stepping: boolean }): void;
  /** A brand, a category or an option value ticked or unticked: apply at once. */
  toggle(field: FacetField, value: string, chosen: boolean): void;
  /** The slider moved: show the value now, apply once it rests. */
  slide(range: number): void;
  /** A keystroke in the search box: apply once typing pauses. */
  type(search: string): void;
  /** Enter or the submit button: apply now. */
  applyNow(): void;
  /** A control lost focus: its next run starts a new history entry. */
  endRun(): void;
  /** The shopper chose to go elsewhere (a search suggestion): what was about to be sent is dropped. */
  leave(): void;
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
  /**
   * Where this form sent the shopper since its last navigation landed, the
   * newest last: to tell its own navigations from outside ones (Back, a link).
   * More than one when the shopper changes filters faster than they load.
   */
  const sentHrefs = useRef([committedKey]);
  const navigationType = useNavigationType();
  /** Fields changed since the last navigation this form sent, waiting for a pause. */
  const pending = useRef(new Set<RunControl>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /**
   * The control whose run already has its history entry: its later steps
   * replace that entry. Search as you type and arrow keys through a select
   * are runs; the slider is not (each rest of the thumb is a price the
   * shopper chose to look at).
   */
  const run = useRef<RunControl | null>(null);

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
    const ours = navigationType !== "POP" && sentHrefs.current.includes(committedKey);
    if (!ours) {
      // Back/Forward or a link: the address wins, and whatever was about to be sent is dropped.
      cancelPending();
      run.current = null;
      sentHrefs.current = [committedKey];
      setValues(fromUrl);
      return;
    }
    // An earlier navigation of this form landed just as it sent a newer one:
    // the form already shows the newer choice, and the newer one is on its way.
    if (sentHrefs.current.at(-1) !== committedKey) return;
    sentHrefs.current = [committedKey];
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
      sentHrefs.current.push(href);
      if (href === destinationHref.current) return;
      navigate(href, { preventScrollReset: true, replace: options.replace ?? false });
    },
    [cancelPending, navigate],
  );

  const later = useCallback(
    (control: RunControl, { joinsRun }: { joinsRun: boolean }) => {
      stopTimer();
      pending.current.add(control);
      if (run.current !== control) run.current = null;
      timer.current = setTimeout(() => {
        // The form as it is when the pause ends, not as it was at the keystroke:
        // Back may have changed another filter meanwhile.
        apply(valuesRef.current, { replace: joinsRun && run.current === control });
        run.current = joinsRun ? control : null;
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
    choose(field, value, how = { stepping: false }) {
      update({ [field]: value });
      if (how.stepping) return later(field, { joinsRun: true });
      run.current = null;
      apply(valuesRef.current);
    },
    toggle(field, value, chosen) {
      const others = valuesRef.current[field].filter((existing) => existing !== value);
      update({ [field]: chosen ? [...others, value] : others });
      run.current = null;
      apply(valuesRef.current);
    },
    slide(range) {
      update({ range });
      later("range", { joinsRun: false });
    },
    type(search) {
      update({ search });
      later("search", { joinsRun: true });
    },
    applyNow() {
      run.current = null;
      apply(valuesRef.current);
    },
    endRun() {
      run.current = null;
    },
    leave() {
      cancelPending();
      run.current = null;
    },
  };
}
