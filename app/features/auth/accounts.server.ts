import type { DatabaseHandle } from "~/db/client.server";
import type { Env } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { connectRedis, type RedisConnection } from "~/utils/redis.server";
import {
  AUTH_BASE_PATH,
  type AuthService,
  createAuthService,
  GOOGLE_PROVIDER_ID,
  type GoogleSettings,
} from "./auth.server";
import { resolveAuthSecret } from "./auth-secret.server";
import type { DemoIdentityProvider } from "./demo-idp.server";
import { type AuthRateLimiter, createAuthRateLimiter } from "./rate-limit.server";

export interface Accounts {
  auth: AuthService;
  /** The local stand-in for Google, when DEMO_IDENTITY_PROVIDER=1. */
  demoIdentityProvider: DemoIdentityProvider | null;
  close(): Promise<void>;
}

/** Builds the account services from the configuration, once at start-up. */
export async function createAccounts(
  env: Env,
  database: DatabaseHandle,
  overrides: { limiter?: AuthRateLimiter } = {},
): Promise<Accounts> {
  const baseUrl = env.BASE_URL;
  const secret = await resolveAuthSecret({
    configured: env.BETTER_AUTH_SECRET,
    dataDir: env.DATA_DIR,
    database,
  });

  let redis: RedisConnection | undefined;
  if (env.REDIS_URL) redis = connectRedis(env.REDIS_URL, "rate limits are counted per process");
  const limiter =
    overrides.limiter ?? createAuthRateLimiter({ redis: redis?.client, postgres: database.pool });
  logger.info({ store: limiter.store }, "rate-limit counters are kept in %s", limiter.store);

  let demoIdentityProvider: DemoIdentityProvider | null = null;
  let google: GoogleSettings | null = null;
  if (env.DEMO_IDENTITY_PROVIDER) {
    // Loaded only when enabled: a real shop never carries the demo provider.
    const { createDemoIdentityProvider } = await import("./demo-idp.server");
    demoIdentityProvider = await createDemoIdentityProvider({
      baseUrl,
      redirectUri: `${baseUrl}${AUTH_BASE_PATH}/callback/${GOOGLE_PROVIDER_ID}`,
      db: database.db,
    });
    google = {
      kind: "demo",
      clientId: demoIdentityProvider.clientId,
      clientSecret: demoIdentityProvider.clientSecret,
      issuerUrl: demoIdentityProvider.issuer,
    };
    logger.warn(
      { issuer: demoIdentityProvider.issuer },
      "DEMO_IDENTITY_PROVIDER=1: a demo identity provider that signs anyone in with any email stands in for Google sign-in. Never use it for a real shop.",
    );
    if (env.GOOGLE_CLIENT_ID)
      logger.warn("DEMO_IDENTITY_PROVIDER=1: the demo provider replaces the configured Google sign-in");
  } else if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    google = {
      kind: "google",
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      issuerUrl: env.GOOGLE_ISSUER_URL,
    };
  }

  const auth = createAuthService({
    db: database.db,
    secret,
    baseUrl,
    google,
    limiter,
    trustedProxies: env.TRUST_PROXY,
  });

  return {
    auth,
    demoIdentityProvider,
    async close() {
      await redis?.close();
    },
  };
}
