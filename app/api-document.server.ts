import { authApi } from "~/features/auth/auth-openapi.server";
import { cartApi } from "~/features/cart/cart-openapi.server";
import { catalogApi } from "~/features/catalog/browsing/catalog-openapi.server";
import { ordersApi } from "~/features/orders/orders-openapi.server";
import { taxShippingApi } from "~/features/tax-and-shipping/setup-openapi.server";
import type { ApiDocument } from "~/utils/openapi";
import { apiDocument } from "~/utils/openapi.server";

/**
 * The shop's public JSON API as OpenAPI 3.1: each feature describes its own
 * calls from its own schemas; this puts them together for /openapi.json and
 * the reference page, /docs/api.
 */
let made: ApiDocument | undefined;

export function shopApiDocument(): ApiDocument {
  made ??= apiDocument(
    {
      title: "Backline API",
      version: "1",
      description:
        "The catalogue of a Backline shop — its products, counts and facets — a signed-in user's own record, whether a new password is too common, the visitor's cart, its checkout and the orders it places, and for staff the shop's tax and shipping setup. Every answer is JSON; an error is `{ \"error\": { code, message, field?, fields? } }`: a 400 names every bad field in `fields` (`[{ field, message }]`), the first also in `field` and `message`.",
    },
    [catalogApi, authApi, cartApi, ordersApi, taxShippingApi()],
  );
  return made;
}
