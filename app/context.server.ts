import { createContext } from "react-router";
import type { DatabaseHandle } from "~/db/client.server";
import type { Catalog } from "~/features/catalog/catalog.server";

/**
 * What the server hands every loader and action through the router context:
 * created once at start-up (server/main.ts) or by a test, never imported as a
 * module-level singleton, so loaders can be called directly in tests.
 */
export interface ShopServices {
  database: DatabaseHandle;
  catalog: Catalog;
}

export const servicesContext = createContext<ShopServices>();

/** Per-request values set by the HTTP layer. */
export interface RequestInfo {
  /** Nonce of this response's Content-Security-Policy, for inline scripts. */
  cspNonce: string;
  clientAddress: string;
}

export const requestInfoContext = createContext<RequestInfo>();
