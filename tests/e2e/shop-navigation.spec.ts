import { apiProducts, ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

test.describe("the address is the shop's state", () => {
  test("Back and Forward restore the previous filters, controls and results", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await shop.brand.choose("cycleFit");
    await shop.expectQuery("band=cycleFit");
    await shop.category.choose("fitness");
    await shop.expectQuery("band=cycleFit&category=fitness");
    await shop.pageLink(2).click();
    await shop.expectQuery("band=cycleFit&category=fitness&page=2");

    await page.goBack();
    await shop.expectQuery("band=cycleFit&category=fitness");
    await page.goBack();
    await shop.expectQuery("band=cycleFit");
    await shop.brand.expectChosen(["cycleFit"]);
    await shop.category.expectChosen([]);
    await shop.expectCardsToMatchApi(request, "band=cycleFit");

    await page.goBack();
    await shop.expectQuery("");
    await shop.brand.expectChosen([]);
    await shop.expectCardsToMatchApi(request, "");

    await page.goForward();
    await shop.expectQuery("band=cycleFit");
    await shop.brand.expectChosen(["cycleFit"]);
    await shop.expectCardsToMatchApi(request, "band=cycleFit");
  });

  test("a shared URL is rendered complete by the server, cards included", async ({ page, request }) => {
    const query = "band=blendMaster&category=home+appliances&range=150&search=blend&sort=asc";
    const expected = (await apiProducts(request, query)).map((product) => product.name);
    expect(expected.length).toBeGreaterThan(0);

    const response = await request.get(`/?${query}`);
    expect(response.status()).toBe(200);
    // The search's matches are marked inside the names: read the names without the marks.
    const html = (await response.text()).replace(/<\/?mark[^>]*>/g, "");
    for (const name of expected) expect(html).toContain(`>${name}</a></h3>`);

    const shop = new ShopPage(page);
    await shop.goto(query);
    await shop.expectCardsToMatchApi(request, query);
    await shop.brand.expectChosen(["blendMaster"]);
    await shop.category.expectChosen(["home appliances"]);
    await expect(shop.price).toHaveValue("150");
    await expect(shop.search).toHaveValue("blend");
    await expect(shop.sort).toHaveValue("asc");
  });

  test("filters update the results in place: no reload, no scroll jump", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    const shop = new ShopPage(page);
    await shop.goto();
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
      window.scrollTo(0, 260);
    });
    // Ticked from the keyboard: a click would first scroll the box into view itself.
    const box = shop.brand.option("teachPro");
    await box.evaluate((element) => (element as HTMLElement).focus({ preventScroll: true }));
    const where = async () => ({
      scrolled: await page.evaluate(() => window.scrollY),
      boxTop: Math.round((await box.boundingBox())?.y ?? Number.NaN),
    });
    const before = await where();
    expect(before.scrolled).toBeGreaterThan(0);
    await page.keyboard.press("Space");
    await shop.expectQuery("band=teachPro");
    await shop.expectCardsToMatchApi(request, "band=teachPro");
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    // What the shopper looks at stays put. (The page may scroll by the height of the filter chips that
    // appear above the results: the browser's scroll anchoring keeps what is on screen where it was.)
    const after = await where();
    expect(after.boxTop).toBe(before.boxTop);
    expect(after.scrolled).toBeGreaterThanOrEqual(before.scrolled);
    await expect(box).toBeFocused();
  });

  test("results are marked busy while they load, and nothing animates once they are in", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    // The loading bar's sweep (not the fades, which are transitions and end by themselves).
    const barSweeping = () =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter(
              (a) =>
                a instanceof CSSAnimation &&
                a.animationName === "progress-sweep" &&
                a.playState === "running",
            ).length,
      );
    await expect.poll(barSweeping).toBe(0);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\.data\?.*band=campSafe/, async (route) => {
      await held;
      await route.continue();
    });
    await shop.brand.choose("campSafe");
    await expect(shop.results).toHaveAttribute("aria-busy", "true");
    await expect.poll(barSweeping).toBe(1);
    release();
    await shop.expectQuery("band=campSafe");
    await expect(shop.results).toHaveAttribute("aria-busy", "false");
    await expect.poll(barSweeping).toBe(0);
  });

  test("a slow, stale answer never overwrites a newer one", async ({ page, request }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    // The first request (TeachPro) is held back until after the later ones (none, then Outdoor) have answered.
    let releaseFirst: () => void = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    await page.route(/\.data\?.*band=teachPro/, async (route) => {
      await firstHeld;
      await route.continue().catch(() => {});
    });
    // The stale request's end: its answer arrives, or the router abandons it (it fails) — whichever comes.
    const isStale = (staleRequest: { url(): string }) => /band=teachPro/.test(staleRequest.url());
    const staleOver = Promise.race([
      page.waitForEvent("requestfinished", isStale),
      page.waitForEvent("requestfailed", isStale),
    ]);
    await shop.brand.choose("teachPro");
    await expect(shop.results).toHaveAttribute("aria-busy", "true");
    // The shopper changes their mind before TeachPro's answer comes.
    await shop.brand.unchoose("teachPro");
    await shop.category.choose("outdoor");
    await shop.expectQuery("category=outdoor");
    const expected = await shop.expectCardsToMatchApi(request, "category=outdoor");
    releaseFirst();
    await staleOver;
    await expect(shop.results).toHaveAttribute("aria-busy", "false");
    expect(await shop.cardNames()).toEqual(expected);
    await expect(page).toHaveURL((url) => url.search === "?category=outdoor");
    await shop.brand.expectChosen([]);
  });

  test.describe("a malformed address", () => {
    // Chromium reports the document's own 400 status on the console.
    test.use({ allowedConsoleErrors: [/status of 400/] });

    test("gets 400 and a page that says what is wrong, with a way back", async ({ page }) => {
      const response = await page.goto("/?page=abc");
      expect(response?.status()).toBe(400);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has filters we can't read");
      await expect(page.getByRole("main")).toContainText("page must be a whole number");
      await page.getByRole("main").getByRole("link", { name: "Reset filters" }).click();
      await expect(page).toHaveURL((url) => url.pathname === "/" && url.search === "");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Shop Category");
    });
  });

  test("dates are written the shopper's way, the same on the server and in a browser far from UTC (no hydration mismatch)", async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ timezoneId: "Pacific/Kiritimati", locale: "de-DE" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const shop = new ShopPage(page);
    await shop.goto("sort=date-added");
    const [newest] = await apiProducts(request, "sort=date-added");
    // Written the German shopper's way, on the UTC calendar date (the same on the server and in Kiritimati).
    const expected = new Intl.DateTimeFormat("de-DE", { dateStyle: "medium", timeZone: "UTC" }).format(
      new Date(newest?.creationDate ?? ""),
    );
    await expect(shop.cards.first().locator("time")).toHaveText(expected);
    // Interact so hydration has certainly finished, then check React reported nothing.
    await shop.brand.choose("artistry");
    await shop.expectQuery("band=artistry&sort=date-added");
    // A client-side render writes dates the same way.
    await expect(shop.cards.first().locator("time")).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(errors).toEqual([]);
    await context.close();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filters are a plain form with a submit button, and pagination still works", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await page.goto("/");
    await shop.expectCardsToMatchApi(request, "");
    await shop.brand.choose("cycleFit");
    await shop.price.fill("100");
    await shop.sort.selectOption("dsc");
    await page.getByRole("button", { name: "Apply filters" }).click();
    // Empty fields are tidied away by a redirect.
    await expect(page).toHaveURL((url) => url.search === "?band=cycleFit&range=100&sort=dsc");
    await shop.expectCardsToMatchApi(request, "band=cycleFit&range=100&sort=dsc");
    await shop.brand.expectChosen(["cycleFit"]);

    await shop.pageLink(2).click();
    await expect(page).toHaveURL((url) => url.search === "?band=cycleFit&range=100&sort=dsc&page=2");
    await shop.expectCardsToMatchApi(request, "band=cycleFit&range=100&sort=dsc&page=2");
  });
});

test.describe("without JavaScript, the sort has a button of its own", () => {
  test.use({ javaScriptEnabled: false });

  // On a phone "Apply filters" is in the closed sheet; on a desktop at the foot of the filters.
  for (const width of [390, 1280]) {
    test(`choosing a sort and pressing its button sorts the listing, filters kept (${width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const shop = new ShopPage(page);
      await page.goto("/?category=outdoor");
      await shop.sort.selectOption("asc");
      await shop.main.getByRole("button", { name: "Sort", exact: true }).click();
      await expect(page).toHaveURL((url) => url.search === "?category=outdoor&sort=asc");
      await expect(shop.sort).toHaveValue("asc");
      await shop.expectCardsToMatchApi(request, "category=outdoor&sort=asc");
    });
  }
});

test.describe("with JavaScript", () => {
  test("there is no Apply filters button: every change applies by itself", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.goto();
    await expect(page.getByRole("button", { name: "Apply filters" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Sort", exact: true })).toHaveCount(0);
  });
});
