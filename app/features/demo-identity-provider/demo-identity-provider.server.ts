import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import type http from "node:http";
import { and, eq, gt, like, lt, type SQL, sql } from "drizzle-orm";
import Provider, {
  type Adapter,
  type AdapterPayload,
  type Configuration,
  interactionPolicy,
  type KoaContextWithOIDC,
} from "oidc-provider";
import type { Database } from "~/db/client.server";
import { demoIdentityProviderRecords } from "~/db/schema";
import { sharedSecret } from "~/db/shop-secrets.server";
import { logger } from "~/utils/logger.server";
import { readSmallBody } from "~/utils/small-body.server";
import { sendStandInPage } from "~/utils/stand-in-page.server";

/**
 * The demo identity provider: a standards-compliant OpenID Connect provider
 * (panva's oidc-provider, the certified implementation) running inside the
 * shop under /demo-idp, that stands in for Google in the local demo and the
 * tests. Active only with DEMO_IDENTITY_PROVIDER=1. The shop talks to it
 * exactly as to Google: discovery, authorization code + PKCE + state + nonce,
 * signed ID tokens. Like Google, it says the email is verified, so an account
 * it makes is not asked to confirm it; but it asserts whatever email is typed
 * into it, so the shop never links it to an existing account and OWNER_EMAILS
 * never takes its word (app/features/auth/people.server.ts). See
 * docs/decisions/0007-demo-identity-provider.md.
 */
const DEMO_IDP_PATH = "/demo-idp";
const DEMO_CLIENT_ID = "backline-demo";

export interface DemoIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Handles the request when it is for /demo-idp; returns false otherwise. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): boolean;
}

/**
 * Everything oidc-provider remembers (sign-in sessions, interactions, codes,
 * grants) lives in the shop's database, so a sign-in started on one process
 * behind a load balancer can finish on any other.
 */
function databaseAdapter(db: Database) {
  const table = demoIdentityProviderRecords;
  const live = () => gt(table.expiresAt, new Date());
  const payloadWhere = async (condition: SQL | undefined) => {
    const [row] = await db
      .select({ payload: table.payload })
      .from(table)
      .where(and(condition, live()))
      .limit(1);
    return row?.payload as AdapterPayload | undefined;
  };
  let writes = 0;
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined) {
      const values = {
        payload,
        uid: payload.uid ?? null,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: new Date(Date.now() + (expiresIn ?? DAY_SECONDS) * 1000),
      };
      await db
        .insert(table)
        .values({ key: this.key(id), ...values })
        .onConflictDoUpdate({ target: table.key, set: values });
      // Now and then, forget what has expired.
      if (++writes % 100 === 0) await db.delete(table).where(lt(table.expiresAt, new Date()));
    }
    find(id: string) {
      return payloadWhere(eq(table.key, this.key(id)));
    }
    findByUid(uid: string) {
      return payloadWhere(and(eq(table.uid, uid), like(table.key, `${this.model}:%`)));
    }
    findByUserCode(userCode: string) {
      return payloadWhere(and(eq(table.userCode, userCode), like(table.key, `${this.model}:%`)));
    }
    async consume(id: string) {
      const consumed = Math.floor(Date.now() / 1000);
      await db
        .update(table)
        .set({ payload: sql`jsonb_set(${table.payload}, '{consumed}', to_jsonb(${consumed}::int))` })
        .where(eq(table.key, this.key(id)));
    }
    async destroy(id: string) {
      await db.delete(table).where(eq(table.key, this.key(id)));
    }
    async revokeByGrantId(grantId: string) {
      await db.delete(table).where(eq(table.grantId, grantId));
    }
  };
}

const DAY_SECONDS = 24 * 60 * 60;

interface DemoIdentity {
  email: string;
  name: string;
}

/** The account id carries the identity itself, so nothing about people is stored. */
const encodeAccountId = (identity: DemoIdentity) =>
  Buffer.from(JSON.stringify(identity)).toString("base64url");
function decodeAccountId(accountId: string): DemoIdentity | null {
  try {
    const value = JSON.parse(Buffer.from(accountId, "base64url").toString("utf8")) as Partial<DemoIdentity>;
    return typeof value.email === "string" && typeof value.name === "string"
      ? { email: value.email, name: value.name }
      : null;
  } catch {
    return null;
  }
}
/** A stable subject per email, as Google's `sub` is per person. */
const subjectOf = (email: string) =>
  createHash("sha256").update(`backline-demo:${email}`).digest("hex").slice(0, 24);

export interface DemoIdentityProviderOptions {
  /** Where the provider is reached: its issuer is `${baseUrl}/demo-idp`. */
  baseUrl: string;
  redirectUri: string;
  /** Keeps its state and keys, shared by every process on this database. */
  db: Database;
}

/** The prompts the sign-in form answers: logging in, and Google's account chooser. */
const SIGN_IN_PROMPTS = new Set(["login", "select_account"]);

/**
 * oidc-provider's usual prompts (login, consent) plus Google's
 * `prompt=select_account`, which the shop sends to real Google: a test that
 * stands this provider in for Google gets the same request Google would.
 */
function signInPolicy() {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: "select_account", requestable: true }), 0);
  return policy;
}

