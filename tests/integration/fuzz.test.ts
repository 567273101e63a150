import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieClient, signUp } from "../support/http-client";
import { enginesToRun } from "../support/requirements";
import {
  ROUTE_INPUTS,
  type RouteInputs,
  routesOfTheShop,
  type Samples,
  type Visitor,
} from "../support/route-inputs";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { createScratchPostgres, reportPostgresSkipped, type ScratchPostgres } from "../support/test-database";

/**
 * Malformed requests to every endpoint that takes input: whatever arrives, the
 * answer is a 4xx or a success — never a 5xx, never a stack trace, never an
 * error in the log — and the JSON API says in JSON what was wrong and, for
 * bad fields, which ones. Text no person types (NUL, lone surrogates, control
 * characters) goes to every input of every route of app/routes.ts, as
 * tests/support/route-inputs.ts describes them: a route missing there fails.
 *
 * FUZZ_RUNS requests per endpoint (default 100, so the suite stays quick); a
 * deeper run: `FUZZ_RUNS=10000 npx vitest run tests/integration/fuzz.test.ts`.
 * FUZZ_SEED replays a run; the seed of each run is printed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
console.info(`fuzz: ${RUNS} requests per endpoint, seed ${SEED} (FUZZ_SEED=${SEED} replays it)`);

const STACK_TRACE = /\n\s+at .+[(:]\d+|node_modules\//;

// --- What the fuzzer sends -------------------------------------------------------------------------

/** Strings a field may hold: anything at all, and the values that broke the shop before. */
const fieldValue = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.emailAddress(),
  fc.constantFrom(
    "",
    "\u0000",
    "Ada\u0000",
    "https://example.com/\u0000.png",
    "%00",
    "%zz",
    "%",
    "\uD800",
    "javascript:alert(1)",
    "Str0ng!Pass",
    "x".repeat(5_000),
    "/.//evil.example",
    "[object Object]",
  ),
);

const fieldNames = (names: readonly string[]) =>
  names.length > 0
    ? fc.oneof(fc.constantFrom(...names), fc.string({ unit: "binary", maxLength: 10 }))
    : fc.string({ unit: "binary", maxLength: 10 });

/** A set of form fields: the endpoint's own names, some missing, some repeated, some unknown. */
const fields = (names: readonly string[]) =>
  fc.array(fc.tuple(fieldNames(names), fieldValue), { maxLength: names.length + 3 });

const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-16",
  "multipart/form-data; boundary=fuzzBOUNDARY",
  "multipart/form-data",
  "application/json",
  "text/plain",
  "garbage/$$$",
  "",
] as const;

const BOUNDARY = "fuzzBOUNDARY";

function encode(contentType: string, pairs: [string, string][], shape: "proper" | "raw", raw: Uint8Array) {
  if (shape === "raw") return Buffer.from(raw);
  if (contentType.startsWith("multipart/")) {
    const parts = pairs.map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    return Buffer.from(`${parts.join("")}--${BOUNDARY}--\r\n`);
  }
  if (contentType === "application/json") return Buffer.from(JSON.stringify(Object.fromEntries(pairs)));
  return Buffer.from(new URLSearchParams(pairs).toString());
}

/** A body for a form endpoint: a content type, and either fields in it or bytes that are not. */
const formBody = (names: readonly string[]) =>
  fc
    .record({
      contentType: fc.constantFrom(...CONTENT_TYPES),
      pairs: fields(names),
      shape: fc.constantFrom("proper", "proper", "raw"),
      raw: fc.uint8Array({ maxLength: 600 }),
    })
    .map(({ contentType, pairs, shape, raw }) => ({
      contentType,
      body: encode(contentType, pairs, shape as "proper" | "raw", raw),
    }));

