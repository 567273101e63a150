import { randomBytes } from "node:crypto";
import path from "node:path";
import { readShopMoney, settleShopMoney } from "../app/commerce/shop-money.server";
import { createTaxShippingStore } from "../app/commerce/tax-shipping-store.server";
import type { ShopServices } from "../app/context.server";
import type { DatabaseHandle } from "../app/db/client.server";
import { sharedSecret } from "../app/db/shop-secrets.server";
import {
  AUTH_BASE_PATH,
  createAuthService,
  GOOGLE_PROVIDER_ID,
  type GoogleSettings,
} from "../app/features/auth/auth.server";
import { resolveAuthSecret } from "../app/features/auth/auth-secret.server";
import { applyOwnerEmails } from "../app/features/auth/people.server";
import { type AuthRateLimiter, createAuthRateLimiter } from "../app/features/auth/rate-limit.server";
import { keepCartsTidy } from "../app/features/cart/cart.server";
import { createCatalog } from "../app/features/catalog/browsing/catalog.server";
import { createPictureStore } from "../app/features/catalog/management/index.server";
import { CATALOG_CHANGED_CHANNEL, createSearchRateLimit } from "../app/features/catalog/search/index.server";
import type { DemoIdentityProvider } from "../app/features/demo-identity-provider/demo-identity-provider.server";
import type { DemoPaymentProvider } from "../app/features/demo-payment-provider/demo-payment-provider.server";
import type { CardPaymentServices } from "../app/features/orders/card-payments/card-payments.server";
import {
  createStripeGateway,
  STRIPE_CHECKOUT_ORIGIN,
  type StripeSettings,
} from "../app/features/orders/card-payments/stripe-gateway.server";
import {
  keepUnpaidCardOrdersSwept,
  type UnpaidOrderSweeper,
} from "../app/features/orders/card-payments/unpaid-card-orders.server";
import { bankDetailLines, DEMO_BANK_DETAILS } from "../app/features/orders/payment-methods.server";
import type { Env } from "../app/utils/env.server";
import { logFailure, logger } from "../app/utils/logger.server";
import { createMailTransport } from "../app/utils/mail.server";
import { createMailQueue } from "../app/utils/mail-queue.server";
import { connectRedis, type RedisConnection } from "../app/utils/redis.server";
import { createShopSettings } from "../app/utils/shop-settings.server";
import { createShoppingRateLimit } from "../app/utils/shopping-rate-limit.server";

export interface ShopRuntime {
  /** What every loader and action gets through the router context. */
  services: ShopServices;
  /** The local stand-in for Google (DEMO_IDENTITY_PROVIDER=1), mounted by the HTTP server at /demo-idp. */
  demoIdentityProvider: DemoIdentityProvider | null;
  /** The local stand-in for Stripe (DEMO_PAYMENT_PROVIDER=1), answered by the HTTP server at /v1 and /demo-payment-provider. */
  demoPaymentProvider: DemoPaymentProvider | null;
  /**
   * Starts what needs the shop to answer first: the sweeper of unpaid card
   * orders, which may call Stripe — the shop's own address, with the demo stand-in.
   */
  listening(): void;
  /** Closes what the services hold open (Redis); the database is its owner's to close. */
  close(): Promise<void>;
}

/**
 * The composition root: every service the shop runs on is built here, once,
 * from the configuration — the catalogue, accounts (secret, rate-limit
 * store, sign-in providers) and, only when enabled, the demo identity
 * provider. Features never build each other's services; they get them here.
 */
