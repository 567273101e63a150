import { useRouteLoaderData } from "react-router";

/** Shoppers are told how many are left from this many units down, until configured otherwise. */
export const DEFAULT_FEW_LEFT_AT = 5;

/**
 * From how many units down shoppers read "Only N left": the owner's setting
 * (/admin/settings, SHOP_FEW_LEFT_AT by default), which the root loader gives
 * every page, so the server's HTML and the browser's render say the same.
 */
export function useFewLeftAt(): number {
  const root = useRouteLoaderData("root") as { shop?: { fewLeftAt?: number } } | undefined;
  return root?.shop?.fewLeftAt ?? DEFAULT_FEW_LEFT_AT;
}
