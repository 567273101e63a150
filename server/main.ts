import { ConfigError, getEnv } from "../app/utils/env.server";
import { exitSaying } from "./startup-failure";

// Production entry: `npm start` runs the bundled form of this file, build/server/index.js.
// The configuration is checked before the rest of the shop is loaded, so that a mistake in it is
// said at once, not after loading the whole server (a second or more of a small machine's time).
try {
  getEnv();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  exitSaying(error.message);
}

const [build, { createShopHandler }, { exitOnStartupError, startShop }] = await Promise.all([
  import("virtual:react-router/server-build"),
  import("./shop-server"),
  import("./start"),
]);

startShop({
  mode: "production",
  handlerFor: ({ services, demoIdentityProvider, demoPaymentProvider }, env) =>
    createShopHandler({
      build,
      services,
      demoIdentityProvider,
      demoPaymentProvider,
      mode: "production",
      trustedProxies: env.TRUST_PROXY,
    }),
}).catch(exitOnStartupError);
