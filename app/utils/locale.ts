import { useRouteLoaderData } from "react-router";

/** The shop's language, and the locale of a browser that names none Intl knows. */
export const DEFAULT_LOCALE = "en-US";

/**
 * The locale the shopper's browser asked for (the root loader reads it from
 * Accept-Language), so the server's HTML and the browser's render format
 * dates alike and hydration never mismatches.
 */
export function useShopperLocale(): string {
  const root = useRouteLoaderData("root") as { locale?: string } | undefined;
  return root?.locale ?? DEFAULT_LOCALE;
}
