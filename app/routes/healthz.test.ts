import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { type ShopServices, servicesContext } from "~/context.server";
import type { DatabaseHandle } from "~/db/client.server";
import { loader } from "./healthz";

const database = (ping: () => Promise<void>): DatabaseHandle => ({
  kind: "postgres",
  db: {} as DatabaseHandle["db"],
  pool: null,
  ping,
  close: async () => {},
  listen: () => ({ close: async () => {} }),
});
const answering = database(async () => {});
const down = database(() => Promise.reject(new Error("connection refused")));

/** A catalogue whose search index is read (or not yet). */
const catalog = (ready: boolean) => ({ ready: () => ready }) as unknown as ShopServices["catalog"];

async function health(
  services: Pick<ShopServices, "database" | "lifecycle"> & { catalog?: ShopServices["catalog"] },
) {
  const context = new RouterContextProvider();
  context.set(servicesContext, { catalog: catalog(true), ...services } as ShopServices);
  const request = new Request("http://shop.test/healthz");
  const response = await loader({ request, context, params: {} } as unknown as Parameters<typeof loader>[0]);
  return {
    status: response.status,
    body: await response.json(),
    cache: response.headers.get("Cache-Control"),
  };
}

describe("GET /healthz", () => {
  it("answers 200 {status: ok}, never cached, while the database answers", async () => {
    expect(await health({ database: answering, lifecycle: { draining: false } })).toEqual({
      status: 200,
      body: { status: "ok" },
      cache: "no-store",
    });
  });

  it("answers 503 {status: starting} until the search index is read, so a balancer waits for it", async () => {
    const answer = await health({
      database: answering,
      lifecycle: { draining: false },
      catalog: catalog(false),
    });
    expect(answer).toMatchObject({ status: 503, body: { status: "starting" }, cache: "no-store" });
  });

  it("answers 503 while the database is down", async () => {
    const answer = await health({ database: down, lifecycle: { draining: false } });
    expect(answer).toMatchObject({ status: 503, body: { status: "unavailable" } });
  });

  it("answers 503 while the process shuts down, even with a healthy database", async () => {
    const answer = await health({ database: answering, lifecycle: { draining: true } });
    expect(answer).toMatchObject({ status: 503, body: { status: "shutting-down" } });
  });

  it("gives up on a database that hangs, within its time limit", async () => {
    vi.useFakeTimers();
    try {
      const pending = health({
        database: database(() => new Promise(() => {})),
        lifecycle: { draining: false },
      });
      await vi.advanceTimersByTimeAsync(2_500);
      expect((await pending).status).toBe(503);
    } finally {
      vi.useRealTimers();
    }
  });
});
