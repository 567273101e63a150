import { createContext, data, type RouterContextProvider, redirect } from "react-router";
import type { TaxShippingStore } from "~/commerce/tax-shipping-store.server";
import type { DatabaseHandle } from "~/db/client.server";
import type { Accounts, AuthService } from "~/features/auth/auth.server";
import { loginPath } from "~/features/auth/redirect";
import { type BackOfficeRole, mayAct } from "~/features/auth/roles";
import type { BackOfficeVisitor } from "~/features/auth/services/back-office-access.server";
import { cartIdOf, cartItemCount } from "~/features/cart/cart.server";
import {
  type CartVisitor,
  clearedCartCookie,
  ownerOf,
  takeGuestCart,
} from "~/features/cart/cart-visitor.server";
import type { Catalog } from "~/features/catalog/browsing/catalog.server";
import type { CatalogClient } from "~/features/catalog/browsing/catalog-api.server";
import type { PictureStore } from "~/features/catalog/management/index.server";
import type { SearchRateLimit } from "~/features/catalog/search/index.server";
import { windowInWords } from "~/features/orders/card-payments/card-payments.server";
import type { CheckoutVisitor } from "~/features/orders/checkout-api.server";
import type { OrderServices, OrderViewer } from "~/features/orders/orders.server";
import type { ShippingRates } from "~/features/orders/shipping";
import { addressKey } from "~/utils/client-address.server";
import type { ShopSettings, ShopSettingsStore } from "~/utils/shop-settings.server";
import type { ShoppingAttempt, ShoppingRateLimit } from "~/utils/shopping-rate-limit.server";

/**
 * What the server hands every loader and action through the router context:
 * created once at start-up by the composition root (server/services.ts) or by
 * a test, never imported as a module-level singleton, so loaders can be called
 * directly in tests. This module is glue between the routes and the features,
 * like root.tsx: features never import it (the linter says so); routes read
 * the services here and hand them to the features.
 */
export interface ShopServices {
  /** The shop's public origin (BASE_URL): canonical links come from it, never from the request's Host. */
  baseUrl: string;
  database: DatabaseHandle;
  catalog: Catalog;
  /** The owner's imported product pictures (/pictures/…). */
  pictures: PictureStore;
  /** How many searches one client may send this process (search-rate-limit.server.ts). */
  searchLimit: SearchRateLimit;
  /** Accounts and sessions (Better Auth behind the shop's own rules). */
  auth: AuthService;
  /**
   * The outbox folder that /dev/outbox lists: only in the local demo
   * (DEMO_IDENTITY_PROVIDER=1, not made public) with no SMTP_URL, so the demo's emails can be
   * read in the browser; null everywhere else (the page is then a 404).
   */
  devOutbox: string | null;
  lifecycle: ShopLifecycle;
  /** Orders' signed links (the shop's secret), confirmation emails and bank details (app/features/orders). */
  orders: OrderServices;
  /**
   * What the owner sets at /admin/settings: shipping amounts, bank details,
   * the low-stock line; the configuration (SHIPPING_STANDARD, …) gives the defaults.
   */
  settings: ShopSettingsStore;
  /** Where the shop charges which tax and what shipping costs (issue 35): /admin/settings and its API. */
  taxShipping: TaxShippingStore;
  /** How many cart changes and checkouts one client may send this process (shopping-rate-limit.server.ts). */
  shoppingLimit: ShoppingRateLimit;
}

/** Where the process is in its life: set by the server, read by /healthz. */
export interface ShopLifecycle {
  /**
   * Shutting down (SIGTERM): requests in flight finish, /healthz answers 503
   * so load balancers stop sending new ones, connections close after their request.
   */
  draining: boolean;
}

export const servicesContext = createContext<ShopServices>();

/** Per-request values set by the HTTP layer. */
export interface RequestInfo {
  /** Nonce of this response's Content-Security-Policy, for inline scripts. */
  cspNonce: string;
  /** Who is asking: the socket's address, or behind TRUST_PROXY proxies the one they forwarded (client-address.server.ts). */
  clientAddress: string;
  /**
   * Set when a loader or action failed because the database (or another
   * service it needed) was down or too busy (entry.server.tsx): the HTTP layer
   * then answers 503 with Retry-After instead of 500, since the same request
   * can succeed a moment later.
   */
  failedTransiently?: boolean;
  /**
   * Set when a loader or action failed because the database refused a value
   * the request carried (entry.server.tsx): the HTTP layer then answers 400,
   * the client's mistake, instead of 500.
   */
  refusedValue?: boolean;
}

export const requestInfoContext = createContext<RequestInfo>();

/**
 * The account services for this request: its cookies say who is signed in,
 * and the client address the HTTP layer resolved (TRUST_PROXY honoured) is
 * what their rate limits, logs and new sessions use.
 */
export function accountsFor(request: Request, context: Readonly<RouterContextProvider>): Accounts {
  const { auth } = context.get(servicesContext);
  return auth.for({ request, address: context.get(requestInfoContext).clientAddress });
}

/** Who is asking the catalogue, for the per-client limit on searches. */
export function catalogClientFor(context: Readonly<RouterContextProvider>): CatalogClient {
  const { searchLimit } = context.get(servicesContext);
  return { searchLimit, key: addressKey(context.get(requestInfoContext).clientAddress) };
}

/**
 * Who is shopping: their cart (the signed-in shopper's, or a guest's), and
 * the email and name a checkout form starts with ("" for a guest).
 */
