import { createContext } from "react-router";
import type { DatabaseHandle } from "~/db/client.server";
import type { AuthService } from "~/features/auth/auth.server";
import type { DemoIdentityProvider } from "~/features/auth/demo-idp.server";
import type { Catalog } from "~/features/catalog/catalog.server";

/**
 * What the server hands every loader and action through the router context:
 * created once at start-up (server/main.ts) or by a test, never imported as a
 * module-level singleton, so loaders can be called directly in tests.
 */
export interface ShopServices {
  database: DatabaseHandle;
  catalog: Catalog;
  /** Accounts and sessions (Better Auth behind the shop's own rules). */
  auth: AuthService;
  /** The local stand-in for Google, only with DEMO_IDENTITY_PROVIDER=1; mounted at /demo-idp. */
  demoIdentityProvider: DemoIdentityProvider | null;
}

export const servicesContext = createContext<ShopServices>();

/** Per-request values set by the HTTP layer. */
export interface RequestInfo {
  /** Nonce of this response's Content-Security-Policy, for inline scripts. */
  cspNonce: string;
  clientAddress: string;
}

export const requestInfoContext = createContext<RequestInfo>();
