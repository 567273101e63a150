import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * Where keyboard and screen-reader users land after a client-side navigation.
 * A full page load starts them at the top of the document; a client-side one
 * keeps the old focus, which may be gone with the old page. So:
 * - an address with a fragment (`/?page=2#results`) focuses that element,
 *   as following the link without JavaScript scrolls to it;
 * - another page focuses its heading, which screen readers announce;
 * - the same page with other filters keeps focus where the shopper is (the
 *   search box they are typing in), unless the focused control went away
 *   with the old results, in which case the heading takes it.
 */
export function useFocusAfterNavigation() {
  const location = useLocation();
  const previousPath = useRef(location.pathname);
  const firstRender = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation, keyed by location.key
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const samePage = previousPath.current === location.pathname;
    previousPath.current = location.pathname;
    const fragmentTarget = location.hash
      ? document.getElementById(decodeURIComponent(location.hash.slice(1)))
      : null;
    if (fragmentTarget) return focusWithoutScrolling(fragmentTarget);
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (samePage && !focusLost) return;
    const heading = document.querySelector<HTMLElement>("#content h1") ?? document.getElementById("content");
    if (heading) focusWithoutScrolling(heading);
  }, [location.key]);
}

/** Focus a landmark or heading; scrolling stays with the router's scroll restoration. */
function focusWithoutScrolling(element: HTMLElement) {
  if (!element.hasAttribute("tabindex")) element.setAttribute("tabindex", "-1");
  element.focus({ preventScroll: true });
}
