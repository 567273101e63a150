import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { Pagination } from "./pagination";

function render(page: number, totalPages: number): string {
  const Stub = createRoutesStub([
    {
      path: "/",
      // biome-ignore lint/correctness/noComponentHookFactories: a one-off test route around the component under test
      Component: () => (
        <Pagination
          page={page}
          totalPages={totalPages}
          hrefFor={(n) => `/?page=${n}`}
          label="Product pages"
        />
      ),
    },
  ]);
  return renderToString(<Stub initialEntries={["/"]} />);
}

describe("Pagination", () => {
  it("disables Previous on the first page and links Next", () => {
    const html = render(1, 13);
    expect(html).toMatch(/<a role="link" aria-disabled="true"[^>]*>.*Previous/s);
    expect(html).toMatch(/<a[^>]*href="\/\?page=2"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="\/\?page=2"/);
  });

  it("disables Next on the last page", () => {
    const html = render(13, 13);
    expect(html).toMatch(/<a role="link" aria-disabled="true"[^>]*>.*Next/s);
    expect(html).not.toContain('rel="next"');
  });

  it("highlights the current page with aria-current and shortens long lists", () => {
    const html = render(5, 13);
    expect(html).toMatch(/aria-current="page"[^>]*>5</);
    expect(html.match(/…/g)?.length).toBe(2);
    expect(html).toContain('aria-label="Page 13"');
  });

  it("renders nothing for a single page", () => {
    expect(render(1, 1)).not.toContain("nav");
  });
});
