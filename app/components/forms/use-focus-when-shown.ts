import { useEffect, useRef } from "react";

/**
 * Focus for an answer that replaces or joins a form (a link sent, a link
 * expired): when `shown` turns truthy the element takes the focus, so a
 * screen reader reads it and the keyboard goes on from there. The element
 * needs tabIndex={-1}.
 */
export function useFocusWhenShown<T extends HTMLElement>(shown: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}
