import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PageListItem, pageList } from "./page-list";

/** "1 2 3 4 5 … 13" — how the bar reads. */
function render(items: PageListItem[]): string {
  return items.map((item) => (item.type === "page" ? String(item.page) : "…")).join(" ");
}

describe("pageList", () => {
  it("lists every page when they fit in seven slots", () => {
    expect(render(pageList(1, 1))).toBe("1");
    expect(render(pageList(3, 7))).toBe("1 2 3 4 5 6 7");
  });

  it("is empty when there are no pages", () => {
    expect(pageList(1, 0)).toEqual([]);
  });

  it("shortens a long list with an ellipsis on the far side of the current page", () => {
    expect(render(pageList(1, 13))).toBe("1 2 3 4 5 … 13");
    expect(render(pageList(4, 13))).toBe("1 2 3 4 5 … 13");
    expect(render(pageList(13, 13))).toBe("1 … 9 10 11 12 13");
    expect(render(pageList(10, 13))).toBe("1 … 9 10 11 12 13");
  });

  it("puts ellipses on both sides in the middle of a long list", () => {
    expect(render(pageList(5, 13))).toBe("1 … 4 5 6 … 13");
    expect(render(pageList(500, 20_000))).toBe("1 … 499 500 501 … 20000");
  });

  it("clamps a current page outside the list", () => {
    expect(render(pageList(99, 13))).toBe("1 … 9 10 11 12 13");
  });

  it("always shows the first, last and current page, in order, in at most seven slots, with no one-page ellipsis", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), (total, seed) => {
        const current = ((seed - 1) % total) + 1;
        const items = pageList(current, total);
        const pages = items.flatMap((item) => (item.type === "page" ? [item.page] : []));
        expect(items.length).toBeLessThanOrEqual(7);
        expect(pages).toContain(1);
        expect(pages).toContain(total);
        expect(pages).toContain(current);
        expect([...pages].sort((a, b) => a - b)).toEqual(pages);
        items.forEach((item, index) => {
          if (item.type !== "ellipsis") return;
          const before = items[index - 1];
          const after = items[index + 1];
          if (before?.type !== "page" || after?.type !== "page") throw new Error("an ellipsis between pages");
          expect(after.page - before.page).toBeGreaterThan(2);
        });
      }),
    );
  });
});
