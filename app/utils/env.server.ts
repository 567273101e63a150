import { isCurrencyCode, isKnownLocale, minorDigitsOf, minorOfDecimalText } from "~/commerce/money";
import { DEFAULT_FEW_LEFT_AT } from "./few-left";
import { z } from "./zod";

/** An amount in the shop's currency, as text ("4.99"); made whole minor units once the currency is known. */
const shopAmount = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,3})?$/, "must be an amount in the shop's currency, like 4.99");

/**
 * The shop's configuration, read from the environment once at start-up.
 * A bad value stops start-up with a message naming the variable, so a typo
 * never turns into a half-working shop.
 */
const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    /**
     * Interface to bind. Default 0.0.0.0 (every interface), or 127.0.0.1 when
     * the demo identity provider is on: it may only be reached from this machine.
     */
    HOST: z.string().min(1).optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** Folder of the embedded PGlite database, used when DATABASE_URL is not set. */
    DATA_DIR: z.string().min(1).default("./data"),
    /** A PostgreSQL 15+ connection string; when set it replaces the embedded database. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    /** Connections in the PostgreSQL pool of one process. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** Seconds a catalogue answer is reused in memory; 0 turns the cache off. */
    CATALOG_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    /** Memory the catalogue cache may hold, in MiB, whatever the answers' sizes. */
    CATALOG_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
    /** Seconds a client has to send a whole request (headers: at most 10); slower ones are cut off. */
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
    /** Load the demo catalogue into an empty database at start-up. */
    SEED_DEMO_CATALOG: z
      .enum(["0", "1", "true", "false"])
      .default("1")
      .transform((value) => value === "1" || value === "true"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),

    // --- Accounts (app/features/auth) ---
    /**
     * Signs session cookies and OAuth state; at least 32 characters, the same in
     * every process. When unset, one is generated once and kept in DATA_DIR.
     */
    BETTER_AUTH_SECRET: z
      .string()
      .min(32, "must be at least 32 characters (e.g. `openssl rand -base64 32`)")
      .optional(),
    /**
     * The shop's public origin (default http://localhost:PORT): links, cookies,
     * sign-in and redirects use it, and a visitor who arrives under another
     * host name is sent to it. https:// makes cookies Secure and turns on HSTS.
     */
    BASE_URL: z
      .url({
        protocol: /^https?$/,
        error: "must be an http:// or https:// URL, e.g. https://shop.example.com",
      })
      .transform((value) => new URL(value).origin)
      .optional(),
    /** Google sign-in (OpenID Connect): both or neither. */
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** The OpenID Connect issuer; its /.well-known/openid-configuration is read at start-up. */
    GOOGLE_ISSUER_URL: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .transform((value) => value.replace(/\/+$/, ""))
      .default("https://accounts.google.com"),
    /** 1: a local OpenID Connect provider at /demo-idp stands in for Google (local demo and tests only). */
    DEMO_IDENTITY_PROVIDER: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((value) => value === "1" || value === "true"),
    /** 1: let the demo identity provider run on https or a public interface (a shared demo; never a real shop). */
    DEMO_IDENTITY_PROVIDER_ALLOW_PUBLIC: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((value) => value === "1" || value === "true"),
    // --- Email (app/utils/mail.server.ts) ---
    /**
     * The SMTP server account emails go out through, as a URL:
     * smtps://user:password@smtp.example.com:465 or smtp://…:587 (STARTTLS).
     * Unset: every message is written to DATA_DIR/outbox instead.
     */
    SMTP_URL: z
      .string()
      .regex(
        /^smtps?:\/\//,
        "must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465",
      )
      .refine(
        URL.canParse,
        "must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465",
      )
      .optional(),
    /** Who account emails come from, e.g. "Backline <hello@shop.example.com>"; default no-reply@ BASE_URL's host. */
    MAIL_FROM: z.string().min(3).max(320).optional(),
    // --- The back office (/admin) ---
    /**
     * Accounts made owners at start-up (comma-separated emails), if they exist
     * and have confirmed their email: the first owner of a new shop
     * (or run `npm run owner:add -- <email>`).
     */
    OWNER_EMAILS: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? "")
          .split(",")
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.email("must be email addresses separated by commas"))),
    // --- Money (app/commerce/money.ts) ---
    /** The shop's currency, ISO 4217 (USD, EUR, JPY…): prices, totals and card payments are in its minor units. */
    SHOP_CURRENCY: z
      .string()
      .trim()
      .default("USD")
      .refine(isCurrencyCode, "must be an ISO 4217 currency code in capitals, like USD, EUR or JPY"),
    /** How the shop writes amounts (a BCP 47 locale): en-US writes "$1,234.50", de-DE "1.234,50 €". */
    SHOP_LOCALE: z
      .string()
      .trim()
      .default("en-US")
      .refine(isKnownLocale, "must be a locale Intl knows, like en-US, de-DE or ja-JP"),
    // --- Orders (app/features/orders) ---
    /**
     * Where a bank transfer is paid, as the order's page and email show it:
     * parts separated by ";", each on its own line ("Backline Ltd.; IBAN: …; BIC: …").
     * Unset: demo details that say they are not a real account (and a warning at start-up).
     */
    SHOP_BANK_DETAILS: z.string().trim().min(1).max(500, "must be at most 500 characters").optional(),
    /**
     * What Standard shipping costs, in the shop's currency (free from FREE_SHIPPING_FROM).
     * Unset: 499 of its minor units (4.99 USD or EUR, 499 JPY), as the other two.
     */
    SHIPPING_STANDARD: shopAmount.optional(),
    /** The subtotal, in the shop's currency, from which Standard shipping is free (unset: 5000 minor units). */
    FREE_SHIPPING_FROM: shopAmount.optional(),
    /** What Express shipping costs, in the shop's currency (unset: 1499 minor units). */
    SHIPPING_EXPRESS: shopAmount.optional(),
    // --- Stock (app/features/catalog/core/stock-state.ts) ---
    /** Shoppers read "Only N left" for a product with this many units or fewer (0: never). */
    SHOP_FEW_LEFT_AT: z.coerce
      .number("must be a whole number of units, like 5")
      .int("must be a whole number of units, like 5")
      .min(0, "must be 0 or more")
      .max(1_000, "must be at most 1000")
      .default(DEFAULT_FEW_LEFT_AT),
    // --- Card payments (app/features/orders/card-payments, docs/decisions/0032) ---
    /** Stripe's secret API key (sk_live_… or sk_test_…; a restricted rk_… works too): both or neither with the next. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key: sk_live_…, sk_test_… or rk_…")
      .optional(),
    /** The signing secret of the shop's webhook endpoint in Stripe's dashboard (whsec_…). */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\w+$/, "must be the webhook endpoint's signing secret: whsec_…")
      .optional(),
    /**
     * Minutes a card order waits for its payment before it is cancelled and its stock put back
     * (decimals allowed: 0.5 is 30 seconds).
     */
    CARD_PAYMENT_MINUTES: z.coerce
      .number("must be a number of minutes, like 30")
      .min(0.05, "must be at least 0.05 (3 seconds)")
      .max(1440, "must be at most 1440 (a day)")
      .default(30),
    /** 1: a local stand-in for Stripe, served by the shop itself, takes card payments (local demo and tests only). */
    DEMO_PAYMENT_PROVIDER: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((value) => value === "1" || value === "true"),
    /** 1: let the payment stand-in run on https or a public interface (a shared demo; never a real shop). */
    DEMO_PAYMENT_PROVIDER_ALLOW_PUBLIC: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((value) => value === "1" || value === "true"),
    /** Redis for rate-limit counters shared by every process; without it each process counts in memory. */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
      .optional(),
    /** How many reverse proxies in front of the shop append to X-Forwarded-For (0: trust none, use the socket). */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID"],
        message: "Google sign-in needs both GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET",
      });
    }
    for (const name of ["SHIPPING_STANDARD", "FREE_SHIPPING_FROM", "SHIPPING_EXPRESS"] as const) {
      const amount = env[name];
      if (
        amount &&
        isCurrencyCode(env.SHOP_CURRENCY) &&
        minorOfDecimalText(amount, env.SHOP_CURRENCY) === undefined
      ) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `has more decimals than ${env.SHOP_CURRENCY} has (${minorDigitsOf(env.SHOP_CURRENCY)})`,
        });
      }
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.STRIPE_SECRET_KEY ? "STRIPE_WEBHOOK_SECRET" : "STRIPE_SECRET_KEY"],
        message: "card payments need both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET",
      });
    }
    // Each demo stand-in belongs on a developer's machine, not where others can reach it: the
    // identity provider signs anyone in as any email, the payment one marks orders paid for nothing.
    const standIns = [
      {
        on: env.DEMO_IDENTITY_PROVIDER && !env.DEMO_IDENTITY_PROVIDER_ALLOW_PUBLIC,
        name: "DEMO_IDENTITY_PROVIDER",
        what: "the demo identity provider signs anyone in with any email",
        instead: "Unset DEMO_IDENTITY_PROVIDER (and configure GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET).",
      },
      {
        on: env.DEMO_PAYMENT_PROVIDER && !env.DEMO_PAYMENT_PROVIDER_ALLOW_PUBLIC,
        name: "DEMO_PAYMENT_PROVIDER",
        what: "the demo payment provider marks orders paid without taking any money",
        instead: "Unset DEMO_PAYMENT_PROVIDER (and configure STRIPE_SECRET_KEY/STRIPE_WEBHOOK_SECRET).",
      },
    ];
    for (const standIn of standIns) {
      if (!standIn.on) continue;
      const allow = `Set ${standIn.name}_ALLOW_PUBLIC=1 only for a shared demo, never for a real shop.`;
      if (env.BASE_URL?.startsWith("https://")) {
        ctx.addIssue({
          code: "custom",
          path: [standIn.name],
          message: `${standIn.what}, so it does not run on a public https:// BASE_URL. ${standIn.instead} ${allow}`,
        });
      } else if (env.HOST !== undefined && !isLoopback(env.HOST)) {
        ctx.addIssue({
          code: "custom",
          path: [standIn.name],
          message: `${standIn.what}, so it runs only on this machine's loopback interface, not HOST=${env.HOST}. Unset HOST (it then defaults to 127.0.0.1) or set HOST=127.0.0.1. ${allow}`,
        });
      }
    }
  })
  .transform((env) => {
    const demo = env.DEMO_IDENTITY_PROVIDER || env.DEMO_PAYMENT_PROVIDER;
    const host = env.HOST ?? (demo ? "127.0.0.1" : "0.0.0.0");
    const baseUrl = env.BASE_URL ?? `http://localhost:${env.PORT}`;
    const mailFrom = env.MAIL_FROM ?? `Backline <no-reply@${new URL(baseUrl).hostname}>`;
    // Checked above: each amount has at most the currency's decimals.
    const minor = (amount: string | undefined, unset: number) =>
      amount === undefined ? unset : (minorOfDecimalText(amount, env.SHOP_CURRENCY) as number);
    return {
      ...env,
      HOST: host,
      BASE_URL: baseUrl,
      MAIL_FROM: mailFrom,
      SHIPPING_STANDARD: minor(env.SHIPPING_STANDARD, 499),
      FREE_SHIPPING_FROM: minor(env.FREE_SHIPPING_FROM, 5_000),
      SHIPPING_EXPRESS: minor(env.SHIPPING_EXPRESS, 1_499),
    };
  });

export type Env = z.infer<typeof envSchema>;

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment; throws a ConfigError whose message names every bad variable. */
function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set", as in most shells' `FOO= cmd`.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.join(".");
    const value = source[name];
    // Secrets are never echoed, not even wrong ones.
    const shown = /SECRET|SMTP_URL/.test(name) ? "(hidden)" : JSON.stringify(value ?? "");
    return `  ${name}=${shown}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
}

let cached: Env | undefined;

/** The process's configuration, parsed on first use. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
