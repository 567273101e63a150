// @vitest-environment happy-dom
import { act, cleanup, render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLoaderData } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseCatalogQuery } from "../core/catalog-schema";
import { type CatalogFilterControls, useCatalogFilters } from "./use-catalog-filters";

/**
 * The shop page's filter state, driven as a shopper drives it, on a clock the
 * test moves: the URL is the truth, typing waits for a pause, a search run is
 * one history entry, and an outside change (Back) wins over a pending one.
 */
let controls: CatalogFilterControls;

function Filters() {
  const query = useLoaderData<typeof loader>();
  controls = useCatalogFilters(query);
  return null;
}

function loader({ request }: { request: Request }) {
  const parsed = parseCatalogQuery(new URL(request.url).searchParams);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function NothingYet() {
  return null;
}

function shop(start = "/") {
  const router = createMemoryRouter(
    [{ path: "/", loader, Component: Filters, HydrateFallback: NothingYet }],
    {
      initialEntries: [start],
    },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** Moves the clock and lets the router finish what that started. */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

const url = (router: ReturnType<typeof shop>) => router.state.location.search;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("useCatalogFilters", () => {
  it("waits for a pause in typing (300 ms), then searches once for what was typed", async () => {
    const router = shop();
    await wait(0);
    const navigate = vi.spyOn(router, "navigate");
    act(() => controls.type("b"));
    await wait(100);
    act(() => controls.type("bl"));
    await wait(100);
    act(() => controls.type("ble"));
    await wait(299);
    expect(navigate).not.toHaveBeenCalled();
    expect(controls.values.search).toBe("ble");
    await wait(1);
    expect(url(router)).toBe("?search=ble");
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it("makes one history entry per search run: later pauses of the same run replace it", async () => {
    const router = shop();
    await wait(0);
    act(() => controls.type("ble"));
    await wait(300);
    expect(router.state.historyAction).toBe("PUSH");
    act(() => controls.type("blend"));
    await wait(300);
    expect(url(router)).toBe("?search=blend");
    expect(router.state.historyAction).toBe("REPLACE");
    // Leaving the box ends the run: the next search is a new entry.
    act(() => controls.endRun());
    act(() => controls.type("blender"));
    await wait(300);
    expect(router.state.historyAction).toBe("PUSH");
  });

  it("waits while the shopper steps through a closed select with the arrow keys: one request and one entry per run", async () => {
    const router = shop();
    await wait(0);
    const navigate = vi.spyOn(router, "navigate");
    for (const sort of ["dsc", "asc", "date-added"] as const) {
      act(() => controls.choose("sort", sort, { stepping: true }));
      await wait(50);
    }
    expect(navigate).not.toHaveBeenCalled();
    expect(controls.values.sort).toBe("date-added");
    await wait(250);
    expect(url(router)).toBe("?sort=date-added");
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(router.state.historyAction).toBe("PUSH");
    // A later step of the same run replaces that entry instead of adding one.
    act(() => controls.choose("sort", "rating", { stepping: true }));
    await wait(300);
    expect(url(router)).toBe("?sort=rating");
    expect(router.state.historyAction).toBe("REPLACE");
    // Leaving the select ends the run.
    act(() => controls.endRun());
    act(() => controls.choose("sort", "asc", { stepping: true }));
    await wait(300);
    expect(router.state.historyAction).toBe("PUSH");
  });

  it("applies a chosen brand at once, back on page 1, and drops the typing that was still waiting", async () => {
    const router = shop("/?search=mix&page=3");
    await wait(0);
    act(() => controls.type("mixer"));
    await wait(100);
    act(() => controls.toggle("band", "blendMaster", true));
    await wait(0);
    expect(url(router)).toBe("?band=blendMaster&search=mixer");
    await wait(1_000);
    expect(url(router)).toBe("?band=blendMaster&search=mixer");
  });

  it("ticks several brands, and unticks one, each at once", async () => {
    const router = shop("/?band=cycleFit&page=2");
    await wait(0);
    expect(controls.values.band).toEqual(["cycleFit"]);
    act(() => controls.toggle("band", "campSafe", true));
    await wait(0);
    expect(url(router)).toBe("?band=campSafe&band=cycleFit");
    act(() => controls.toggle("category", "outdoor", true));
    await wait(0);
    act(() => controls.toggle("band", "cycleFit", false));
    await wait(0);
    expect(url(router)).toBe("?band=campSafe&category=outdoor");
    expect(controls.values).toMatchObject({ band: ["campSafe"], category: ["outdoor"] });
  });

  it("applies the price slider once it rests", async () => {
    const router = shop();
    await wait(0);
    for (const range of [50, 60, 70]) {
      act(() => controls.slide(range));
      await wait(50);
    }
    expect(url(router)).toBe("");
    expect(controls.values.range).toBe(70);
    await wait(300);
    expect(url(router)).toBe("?range=70");
  });

  it("follows Back to an earlier search and forgets a search that was about to be sent", async () => {
    const router = shop("/?search=lamp");
    await wait(0);
    act(() => controls.type("desk"));
    act(() => controls.applyNow());
    await wait(0);
    expect(url(router)).toBe("?search=desk");
    act(() => controls.type("desk lamp"));
    await wait(100);
    await act(() => router.navigate(-1));
    await wait(0);
    expect(url(router)).toBe("?search=lamp");
    expect(controls.values.search).toBe("lamp");
    await wait(1_000);
    expect(url(router)).toBe("?search=lamp");
  });

  it("Back wins over what was still being typed: the address it returns to is the form", async () => {
    const router = shop("/?search=lamp");
    await wait(0);
    act(() => controls.choose("sort", "asc"));
    await wait(0);
    act(() => controls.type("lampshade"));
    await wait(100);
    await act(() => router.navigate(-1));
    await wait(0);
    expect(controls.values).toMatchObject({ search: "lamp", sort: "" });
    await wait(1_000);
    expect(url(router)).toBe("?search=lamp");
  });

  it("keeps a price the shopper is still moving when an earlier change lands", async () => {
    const router = shop();
    await wait(0);
    // The category's navigation lands while the slider is still settling.
    act(() => controls.toggle("category", "fitness", true));
    act(() => controls.slide(150));
    await wait(0);
    expect(url(router)).toBe("?category=fitness");
    expect(controls.values.range).toBe(150);
    await wait(300);
    expect(url(router)).toBe("?category=fitness&range=150");
  });

  it("keeps what is typed when an earlier change lands, and sends it after the pause", async () => {
    const router = shop();
    await wait(0);
    act(() => controls.toggle("band", "teachPro", true));
    act(() => controls.type("pen"));
    await wait(0);
    expect(controls.values.search).toBe("pen");
    await wait(300);
    expect(url(router)).toBe("?band=teachPro&search=pen");
  });

  it("Enter sends what is typed at once", async () => {
    const router = shop();
    await wait(0);
    act(() => controls.type("yoga"));
    act(() => controls.applyNow());
    await wait(0);
    expect(url(router)).toBe("?search=yoga");
  });
});
