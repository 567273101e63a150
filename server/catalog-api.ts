import type http from "node:http";
import type { ShopServices } from "../app/context.server";
import { allProductsReply, countsReply, healthReply } from "../app/features/catalog/catalog-api.server";
import { errorReply, type JsonReply } from "../app/utils/http.server";

type Endpoint = (services: ShopServices, params: URLSearchParams, ifNoneMatch?: string) => Promise<JsonReply>;

const ENDPOINTS: Record<string, Endpoint> = {
  "/all-products": (services, params, ifNoneMatch) => allProductsReply(services.catalog, params, ifNoneMatch),
  "/counts": (services, params, ifNoneMatch) => countsReply(services.catalog, params, ifNoneMatch),
  "/healthz": (services) => healthReply(services.database, services.lifecycle),
};

/**
 * The JSON API, answered straight from Node's request: it is the hot path of
 * the shop's clients and load balancers, and skips building a web Request
 * and Response and matching page routes (measured in bench/RESULTS.md).
 * Returns false for any other path.
 */
export function createCatalogApi(services: ShopServices) {
  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const url = req.url ?? "/";
    const queryStart = url.indexOf("?");
    const endpoint = ENDPOINTS[queryStart === -1 ? url : url.slice(0, queryStart)];
    if (!endpoint) return false;

    if (req.method !== "GET" && req.method !== "HEAD") {
      send(
        req,
        res,
        {
          ...errorReply(405, { code: "method_not_allowed", message: "Only GET and HEAD are allowed here." }),
        },
        { Allow: "GET, HEAD" },
      );
      return true;
    }
    const params = new URLSearchParams(queryStart === -1 ? "" : url.slice(queryStart + 1));
    endpoint(services, params, req.headers["if-none-match"]).then(
      (reply) => send(req, res, reply),
      () => send(req, res, errorReply(500, { code: "internal_error", message: "Something went wrong." })),
    );
    return true;
  };
}

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  reply: JsonReply,
  extra: Record<string, string> = {},
) {
  res.writeHead(reply.status, { ...reply.headers, ...extra });
  res.end(req.method === "HEAD" ? undefined : (reply.body ?? undefined));
}
