import { useEffect, useState } from "react";

/**
 * False in the server's HTML and the first render in the browser, true once
 * React has hydrated: for controls that only work with JavaScript, so the
 * page without it never shows (or announces) one that does nothing.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
