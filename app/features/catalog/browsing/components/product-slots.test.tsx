import { describe, expect, it } from "vitest";
import { BLENDER_CARD as PRODUCT } from "../../../../../tests/support/catalog-rows";
import { renderInShop } from "../../../../../tests/support/render-in-shop";
import { ProductGrid } from "./catalog-results";
import { ProductDetails } from "./product-details";

/**
 * The routes' slots for the cart (an action on every card, a buy box on the
 * product page), and the stock the page says when there is no buy box.
 */

function renderInRouter(element: React.ReactNode): string {
  return renderInShop(element);
}

describe("ProductGrid", () => {
  it("gives every card the route's action, and a fifth row to each", () => {
    const html = renderInRouter(
      <ProductGrid
        products={[PRODUCT, { ...PRODUCT, id: 8, stock: 0 }]}
        locale="en-US"
        fewLeftAt={5}
        hrefFor={(product) => `/products/${product.id}`}
        cardAction={(product) =>
          product.stock > 0 ? <button type="button">{`Add ${product.id}`}</button> : null
        }
      />,
    );
    expect(html).toContain("Add 7");
    expect(html).not.toContain("Add 8");
    expect(html.match(/<li class="row-span-5/g)).toHaveLength(2);
    expect(
      renderInRouter(<ProductGrid products={[PRODUCT]} locale="en-US" fewLeftAt={5} hrefFor={() => "/"} />),
    ).not.toContain("row-span-5");
  });
});

describe("ProductDetails", () => {
  const details = (buyBox?: React.ReactNode, stock = 2) =>
    renderInRouter(
      <ProductDetails
        product={{ ...PRODUCT, stock }}
        description="Crushes ice."
        locale="en-US"
        fewLeftAt={5}
        categoryHref="/?category=home+appliances"
        brandHref="/?band=blendMaster"
        buyBox={buyBox}
      />,
    );

  it("says the stock by the price when the route gives no buy box", () => {
    expect(details()).toContain("Only 2 left");
    expect(details(undefined, 0)).toContain("Sold out");
  });

  it("shows the route's buy box below the details instead, which says the stock itself", () => {
    const html = details(<form aria-label="Buy">Add to cart</form>);
    expect(html).toContain('<form aria-label="Buy">Add to cart</form>');
    expect(html).not.toContain("Only 2 left");
    expect(html.indexOf("Add to cart")).toBeGreaterThan(html.indexOf("</dl>"));
    expect(html.indexOf("Add to cart")).toBeLessThan(html.indexOf("Description"));
  });
});
