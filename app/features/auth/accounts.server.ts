import { Redis } from "ioredis";
import type { Database } from "~/db/client.server";
import type { Env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import {
  AUTH_BASE_PATH,
  type AuthService,
  createAuthService,
  GOOGLE_PROVIDER_ID,
  type GoogleSettings,
} from "./auth.server";
import { resolveAuthSecret } from "./auth-secret.server";
import { createDemoIdentityProvider, type DemoIdentityProvider } from "./demo-idp.server";
import { type AuthRateLimiter, createAuthRateLimiter } from "./rate-limit.server";

export interface Accounts {
  auth: AuthService;
  /** The local stand-in for Google, when DEMO_IDENTITY_PROVIDER=1. */
  demoIdentityProvider: DemoIdentityProvider | null;
  close(): Promise<void>;
}

/** Builds the account services from the configuration, once at start-up. */
export function createAccounts(
  env: Env,
  db: Database,
  overrides: { limiter?: AuthRateLimiter } = {},
): Accounts {
  const baseUrl = env.BASE_URL ?? `http://localhost:${env.PORT}`;
  const secret = resolveAuthSecret(env.BETTER_AUTH_SECRET, env.DATA_DIR);

  let redis: Redis | undefined;
  if (env.REDIS_URL) {
    redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    let reported = false;
    redis.on("error", (error) => {
      // Reported once per outage: the limiter falls back to memory meanwhile.
      if (!reported)
        logger.warn(
          { err: error },
          "Redis is unavailable; rate limits are counted per process until it is back",
        );
      reported = true;
    });
    redis.on("ready", () => {
      reported = false;
    });
  }

  let demoIdentityProvider: DemoIdentityProvider | null = null;
  let google: GoogleSettings | null = null;
  if (env.DEMO_IDENTITY_PROVIDER) {
    demoIdentityProvider = createDemoIdentityProvider({
      baseUrl,
      redirectUri: `${baseUrl}${AUTH_BASE_PATH}/callback/${GOOGLE_PROVIDER_ID}`,
    });
    google = {
      kind: "demo",
      clientId: demoIdentityProvider.clientId,
      clientSecret: demoIdentityProvider.clientSecret,
      issuerUrl: demoIdentityProvider.issuer,
    };
    if (env.GOOGLE_CLIENT_ID)
      logger.warn("DEMO_IDENTITY_PROVIDER=1: the demo provider replaces the configured Google sign-in");
    logger.info(
      { issuer: demoIdentityProvider.issuer },
      "demo identity provider enabled: it stands in for Google sign-in",
    );
  } else if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    google = {
      kind: "google",
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      issuerUrl: env.GOOGLE_ISSUER_URL,
    };
  }

  const auth = createAuthService({
    db,
    secret,
    baseUrl,
    google,
    limiter: overrides.limiter ?? createAuthRateLimiter({ redis }),
    trustedProxies: env.TRUST_PROXY,
  });

  return {
    auth,
    demoIdentityProvider,
    async close() {
      if (redis) await redis.quit().catch(() => redis?.disconnect());
    },
  };
}