export async function createDemoIdentityProvider(
  options: DemoIdentityProviderOptions,
): Promise<DemoIdentityProvider> {
  const issuer = `${options.baseUrl}${DEMO_IDP_PATH}`;
  const random = () => randomBytes(32).toString("base64url");
  // Every process must sign with the same key and know the same client secret.
  const [clientSecret, cookieKey, signingKey] = await Promise.all([
    sharedSecret(options.db, "demo-idp:client-secret", random),
    sharedSecret(options.db, "demo-idp:cookie-key", random),
    sharedSecret(options.db, "demo-idp:signing-key", () => {
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      return JSON.stringify({
        ...privateKey.export({ format: "jwk" }),
        kid: "demo-1",
        use: "sig",
        alg: "RS256",
      });
    }),
  ]);
  const configuration: Configuration = {
    adapter: databaseAdapter(options.db),
    clients: [
      {
        client_id: DEMO_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [JSON.parse(signingKey)] },
    cookies: { keys: [cookieKey] },
    pkce: { required: () => true },
    scopes: ["openid", "email", "profile"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Claims go into the ID token itself, as Google does.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: {
      policy: signInPolicy(),
      url: (_ctx: KoaContextWithOIDC, interaction) => `${DEMO_IDP_PATH}/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx, accountId) {
      const identity = decodeAccountId(accountId);
      if (!identity) return undefined;
      return {
        accountId,
        claims: async () => ({
          sub: subjectOf(identity.email),
          email: identity.email,
          // As Google says of its accounts' emails. Anyone can type any email here, so the shop
          // never lets this word join an existing account or make an owner.
          email_verified: true,
          name: identity.name,
        }),
      };
    },
    // The shop is the only client: the consent step is implied.
    async loadExistingGrant(ctx) {
      const { session, client } = ctx.oidc;
      if (!session?.accountId || !client) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = page("Sign-in error", `<p>${escapeHtml(String(out.error_description ?? out.error))}</p>`);
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on("server_error", (_ctx, error) => logger.error({ err: error }, "demo identity provider failed"));
  const callback = provider.callback();

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (!SIGN_IN_PROMPTS.has(details.prompt.name)) {
      // Consent is implied (loadExistingGrant); nothing else is asked.
      await provider.interactionFinished(req, res, {}, { mergeWithLastSubmission: true });
      return;
    }
    if (req.method === "POST") {
      const form = new URLSearchParams(await readSmallBody(req, 10_000));
      const email = (form.get("email") ?? "").trim().toLowerCase();
      const name = (form.get("name") ?? "").trim();
      const problem = !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
        ? "Enter a valid email address."
        : !name || name.length > 100
          ? "Name is required (at most 100 characters)."
          : null;
      if (!problem) {
        await provider.interactionFinished(
          req,
          res,
          // The form answers Google's account chooser too, when it was asked for.
          { login: { accountId: encodeAccountId({ email, name }) }, select_account: {} },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      sendStandInPage(res, 400, loginPage(details.uid, { email, name, problem }));
      return;
    }
    sendStandInPage(res, 200, loginPage(details.uid, { email: "", name: "", problem: null }));
  }

  return {
    issuer,
    clientId: DEMO_CLIENT_ID,
    clientSecret,
    handle(req, res) {
      const url = req.url ?? "/";
      if (
        url !== DEMO_IDP_PATH &&
        !url.startsWith(`${DEMO_IDP_PATH}/`) &&
        !url.startsWith(`${DEMO_IDP_PATH}?`)
      ) {
        return false;
      }
      const inner = url.slice(DEMO_IDP_PATH.length) || "/";
      if (/^\/interaction\/[\w-]+$/.test(inner.split("?")[0] ?? "")) {
        interaction(req, res).catch((error: unknown) => {
          logger.warn({ err: error }, "demo identity provider: interaction failed");
          if (!res.headersSent)
            sendStandInPage(
              res,
              400,
              page("Sign-in expired", "<p>This sign-in has expired. Close this window and try again.</p>"),
            );
        });
        return true;
      }
      // Mounted like Express would: oidc-provider derives its mount path from originalUrl.
      Object.assign(req, { originalUrl: url, url: inner });
      callback(req, res);
      return true;
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem;color:#0f172a}label{display:block;margin-top:1rem;font-weight:600}input{display:block;width:100%;box-sizing:border-box;margin-top:.25rem;padding:.5rem;border:1px solid #64748b;border-radius:.375rem;font:inherit}button{margin-top:1.5rem;width:100%;padding:.6rem;border:0;border-radius:.375rem;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer}.note{background:#fef3c7;border:1px solid #d97706;border-radius:.375rem;padding:.75rem}.error{color:#b91c1c}</style></head>
<body><main>${body}</main></body></html>`;
}

function loginPage(uid: string, form: { email: string; name: string; problem: string | null }): string {
  return page(
    "Demo sign-in (stands in for Google)",
    `<h1>Demo sign-in</h1>
<p class="note">This is a <strong>demo identity provider</strong> running on this machine. It stands in for Google so the shop's
“Continue with Google” can be tried without a Google account. Nothing you type here is checked or sent anywhere.</p>
${form.problem ? `<p class="error" role="alert">${escapeHtml(form.problem)}</p>` : ""}
<form method="post" action="${DEMO_IDP_PATH}/interaction/${escapeHtml(uid)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(form.email)}">
<label for="name">Name</label><input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${escapeHtml(form.name)}">
<button type="submit">Continue</button>
</form>`,
  );
}