export async function createShopServices(
  env: Env,
  database: DatabaseHandle,
  overrides: { limiter?: AuthRateLimiter } = {},
): Promise<ShopRuntime> {
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

  const outboxDir = path.resolve(env.DATA_DIR, "outbox");
  // Emails wait in the database until sent (docs/decisions/0025); this process's sender starts below.
  const mailer = createMailQueue({
    db: database.db,
    transport: createMailTransport({ smtpUrl: env.SMTP_URL ?? null, from: env.MAIL_FROM, outboxDir }),
  });
  if (mailer.transport === "smtp") logger.info("account emails are sent over SMTP (SMTP_URL)");
  else logger.warn({ outboxDir }, "SMTP_URL is not set: account emails are written to %s", outboxDir);

  const demoIdentityProvider = env.DEMO_IDENTITY_PROVIDER
    ? await startDemoIdentityProvider(env, database)
    : null;
  const google: GoogleSettings | null = demoIdentityProvider
    ? {
        kind: "demo",
        clientId: demoIdentityProvider.clientId,
        clientSecret: demoIdentityProvider.clientSecret,
        issuerUrl: demoIdentityProvider.issuer,
      }
    : env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
      ? {
          kind: "google",
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          issuerUrl: env.GOOGLE_ISSUER_URL,
        }
      : null;

  const demoPaymentProvider = env.DEMO_PAYMENT_PROVIDER
    ? await startDemoPaymentProvider(env, database)
    : null;
  const stripe: StripeSettings | null = demoPaymentProvider
    ? {
        secretKey: demoPaymentProvider.secretKey,
        webhookSecret: demoPaymentProvider.webhookSecret,
        api: demoPaymentProvider.api,
      }
    : env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
      ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET }
      : null;
  let sweeper: UnpaidOrderSweeper | undefined;
  const card: CardPaymentServices | null = stripe
    ? {
        gateway: createStripeGateway(stripe),
        windowMinutes: env.CARD_PAYMENT_MINUTES,
        // Stripe's hosted page, where a checkout form's redirect goes (the CSP's form-action).
        pageOrigin: demoPaymentProvider ? new URL(baseUrl).origin : STRIPE_CHECKOUT_ORIGIN,
        dueAt: (at) => sweeper?.dueAt(at),
      }
    : null;
  if (card) logger.info({ windowMinutes: card.windowMinutes }, "card payments are on (Stripe Checkout)");

  // The configuration's currency, amounts, bank details and few-left line are the defaults; the owner's settings win.
  const settings = createShopSettings(database.db, {
    currency: env.SHOP_CURRENCY,
    locale: env.SHOP_LOCALE,
    standardShippingCents: env.SHIPPING_STANDARD,
    freeShippingFromCents: env.FREE_SHIPPING_FROM,
    expressShippingCents: env.SHIPPING_EXPRESS,
    bankDetails: bankDetailLines(env.SHOP_BANK_DETAILS ?? DEMO_BANK_DETAILS),
    lowStockAt: 5,
    fewLeftAt: env.SHOP_FEW_LEFT_AT,
  });
  const services: ShopServices = {
    baseUrl,
    database,
    catalog: createCatalog(database.db, {
      cacheSeconds: env.CATALOG_CACHE_SECONDS,
      cacheMaxBytes: env.CATALOG_CACHE_MAX_MB * 1024 * 1024,
    }),
    searchLimit: createSearchRateLimit(),
    shoppingLimit: createShoppingRateLimit(undefined, { redis: redis?.client }),
    settings,
    taxShipping: createTaxShippingStore(database.db, settings),
    pictures: createPictureStore(database.db),
    auth: createAuthService({
      db: database.db,
      secret,
      baseUrl,
      google,
      limiter,
      mail: mailer,
      ownerEmails: env.OWNER_EMAILS,
    }),
    // Never on a shared demo (DEMO_IDENTITY_PROVIDER_ALLOW_PUBLIC): the outbox holds password-reset links.
    devOutbox:
      demoIdentityProvider && !env.DEMO_IDENTITY_PROVIDER_ALLOW_PUBLIC && mailer.transport === "outbox"
        ? outboxDir
        : null,
    lifecycle: { draining: false },
    // The session secret signs order links too (order-link.server.ts keeps the two uses apart).
    orders: {
      linkSecret: secret,
      baseUrl,
      bankDetails: bankDetailLines(env.SHOP_BANK_DETAILS ?? DEMO_BANK_DETAILS),
      mail: mailer,
      db: database.db,
      card,
    },
  };
  if (!env.SHOP_BANK_DETAILS) {
    logger.warn("SHOP_BANK_DETAILS is not set: bank transfer orders show demo details, not a real account");
  }
  await makeConfiguredOwners(env, database);
  // The owner's currency, if one was saved, from the first page on (the index read confirms it later).
  settleShopMoney(await readShopMoney(database.db));
  // The search index and vocabulary are read in the background now, not by the first search.
  services.catalog.warmUp();
  // Every change to the catalogue — this process's, another's, an import's — is announced when it
  // commits (drizzle/0008): the search index applies what changed (docs/decisions/0026).
  const catalogChanges = database.listen(CATALOG_CHANGED_CHANNEL, () => services.catalog.changed());
  // What is due now (a previous process's leftovers), then whatever this process adds.
  mailer.start();
  const carts = keepCartsTidy(database.db, (error) =>
    logFailure(error, "expired guest carts could not be removed"),
  );
  return {
    services,
    demoIdentityProvider,
    demoPaymentProvider,
    listening() {
      if (sweeper) return;
      // What a stopped or dead process left due is cancelled now; then as each order falls due.
      // Also with card payments turned off: card orders placed before still fall due.
      sweeper = keepUnpaidCardOrdersSwept(
        {
          ...services.orders,
          card: { windowMinutes: env.CARD_PAYMENT_MINUTES, gateway: card?.gateway ?? null },
        },
        (error) => logFailure(error, "unpaid card orders could not be cancelled; the next pass tries again"),
      );
    },
    async close() {
      await sweeper?.stop();
      // The email being handed over finishes (a few seconds at most); the others wait in the database.
      await mailer.stop();
      carts.stop();
      await Promise.all([redis?.close(), catalogChanges?.close()]);
    },
  };
}

