import { index, type RouteConfig, route } from "@react-router/dev/routes";

/**
 * Every URL the shop answers. All of them go through React Router, pages and
 * JSON alike (docs/decisions/0013), except three kinds the HTTP server
 * (server/shop-server.ts) answers before the router, because they are not
 * the shop's pages or data:
 * - static files of the build and the product pictures (`/assets/*`,
 *   `/images/*`, `/favicon.svg`, …), from build/client;
 * - `/demo-idp/*`, the local OpenID provider that stands in for Google, only
 *   with DEMO_IDENTITY_PROVIDER=1 (app/features/demo-identity-provider);
 * - `/v1/*` and `/demo-payment-provider/*`, the local stand-in for Stripe's
 *   API and payment page, only with DEMO_PAYMENT_PROVIDER=1
 *   (app/features/demo-payment-provider);
 * - refusals and redirects that come before any route: a body too large,
 *   a method the shop never answers, a cross-site form post, another host name.
 */
export default [
  index("routes/shop.tsx"),
  route("products/:product", "routes/product.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  // The catalogue's JSON API (app/features/catalog), and the load balancers' health check.
  route("all-products", "routes/api.all-products.ts"),
  route("counts", "routes/api.counts.ts"),
  route("facets", "routes/api.facets.ts"),
  route("api/products/:id", "routes/api.product.ts"),
  route("suggestions", "routes/api.suggestions.ts"),
  route("healthz", "routes/healthz.ts"),
  // Product pictures the owner imported (npm run catalog:import), kept in the database.
  route("pictures/:name", "routes/picture.ts"),
  // The JSON API's description (OpenAPI 3.1) and its reference page (app/api-document.server.ts).
  route("openapi.json", "routes/openapi.ts"),
  route("docs/api", "routes/api-reference.tsx"),
  // For crawlers (app/features/catalog/browsing/sitemap.server.ts).
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  // Accounts (app/features/auth).
  route("login", "routes/login.tsx"),
  route("sign-up", "routes/sign-up.tsx"),
  route("logout", "routes/logout.ts"),
  route("auth/google", "routes/auth.google.tsx"),
  route("auth/google/done", "routes/auth.google.done.tsx"),
  // The account page: each of its forms is sent to a route of its own, whose page is the account page again.
  route("account", "routes/account.tsx", [
    index("routes/account.overview.tsx"),
    route("profile", "routes/account.profile.tsx"),
    route("email", "routes/account.email.tsx"),
    route("password", "routes/account.password.tsx"),
    route("sessions/sign-out", "routes/account.sessions.sign-out.tsx"),
    route("sessions/sign-out-others", "routes/account.sessions.sign-out-others.tsx"),
    route("delete", "routes/account.delete.tsx"),
    // The shopper's orders (app/features/orders), in the account's layout.
    route("orders", "routes/account.orders.tsx"),
  ]),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("verify-email", "routes/verify-email.tsx"),
  route("api/auth/*", "routes/api.auth.ts"),
  route("user/api/create", "routes/api.user-create.ts"),
  // Asked by the new-password fields when they are left: is this password too common?
  route("api/password-check", "routes/api.password-check.ts"),
  // The cart's page; every cart form of the shop (Add to cart, a quantity, Remove) posts to it (app/features/cart).
  route("cart", "routes/cart.tsx"),
  // The cart's JSON API (app/features/cart).
  route("api/cart", "routes/api.cart.ts"),
  route("api/cart/lines", "routes/api.cart-lines.ts"),
  route("api/cart/lines/:lineId", "routes/api.cart-line.ts"),
  // Checkout (app/features/orders): the cart becomes an order.
  route("checkout", "routes/checkout.tsx"),
  route("api/checkout", "routes/api.checkout.ts"),
  // What the cart comes to at an address: its shipping methods, taxes and total (issue 35).
  route("api/checkout/quote", "routes/api.checkout-quote.ts"),
  // An order's page and its JSON, for its owner or the holder of its signed link (?token=…).
  route("orders/:number", "routes/order.tsx"),
  route("api/orders/:number", "routes/api.order.ts"),
  // A card order waiting for its payment: to Stripe's page (app/features/orders/card-payments).
  route("orders/:number/pay", "routes/order.pay.ts"),
  // Stripe's signed word on a card payment (docs/decisions/0032).
  route("api/webhooks/stripe", "routes/api.webhooks.stripe.ts"),
  // The tax and shipping setup as one JSON document, for staff and owners (app/features/tax-and-shipping).
  route("api/admin/tax-and-shipping", "routes/api.admin.tax-and-shipping.ts"),
  // The back office (docs/decisions/0029): staff and owners only; every loader and action checks
  // the role on the server (context.server.ts, backOfficeVisitorOf). People and settings: owners only.
  route("admin", "routes/admin.tsx", [
    index("routes/admin.dashboard.tsx"),
    route("products", "routes/admin.products.tsx"),
    route("products/new", "routes/admin.products.new.tsx"),
    route("products/:productId", "routes/admin.product.tsx"),
    route("products/:productId/variants", "routes/admin.product-variants.tsx"),
    route("products/brands-and-categories", "routes/admin.catalog-labels.tsx"),
    route("products/import", "routes/admin.catalog-import.tsx"),
    route("products/import/:importId", "routes/admin.catalog-import-file.tsx"),
    route("products/import/:importId/progress", "routes/admin.catalog-import-progress.ts"),
    route("products/export", "routes/admin.catalog-export.ts"),
    route("orders", "routes/admin.orders.tsx"),
    route("orders/:number", "routes/admin.order.tsx"),
    route("customers", "routes/admin.customers.tsx"),
    route("customers/:customerId", "routes/admin.customer.tsx"),
    route("reviews", "routes/admin.reviews.tsx"),
    route("activity", "routes/admin.activity.tsx"),
    route("people", "routes/admin.people.tsx"),
    route("settings", "routes/admin.settings.tsx"),
  ]),
  // The local demo's emails (app/utils/mail.server.ts): a 404 unless DEMO_IDENTITY_PROVIDER=1 and no SMTP_URL.
  route("dev/outbox", "routes/dev.outbox.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