const escapeBytes = (text: string) =>
  [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");

/** A query string of the endpoint's parameters and others, values as anything. */
const queryString = (names: readonly string[]) =>
  fields(names).map((pairs) =>
    pairs
      .map(([name, value]) => {
        // Sometimes sent as typed, unescaped: invalid percent-escapes and all.
        const asSent = (text: string) => {
          if (text.length % 3 === 0) return text.replace(/[\s#&?]/g, "");
          try {
            return encodeURIComponent(text);
          } catch {
            // A lone surrogate cannot be percent-encoded: send its raw bytes' escapes instead.
            return escapeBytes(text);
          }
        };
        return `${asSent(name)}=${asSent(value)}`;
      })
      .join("&"),
  );

/**
 * A path of percent-escaped bytes (any of the 256), slashes, dots and letters: the odd encodings a
 * router must survive ("/%09/" was a 500 — React Router read it as "//").
 */
const oddPath = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, "0")}`),
      fc.constantFrom("/", "/", "%09", ".", "..", "a", "%5c", "%2f", "%25", "%"),
    ),
    { maxLength: 6 },
  )
  .map((parts) => `/${parts.join("")}`);

/** A JSON-ish body for PUT /user/api/create. */
const userRecordBody = fc.oneof(
  fc
    .record(
      {
        email: fc.oneof(fieldValue, fc.integer(), fc.constant(null)),
        name: fc.oneof(fieldValue, fc.integer(), fc.constant(null), fc.array(fc.string())),
        photo: fc.oneof(fieldValue, fc.constant(null), fc.boolean()),
      },
      { requiredKeys: [] },
    )
    .map((record) => JSON.stringify(record)),
  fc.json(),
  fc.string({ unit: "binary", maxLength: 200 }),
);

// --- How each answer is judged ---------------------------------------------------------------------

const someAddress = () =>
  `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;

interface Judged {
  status: number;
  text: string;
}

async function send(
  url: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<Judged> {
  const response = await fetch(url, {
    redirect: "manual",
    ...init,
    headers: { "X-Forwarded-For": someAddress(), ...init.headers },
  });
  return { status: response.status, text: await response.text() };
}

function expectNoServerError(answer: Judged, what: string) {
  expect(answer.status, `${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  expect(answer.text, `${what} showed a stack trace`).not.toMatch(STACK_TRACE);
}

interface JsonError {
  code?: unknown;
  message?: unknown;
  field?: unknown;
  fields?: { field: unknown; message: unknown }[];
}

/**
 * A JSON API's answer: success, or `{ error: { code, message, field?, fields? } }`; an error about
 * parameters or fields (`fieldCode`) names each in `fields`, the first also as `field`. Resolves
 * with the error.
 */
function expectJsonApiAnswer(answer: Judged, what: string, fieldCode: string): JsonError | undefined {
  expectNoServerError(answer, what);
  if (answer.status < 400) return undefined;
  const body = JSON.parse(answer.text) as { error?: JsonError };
  expect(typeof body.error?.code, what).toBe("string");
  expect(typeof body.error?.message, what).toBe("string");
  if (body.error?.code === fieldCode) {
    expect(typeof body.error?.field, `${what}: ${answer.text}`).toBe("string");
    expect(body.error?.fields?.[0], `${what}: ${answer.text}`).toEqual({
      field: body.error?.field,
      message: body.error?.message,
    });
  }
  return body.error;
}

/** Text no person types, which PostgreSQL refuses or nobody should store: every input gets each. */
const HOSTILE_TEXT = [
  "A\u0000B",
  "\u0000",
  "Ada\u0007",
  "Ada\u007f",
  "Ada\u0085",
  "Line\nbreak",
  "\u202egnp.exe",
];
/** What every text input refuses, a field of several lines too: NUL and the like, C1, lone surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const REFUSED_EVERYWHERE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\p{Cs}/u;
/** A JSON body can also carry half a surrogate pair (a URL or a web form cannot: they are UTF-8). */
const HOSTILE_JSON_TEXT = [...HOSTILE_TEXT, "\uD800", "Ada\uDFFF"];

/** `{ "a.b": v }` as `{ a: { b: v } }`: a JSON body from its fields' paths. */
function nested(values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    const parts = field.split(".");
    let at = body;
    for (const part of parts.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    at[parts.at(-1) as string] = value;
  }
  return body;
}

const property = <T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, check), { numRuns: RUNS, seed: SEED, endOnFailure: true });

// --- The endpoints, on each engine -----------------------------------------------------------------

const engines: {
  name: string;
  env: () => Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}[] = [{ name: "PGlite", env: async () => ({ env: {}, cleanup: async () => {} }) }];
if (process.env.TEST_DATABASE_URL) {
  engines.push({
    name: "PostgreSQL",
    env: async () => {
      const scratch: ScratchPostgres = await createScratchPostgres();
      return { env: { DATABASE_URL: scratch.url }, cleanup: () => scratch.drop() };
    },
  });
}

it("every route of app/routes.ts says what it takes in tests/support/route-inputs.ts", () => {
  const described = ROUTE_INPUTS.map((inputs) => inputs.route);
  expect(routesOfTheShop().filter((route) => !described.includes(route))).toEqual([]);
  expect(described.filter((route) => !routesOfTheShop().includes(route))).toEqual([]);
});

describe.each(enginesToRun(engines))("malformed requests on $name", ({ env }) => {
  let shop: ShopProcess;
  let cleanup: () => Promise<void>;
  let signedIn: { cookie: string; email: string };
  const cookies: Record<Visitor, string> = { guest: "", shopper: "", owner: "" };
  let samples: Samples;
  const timeout = 60_000 + RUNS * 200;

  beforeAll(async () => {
    const engine = await env();
    cleanup = engine.cleanup;
    const ownerEmail = `fuzz-owner-${randomBytes(4).toString("hex")}@example.com`;
    shop = await startShopProcess({
      ...engine.env,
      TRUST_PROXY: "1",
      DEMO_IDENTITY_PROVIDER: "1",
      OWNER_EMAILS: ownerEmail,
      // For the owner's confirmation email: its line says when it is in the outbox.
      LOG_LEVEL: "info",
    });
    // The owner first: the first email the shop writes is theirs.
    samples = await shopSamples(shop.url, ownerEmail);
    const client = new CookieClient();
    const email = `fuzz-${randomBytes(4).toString("hex")}@example.com`;
    await signUp(client, shop.url, email, { "X-Forwarded-For": someAddress() });
    signedIn = { cookie: client.cookieHeader(shop.url), email };
    cookies.shopper = signedIn.cookie;
  }, 120_000);

  /**
   * The owner (OWNER_EMAILS: signed up, email confirmed through the local outbox's link, then at
   * the back office's door), a guest's cart, an order and an import.
   */
  async function shopSamples(url: string, ownerEmail: string): Promise<Samples> {
    const headers = { "X-Forwarded-For": someAddress() };
    const owner = new CookieClient();
    const since = shop.output().length;
    expect((await signUp(owner, url, ownerEmail, headers)).status).toBe(302);
    await shop.waitForOutput(/"event":"mail\.written"/, 30_000, since);
    const outbox = path.join(shop.dataDir, "outbox");
    const mail = fs
      .readdirSync(outbox)
      .filter((name) => name.endsWith(".json"))
      .map(
        (name) =>
          JSON.parse(fs.readFileSync(path.join(outbox, name), "utf8")) as { to: string; text: string },
      )
      .find((written) => written.to === ownerEmail);
    const token = /verify-email\?token=([\w-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
    expect(token, `no confirmation link for ${ownerEmail} in the outbox`).not.toBe("");
    const confirmed = await owner.postForm(`${url}/verify-email`, { intent: "confirm", token }, headers);
    expect(confirmed.status).toBe(302);
    // Said in full when it fails: where the confirmation led, and what the shop logged meanwhile.
    const door = await owner.fetch(`${url}/admin`, { headers });
    expect(
      door.status,
      `confirmed → ${confirmed.headers.get("location")}; the shop's log:\n${shop.output().slice(since).slice(-4000)}`,
    ).toBe(200);
    cookies.owner = owner.cookieHeader(url);
    const [product] = (await (await fetch(`${url}/all-products?size=1&sort=dsc`)).json()) as { id: number }[];
    const productId = product?.id as number;
    const page = await fetch(`${url}/products/${productId}`, { redirect: "manual" });
    const productSlug = (page.headers.get("Location") ?? `/products/${productId}`).replace("/products/", "");
    const json = { ...headers, "Content-Type": "application/json" };
    const buyer = new CookieClient();
    for (const client of [buyer, new CookieClient()]) {
      const added = await client.fetch(`${url}/api/cart/lines`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ productId, quantity: 1 }),
      });
      expect(added.status).toBe(200);
      if (client !== buyer) cookies.guest = client.cookieHeader(url);
    }
    const placed = await buyer.fetch(`${url}/api/checkout`, {
      method: "POST",
      headers: { ...json, "Idempotency-Key": randomBytes(16).toString("hex") },
      body: JSON.stringify({
        email: "buyer@example.com",
        shippingAddress: {
          name: "Ada",
          line1: "1 High Street",
          city: "Leeds",
          postalCode: "LS1 1AA",
          country: "GB",
        },
        shippingMethod: "standard",
        paymentMethod: "cash-on-delivery",
      }),
    });
    expect(placed.status).toBe(201);
    const orderNumber = ((await placed.json()) as { order: { number: string } }).order.number;
    const form = new FormData();
    form.set("file", new File(["sku,name,price,brand,category\nFUZZ-1,Lamp,10,b,c\n"], "fuzz.csv"));
    const uploaded = await owner.fetch(`${url}/admin/products/import`, {
      method: "POST",
      headers: { ...headers, Origin: url },
      body: form,
    });
    expect(uploaded.status).toBe(303);
    const importId = uploaded.headers.get("Location")?.split("/").at(-1) as string;
    return { productId, productSlug, orderNumber, importId };
  }

  type Where = "query" | "form" | "json";

  /** Each input of a route with each hostile value: its query parameters, its form's fields and file, its JSON body's. */
  function* hostileInputs(inputs: RouteInputs): Generator<{ where: Where; field: string; value: string }> {
    const kinds: [Where, readonly string[], readonly string[]][] = [
      ["query", inputs.query ?? [], HOSTILE_TEXT],
      ["form", [...(inputs.form ?? []), ...(inputs.file ? [inputs.file] : [])], HOSTILE_TEXT],
      ["json", inputs.json?.fields ?? [], HOSTILE_JSON_TEXT],
    ];
    for (const [where, fields, values] of kinds) {
      for (const field of fields) for (const value of values) yield { where, field, value };
    }
  }

  /**
   * One request to a route as its visitor: `value` in `field` of its query, form or JSON body, "x"
   * in its other fields; a file field gets a catalogue file named by the value and holding it.
   */
  function sendTo(inputs: RouteInputs, where: Where, field: string, value: string) {
    const url = new URL(inputs.url(samples), shop.url);
    const headers: Record<string, string> = { Cookie: cookies[inputs.as], Origin: shop.url };
    if (where === "query") {
      url.searchParams.set(field, value);
      return send(url.toString(), { headers });
    }
    const names = where === "json" ? (inputs.json?.fields ?? []) : (inputs.form ?? []);
    const values: Record<string, string> = Object.fromEntries(names.map((name) => [name, "x"]));
    if (field !== inputs.file) values[field] = value;
    if (where === "json") {
      headers["Content-Type"] = "application/json";
      headers["Idempotency-Key"] = randomBytes(16).toString("hex");
      const body = JSON.stringify(nested(values));
      return send(url.toString(), { method: inputs.json?.method ?? "POST", headers, body });
    }
    if (!inputs.file) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      return send(url.toString(), { method: "POST", headers, body: new URLSearchParams(values).toString() });
    }
    const form = new FormData();
    for (const [name, text] of Object.entries(values)) form.set(name, text);
    const content = field === inputs.file ? value : "x";
    form.set(
      inputs.file,
      new File([`sku,name,price,brand,category\nF-1,${content},1,b,c\n`], `${content}.csv`),
    );
    return send(url.toString(), { method: "POST", headers, body: form });
  }

  it(
    "sends text no person types to every input of every route: never a server error; a JSON 400 names the field",
    async () => {
      let sent = 0;
      for (const inputs of ROUTE_INPUTS) {
        for (const { where, field, value } of hostileInputs(inputs)) {
          const what = `${where} ${inputs.route} ${field}=${JSON.stringify(value)}`;
          const answer = await sendTo(inputs, where, field, value);
          sent++;
          if (where !== "json") {
            expectNoServerError(answer, what);
            continue;
          }
          const error = expectJsonApiAnswer(answer, what, "invalid_field");
          if (error?.code === "invalid_field" && REFUSED_EVERYWHERE.test(value)) {
            expect(
              error.fields?.map((each) => each.field),
              `${what}: ${answer.text}`,
            ).toContain(field);
          }
        }
      }
      console.info(`fuzz: ${sent} requests of text no person types`);
    },
    timeout * 4,
  );

  afterAll(async () => {
    await shop?.stop();
    await cleanup?.();
  });

  const CATALOG_PARAMETERS = ["page", "size", "sort", "search", "category", "band", "range"] as const;

  it.each(["/all-products", "/counts", "/facets"])(
    "GET %s answers any query with data or a JSON 400 naming the parameter",
    async (path) => {
      await property(queryString(CATALOG_PARAMETERS), async (query) => {
        const answer = await send(`${shop.url}${path}?${query}`);
        expectJsonApiAnswer(answer, `${path}?${query}`, "invalid_parameter");
        if (answer.status === 400) expect(answer.text).toContain('"code":"invalid_parameter"');
      });
    },
    timeout,
  );

  it.each([
    ["/", CATALOG_PARAMETERS],
    ["/login", ["redirectTo"]],
    ["/auth/google/done", ["redirectTo", "popup", "attempt", "error"]],
    ["/api/auth/callback/google", ["code", "state", "error", "iss"]],
  ] as const)(
    "GET %s answers any query without a server error",
    async (path, names) => {
      await property(queryString(names), async (query) => {
        expectNoServerError(await send(`${shop.url}${path}?${query}`), `GET ${path}?${query}`);
      });
    },
    timeout,
  );

  it.each([
    ["/login", ["email", "password", "redirectTo"]],
    ["/sign-up", ["name", "email", "photo", "password"]],
    ["/logout", []],
    ["/auth/google", ["redirectTo", "mode", "attempt"]],
    ["/api/auth/callback/google", ["code", "state", "error"]],
    ["/demo-idp/interaction/fuzzed-interaction", ["email", "name"]],
  ] as const)(
    "POST %s answers any body without a server error",
    async (path, names) => {
      await property(formBody(names), async ({ contentType, body }) => {
        const headers: Record<string, string> = contentType ? { "Content-Type": contentType } : {};
        const answer = await send(`${shop.url}${path}`, { method: "POST", headers, body });
        expectNoServerError(
          answer,
          `POST ${path} (${contentType || "no content type"}) ${body.toString("latin1").slice(0, 200)}`,
        );
      });
    },
    timeout,
  );

  it(
    "PUT /user/api/create answers any body, signed out or in, in JSON naming the bad field",
    async () => {
      await property(
        fc.record({
          body: userRecordBody,
          signedIn: fc.boolean(),
          contentType: fc.constantFrom("application/json", "text/plain", ""),
        }),
        async ({ body, signedIn: asShopper, contentType }) => {
          const headers: Record<string, string> = contentType ? { "Content-Type": contentType } : {};
          if (asShopper) headers.Cookie = signedIn.cookie;
          const answer = await send(`${shop.url}/user/api/create`, { method: "PUT", headers, body });
          expectJsonApiAnswer(answer, `PUT /user/api/create ${body.slice(0, 200)}`, "invalid_field");
        },
      );
    },
    timeout,
  );

  const CHECKOUT_FIELDS = ["name", "line1", "line2", "city", "postalCode", "country"] as const;

  it.each([
    [
      "/api/checkout",
      fc.record(
        {
          email: fieldValue,
          shippingAddress: fc.oneof(
            fc.record(Object.fromEntries(CHECKOUT_FIELDS.map((name) => [name, fieldValue])), {
              requiredKeys: [],
            }),
            fieldValue,
          ),
          shippingMethod: fc.oneof(fieldValue, fc.constantFrom("standard", "express")),
          paymentMethod: fc.oneof(fieldValue, fc.constantFrom("cash-on-delivery", "bank-transfer", "card")),
        },
        { requiredKeys: [] },
      ),
    ],
    [
      "/api/cart/lines",
      fc.record({
        productId: fc.oneof(fieldValue, fc.integer()),
        quantity: fc.oneof(fieldValue, fc.integer()),
      }),
    ],
    [
      "/api/password-check",
      fc.record({ password: fc.oneof(fieldValue, fc.integer()) }, { requiredKeys: [] }),
    ],
  ] as const)(
    "POST %s answers any JSON body in JSON, naming every bad field",
    async (path, bodies) => {
      await property(
        fc.oneof(
          bodies.map((body) => JSON.stringify(body)),
          fc.json(),
        ),
        async (body) => {
          const headers = {
            "Content-Type": "application/json",
            "Idempotency-Key": randomBytes(16).toString("hex"),
            Cookie: cookies.guest,
          };
          const answer = await send(`${shop.url}${path}`, { method: "POST", headers, body });
          expectJsonApiAnswer(answer, `POST ${path} ${body.slice(0, 200)}`, "invalid_field");
        },
      );
    },
    timeout,
  );

  it(
    "an owner's uploaded catalogue file, whatever it holds, is checked without a server error",
    async () => {
      const cell = fc.oneof(fieldValue, fc.constant('"'), fc.constant("\n"));
      const file = fc.oneof(
        fc
          .array(fc.array(cell, { maxLength: 6 }), { maxLength: 5 })
          .map((rows) => `sku,name,price,brand,category\n${rows.map((row) => row.join(",")).join("\n")}`),
        fc.json(),
        fc.string({ unit: "binary", maxLength: 300 }),
      );
      await property(
        fc.record({ text: file, ext: fc.constantFrom("csv", "json", "ndjson") }),
        async ({ text, ext }) => {
          const form = new FormData();
          form.set("file", new File([text], `fuzz.${ext}`));
          const answer = await send(`${shop.url}/admin/products/import`, {
            method: "POST",
            headers: { Cookie: cookies.owner, Origin: shop.url },
            body: form,
          });
          expectNoServerError(answer, `upload fuzz.${ext}: ${JSON.stringify(text.slice(0, 200))}`);
        },
      );
    },
    timeout,
  );

  it(
    "any method on any path, with odd headers, answers without a server error",
    async () => {
      await property(
        fc.record({
          method: fc.constantFrom("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
          path: fc.oneof(
            oddPath,
            fc.constantFrom(
              "/",
              "/login",
              "/sign-up",
              "/all-products",
              "/counts",
              "/facets",
              "/healthz",
              "/user/api/create",
              "/logout",
              "/nowhere",
              "/api/auth/sign-in/email",
              "/pictures/0123456789abcdef0123-800.webp",
              "/pictures/..%2F..%2Fetc%2Fpasswd",
              "/%09/",
              "/%09//",
              "/%09%09/",
              "/%09/%09/",
              "//%09/",
              "/%0a/",
            ),
          ),
          origin: fc.constantFrom(undefined, "null", "https://evil.example", "not a url"),
          fetchSite: fc.constantFrom(undefined, "cross-site", "same-origin", "none", "weird"),
          accept: fc.constantFrom(undefined, "text/html", "application/json", "*/*", ";;;"),
          size: fc.constantFrom(0, 10, 32 * 1024 - 1, 32 * 1024 + 1),
        }),
        async ({ method, path, origin, fetchSite, accept, size }) => {
          const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
          if (origin) headers.Origin = origin;
          if (fetchSite) headers["Sec-Fetch-Site"] = fetchSite;
          if (accept) headers.Accept = accept;
          const hasBody = method !== "GET" && method !== "HEAD";
          const answer = await send(`${shop.url}${path}`, {
            method,
            headers,
            body: hasBody ? `email=${"a".repeat(size)}` : undefined,
          });
          expectNoServerError(answer, `${method} ${path} (${size} bytes)`);
        },
      );
    },
    timeout,
  );

  it("a malformed request line or header gets a 4xx from the server itself", async () => {
    for (const raw of [
      "GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
      "POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
      "GET http://evil.example/ HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: exa mple\r\n\r\n",
      "NONSENSE\r\n\r\n",
      // Methods the router's web Request cannot even represent, and others the shop never answers.
      "TRACE / HTTP/1.1\r\nHost: x\r\n\r\n",
      "TRACK /all-products HTTP/1.1\r\nHost: x\r\n\r\n",
      "PROPFIND /login HTTP/1.1\r\nHost: x\r\n\r\n",
      // A tunnel request, which Node hands over as an event of its own (it closed the connection unanswered).
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
      "GET /\t/ HTTP/1.1\r\nHost: x\r\n\r\n",
    ]) {
      const response = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(shop.port, "127.0.0.1", () => socket.write(raw));
        let answer = "";
        socket.on("data", (chunk) => {
          answer += chunk;
        });
        socket.on("close", () => resolve(answer));
        socket.on("error", reject);
        socket.setTimeout(5_000, () => socket.destroy());
      });
      expect(response, JSON.stringify(raw)).toMatch(/^HTTP\/1\.1 4\d\d /);
    }
  });

  // Last in the suite: everything above was the client's mistake, so none of it is the shop's error.
  it("logs none of the malformed requests above as an error of the shop", () => {
    const errors = shop
      .output()
      .split("\n")
      .filter((line) => /"level":(50|60)/.test(line));
    expect(errors.slice(0, 3).map((line) => line.slice(0, 400))).toEqual([]);
  });
});

reportPostgresSkipped("malformed requests on $name");
