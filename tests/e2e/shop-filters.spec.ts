import { apiCount, apiFacets, apiProducts, ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

/** The hue in degrees of a CSS colour as getComputedStyle writes it (oklch() with Tailwind 4, or rgb()). */
function hueOf(colour: string): number {
  const numbers = (colour.match(/-?[\d.]+/g) ?? []).map(Number);
  if (colour.startsWith("oklch")) return numbers[2] ?? Number.NaN;
  const [r = 0, g = 0, b = 0] = numbers.map((n) => n / 255);
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  if (delta === 0) return 0;
  const hue = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return (hue * 60 + 360) % 360;
}

test.describe("shop page filters", () => {
  test("the first page arrives with five cards, the count and the default order of the API", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Shop Category");
    await shop.expectCardsToMatchApi(request, "");
    const count = await apiCount(request, "");
    await expect(shop.summary).toHaveText(`Showing 1–5 of ${count} products`);
  });

  test("the brand choices are the catalogue's, each with its count, and filter by brand", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    const facets = await apiFacets(request, "");
    const labels = await shop.brand.group.locator("label").allInnerTexts();
    expect(labels.map((label) => label.replace(/\s+/g, " ").trim())).toEqual(
      facets.brands.map(
        (brand) => `${brand.label} ${brand.count} ${brand.count === 1 ? "product" : "products"}`,
      ),
    );
    // The demo catalogue's brands (in the owner's order, which a back-office journey may be trying out).
    expect(facets.brands.map((brand) => brand.label).sort()).toEqual([
      "Artistry",
      "BlendMaster",
      "CampSafe",
      "CycleFit",
      "TeachPro",
    ]);
    await shop.brand.choose("blendMaster");
    await shop.expectQuery("band=blendMaster");
    await shop.expectCardsToMatchApi(request, "band=blendMaster");
    await expect(shop.cards.first()).toContainText("BlendMaster");
    const count = await apiCount(request, "band=blendMaster");
    await expect(shop.summary).toHaveText(`Showing 1–5 of ${count} products`);
  });

  test("the category choices filter by category", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    const values = await shop.category.group
      .locator('input[type="checkbox"]')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(values).toEqual(["electronics", "fitness", "home appliances", "home goods", "outdoor"]);
    await shop.category.choose("home appliances");
    await shop.expectQuery("category=home+appliances");
    await shop.expectCardsToMatchApi(request, "category=home appliances");
    for (const card of await shop.cards.all()) await expect(card).toContainText("Home appliances");
  });

  test("several brands and categories at once: products of any of them, counts that ignore their own facet", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.brand.choose("campSafe");
    await shop.expectQuery("band=campSafe");
    await shop.brand.choose("cycleFit");
    await shop.expectQuery("band=campSafe&band=cycleFit");
    await shop.category.choose("outdoor");
    const query = "band=campSafe&band=cycleFit&category=outdoor";
    await shop.expectQuery(query);
    await shop.expectCardsToMatchApi(request, query);
    const facets = await apiFacets(request, query);
    await expect(shop.summary).toContainText(`of ${facets.count} products`);
    // Each brand's count is what ticking it would show within Outdoor, ticked or not.
    for (const brand of facets.brands) {
      await expect(shop.brand.option(brand.value).locator("xpath=..")).toContainText(String(brand.count));
    }
    expect(facets.brands.find((brand) => brand.value === "teachPro")?.count).toBe(
      await apiCount(request, "band=teachPro&category=outdoor"),
    );
    await shop.brand.unchoose("campSafe");
    await shop.expectQuery("band=cycleFit&category=outdoor");
    await shop.expectCardsToMatchApi(request, "band=cycleFit&category=outdoor");
  });

  test("each applied filter is a chip that removes just it; Clear all removes them all and keeps the sort", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto("band=campSafe&band=cycleFit&category=outdoor&range=100&sort=asc");
    const chips = shop.main.getByRole("link", { name: /, remove$/ });
    await expect(chips).toHaveText([
      /Brand:\s*CampSafe/,
      /Brand:\s*CycleFit/,
      /Category:\s*Outdoor/,
      /Price:\s*Up to \$100/,
    ]);
    await chips.filter({ hasText: "CampSafe" }).click();
    await shop.expectQuery("band=cycleFit&category=outdoor&range=100&sort=asc");
    await shop.brand.expectChosen(["cycleFit"]);
    await expect(shop.main.locator("#results")).toBeFocused();
    await shop.expectCardsToMatchApi(request, "band=cycleFit&category=outdoor&range=100&sort=asc");
    await shop.main.getByRole("link", { name: "Clear all" }).click();
    await shop.expectQuery("sort=asc");
    await shop.category.expectChosen([]);
    await expect(chips).toHaveCount(0);
  });

  test("no results offers the one change that brings products back, with its count", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto("band=cycleFit&category=home+goods");
    await expect(shop.main.getByRole("heading", { name: "No products match" })).toBeVisible();
    const withoutCategory = await apiCount(request, "band=cycleFit");
    const withoutBrand = await apiCount(request, "category=home goods");
    // The demo has no CycleFit home goods; the larger of the two ways back is offered.
    const [label, query, count] =
      withoutCategory >= withoutBrand
        ? ["Remove “Home goods”", "band=cycleFit", withoutCategory]
        : ["Remove “CycleFit”", "category=home+goods", withoutBrand];
    await shop.results.getByRole("link", { name: `${label}: ${count} products` }).click();
    await shop.expectQuery(query);
    await shop.expectCardsToMatchApi(request, query);
  });

  test("a price off the slider's steps or over its top comes back on it, thumb and words agreeing", async ({
    page,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto("range=47");
    await shop.expectQuery("range=45");
    await expect(shop.price).toHaveValue("45");
    await expect(shop.priceValue).toHaveText("Up to $45");
    await shop.goto("range=950");
    await shop.expectQuery("range=200");
    await expect(shop.price).toHaveValue("200");
    await expect(shop.priceValue).toHaveText("Up to $200");
  });

  test("the price slider caps the price, shows its value in words and colours it by band", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(shop.price).toHaveAttribute("min", "0");
    await expect(shop.price).toHaveAttribute("max", "200");
    await expect(shop.price).toHaveAttribute("step", "5");
    await expect(shop.price).toHaveValue("0");
    await expect(shop.priceValue).toHaveText("Any price");

    const bands = [
      { value: "45", tone: "green", hues: [120, 160] },
      { value: "50", tone: "yellow", hues: [70, 110] },
      { value: "145", tone: "yellow", hues: [70, 110] },
      { value: "150", tone: "red", hues: [0, 40] },
    ] as const;
    for (const { value, tone, hues } of bands) {
      await shop.price.fill(value);
      await expect(shop.priceValue).toHaveText(`Up to $${value}`);
      await expect(shop.priceValue).toHaveAttribute("data-tone", tone);
      await expect(shop.price).toHaveAttribute("aria-valuetext", `Up to $${value}`);
      // The badge's colour is really green, yellow or red (OKLCH hue of its background).
      const hue = hueOf(
        await shop.priceValue.evaluate((element) => getComputedStyle(element).backgroundColor),
      );
      expect(hue, `hue of the ${tone} band`).toBeGreaterThanOrEqual(hues[0]);
      expect(hue, `hue of the ${tone} band`).toBeLessThanOrEqual(hues[1]);
    }
    await shop.price.fill("45");
    await shop.expectQuery("range=45");
    const expected = await shop.expectCardsToMatchApi(request, "range=45");
    expect(expected.length).toBeGreaterThan(0);
    for (const product of await apiProducts(request, "range=45"))
      expect(product.price).toBeLessThanOrEqual(45);
  });

  test("the search box searches as the shopper types, in one history entry", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(shop.search).toHaveAttribute("placeholder", "Search Category");
    await shop.search.pressSequentially("blend", { delay: 60 });
    await shop.expectQuery("search=blend");
    await shop.expectCardsToMatchApi(request, "search=blend");
    // Typing more refines the same entry rather than piling up history.
    await shop.search.pressSequentially("er", { delay: 400 });
    await shop.expectQuery("search=blender");
    await shop.expectCardsToMatchApi(request, "search=blender");
    await page.goBack();
    await shop.expectQuery("");
    await expect(shop.search).toHaveValue("");
  });

  test("Enter in the search box searches at once", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.fill("mixer");
    await shop.search.press("Enter");
    await shop.expectQuery("search=mixer");
    await shop.expectCardsToMatchApi(request, "search=mixer");
  });

  for (const [value, label] of [
    ["dsc", "High to Low"],
    ["asc", "Low to High"],
    ["date-added", "Date Added"],
  ] as const) {
    test(`sorting ${label} orders the cards as the API does`, async ({ page, request }) => {
      const shop = new ShopPage(page);
      await shop.goto();
      await shop.sort.selectOption({ label });
      await shop.expectQuery(`sort=${value}`);
      await shop.expectCardsToMatchApi(request, `sort=${value}`);
    });
  }

  test("every control together gives the API's answer, with the state written in the address", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.brand.choose("blendMaster");
    await shop.category.choose("home appliances");
    await shop.price.fill("150");
    await shop.expectQuery("band=blendMaster&category=home+appliances&range=150");
    await shop.sort.selectOption("asc");
    await shop.search.fill("blend");
    await shop.search.press("Enter");
    const query = "band=blendMaster&category=home+appliances&range=150&search=blend&sort=asc";
    await shop.expectQuery(query);
    await shop.expectCardsToMatchApi(request, query);
    await expect(shop.summary).toContainText(`of ${await apiCount(request, query)} product`);
  });

  test("Reset filters returns to the whole catalogue and clears every control", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto("band=cycleFit&category=fitness&range=100&search=yoga&sort=dsc");
    await shop.brand.expectChosen(["cycleFit"]);
    await shop.filters.getByRole("link", { name: "Reset filters" }).click();
    await shop.expectQuery("");
    await shop.brand.expectChosen([]);
    await shop.category.expectChosen([]);
    await expect(shop.price).toHaveValue("0");
    await expect(shop.search).toHaveValue("");
    await expect(shop.sort).toHaveValue("");
    await shop.expectCardsToMatchApi(request, "");
  });

  test("no match shows an empty state whose button resets the filters", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.fill("zzzqqq");
    await shop.search.press("Enter");
    await shop.expectQuery("search=zzzqqq");
    await expect(shop.main.getByRole("heading", { name: "No products match" })).toBeVisible();
    const everything = await apiCount(request, "");
    // The status line also tells a screen reader the way out, since focus stays in the search field.
    await expect(shop.summary).toHaveText(`0 products. Remove the search “zzzqqq”: ${everything} products`);
    await expect(shop.pagination).toHaveCount(0);
    await expect(
      shop.results.getByRole("link", { name: `Remove the search “zzzqqq”: ${everything} products` }),
    ).toBeVisible();
    await shop.results.getByRole("link", { name: "Reset filters" }).click();
    await shop.expectQuery("");
    await shop.expectCardsToMatchApi(request, "");
  });
});

