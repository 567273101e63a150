import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiDocument, JsonSchema } from "../../app/utils/openapi";
import { CookieClient, signUp } from "../support/http-client";
import { type ShopProcess, startShopProcess } from "../support/shop-process";
import { germanShopDocument } from "../support/tax-setups";

/**
 * The OpenAPI description (/openapi.json) against the shop itself: real
 * answers to valid and invalid calls, each checked against the schema the
 * description gives for its status (a status it does not list fails too).
 */
let shop: ShopProcess;
let document: ApiDocument;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);

beforeAll(async () => {
  shop = await startShopProcess({ TRUST_PROXY: "1" });
  const response = await fetch(`${shop.url}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  document = (await response.json()) as ApiDocument;
});

afterAll(async () => {
  await shop?.stop();
});

/** Checks an answer against the description of `method path`; resolves with its body. */
async function expectDescribed(
  method: "get" | "put" | "post",
  pathName: string,
  response: Response,
): Promise<unknown> {
  const operation = document.paths[pathName]?.[method];
  expect(operation, `${method} ${pathName} is described`).toBeDefined();
  const described = operation?.responses[String(response.status)];
  expect(
    described,
    `${method.toUpperCase()} ${pathName} answered ${response.status}, which is not described`,
  ).toBeDefined();
  const text = await response.text();
  const schema = described?.content?.["application/json"].schema;
  if (!schema) {
    expect(text).toBe("");
    return undefined;
  }
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = JSON.parse(text) as unknown;
  const validate = ajv.compile(schema);
  expect(validate(body), `${response.status} of ${pathName}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return body;
}

describe("the API's description", () => {
  it("is OpenAPI 3.1, and every call it describes is a URL of the shop (app/routes.ts)", () => {
    expect(document.openapi).toBe("3.1.0");
    const routes = fs.readFileSync(path.resolve("app/routes.ts"), "utf8");
    const described = Object.keys(document.paths);
    expect(described.sort()).toEqual([
      "/all-products",
      "/api/admin/tax-and-shipping",
      "/api/cart",
      "/api/cart/lines",
      "/api/cart/lines/{lineId}",
      "/api/checkout",
      "/api/checkout/quote",
      "/api/orders/{number}",
      "/api/password-check",
      "/api/products/{id}",
      "/api/webhooks/stripe",
      "/counts",
      "/facets",
      "/suggestions",
      "/user/api/create",
    ]);
    // A path parameter is written {name} in the description and :name in the routes.
    for (const pathName of described) {
      expect(routes).toContain(`route("${pathName.slice(1).replace(/\{(\w+)\}/g, ":$1")}"`);
    }
  });

  it("documents every query parameter the catalogue takes, with its limits", () => {
    const names = (pathName: string) =>
      document.paths[pathName]?.get?.parameters?.map((parameter) => parameter.name).sort();
    expect(names("/all-products")).toEqual([
      "band",
      "category",
      "inStock",
      "option",
      "page",
      "range",
      "search",
      "size",
      "sort",
    ]);
    expect(names("/counts")).toEqual(["band", "category", "inStock", "option", "range", "search"]);
    expect(names("/facets")).toEqual(names("/counts"));
    expect(names("/suggestions")).toEqual(["search"]);
    const sort = document.paths["/all-products"]?.get?.parameters?.find(
      (parameter) => parameter.name === "sort",
    );
    expect(sort?.schema.enum).toEqual(["dsc", "asc", "date-added", "rating"]);
    const band = document.paths["/counts"]?.get?.parameters?.find((parameter) => parameter.name === "band");
    expect(band).toMatchObject({ explode: true, schema: { type: "array", items: { type: "string" } } });
  });
});

describe("real answers match the description", () => {
  const catalogueCalls: [string, string][] = [
    ["/all-products", ""],
    ["/all-products", "?search=blend&sort=asc&size=3"],
    ["/all-products", "?band=campSafe&band=cycleFit&category=outdoor&range=150&page=2&size=2"],
    ["/all-products", "?sort=date-added&page=999"],
    ["/all-products", "?search=blendr"],
    ["/all-products", "?page=0"],
    ["/all-products", "?size=1000"],
    ["/all-products", "?sort=cheapest"],
    ["/all-products", "?page=1&page=2"],
    ["/all-products", "?inStock=1&band=campSafe"],
    ["/all-products", "?inStock=yes"],
    ["/counts", ""],
    ["/counts", "?category=fitness&range=50"],
    ["/counts", "?range=cheap"],
    ["/facets", "?band=campSafe&search=bottle"],
    ["/facets", "?inStock=1"],
    ["/facets", `?search=${"x".repeat(500)}`],
    // What the search box asks for as the shopper types: products, brands, categories, typos forgiven.
    ["/suggestions", "?search=camp"],
    ["/suggestions", "?search=blendr"],
    ["/suggestions", "?search=zzzqqq"],
    ["/suggestions", ""],
    ["/suggestions", `?search=${"x".repeat(500)}`],
    ["/suggestions", "?search=a&search=b"],
  ];

  it.each(catalogueCalls)("GET %s%s", async (pathName, query) => {
    const response = await fetch(`${shop.url}${pathName}${query}`);
    const body = await expectDescribed("get", pathName, response);
    // An error names the parameter at fault, as the description says.
    if (response.status === 400) expect((body as { error: { field?: string } }).error.field).toBeTruthy();
  });

  it("GET /api/products/{id}: a product in sizes and colours with its variants; a bad id 400, a missing one 404", async () => {
    const [shoes] = (await (await fetch(`${shop.url}/all-products?search=running+shoes&size=1`)).json()) as {
      id: number;
      variantCount: number;
    }[];
    expect(shoes?.variantCount).toBeGreaterThan(1);
    const found = await fetch(`${shop.url}/api/products/${shoes?.id}`);
    const product = (await expectDescribed("get", "/api/products/{id}", found)) as {
      options: { name: string }[];
      variants: { options: Record<string, string>; sku: string }[];
    };
    expect(found.status).toBe(200);
    expect(product.options.map((option) => option.name)).toEqual(["Size", "Colour"]);
    expect(product.variants).toHaveLength(shoes?.variantCount as number);
    expect(product.variants[0]).toMatchObject({ options: { Size: "39", Colour: "Black" } });
    const bad = await fetch(`${shop.url}/api/products/abc`);
    expect(bad.status).toBe(400);
    expect(
      ((await expectDescribed("get", "/api/products/{id}", bad)) as { error: { field: string } }).error.field,
    ).toBe("id");
    const missing = await fetch(`${shop.url}/api/products/999999`);
    expect(missing.status).toBe(404);
    await expectDescribed("get", "/api/products/{id}", missing);
  });

  it("GET /suggestions lists what the search box shows: products, brands and categories with their addresses", async () => {
    const response = await fetch(`${shop.url}/suggestions?search=camp`);
    const body = (await expectDescribed("get", "/suggestions", response)) as {
      products: { href: string }[];
      brands: { label: string; href: string }[];
    };
    expect(body.products.length).toBeGreaterThan(0);
    expect(body.brands).toContainEqual({ label: "CampSafe", href: "/?band=campSafe" });
  });

  it("a client past its share of searches gets the described 429 with Retry-After", async () => {
    // Its own address (the shop trusts one proxy), so no other test's calls count against it.
    const headers = { "X-Forwarded-For": "198.51.100.201" };
    const answers: Response[] = [];
    for (let call = 0; call < 301; call++) {
      const answer = await fetch(`${shop.url}/suggestions?search=camp`, { headers });
      if (answer.status !== 429) {
        await answer.arrayBuffer();
        continue;
      }
      answers.push(answer);
      break;
    }
    const [refused] = answers;
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectDescribed("get", "/suggestions", refused as Response);
    for (const [pathName, query] of [
      ["/all-products", "?search=camp"],
      ["/counts", "?search=camp"],
      ["/facets", ""],
    ] as const) {
      await expectDescribed("get", pathName, await fetch(`${shop.url}${pathName}${query}`, { headers }));
    }
  });

  it("a revalidation with the answer's ETag gets the described 304", async () => {
    const first = await fetch(`${shop.url}/counts?category=outdoor`);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await fetch(`${shop.url}/counts?category=outdoor`, {
      headers: { "If-None-Match": etag as string },
    });
    expect(again.status).toBe(304);
    await expectDescribed("get", "/counts", again);
  });

  it("describes the tax and shipping document as the API takes it, and its 404 to anyone but staff", async () => {
    const schema =
      document.paths["/api/admin/tax-and-shipping"]?.put?.requestBody?.content["application/json"].schema;
    const validate = ajv.compile(schema as object);
    const germanShop = germanShopDocument();
    expect(validate(germanShop), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ ...germanShop, outsideTaxZones: "maybe" })).toBe(false);
    await expectDescribed(
      "get",
      "/api/admin/tax-and-shipping",
      await fetch(`${shop.url}/api/admin/tax-and-shipping`),
    );
  });

  it("PUT /user/api/create: signed out, saved, someone else's email, a bad field, not JSON", async () => {
    const url = `${shop.url}/user/api/create`;
    const email = `openapi-${randomBytes(4).toString("hex")}@example.com`;
    const put = (client: CookieClient, body: string) =>
      client.fetch(url, { method: "PUT", headers: { "Content-Type": "application/json" }, body });
    const record = { email, name: "Ada Lovelace", photo: "https://example.com/ada.png" };

    expect(
      (await expectDescribed(
        "put",
        "/user/api/create",
        await put(new CookieClient(), JSON.stringify(record)),
      )) as object,
    ).toMatchObject({
      error: { code: "unauthenticated" },
    });
    const client = new CookieClient();
    expect((await signUp(client, shop.url, email, { "X-Forwarded-For": "198.51.100.7" })).status).toBe(302);
    expect(
      await expectDescribed("put", "/user/api/create", await put(client, JSON.stringify(record))),
    ).toMatchObject({
      email,
      name: "Ada Lovelace",
      photo: "https://example.com/ada.png",
    });
    const cleared = await expectDescribed(
      "put",
      "/user/api/create",
      await put(client, JSON.stringify({ ...record, photo: null })),
    );
    expect(cleared).toMatchObject({ photo: null });
    const other = { ...record, email: "someone-else@example.com" };
    expect(
      await expectDescribed("put", "/user/api/create", await put(client, JSON.stringify(other))),
    ).toMatchObject({
      error: { code: "forbidden" },
    });
    const badPhoto = { ...record, photo: "javascript:alert(1)" };
    expect(
      await expectDescribed("put", "/user/api/create", await put(client, JSON.stringify(badPhoto))),
    ).toMatchObject({
      error: { field: "photo", fields: [{ field: "photo" }] },
    });
    const allBad = { email: "ada", name: "", photo: "javascript:alert(1)" };
    expect(
      await expectDescribed("put", "/user/api/create", await put(client, JSON.stringify(allBad))),
    ).toMatchObject({
      error: { field: "email", fields: [{ field: "email" }, { field: "name" }, { field: "photo" }] },
    });
    await expectDescribed("put", "/user/api/create", await put(client, "not json"));
  });

  it("POST /api/password-check: too common, not, a bad field, not JSON", async () => {
    const check = (body: string) =>
      fetch(`${shop.url}/api/password-check`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.8" },
        body,
      });
    const path = "/api/password-check";
    expect(await expectDescribed("post", path, await check('{"password":"Password1!"}'))).toEqual({
      tooCommon: true,
    });
    expect(await expectDescribed("post", path, await check('{"password":"vX7#kq2Lm"}'))).toEqual({
      tooCommon: false,
    });
    expect(await expectDescribed("post", path, await check('{"password":7}'))).toMatchObject({
      error: { field: "password" },
    });
    await expectDescribed("post", path, await check("not json"));
  });

  it("POST /api/checkout: a state missing, a total that changed, the order placed, then an empty cart", async () => {
    const client = new CookieClient();
    const headers = { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.9" };
    const [product] = (await (await fetch(`${shop.url}/all-products?size=1&sort=asc`)).json()) as {
      id: number;
      price: number;
    }[];
    if (!product) throw new Error("the shop has no products");
    const added = await client.fetch(`${shop.url}/api/cart/lines`, {
      method: "POST",
      headers,
      body: JSON.stringify({ productId: product.id, quantity: 1 }),
    });
    expect(added.ok).toBe(true);
    const portland = {
      name: "Ada",
      line1: "1 Main St",
      city: "Portland",
      postalCode: "97204",
      country: "US",
    };
    const checkout = (body: object, key = "openapi-checkout-1") =>
      client.fetch(`${shop.url}/api/checkout`, {
        method: "POST",
        headers: { ...headers, "Idempotency-Key": key },
        body: JSON.stringify({
          email: "ada@example.com",
          shippingAddress: { ...portland, region: "US-OR" },
          shippingMethod: "express",
          paymentMethod: "cash-on-delivery",
          ...body,
        }),
      });
    const quote = (body: object) =>
      client.fetch(`${shop.url}/api/checkout/quote`, { method: "POST", headers, body: JSON.stringify(body) });
    // A shop with no setup saved: Everywhere, Standard and Express, no tax.
    expect(
      await expectDescribed(
        "post",
        "/api/checkout/quote",
        await quote({ shippingAddress: { country: "US", region: "US-OR" }, shippingMethod: "express" }),
      ),
    ).toMatchObject({ shippingMethod: "express", taxes: [], taxIncluded: false });
    expect(
      await expectDescribed(
        "post",
        "/api/checkout/quote",
        await quote({ shippingAddress: { country: "US" } }),
      ),
    ).toMatchObject({ error: { field: "shippingAddress.region" } });
    expect(
      await expectDescribed("post", "/api/checkout", await checkout({ shippingAddress: portland })),
    ).toMatchObject({ error: { code: "invalid_field", field: "shippingAddress.region" } });
    // The product's price alone, without Express shipping: not what the order comes to.
    const changed = (await expectDescribed(
      "post",
      "/api/checkout",
      await checkout({ expectedTotal: product.price }),
    )) as { error: { code: string; total: number } };
    expect(changed.error.code).toBe("total_changed");
    expect(
      await expectDescribed("post", "/api/checkout", await checkout({ expectedTotal: changed.error.total })),
    ).toMatchObject({ order: { status: "placed", total: changed.error.total } });
    expect(
      await expectDescribed("post", "/api/checkout", await checkout({}, "openapi-checkout-2")),
    ).toMatchObject({ error: { code: "cart_empty" } });
  });

  it("the described body accepts what the shop accepts and refuses what it refuses", () => {
    const schema = document.paths["/user/api/create"]?.put?.requestBody?.content["application/json"]
      .schema as JsonSchema;
    const validate = ajv.compile(schema);
    expect(validate({ email: "ada@example.com", name: "Ada", photo: "https://example.com/a.png" })).toBe(
      true,
    );
    expect(validate({ email: "ada@example.com", name: "Ada" })).toBe(true);
    expect(validate({ email: "ada@example.com", name: "A".repeat(101) })).toBe(false);
    expect(validate({ email: "ada@example.com", name: "Ada", photo: 7 })).toBe(false);
    expect(validate({ name: "Ada" })).toBe(false);
  });
});

describe("the reference page", () => {
  it("/docs/api lists every described call with its parameters, and links the description", async () => {
    const response = await fetch(`${shop.url}/docs/api`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('href="/openapi.json"');
    for (const [pathName, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(html).toContain(`id="${operation.operationId}"`);
        expect(html).toContain(`${method.toUpperCase()}<!-- --> <!-- -->${pathName}`);
        for (const parameter of operation.parameters ?? [])
          expect(html).toContain(`>${parameter.name}</code>`);
      }
    }
  });
});