async function startDemoIdentityProvider(env: Env, database: DatabaseHandle): Promise<DemoIdentityProvider> {
  // Loaded only when enabled: a real shop never loads the demo provider (nor oidc-provider).
  const { createDemoIdentityProvider } = await import(
    "../app/features/demo-identity-provider/demo-identity-provider.server"
  );
  const provider = await createDemoIdentityProvider({
    baseUrl: env.BASE_URL,
    redirectUri: `${env.BASE_URL}${AUTH_BASE_PATH}/callback/${GOOGLE_PROVIDER_ID}`,
    db: database.db,
  });
  logger.warn(
    { issuer: provider.issuer },
    "DEMO_IDENTITY_PROVIDER=1: a demo identity provider that signs anyone in with any email stands in for Google sign-in. Never use it for a real shop.",
  );
  if (env.GOOGLE_CLIENT_ID) {
    logger.warn("DEMO_IDENTITY_PROVIDER=1: the demo provider replaces the configured Google sign-in");
  }
  return provider;
}

async function startDemoPaymentProvider(env: Env, database: DatabaseHandle): Promise<DemoPaymentProvider> {
  // Loaded only when enabled: a real shop never serves the stand-in's /v1 or its payment page.
  const { createDemoPaymentProvider } = await import(
    "../app/features/demo-payment-provider/demo-payment-provider.server"
  );
  // Configured keys win (the tests sign their own webhooks with theirs); else the shop's own, shared
  // by every process on the database, as a real account's keys are.
  const random = () => randomBytes(24).toString("base64url").replace(/[-_]/g, "x");
  const provider = createDemoPaymentProvider({
    db: database.db,
    baseUrl: env.BASE_URL,
    secretKey:
      env.STRIPE_SECRET_KEY ??
      (await sharedSecret(database.db, "demo-stripe-secret-key", () => `sk_test_${random()}`)),
    webhookSecret:
      env.STRIPE_WEBHOOK_SECRET ??
      (await sharedSecret(database.db, "demo-stripe-webhook-secret", () => `whsec_${random()}`)),
  });
  logger.warn(
    "DEMO_PAYMENT_PROVIDER=1: a local stand-in for Stripe marks card orders paid without taking any money. Never use it for a real shop.",
  );
  return provider;
}

/**
 * OWNER_EMAILS: the listed accounts become owners. The log names an entry by
 * its place in the list, never by the address (no personal data in logs).
 */
async function makeConfiguredOwners(env: Env, database: DatabaseHandle): Promise<void> {
  if (env.OWNER_EMAILS.length === 0) return;
  const outcomes = await applyOwnerEmails(database.db, env.OWNER_EMAILS, {
    demoIdentityProvider: env.DEMO_IDENTITY_PROVIDER,
  });
  outcomes.forEach(({ outcome }, index) => {
    const entry = index + 1;
    if (outcome === "made-owner") logger.info({ entry }, "OWNER_EMAILS entry %d is now an owner", entry);
    if (outcome === "no-account") {
      logger.warn({ entry }, "OWNER_EMAILS entry %d has no account yet: sign up, then restart", entry);
    }
    if (outcome === "not-confirmed") {
      logger.warn(
        { entry },
        "OWNER_EMAILS entry %d has not confirmed its email: confirm it, then restart (or run npm run owner:add)",
        entry,
      );
    }
  });
}
