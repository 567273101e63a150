import { randomBytes } from "node:crypto";
import type http from "node:http";
import { fileURLToPath } from "node:url";
import { createRequestListener } from "@react-router/node";
import compression from "compression";
import { RouterContextProvider, type ServerBuild } from "react-router";
import sirv from "sirv";
import { requestInfoContext, type ShopServices, servicesContext } from "../app/context.server";
import { CROSS_SITE_REJECTION, isCrossSiteRequest } from "../app/utils/cross-site-guard.server";
import { STATIC_SECURITY_HEADERS } from "../app/utils/security-headers.server";
import { createCatalogApi } from "./catalog-api";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

export interface ShopServerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  services: ShopServices;
  mode: "production" | "development";
  /** Serves static files; by default the built client folder. */
  staticFiles?: Middleware;
}

const ONE_YEAR = 60 * 60 * 24 * 365;

/** Static files of the production build: hashed names are cached forever, the rest for an hour. */
export function builtClientFiles(
  // The bundled server lives in <build>/server/, its client files in <build>/client/.
  clientDir = fileURLToPath(new URL("../client", import.meta.url)),
): Middleware {
  return sirv(clientDir, {
    etag: true,
    gzip: true,
    brotli: true,
    setHeaders(res, pathname) {
      const fingerprinted = pathname.startsWith("/assets/") || pathname.startsWith("/images/products/");
      res.setHeader(
        "Cache-Control",
        fingerprinted ? `public, max-age=${ONE_YEAR}, immutable` : "public, max-age=3600",
      );
    },
  });
}

/**
 * The shop's HTTP handler: security headers on every response, compression,
 * static files, then React Router for pages and the JSON API.
 */
export function createShopHandler(options: ShopServerOptions): http.RequestListener {
  const staticFiles = options.staticFiles ?? builtClientFiles();
  const compress = compression() as unknown as Middleware;
  const router = createRequestListener({
    build: options.build,
    mode: options.mode,
    getLoadContext(_request, client) {
      const context = new RouterContextProvider();
      context.set(servicesContext, options.services);
      context.set(requestInfoContext, {
        cspNonce: randomBytes(16).toString("base64"),
        clientAddress: client.address,
      });
      return context;
    },
  });

  const demoIdentityProvider = options.services.demoIdentityProvider;
  const catalogApi = createCatalogApi(options.services);

  return (req, res) => {
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) res.setHeader(name, value);
    // CSRF: nothing that changes state is accepted from another site.
    if (isCrossSiteRequest(req)) {
      res.writeHead(403, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
      res.end(CROSS_SITE_REJECTION);
      return;
    }
    // The local stand-in for Google (DEMO_IDENTITY_PROVIDER=1 only), at /demo-idp.
    if (demoIdentityProvider?.handle(req, res)) return;
    compress(req, res, () => {
      if (catalogApi(req, res)) return;
      staticFiles(req, res, () => {
        router(req, res);
      });
    });
  };
}
