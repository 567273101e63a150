import path from "node:path";
import routes from "~/routes";

/**
 * What each route of app/routes.ts takes from a client, for the fuzz test
 * (tests/integration/fuzz.test.ts) to send hostile text to every input: its
 * query parameters, its form's fields or its JSON body's, and who may send
 * them. A route that takes no text says so with `none`. A route added to
 * app/routes.ts and not here fails the fuzz test until it is described.
 */
export type Visitor = "guest" | "shopper" | "owner";

/** The values a route's address needs (a real product, order and import), found when the shop starts. */
export interface Samples {
  productId: number;
  productSlug: string;
  orderNumber: string;
  importId: string;
}

export interface RouteInputs {
  /** The route's path as app/routes.ts writes it ("" for the index, "admin/orders/:number"). */
  route: string;
  /** Who sends it: a guest, a signed-in shopper, an owner. */
  as: Visitor;
  /** An address of it to send to. */
  url(samples: Samples): string;
  /** Its query parameters. */
  query?: readonly string[];
  /** Its form's fields (a web form POST), or a multipart form's with a file field. */
  form?: readonly string[];
  /** A multipart form: the file field's name. */
  file?: string;
  /** Its JSON body's fields, by path, and the method that sends it. */
  json?: { method: "POST" | "PUT" | "PATCH"; fields: readonly string[] };
  /** Takes no text from a client (a static page, a picture by its hash): said, so nothing is forgotten. */
  none?: string;
}

const CATALOG = ["page", "size", "sort", "search", "category", "band", "range", "inStock"] as const;
const ADDRESS = ["name", "line1", "line2", "city", "postalCode", "country"].map(
  (field) => `shippingAddress.${field}`,
);
const CHECKOUT = ["email", ...ADDRESS, "shippingMethod", "paymentMethod"];
const PRODUCT_FORM = ["name", "brand", "category", "price", "stock", "stockShown", "description"];

const at = (address: string) => () => address;

