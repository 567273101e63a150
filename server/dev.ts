import type { ServerBuild } from "react-router";
import { createServer } from "vite";

// Development entry (`npm run dev`): the same server as production, with
// Vite serving modules and hot reload. Everything from app/ is loaded
// through Vite so that server and routes share one module graph. The npm
// script runs Node with `--conditions=development`, as Vite resolves
// react-router for SSR: one copy of react-router, so the router context
// created here is the one its request handler checks for.
process.env.NODE_ENV ??= "development";
const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const { startShop, exitOnStartupError } = (await vite.ssrLoadModule(
  "/server/start.ts",
)) as typeof import("./start");
const { createShopHandler } = (await vite.ssrLoadModule(
  "/server/shop-server.ts",
)) as typeof import("./shop-server");

startShop({
  mode: "development",
  handlerFor: ({ services, demoIdentityProvider, demoPaymentProvider }, env) =>
    createShopHandler({
      build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
      services,
      demoIdentityProvider,
      demoPaymentProvider,
      mode: "development",
      staticFiles: vite.middlewares,
      trustedProxies: env.TRUST_PROXY,
    }),
}).catch(exitOnStartupError);
