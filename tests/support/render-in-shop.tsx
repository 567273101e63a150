import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub, Outlet } from "react-router";
import type { ShopMoney } from "~/commerce/money";

/** A dollar shop writing amounts the American way: the configuration's defaults. */
export const DOLLAR_SHOP: ShopMoney = { currency: "USD", locale: "en-US" };

/**
 * Renders `element` at `address` as the server renders a page of the shop:
 * inside the root route, whose data gives every page the shop's currency and
 * locale (root.tsx's loader), so amounts are written as a shopper reads them.
 */
export function renderInShop(element: ReactNode, address = "/", money: ShopMoney = DOLLAR_SHOP): string {
  const rootData = { money };
  const Stub = createRoutesStub([
    {
      id: "root",
      loader: () => rootData,
      Component: Outlet,
      children: [
        // biome-ignore lint/correctness/noComponentHookFactories: a one-off test route around the element under test
        { path: new URL(address, "http://shop.test").pathname, Component: () => element },
      ],
    },
  ]);
  return renderToString(
    <Stub initialEntries={[address]} hydrationData={{ loaderData: { root: rootData } }} />,
  );
}
