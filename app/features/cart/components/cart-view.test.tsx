import { describe, expect, it } from "vitest";
import { renderInShop } from "../../../../tests/support/render-in-shop";
import type { CartLine } from "../cart-schema";
import { CartView } from "./cart-view";

const LINE: CartLine = {
  productId: 7,
  variantId: 70,
  name: "BlendMaster Pro 900 Blender",
  sku: "BM-900",
  options: {},
  image: "/images/products/blendmaster-pro-900-blender.svg",
  unitPriceCents: 8_999,
  quantity: 1,
  lineTotalCents: 8_999,
  stock: 3,
  priceChanged: false,
};

/** /cart's lines as the server renders them, with the owner's few-left line. */
function cartHtml(line: CartLine, fewLeftAt: number, taxIncluded = true): string {
  return renderInShop(
    <CartView
      lines={[line]}
      fewLeftAt={fewLeftAt}
      taxIncluded={taxIncluded}
      hrefFor={() => "/products/7-blendmaster-pro-900-blender"}
      pictureFor={(shown) => ({ src: shown.image })}
    />,
    "/cart",
  );
}

describe("CartView's note on tax", () => {
  it("says prices include tax where they do, and that tax comes at checkout where it is added", () => {
    expect(cartHtml(LINE, 5, true)).toContain("Prices include tax.");
    expect(cartHtml(LINE, 5, false)).toContain("Tax calculated at checkout");
    expect(cartHtml(LINE, 5, false)).not.toContain("Prices include tax");
  });
});

describe("CartView's notes on stock", () => {
  it("says how many are left from the owner's line down, as the catalogue does", () => {
    expect(cartHtml(LINE, 5)).toContain("Only 3 left.");
    expect(cartHtml(LINE, 3)).toContain("Only 3 left.");
    expect(cartHtml(LINE, 2)).not.toContain("Only 3 left");
    expect(cartHtml(LINE, 0)).not.toContain("Only 3 left");
  });

  it("says a line asks for more than is left whatever the line", () => {
    const html = cartHtml({ ...LINE, quantity: 4, lineTotalCents: 35_996 }, 0);
    expect(html).toContain("Only 3 left: lower the quantity to check out.");
    expect(cartHtml({ ...LINE, stock: 0 }, 0)).toContain("Sold out since you added it");
  });
});