export async function shopperOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ cart: CartVisitor; email: string; name: string }> {
  const { database, baseUrl } = context.get(servicesContext);
  const { user } = await accountsFor(request, context).sessions.current();
  return {
    cart: { db: database.db, userId: user?.id ?? null, secureCookies: baseUrl.startsWith("https:") },
    email: user?.email ?? "",
    name: user?.name ?? "",
  };
}

/** Who asks for a cart: the signed-in shopper (null for a guest), and whether its cookie must be Secure. */
export async function cartVisitorOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<CartVisitor> {
  return (await shopperOf(request, context)).cart;
}

/** The number of items in the visitor's cart, for the navbar; no query for a guest without a cart. */
export async function cartItemCountOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
  userId: string | null,
): Promise<number> {
  const { database } = context.get(servicesContext);
  const owner = ownerOf(request, { userId });
  return owner ? cartItemCount(database.db, owner) : 0;
}

/** Signing in or up: the browser's guest cart joins the account's; the Set-Cookie that clears it, if any. */
export async function takeGuestCartOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
  userId: string,
): Promise<string | null> {
  const { database, baseUrl } = context.get(servicesContext);
  return takeGuestCart(request, { db: database.db, userId, secureCookies: baseUrl.startsWith("https:") });
}

/** Logging out: the browser keeps no cart (the account's stays on the server). */
export function clearedCartCookieOf(context: Readonly<RouterContextProvider>): string {
  return clearedCartCookie(context.get(servicesContext).baseUrl.startsWith("https:"));
}

/** Who checks out: the cart feature gives the cart, the orders feature places it (routes/api.checkout.ts). */
export async function checkoutVisitorOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
  /** The visitor's cart, when the caller has read who is shopping already (shopperOf): the session is read once. */
  cart?: CartVisitor,
): Promise<CheckoutVisitor> {
  const visitor = cart ?? (await cartVisitorOf(request, context));
  const owner = ownerOf(request, visitor);
  const cartId = owner ? await cartIdOf(visitor.db, owner) : null;
  const services = context.get(servicesContext);
  // One after the other: a shop without a saved setup prices it from the settings just read.
  const settings = await services.settings.current();
  const setup = await services.taxShipping.current();
  return {
    userId: visitor.userId,
    cart: cartId ? { id: cartId } : null,
    setup,
    orders: orderServicesWith(context, settings),
  };
}

/** Who asks for an order (its page, its JSON, the account's list): the signed-in shopper, or nobody. */
export async function orderViewerOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<OrderViewer> {
  const { database, settings } = context.get(servicesContext);
  const [{ user }, current] = await Promise.all([
    accountsFor(request, context).sessions.current(),
    settings.current(),
  ]);
  return { db: database.db, userId: user?.id ?? null, services: orderServicesWith(context, current) };
}

/** Card payments as checkout offers them: null when the shop takes none (no Stripe keys, no demo stand-in). */
export function cardPaymentOffer(context: Readonly<RouterContextProvider>): { window: string } | null {
  const { card } = context.get(servicesContext).orders;
  return card ? { window: windowInWords(card.windowMinutes) } : null;
}

/** What shipping costs now (the owner's settings). */
export async function shippingRatesOf(context: Readonly<RouterContextProvider>): Promise<ShippingRates> {
  return shippingRatesIn(await context.get(servicesContext).settings.current());
}

function shippingRatesIn(settings: ShopSettings): ShippingRates {
  return {
    standardCents: settings.standardShippingCents,
    freeStandardFromCents: settings.freeShippingFromCents,
    expressCents: settings.expressShippingCents,
  };
}

/** The orders' services with the bank details the owner set. */
function orderServicesWith(context: Readonly<RouterContextProvider>, settings: ShopSettings): OrderServices {
  return { ...context.get(servicesContext).orders, bankDetails: settings.bankDetails };
}

/** A cart change or checkout counted against this client's share, before any work: null to go ahead. */
export function shoppingRefusalOf(
  context: Readonly<RouterContextProvider>,
  attempt: ShoppingAttempt,
): Promise<{ retryAfterSeconds: number } | null> {
  const { shoppingLimit } = context.get(servicesContext);
  return shoppingLimit.admit(addressKey(context.get(requestInfoContext).clientAddress), attempt);
}

/**
 * The back office's door, called by every /admin loader and action
 * (docs/decisions/0029): a signed-out visitor is sent to log in and back;
 * a shopper gets the shop's 404, the same as a page that does not exist (the
 * back office does not say it is there); staff asking for what needs an
 * owner (people, settings) get 403 with why. The role is read from the
 * database each time, so a role taken away counts at the next request.
 */
export async function backOfficeVisitorOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
  need: BackOfficeRole = "staff",
): Promise<BackOfficeVisitor> {
  const visitor = await accountsFor(request, context).backOffice.visitor();
  if (!visitor) {
    const { pathname, search } = new URL(request.url);
    throw redirect(loginPath(pathname + search));
  }
  if (!mayAct(visitor.role, "staff")) throw data(null, { status: 404 });
  if (!mayAct(visitor.role, need)) {
    throw data("Only an owner of the shop can open this page. Ask an owner if you need it.", { status: 403 });
  }
  return visitor;
}

/**
 * The back office's door for its JSON API (`/api/admin/…`): the visitor when
 * they are staff or an owner (`need`), else null — the route answers the
 * shop's JSON 404 to a signed-out visitor and to a shopper alike, so the API
 * no more says it is there than the pages do.
 */
export async function backOfficeApiVisitorOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
  need: BackOfficeRole = "staff",
): Promise<BackOfficeVisitor | null> {
  const visitor = await accountsFor(request, context).backOffice.visitor();
  return visitor && mayAct(visitor.role, need) ? visitor : null;
}
