import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { type ShopServices, servicesContext } from "~/context.server";
import type { DatabaseHandle } from "~/db/client.server";
import type { Catalog } from "~/features/catalog/catalog.server";
import { loader as allProducts } from "./api.all-products";
import { loader as counts } from "./api.counts";
import { loader as healthz } from "./api.healthz";

/** A context whose database is down: every read fails. */
function brokenServices(): RouterContextProvider {
  const failure = () => Promise.reject(new Error("connection refused"));
  const services: ShopServices = {
    database: { kind: "postgres", db: {} as DatabaseHandle["db"], ping: failure, close: async () => {} },
    catalog: { findProducts: failure, countProducts: failure, clear: () => {} } as unknown as Catalog,
  };
  const context = new RouterContextProvider();
  context.set(servicesContext, services);
  return context;
}

const args = (path: string) =>
  ({ request: new Request(`http://shop.test${path}`), context: brokenServices(), params: {} }) as never;

describe("API routes when the database is down", () => {
  it("/healthz answers 503", async () => {
    const response = (await healthz(args("/healthz"))) as Response;
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "unavailable" });
  });

  it("/all-products and /counts answer 503 with a JSON error, not a 500", async () => {
    for (const loader of [allProducts, counts]) {
      const response = (await loader(args("/all-products"))) as Response;
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: { code: "catalog_unavailable", message: expect.any(String) },
      });
    }
  });

  it("a bad parameter is still a 400, before the database is asked", async () => {
    const response = (await allProducts(args("/all-products?size=0"))) as Response;
    expect(response.status).toBe(400);
  });

  it("/healthz gives up on a database that hangs", async () => {
    vi.useFakeTimers();
    const context = brokenServices();
    context.get(servicesContext).database.ping = () => new Promise(() => {});
    const pending = healthz({
      request: new Request("http://shop.test/healthz"),
      context,
      params: {},
    } as never);
    await vi.advanceTimersByTimeAsync(2_500);
    expect(((await pending) as Response).status).toBe(503);
    vi.useRealTimers();
  });
});
