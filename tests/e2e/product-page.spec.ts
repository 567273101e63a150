import { apiProducts, ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

test.describe("a product's own page", () => {
  test("a card opens it; it shows the whole product; the breadcrumb leads back to the same listing", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    const listing = "band=campSafe&sort=asc&page=2";
    await shop.goto(listing);
    const [product] = await apiProducts(request, listing);
    if (!product) throw new Error("the demo catalogue has no second page of CampSafe products");
    await shop.cards.first().getByRole("link", { name: product.name }).click();
    await expect(page).toHaveURL((url) => /^\/products\/\d+-[a-z0-9-]+$/.test(url.pathname));
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText(product.name);
    await expect(heading).toBeFocused();
    const main = page.getByRole("main");
    await expect(main).toContainText("$");
    await expect(main).toContainText("CampSafe");
    await expect(main.getByRole("heading", { name: "Description" })).toBeVisible();
    await expect(main.locator("dl time")).toHaveAttribute("datetime", product.creationDate);
    await expect(main.getByRole("list", { name: /^More in / }).getByRole("listitem")).not.toHaveCount(0);

    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.locator('[aria-current="page"]')).toHaveText(product.name);
    await breadcrumb.getByRole("link", { name: "Shop" }).click();
    await shop.expectQuery(listing);
    await shop.brand.expectChosen(["campSafe"]);
    await shop.expectCardsToMatchApi(request, listing);
  });

  test("tells search engines what it sells: canonical address, Open Graph, Product JSON-LD", async ({
    page,
    request,
  }) => {
    const [product] = await apiProducts(request, "sort=rating");
    if (!product) throw new Error("the demo catalogue is empty");
    await page.goto(`/products/${product.id}`);
    // The bare id moved to the address with the product's name.
    await expect(page).toHaveURL(new RegExp(`/products/${product.id}-[a-z0-9-]+$`));
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(canonical).toBe(page.url());
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "product");
    // A raster picture, as link previews need, served by the shop.
    const image = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(image).toMatch(/^http.*\/images\/products\/[a-z0-9-]+\.jpg$/);
    const picture = await request.get(new URL(image ?? "").pathname);
    expect(picture.status()).toBe(200);
    expect(picture.headers()["content-type"]).toBe("image/jpeg");
    const structured = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? "",
    );
    expect(structured).toMatchObject({
      "@type": "Product",
      name: product.name,
      url: canonical,
      offers: { "@type": "Offer", price: product.price.toFixed(2), priceCurrency: "USD" },
      aggregateRating: { "@type": "AggregateRating", ratingValue: expect.any(String) },
    });
  });

  for (const width of [320, 390, 1280]) {
    test(`shows the whole picture at ${width} px, nothing of it cropped or stretched`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const [product] = await apiProducts(request, "band=artistry");
      if (!product) throw new Error("the demo catalogue has no Artistry product");
      await page.goto(`/products/${product.id}`);
      const picture = page.getByRole("main").getByRole("img", { name: product.name, exact: true });
      await expect(picture).toHaveJSProperty("complete", true);
      const shown = await picture.evaluate((image: HTMLImageElement) => {
        const { objectFit } = getComputedStyle(image);
        const box = image.getBoundingClientRect();
        const boxRatio = box.width / box.height;
        const pictureRatio = image.naturalWidth / image.naturalHeight;
        // `contain` shows all of the picture in any box; `cover` and `fill` only in a box of its shape.
        const share =
          objectFit === "contain" || objectFit === "scale-down"
            ? 1
            : Math.min(boxRatio / pictureRatio, pictureRatio / boxRatio);
        return { share, left: box.left, right: box.right };
      });
      expect(shown.share, "the share of the picture in view").toBeGreaterThan(0.99);
      expect(shown.left).toBeGreaterThanOrEqual(0);
      expect(shown.right).toBeLessThanOrEqual(width);
    });
  }

  test.describe("that is not there", () => {
    test.use({ allowedConsoleErrors: [/status of 404/] });

    test("is a real 404 with a way back to the shop", async ({ page }) => {
      const response = await page.goto("/products/987654-no-such-thing");
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Product not found");
      await page.getByRole("link", { name: "Back to the shop" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Shop Category");
    });
  });

  test("sitemap.xml lists every product page, and robots.txt points to it", async ({ request }) => {
    const sitemap = await (await request.get("/sitemap.xml")).text();
    const [first] = await apiProducts(request, "");
    expect(sitemap).toContain(`/products/${first?.id}-`);
    const count = ((await (await request.get("/counts")).json()) as { count: number }).count;
    expect(sitemap.match(/\/products\/\d+-/g)).toHaveLength(count);
    expect(await (await request.get("/robots.txt")).text()).toMatch(/^Sitemap: http.*\/sitemap\.xml$/m);
  });
});

test.describe("a product's page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the card is a plain link, and the page is rendered whole by the server", async ({
    page,
    request,
  }) => {
    await page.goto("/?category=outdoor");
    const [product] = await apiProducts(request, "category=outdoor");
    await page.getByRole("link", { name: product?.name }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product?.name ?? "");
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Shop" }).click();
    await expect(page).toHaveURL((url) => url.search === "?category=outdoor");
  });
});
