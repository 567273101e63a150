import * as build from "virtual:react-router/server-build";
import { createShopHandler } from "./shop-server";
import { exitOnStartupError, startShop } from "./start";

// Production entry: `npm start` runs the bundled form of this file, build/server/index.js.
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
