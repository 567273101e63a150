import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, catalogImports, orders, users } from "~/db/schema";
import { newOrderNumber } from "~/features/orders/order-number";
import routes from "~/routes";
import { productInStock, shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";

/**
 * The back office's door, walked for every /admin route of app/routes.ts —
 * its loader and, where it has one, its action — as each kind of visitor:
 * a signed-out visitor is sent to log in and back, a shopper gets the shop's
 * 404 (the same as a page that does not exist), staff reach everything but
 * people, settings and activity (403), an owner reaches everything. A new
 * /admin route is walked without anyone adding it here.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the back office's door");

// biome-ignore lint/suspicious/noExplicitAny: any route module's loader or action
type Handler = (args: any) => unknown;

interface AdminRoute {
  /** "/admin/products/:productId"; the layout's name says it is the layout. */
  name: string;
  /** "/admin/products/:productId" */
  pattern: string;
  file: string;
  ownersOnly: boolean;
}

/** What only owners may open; everything else in /admin is for staff too. */
const OWNERS_ONLY = new Set(["/admin/activity", "/admin/people", "/admin/settings"]);

/** Every route under /admin in app/routes.ts, the layout included. */
function adminRoutes(): AdminRoute[] {
  type Entry = { path?: string; file: string; index?: boolean; children?: Entry[] };
  const admin = (routes as Entry[]).find((entry) => entry.path === "admin");
  if (!admin) throw new Error("app/routes.ts has no /admin");
  const found: AdminRoute[] = [
    { name: "/admin's layout", pattern: "/admin", file: admin.file, ownersOnly: false },
  ];
  for (const child of admin.children ?? []) {
    const pattern = child.index ? "/admin" : `/admin/${child.path}`;
    found.push({ name: pattern, pattern, file: child.file, ownersOnly: OWNERS_ONLY.has(pattern) });
  }
  return found;
}

