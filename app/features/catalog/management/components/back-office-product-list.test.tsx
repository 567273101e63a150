import { describe, expect, it } from "vitest";
import { renderInShop } from "../../../../../tests/support/render-in-shop";
import { parseCatalogQuery } from "../../core/catalog-schema";
import { BackOfficeProductList } from "./back-office-product-list";

/** The list as /admin/products?… would show it, rendered inside a router. */
function renderList(address: string): string {
  const parsed = parseCatalogQuery(new URL(address, "http://shop.test").searchParams);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const listing = {
    query: parsed.value,
    lowStock: false,
    lowStockAt: 5,
    products: [],
    hasNextPage: false,
    brands: [{ value: "blendMaster", label: "BlendMaster" }],
    categories: [{ value: "fitness", label: "Fitness" }],
  };
  // React marks where text parts meet with empty comments: the text a reader sees has none.
  return renderInShop(
    <BackOfficeProductList listing={listing} search={new URL(address, "http://shop.test").search} />,
    address,
  ).replaceAll("<!-- -->", "");
}

/** The `<select>` labelled `label`: its options' texts and the one chosen. */
function selectNamed(html: string, label: string) {
  const id = html.match(new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}</label>`))?.[1];
  if (!id) throw new Error(`no label "${label}"`);
  const select = html.match(new RegExp(`<select[^>]*id="${id}"[^>]*>(.*?)</select>`))?.[1];
  if (!select) throw new Error(`no select for "${label}"`);
  const options = [...select.matchAll(/<option[^>]*value="([^"]*)"([^>]*)>([^<]*)<\/option>/g)];
  return {
    texts: options.map((option) => option[3]?.replaceAll("&#x27;", "'")),
    chosen: options.find((option) => option[2]?.includes("selected"))?.[3],
  };
}

describe("the back office's product list", () => {
  it("offers its orders under 'Sort by', each named for what it does, the shop's own first", () => {
    const sort = selectNamed(renderList("/admin/products"), "Sort by");
    expect(sort.texts).toEqual([
      "The shop's order: best match, then best rated",
      "Price: high to low",
      "Price: low to high",
      "Newest first",
      "Best rated first",
    ]);
  });

  it("shows the order the address names as chosen", () => {
    expect(selectNamed(renderList("/admin/products?sort=date-added"), "Sort by").chosen).toBe("Newest first");
  });
});
