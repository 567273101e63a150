import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router";

interface PopoverOptions {
  /**
   * Stay open when the address changes. A menu of links closes when one is
   * followed; a panel of filters stays open while each change reloads the
   * results; "same-page" stays open while only the query changes (a search
   * that refreshes the listing as the shopper types) and closes on a new page.
   */
  keepOpenOnNavigation?: boolean | "same-page";
  /** Move focus into the panel when it opens (implied by `coversPage`). */
  focusOnOpen?: boolean;
  /**
   * A panel that covers the page (a sheet on a phone) is a modal dialog while
   * it is open: it takes focus when it opens, and the page behind it is inert
   * (no Tab, no click, nothing read) until it closes, as with a modal
   * `<dialog>`; should focus leave it anyway, it closes.
   */
  coversPage?: boolean;
  /** Close when this media query starts to match (the panel becomes part of the page at that width). */
  closeWhenMatches?: string;
}

/**
 * A panel that a button shows and hides, on the browser's own popover (the
 * HTML `popover` attribute and `popovertarget`): the browser opens it from its
 * button even before (or without) JavaScript, closes it on Escape or a click
 * outside, puts its content next in the Tab order after the button, and
 * returns focus to the button when it closes with focus inside. See
 * docs/decisions/0016-libraries-kept-and-replaced.md for why not Radix or React Aria.
 *
 * This hook adds only what the platform leaves to the page: `aria-expanded`
 * on the button, closing the panel when a link in it navigates (a
 * client-side navigation keeps the document, so the panel would stay open),
 * and the options above.
 */
export function usePopover({
  keepOpenOnNavigation = false,
  focusOnOpen = false,
  coversPage = false,
  closeWhenMatches,
}: PopoverOptions = {}) {
  const focusesOnOpen = focusOnOpen || coversPage;
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();

  useEffect(() => {
    const element = panel.current;
    if (!element) return;
    let releasePage: (() => void) | undefined;
    const onBeforeToggle = (event: Event) => {
      if (!coversPage) return;
      // Before the browser hides the panel and returns focus to its button, which must not be inert then.
      releasePage?.();
      releasePage = (event as ToggleEvent).newState === "open" ? inertOutside(element) : undefined;
    };
    const onToggle = (event: Event) => {
      const opened = (event as ToggleEvent).newState === "open";
      setOpen(opened);
      if (opened && focusesOnOpen) {
        // The control marked to start with (the sheet's close button), else the first one.
        (
          element.querySelector<HTMLElement>("[data-autofocus]") ??
          element.querySelector<HTMLElement>(FOCUSABLE)
        )?.focus();
      }
    };
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      // Focus moving to another window or tab (relatedTarget null) is not the shopper leaving the panel.
      if (next instanceof Node && !element.contains(next) && element.matches(":popover-open")) {
        element.hidePopover();
      }
    };
    // The browser opens the panel even before hydration: start from what it shows.
    const openAlready = element.matches(":popover-open");
    setOpen(openAlready);
    if (openAlready && coversPage) releasePage = inertOutside(element);
    element.addEventListener("beforetoggle", onBeforeToggle);
    element.addEventListener("toggle", onToggle);
    if (coversPage) element.addEventListener("focusout", onFocusOut);
    return () => {
      releasePage?.();
      element.removeEventListener("beforetoggle", onBeforeToggle);
      element.removeEventListener("toggle", onToggle);
      element.removeEventListener("focusout", onFocusOut);
    };
  }, [coversPage, focusesOnOpen]);

  useEffect(() => {
    if (!closeWhenMatches) return;
    const media = window.matchMedia(closeWhenMatches);
    const onChange = () => {
      if (media.matches && panel.current?.matches(":popover-open")) panel.current.hidePopover();
    };
    media.addEventListener("change", onChange);
    return () => media.removeEventListener("change", onChange);
  }, [closeWhenMatches]);

  // Closes on a new location only: a panel the shopper opened before hydration stays open.
  const shownAt = useRef({ key: location.key, pathname: location.pathname });
  useEffect(() => {
    const before = shownAt.current;
    if (before.key === location.key) return;
    shownAt.current = { key: location.key, pathname: location.pathname };
    const keep =
      keepOpenOnNavigation === "same-page" ? before.pathname === location.pathname : keepOpenOnNavigation;
    const element = panel.current;
    if (!keep && element?.matches(":popover-open")) element.hidePopover();
  }, [location.key, location.pathname, keepOpenOnNavigation]);

  return {
    open,
    /** Closes the panel, if it is open. */
    hide: () => {
      if (panel.current?.matches(":popover-open")) panel.current.hidePopover();
    },
    /** Spread on the <button> that shows and hides the panel. */
    trigger: { type: "button", popoverTarget: id, "aria-controls": id, "aria-expanded": open } as const,
    /** Spread on a button inside the panel that closes it. */
    close: { type: "button", popoverTarget: id, popoverTargetAction: "hide" } as const,
    /** Spread on the panel. */
    panel: { id, ref: panel, popover: "auto" } as const,
  };
}

/**
 * Makes everything outside `panel` inert — each sibling of the panel and of
 * every element it sits in, up to <body> — as a modal `<dialog>` does for the
 * page behind it; returns what undoes it. What was inert already stays so.
 */
function inertOutside(panel: HTMLElement): () => void {
  const made: HTMLElement[] = [];
  for (let inside: HTMLElement = panel; inside !== document.body; ) {
    const parent = inside.parentElement;
    if (!parent) break;
    for (const sibling of parent.children) {
      if (sibling !== inside && sibling instanceof HTMLElement && !sibling.inert) {
        sibling.inert = true;
        made.push(sibling);
      }
    }
    inside = parent;
  }
  return () => {
    for (const element of made) element.inert = false;
  };
}

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';