test.describe("a search with no word in it", () => {
  test("only punctuation or emoji matches nothing, and says how to get products back", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.search.fill("?!🔥");
    await shop.search.press("Enter");
    await shop.expectQuery("search=%3F%21%F0%9F%94%A5");
    await expect(shop.main.getByRole("heading", { name: "No products match" })).toBeVisible();
    expect(await apiCount(request, "search=?!🔥")).toBe(0);
    await expect(
      shop.results.getByRole("link", { name: /^Remove the search “\?!🔥”: \d+ products$/ }),
    ).toBeVisible();
  });
});

test.describe("shop page filters from the keyboard", () => {
  test("stepping through a closed select with the arrow keys sends one request and adds one history entry", async ({
    page,
    request,
  }) => {
    // The page's clock stands still while the keys are pressed, so the steps are one run however busy
    // the machine is (a pause of 300 ms between two key presses would rightly end the run).
    await page.clock.install();
    const shop = new ShopPage(page);
    await shop.goto();
    const dataRequests: string[] = [];
    page.on("request", (sent) => {
      if (new URL(sent.url()).pathname.endsWith(".data")) dataRequests.push(sent.url());
    });
    const historyBefore = await page.evaluate(() => history.length);
    await shop.sort.focus();
    await page.clock.pauseAt(Date.now() + 60_000);
    for (let step = 0; step < 3; step += 1) await page.keyboard.press("ArrowDown");
    await expect(shop.sort).toHaveValue("date-added");
    expect(dataRequests).toHaveLength(0);
    await page.clock.runFor(300);
    await page.clock.resume();
    await shop.expectQuery("sort=date-added");
    await shop.expectCardsToMatchApi(request, "sort=date-added");
    expect(dataRequests).toHaveLength(1);
    expect(await page.evaluate(() => history.length)).toBe(historyBefore + 1);
    // One Back returns to where the run started.
    await page.goBack();
    await shop.expectQuery("");
    await expect(shop.sort).toHaveValue("");
  });
});

