import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * A panel that a button shows and hides, on the browser's own popover (the
 * HTML `popover` attribute and `popovertarget`): the browser opens it from its
 * button even before (or without) JavaScript, closes it on Escape or a click
 * outside, puts its content next in the Tab order after the button, and
 * returns focus to the button when it closes with focus inside. See
 * docs/decisions/0016-libraries-kept-and-replaced.md for why not Radix or React Aria.
 *
 * This hook adds only what the platform leaves to the page: `aria-expanded`
 * on the button, and closing the panel when a link in it navigates (a
 * client-side navigation keeps the document, so the panel would stay open).
 */
export function usePopover() {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();

  useEffect(() => {
    const element = panel.current;
    if (!element) return;
    const onToggle = (event: Event) => setOpen((event as ToggleEvent).newState === "open");
    element.addEventListener("toggle", onToggle);
    return () => element.removeEventListener("toggle", onToggle);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every new location
  useEffect(() => {
    const element = panel.current;
    if (element?.matches(":popover-open")) element.hidePopover();
  }, [location.key]);

  return {
    open,
    /** Spread on the <button> that shows and hides the panel. */
    trigger: { type: "button", popoverTarget: id, "aria-controls": id, "aria-expanded": open } as const,
    /** Spread on the panel. */
    panel: { id, ref: panel, popover: "auto" } as const,
  };
}