export const ROUTE_INPUTS: readonly RouteInputs[] = [
  { route: "", as: "guest", url: at("/"), query: CATALOG },
  {
    route: "products/:product",
    as: "shopper",
    url: ({ productSlug }) => `/products/${productSlug}`,
    query: ["reviews", "reviewsPage", "review", "variant", "option1", "option2", "option3"],
    form: ["intent", "editing", "rating", "title", "body", "reviewId"],
  },
  { route: "about", as: "guest", url: at("/about"), none: "a static page" },
  { route: "contact", as: "guest", url: at("/contact"), none: "a static page" },
  { route: "all-products", as: "guest", url: at("/all-products"), query: CATALOG },
  {
    route: "api/products/:id",
    as: "guest",
    url: ({ productId }) => `/api/products/${productId}`,
    none: "a product by the id in its address",
  },
  { route: "counts", as: "guest", url: at("/counts"), query: CATALOG },
  { route: "facets", as: "guest", url: at("/facets"), query: CATALOG },
  { route: "suggestions", as: "guest", url: at("/suggestions"), query: ["search"] },
  { route: "healthz", as: "guest", url: at("/healthz"), none: "the load balancers' check" },
  { route: "pictures/:name", as: "guest", url: at("/pictures/x"), none: "a picture by its hash" },
  { route: "openapi.json", as: "guest", url: at("/openapi.json"), none: "a document" },
  { route: "docs/api", as: "guest", url: at("/docs/api"), none: "a document" },
  { route: "sitemap.xml", as: "guest", url: at("/sitemap.xml"), query: ["page"] },
  { route: "robots.txt", as: "guest", url: at("/robots.txt"), none: "a document" },
  {
    route: "login",
    as: "guest",
    url: at("/login"),
    query: ["redirectTo"],
    form: ["email", "password", "redirectTo"],
  },
  { route: "sign-up", as: "guest", url: at("/sign-up"), form: ["name", "email", "photo", "password"] },
  // As a guest: the shopper's session is every other route's.
  { route: "logout", as: "guest", url: at("/logout"), form: ["returnTo"] },
  { route: "auth/google", as: "guest", url: at("/auth/google"), form: ["redirectTo", "mode", "attempt"] },
  {
    route: "auth/google/done",
    as: "guest",
    url: at("/auth/google/done"),
    query: ["redirectTo", "popup", "attempt", "error"],
  },
  { route: "account", as: "shopper", url: at("/account"), none: "the account page's frame" },
  { route: "account/", as: "shopper", url: at("/account"), none: "the account page" },
  { route: "account/profile", as: "shopper", url: at("/account/profile"), form: ["name", "photo"] },
  { route: "account/email", as: "shopper", url: at("/account/email"), form: ["email", "password"] },
  {
    route: "account/password",
    as: "shopper",
    url: at("/account/password"),
    form: ["currentPassword", "newPassword"],
  },
  {
    route: "account/sessions/sign-out",
    as: "shopper",
    url: at("/account/sessions/sign-out"),
    form: ["sessionId"],
  },
  {
    route: "account/sessions/sign-out-others",
    as: "shopper",
    url: at("/account/sessions/sign-out-others"),
    form: ["password"],
  },
  { route: "account/delete", as: "shopper", url: at("/account/delete"), form: ["password"] },
  { route: "account/orders", as: "shopper", url: at("/account/orders"), query: ["page"] },
  { route: "forgot-password", as: "guest", url: at("/forgot-password"), form: ["email"] },
  {
    route: "reset-password",
    as: "guest",
    url: at("/reset-password"),
    query: ["token"],
    form: ["token", "password"],
  },
  {
    route: "verify-email",
    as: "shopper",
    url: at("/verify-email"),
    query: ["token"],
    form: ["intent", "token", "returnTo"],
  },
  {
    route: "api/auth/*",
    as: "guest",
    url: at("/api/auth/callback/google"),
    query: ["code", "state", "error", "iss"],
  },
  {
    route: "user/api/create",
    as: "shopper",
    url: at("/user/api/create"),
    json: { method: "PUT", fields: ["email", "name", "photo"] },
  },
  {
    route: "api/password-check",
    as: "guest",
    url: at("/api/password-check"),
    json: { method: "POST", fields: ["password"] },
  },
  {
    route: "cart",
    as: "guest",
    url: at("/cart"),
    query: ["added"],
    form: ["intent", "productId", "variantId", "quantity", "stay"],
  },
  { route: "api/cart", as: "guest", url: at("/api/cart"), none: "the visitor's cart, by its cookie" },
  {
    route: "api/cart/lines",
    as: "guest",
    url: at("/api/cart/lines"),
    json: { method: "POST", fields: ["productId", "variantId", "quantity"] },
  },
  {
    route: "api/cart/lines/:lineId",
    as: "guest",
    url: ({ productId }) => `/api/cart/lines/${productId}`,
    json: { method: "PATCH", fields: ["quantity"] },
  },
  { route: "checkout", as: "guest", url: at("/checkout"), form: ["idempotencyKey", ...CHECKOUT] },
  {
    route: "api/checkout",
    as: "guest",
    url: at("/api/checkout"),
    json: { method: "POST", fields: CHECKOUT },
  },
  {
    route: "api/checkout/quote",
    as: "guest",
    url: at("/api/checkout/quote"),
    json: { method: "POST", fields: ["shippingAddress.country", "shippingAddress.region", "shippingMethod"] },
  },
  {
    route: "orders/:number",
    as: "guest",
    url: ({ orderNumber }) => `/orders/${orderNumber}`,
    query: ["token", "payment"],
  },
  {
    route: "api/orders/:number",
    as: "guest",
    url: ({ orderNumber }) => `/api/orders/${orderNumber}`,
    query: ["token"],
  },
  {
    route: "orders/:number/pay",
    as: "guest",
    url: ({ orderNumber }) => `/orders/${orderNumber}/pay`,
    query: ["token"],
    form: ["token"],
  },
  {
    route: "api/webhooks/stripe",
    as: "guest",
    url: at("/api/webhooks/stripe"),
    json: { method: "POST", fields: ["type", "data.object.id"] },
  },
  { route: "admin", as: "owner", url: at("/admin"), none: "the back office's frame" },
  { route: "admin/", as: "owner", url: at("/admin"), none: "the dashboard" },
  { route: "admin/products", as: "owner", url: at("/admin/products"), query: [...CATALOG, "stock"] },
  {
    route: "admin/products/new",
    as: "owner",
    url: at("/admin/products/new"),
    form: PRODUCT_FORM,
    file: "picture",
  },
  {
    route: "admin/products/:productId",
    as: "owner",
    url: ({ productId }) => `/admin/products/${productId}`,
    form: ["intent", ...PRODUCT_FORM, "password"],
    file: "picture",
  },
  {
    route: "admin/products/:productId/variants",
    as: "owner",
    url: ({ productId }) => `/admin/products/${productId}/variants`,
    form: [
      "intent",
      "options[0].name",
      "options[0].values",
      "variants[0].id",
      "variants[0].option1",
      "variants[0].sku",
      "variants[0].price",
      "variants[0].compareAt",
      "variants[0].stock",
      "variants[0].stockShown",
      "variants[0].weight",
      "variants[0].selected",
      "bulkPrice",
      "bulkStock",
    ],
  },
  {
    route: "admin/products/brands-and-categories",
    as: "owner",
    url: at("/admin/products/brands-and-categories"),
    form: ["intent", "kind", "value", "label", "form"],
  },
  { route: "admin/products/import", as: "owner", url: at("/admin/products/import"), form: [], file: "file" },
  {
    route: "admin/products/import/:importId",
    as: "owner",
    url: ({ importId }) => `/admin/products/import/${importId}`,
    form: ["prune", "skipInvalid"],
  },
  {
    route: "admin/products/import/:importId/progress",
    as: "owner",
    url: ({ importId }) => `/admin/products/import/${importId}/progress`,
    none: "an import's progress, by its id",
  },
  { route: "admin/products/export", as: "owner", url: at("/admin/products/export"), query: ["format"] },
  {
    route: "admin/orders",
    as: "owner",
    url: at("/admin/orders"),
    query: ["status", "from", "to", "q", "page"],
  },
  {
    route: "admin/orders/:number",
    as: "owner",
    url: ({ orderNumber }) => `/admin/orders/${orderNumber}`,
    query: ["changed"],
    form: ["intent", "shownStatus", "trackingNumber", "paymentId"],
  },
  { route: "admin/customers", as: "owner", url: at("/admin/customers"), query: ["q", "page"] },
  {
    route: "admin/customers/:customerId",
    as: "owner",
    url: at("/admin/customers/no-such-customer"),
    query: ["page"],
  },
  {
    route: "admin/reviews",
    as: "owner",
    url: at("/admin/reviews"),
    query: ["show", "after", "done"],
    form: ["intent", "reviewId", "reason"],
  },
  { route: "admin/activity", as: "owner", url: at("/admin/activity"), query: ["before", "subject"] },
  { route: "admin/people", as: "owner", url: at("/admin/people"), form: ["email", "role", "password"] },
  {
    route: "admin/settings",
    as: "owner",
    url: at("/admin/settings"),
    form: [
      "currency",
      "locale",
      "standardShipping",
      "freeShippingFrom",
      "expressShipping",
      "bankDetails",
      "lowStockAt",
      "fewLeftAt",
    ],
  },
  {
    route: "api/admin/tax-and-shipping",
    as: "owner",
    url: at("/api/admin/tax-and-shipping"),
    json: { method: "PUT", fields: ["pricesIncludeTax", "outsideTaxZones", "taxZones", "shippingZones"] },
  },
  { route: "dev/outbox", as: "guest", url: at("/dev/outbox"), none: "the local demo's emails" },
  { route: "*", as: "guest", url: at("/no-such-page"), none: "the 404 page" },
];

type Entry = { path?: string; index?: boolean; children?: Entry[] };

/** Every route of app/routes.ts by its full path ("" for the index; "account/" for a nested index). */
export function routesOfTheShop(): string[] {
  const found: string[] = [];
  const walk = (entries: Entry[], parent: string) => {
    for (const entry of entries) {
      const full = entry.index ? `${parent}${parent ? "/" : ""}` : path.posix.join(parent, entry.path ?? "");
      found.push(entry.index && !parent ? "" : full);
      if (entry.children) walk(entry.children, full);
    }
  };
  walk(routes as Entry[], "");
  return found;
}