/** What the router would answer: the status, and a redirect's Location. */
async function answer(
  handler: Handler,
  url: string,
  params: Record<string, string>,
  context: unknown,
  { cookie, method }: { cookie?: string; method: "GET" | "POST" },
): Promise<{ status: number; location: string | null }> {
  const headers = new Headers();
  if (cookie) headers.set("cookie", cookie);
  if (method === "POST") headers.set("Content-Type", "application/x-www-form-urlencoded");
  const request = new Request(url, { method, headers, body: method === "POST" ? "" : undefined });
  let result: unknown;
  try {
    result = await handler({ request, context, params, url: new URL(url), pattern: "/" });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  const wrapped = result as { type?: string; init?: ResponseInit | null } | null;
  if (wrapped?.type === "DataWithResponseInit")
    return { status: wrapped.init?.status ?? 200, location: null };
  if (result instanceof Error) throw result;
  return { status: 200, location: null };
}

describe.each(engines)("the back office's door on $name", (engine: TestDatabase) => {
  const { context, signedUp, signedUpAs } = shopContext(engine);
  const cookies: Record<"shopper" | "staff" | "owner", string> = { shopper: "", staff: "", owner: "" };
  const params: Record<string, string> = {};

  beforeAll(async () => {
    const suffix = `${engine.name.toLowerCase()}-${Date.now()}`;
    cookies.shopper = await signedUp(`shopper-${suffix}@example.com`);
    cookies.staff = await signedUpAs(`staff-${suffix}@example.com`, "staff");
    cookies.owner = await signedUpAs(`owner-${suffix}@example.com`, "owner");
    // Real records for the pages of one thing, so an allowed visitor's answer is the page itself.
    params.productId = String(await productInStock(engine, 5));
    const [customer] = await engine.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, `shopper-${suffix}@example.com`));
    params.customerId = customer?.id ?? "";
    params.number = newOrderNumber();
    // An import already written: its pages show its result, and a confirmation of it is refused.
    const [upload] = await engine.db
      .insert(catalogImports)
      .values({ fileName: "door.csv", format: "csv", content: new Uint8Array(), status: "done" })
      .returning({ id: catalogImports.id });
    params.importId = upload?.id ?? "";
    await engine.db.insert(orders).values({
      number: params.number,
      idempotencyScope: `test-${suffix}`,
      idempotencyKey: "door",
      requestHash: "door",
      userId: customer?.id,
      email: `shopper-${suffix}@example.com`,
      shippingAddress: { name: "Ada", line1: "1 Road", city: "Town", postalCode: "12345", country: "US" },
      shippingMethod: "standard",
      paymentMethod: "bank-transfer",
      subtotalCents: 1250,
      shippingCents: 499,
      totalCents: 1749,
      currency: "USD",
    });
  });

  const walked = adminRoutes();
  const urlOf = (pattern: string) =>
    `http://localhost:3000${pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? name)}`;

  it("walks every /admin route of app/routes.ts", () => {
    expect(walked.map((route) => route.pattern)).toEqual(
      expect.arrayContaining([
        "/admin",
        "/admin/products",
        "/admin/orders",
        "/admin/people",
        "/admin/settings",
      ]),
    );
  });

  describe.each(walked)("$name", (route: AdminRoute) => {
    let module: { loader?: Handler; action?: Handler };
    beforeAll(async () => {
      module = await import(/* @vite-ignore */ path.resolve("app", route.file));
    });

    const handlers = (): [Handler, "GET" | "POST"][] => {
      const found: [Handler, "GET" | "POST"][] = [];
      if (module.loader) found.push([module.loader, "GET"]);
      if (module.action) found.push([module.action, "POST"]);
      return found;
    };

    it("sends a signed-out visitor to log in and back, for its loader and action", async () => {
      for (const [handler, method] of handlers()) {
        const url = urlOf(route.pattern);
        const got = await answer(handler, url, params, context, { method });
        expect(got.status, `${method} ${route.pattern}`).toBe(302);
        const back = new URL(got.location ?? "", "http://localhost:3000");
        expect(back.pathname).toBe("/login");
        expect(back.searchParams.get("redirectTo")).toBe(new URL(url).pathname);
      }
    });

    it("answers a shopper the shop's 404, for its loader and action", async () => {
      for (const [handler, method] of handlers()) {
        const got = await answer(handler, urlOf(route.pattern), params, context, {
          cookie: cookies.shopper,
          method,
        });
        expect(got.status, `${method} ${route.pattern}`).toBe(404);
      }
    });

    it(`lets staff ${route.ownersOnly ? "not in (403)" : "in"}, and an owner in`, async () => {
      const audited = await engine.db.$count(auditLog);
      for (const [handler, method] of handlers()) {
        const asStaff = await answer(handler, urlOf(route.pattern), params, context, {
          cookie: cookies.staff,
          method,
        });
        const asOwner = await answer(handler, urlOf(route.pattern), params, context, {
          cookie: cookies.owner,
          method,
        });
        if (route.ownersOnly) expect(asStaff.status, `staff ${method} ${route.pattern}`).toBe(403);
        else expectReached(asStaff, `staff ${method} ${route.pattern}`, method);
        expectReached(asOwner, `owner ${method} ${route.pattern}`, method);
      }
      // An empty form changes nothing, whoever sends it.
      expect(await engine.db.$count(auditLog)).toBe(audited);
    });
  });
});

/**
 * Let through: a page is shown (200); an empty form is answered by the
 * route itself (a 4xx naming what is missing, or a redirect that is not the
 * login) — never the door's 302 to log in, 403 or 404, never a 5xx.
 */
function expectReached(got: { status: number; location: string | null }, what: string, method: string) {
  if (method === "GET") {
    expect(got.status, what).toBe(200);
    return;
  }
  expect(got.status, what).toBeLessThan(500);
  expect([403, 404], what).not.toContain(got.status);
  if (got.status === 302) expect(got.location, what).not.toMatch(/^\/login/);
}
