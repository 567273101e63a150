import type { CurrencyCode } from "~/commerce/money";
import { setupDocument, taxShippingSetupSchema } from "~/commerce/tax-shipping-setup";
import type { TaxShippingStore } from "~/commerce/tax-shipping-store.server";
import type { Actor } from "~/utils/audit-log.server";
import { apiError, methodNotAllowed, parsedJsonBody } from "~/utils/http.server";

/**
 * `/api/admin/tax-and-shipping` (issue 35): the shop's tax and shipping setup
 * as one JSON document, read (GET) and replaced whole (PUT) by an owner or
 * staff session — the back office's cookies, and the Origin rules every
 * change passes (server/shop-server.ts) — so a setup kept in a file can be
 * copied between shops. Anyone else gets the shop's 404.
 */

const SETUP_METHODS = ["GET", "PUT"];

export const setupNotFound = () =>
  apiError(404, { code: "not_found", message: "There is nothing at this address." });

const JSON_ANSWER = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

/** Who asks, the setup's store, and the shop's currency (the document's amounts are in it). */
export interface SetupCaller {
  actor: Actor;
  store: TaxShippingStore;
  currency: CurrencyCode;
}

export async function setupResponse(
  request: Request,
  { actor, store, currency }: SetupCaller,
): Promise<Response> {
  if (!SETUP_METHODS.includes(request.method)) return methodNotAllowed(SETUP_METHODS);
  if (request.method === "GET") {
    return new Response(JSON.stringify(setupDocument(await store.current(), currency)), {
      headers: JSON_ANSWER,
    });
  }
  const body = await parsedJsonBody(
    request,
    taxShippingSetupSchema(currency),
    "{ pricesIncludeTax, outsideTaxZones, taxZones, shippingZones }",
  );
  if (!body.ok) return body.response;
  const saved = await store.replace(actor, body.value);
  return new Response(JSON.stringify(setupDocument(saved, currency)), { headers: JSON_ANSWER });
}
