import { describe, expect, it, vi } from "vitest";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { type Catalog, createCatalog } from "./catalog.server";
import { allProductsReply, countsReply, healthReply } from "./catalog-api.server";

/** A database that is down: every read fails. */
const failure = () => Promise.reject(new Error("connection refused"));
const brokenCatalog = {
  findProducts: failure,
  countProducts: failure,
  clear: () => {},
} as unknown as Catalog;
const brokenDatabase: DatabaseHandle = {
  kind: "postgres",
  db: {} as DatabaseHandle["db"],
  pool: null,
  ping: failure,
  close: async () => {},
};
const params = (query = "") => new URLSearchParams(query);
const running = { draining: false };

describe("catalogue API when the database is down", () => {
  it("/healthz answers 503", async () => {
    const reply = await healthReply(brokenDatabase, running);
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.body ?? "")).toEqual({ status: "unavailable" });
  });

  it("/all-products and /counts answer 503 with a JSON error, not a 500", async () => {
    for (const reply of [
      await allProductsReply(brokenCatalog, params()),
      await countsReply(brokenCatalog, params()),
    ]) {
      expect(reply.status).toBe(503);
      expect(reply.headers["Cache-Control"]).toBe("no-store");
      expect(JSON.parse(reply.body ?? "")).toEqual({
        error: { code: "catalog_unavailable", message: expect.any(String) },
      });
    }
  });

  it("a bad parameter is still a 400, before the database is asked", async () => {
    const reply = await allProductsReply(brokenCatalog, params("size=0"));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body ?? "").error.field).toBe("size");
  });

  it("/healthz answers 503 while the process shuts down, even with a healthy database", async () => {
    const healthy = { ...brokenDatabase, ping: async () => {} };
    expect((await healthReply(healthy, running)).status).toBe(200);
    const reply = await healthReply(healthy, { draining: true });
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.body ?? "")).toEqual({ status: "shutting-down" });
  });

  it("/healthz gives up on a database that hangs", async () => {
    vi.useFakeTimers();
    try {
      const pending = healthReply({ ...brokenDatabase, ping: () => new Promise(() => {}) }, running);
      await vi.advanceTimersByTimeAsync(2_500);
      expect((await pending).status).toBe(503);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("catalogue API caching", () => {
  const catalog = createCatalog(
    {} as Database,
    { cacheSeconds: 0 },
    {
      findProducts: async () => [],
      countProducts: async () => 7,
    },
  );

  it("answers 200 with an ETag, and 304 without a body when If-None-Match names it", async () => {
    const first = await countsReply(catalog, params());
    expect(first.status).toBe(200);
    expect(first.body).toBe('{"count":7}');
    const etag = first.headers.ETag;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await countsReply(catalog, params(), `"other", ${etag}`);
    expect(again).toMatchObject({ status: 304, body: null });
    expect(again.headers.ETag).toBe(etag);
  });

  it("answers 200 when If-None-Match names another body", async () => {
    expect((await allProductsReply(catalog, params(), 'W/"stale"')).status).toBe(200);
  });
});