test.describe("shop page when the catalogue cannot be reached", () => {
  // The browser logs the failed request itself; that is the point of these tests.
  test.use({ allowedConsoleErrors: [/Failed to load resource|ERR_INTERNET_DISCONNECTED|ERR_FAILED/] });

  for (const failure of ["offline", "a server error"] as const) {
    test(`${failure}: the filters stay, the inline error is announced, and Retry brings the results`, async ({
      page,
      request,
    }) => {
      const shop = new ShopPage(page);
      await shop.goto();
      const isData = (url: URL) => url.pathname.endsWith(".data");
      await page.route(isData, (route) =>
        failure === "offline"
          ? route.abort("internetdisconnected")
          : route.fulfill({ status: 500, contentType: "text/plain", body: "Internal Server Error" }),
      );
      await shop.category.choose("outdoor");
      await expect(page).toHaveURL(/\/\?category=outdoor$/);
      const alert = shop.main.getByRole("alert");
      await expect(alert).toContainText("We couldn't load the products");
      // Still the shop, with what the shopper chose.
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Shop Category");
      await shop.category.expectChosen(["outdoor"]);
      await expect(shop.cards).toHaveCount(0);
      // Every brand and category is still offered by its name, the chips too; no counts are claimed.
      await expect(shop.brand.group.getByRole("checkbox", { name: "CampSafe" })).toBeVisible();
      await expect(shop.category.group.getByRole("checkbox", { name: "Fitness" })).toBeVisible();
      await expect(shop.category.group).not.toContainText(/\d/);
      await expect(shop.main.getByRole("link", { name: /^Category: Outdoor/ })).toBeVisible();

      await page.unroute(isData);
      await alert.getByRole("button", { name: "Retry" }).click();
      await shop.expectCardsToMatchApi(request, "category=outdoor");
      await expect(shop.main.getByRole("alert")).toHaveCount(0);
    });
  }
});
