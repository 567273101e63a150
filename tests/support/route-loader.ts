import { RouterContextProvider } from "react-router";
import { requestInfoContext, type ShopServices, servicesContext } from "~/context.server";
import { createSearchRateLimit } from "~/features/catalog/search/index.server";
import type { ShopSettings } from "~/utils/shop-settings.server";

/** The settings of a shop whose owner changed none: the configuration's defaults. */
const DEFAULT_SETTINGS: ShopSettings = {
  currency: "USD",
  locale: "en-US",
  standardShippingCents: 499,
  freeShippingFromCents: 5_000,
  expressShippingCents: 1_499,
  bankDetails: ["Backline Test Ltd.", "IBAN: GB33 BUKB 2020 1555 5555 55"],
  lowStockAt: 5,
  fewLeftAt: 5,
};

/**
 * Calls a route's loader as the router would, with the shop's services in
 * its context, and reports what a client would get: the status, the
 * redirect's Location, or the data.
 */
// biome-ignore lint/suspicious/noExplicitAny: any route module's loader
type AnyLoader = (args: any) => unknown;

/** The address every request of these tests comes from. */
const TEST_CLIENT_ADDRESS = "203.0.113.1";

function argsFor(path: string, services: Partial<ShopServices>, params: Record<string, string>) {
  const context = new RouterContextProvider();
  // A search limit of its own unless the test brings one: searches are counted per client.
  context.set(servicesContext, {
    searchLimit: createSearchRateLimit(),
    // A signed-out visitor, unless the test brings the accounts.
    auth: { for: () => ({ sessions: { current: async () => ({ user: null, session: null }) } }) },
    settings: { current: async () => DEFAULT_SETTINGS, save: async () => DEFAULT_SETTINGS },
    ...services,
  } as ShopServices);
  context.set(requestInfoContext, { cspNonce: "test-nonce", clientAddress: TEST_CLIENT_ADDRESS });
  const url = new URL(path, "http://shop.test");
  return { request: new Request(url), url, context, params, pattern: "/" };
}

export interface Outcome {
  status: number;
  location?: string | null;
  body?: Record<string, unknown> | string;
}

/** The loader's outcome, whether it returned, returned data() or threw a Response/data(). */
export async function runLoader(
  loader: AnyLoader,
  path: string,
  services: Partial<ShopServices>,
  params: Record<string, string> = {},
): Promise<Outcome> {
  try {
    const result = await loader(argsFor(path, services, params));
    if (result && typeof result === "object" && "type" in result && result.type === "DataWithResponseInit") {
      const wrapped = result as unknown as { data: unknown; init: ResponseInit | null };
      return { status: wrapped.init?.status ?? 200, body: wrapped.data as Record<string, unknown> };
    }
    return { status: 200, body: result as unknown as Record<string, unknown> };
  } catch (thrown) {
    if (thrown instanceof Response)
      return { status: thrown.status, location: thrown.headers.get("Location") };
    const wrapped = thrown as { type?: string; data: unknown; init: ResponseInit | null };
    if (wrapped.type === "DataWithResponseInit") {
      return { status: wrapped.init?.status ?? 500, body: wrapped.data as Outcome["body"] };
    }
    throw thrown;
  }
}

export function ok(body: Outcome["body"]): Record<string, unknown> {
  if (typeof body !== "object") throw new Error(`expected loader data, got ${String(body)}`);
  return body;
}
