import type { Locator } from "@playwright/test";
import { ShopPage } from "./support/shop-page";
import { expect, test } from "./support/test";

test.describe("navbar", () => {
  test("a signed-out visitor sees the brand, Home, About, Contact, Login and Sign Up", async ({ page }) => {
    await page.goto("/about");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Backline home" })).toHaveAttribute("href", "/");
    for (const [name, href] of [
      ["Home", "/"],
      ["About", "/about"],
      ["Contact", "/contact"],
      // Login brings the visitor back to the page they were on.
      ["Login", "/login?redirectTo=%2Fabout"],
      ["Sign Up", "/sign-up"],
    ] as const) {
      await expect(nav.getByRole("link", { name, exact: true }).first()).toHaveAttribute("href", href);
    }
    await expect(nav.getByRole("link", { name: "About", exact: true }).first()).toHaveAttribute(
      "aria-current",
      "page",
    );
    await nav.getByRole("link", { name: "Contact", exact: true }).first().click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("We're here to help");
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 375, height: 812 } });

    test("the menu button opens and closes the links, with aria-expanded", async ({ page }) => {
      await page.goto("/");
      const toggle = page.getByRole("button", { name: "Menu" });
      const about = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" });
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(about).toBeHidden();

      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(about).toBeVisible();
      await expect(
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign Up" }),
      ).toBeVisible();

      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(about).toBeHidden();

      // Escape closes it and puts focus back on the button; following a link folds it away.
      await toggle.click();
      await page.keyboard.press("Tab");
      await expect(
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).last(),
      ).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(toggle).toBeFocused();
      await expect(about).toBeHidden();
      await toggle.click();
      await about.click();
      await expect(page).toHaveURL(/\/about$/);
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(about).toBeHidden();
    });
  });

  test.describe("on a phone without JavaScript", () => {
    test.use({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });

    test("the menu button still opens the links (the browser's own popover)", async ({ page }) => {
      await page.goto("/");
      const about = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" });
      await expect(about).toBeHidden();
      await page.getByRole("button", { name: "Menu" }).click();
      await expect(about).toBeVisible();
      await about.click();
      await expect(page).toHaveURL(/\/about$/);
    });
  });

  test("on a wide screen the links are shown and there is no menu button", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }),
    ).toBeVisible();
  });
});

test.describe("product grid", () => {
  for (const [width, columns] of [
    [375, 1],
    [800, 2],
    [1280, 3],
  ] as const) {
    test(`shows ${columns} column${columns > 1 ? "s" : ""} at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const shop = new ShopPage(page);
      await shop.goto();
      await expect(shop.cards).toHaveCount(5);
      // Cards in the first row share a top edge; count them.
      const tops = await shop.cards.evaluateAll((cards) =>
        cards.map((card) => card.getBoundingClientRect().top),
      );
      expect(tops.filter((top) => Math.abs(top - (tops[0] ?? 0)) < 1)).toHaveLength(columns);
      // And nothing overflows sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }

  test("cards show picture, date added, name, brand, category, price and rating", async ({
    page,
    request,
  }) => {
    const shop = new ShopPage(page);
    await shop.goto("sort=asc");
    const response = await request.get("/all-products?sort=asc&size=1");
    const [cheapest] = (await response.json()) as {
      name: string;
      price: number;
      ratings: number;
      ratingCount: number;
      creationDate: string;
    }[];
    if (!cheapest) throw new Error("empty catalogue");
    const card = shop.cards.first();
    await expect(card.getByRole("img", { name: cheapest.name })).toBeVisible();
    await expect(card.getByRole("heading", { level: 3 })).toHaveText(cheapest.name);
    await expect(card).toContainText(`$${cheapest.price.toFixed(2)}`);
    // The mean of its reviews, with their count; a product nobody has reviewed says so.
    await expect(card).toContainText(
      cheapest.ratingCount > 0
        ? `Rated ${cheapest.ratings.toFixed(1)} out of 5 from ${cheapest.ratingCount} review`
        : "No reviews yet",
    );
    await expect(card.locator("time")).toHaveAttribute("datetime", cheapest.creationDate);
    const image = card.getByRole("img", { name: cheapest.name });
    await expect(image).toHaveAttribute("width", "800");
    await expect(image).toHaveAttribute("height", "600");
    await expect(image).toHaveAttribute("loading", "eager");
    await expect(shop.cards.nth(4).getByRole("img")).toHaveAttribute("loading", "lazy");
  });
});

test.describe("product cards in a row", () => {
  for (const width of [800, 1280]) {
    test(`line their names up at ${width} px, even when one card's category label takes two lines`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const shop = new ShopPage(page);
      await shop.goto();
      // An owner's category can be named at length: the first card gets such a label.
      await shop.cards
        .first()
        .getByText("Category:")
        .evaluate((label) => {
          const chip = label.parentElement as HTMLElement;
          chip.lastChild?.replaceWith("Home appliances and kitchen electricals");
        });
      const boxes = await shop.cards.evaluateAll((cards) =>
        cards.map((card) => ({
          top: card.getBoundingClientRect().top,
          name: card.querySelector("h3")?.getBoundingClientRect().top ?? Number.NaN,
        })),
      );
      const firstRow = boxes.filter((box) => Math.abs(box.top - (boxes[0]?.top ?? 0)) < 1);
      expect(firstRow.length).toBeGreaterThan(1);
      const nameTops = firstRow.map((box) => box.name);
      expect(Math.max(...nameTops) - Math.min(...nameTops), `names at ${nameTops.join(", ")}`).toBeLessThan(
        1,
      );
    });
  }
});

test.describe("star ratings", () => {
  /** How each half of each of a card's five stars looks: the fill of what is drawn there. */
  function starHalves(card: Locator) {
    return card.evaluate((element) => {
      const looks: string[] = [];
      // The card's only pictures drawn in SVG: five stars (and, over them, the filled part).
      for (const star of [...element.querySelectorAll("svg")].slice(0, 5)) {
        const box = star.getBoundingClientRect();
        for (const x of [box.left + box.width * 0.3, box.left + box.width * 0.7]) {
          const drawn = document.elementFromPoint(x, box.top + box.height * 0.55);
          if (!drawn) throw new Error("nothing drawn on the star");
          const style = getComputedStyle(drawn);
          looks.push(`${style.fill} ${style.stroke}`);
        }
      }
      return looks;
    });
  }

  for (const forcedColors of ["none", "active"] as const) {
    test(`show full, half and empty stars apart with forced colours ${forcedColors}, and say the rating in words`, async ({
      page,
      request,
    }) => {
      await page.emulateMedia({ forcedColors });
      const shop = new ShopPage(page);
      await shop.goto("sort=asc");
      const products = (await (await request.get("/all-products?sort=asc&size=5")).json()) as {
        ratings: number;
        ratingCount: number;
      }[];
      // A rating of n and a half, from reviews: n full stars, a half, the rest empty.
      const index = products.findIndex(
        ({ ratings, ratingCount }) => ratingCount > 0 && (Math.round(ratings * 2) / 2) % 1 === 0.5,
      );
      const rating = products[index]?.ratings ?? 0;
      expect(index, "a product rated n and a half on the page").toBeGreaterThanOrEqual(0);
      const card = shop.cards.nth(index);
      await card.scrollIntoViewIfNeeded();
      await expect(card).toContainText(`Rated ${rating.toFixed(1)} out of 5`);
      const halves = await starHalves(card);
      const filledHalves = Math.round(rating * 2);
      const full = halves.slice(0, filledHalves);
      const empty = halves.slice(filledHalves);
      expect(new Set(full).size, "every filled half looks alike").toBe(1);
      expect(new Set(empty).size, "every empty half looks alike").toBe(1);
      expect(full[0], "filled and empty halves look different").not.toBe(empty[0]);
    });
  }
});

test.describe("footer", () => {
  test("carries the brand, tagline, contact, links, blog topics, products and social icons", async ({
    page,
  }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "Backline home" })).toHaveAttribute("href", "/");
    await expect(footer).toContainText("31,000+ members");
    await expect(footer.locator("address")).toContainText("Portland");
    await expect(footer.getByRole("link", { name: /@backline/ })).toHaveAttribute("href", /^mailto:/);

    for (const [name, href] of [
      ["Home", "/"],
      ["Sign Up", "/sign-up"],
      ["Login", "/login"],
    ] as const) {
      await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
    // Blog topics and product names have no pages: plain text, never dead links.
    for (const text of ["Tech", "Music", "Videos", "BlendMaster Pro 900 Blender", "CycleFit Running Shoes"]) {
      await expect(footer.getByText(text, { exact: true })).toBeVisible();
      await expect(footer.getByRole("link", { name: text, exact: true })).toHaveCount(0);
    }

    const social = footer.getByRole("list", { name: "Backline elsewhere" }).getByRole("listitem");
    await expect(social).toHaveCount(3);
    const external = footer.locator('a[target="_blank"]');
    await expect(external).toHaveCount(2);
    for (const link of await external.all()) {
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
      await expect(link).toHaveAttribute("href", /^https:\/\//);
    }
    expect(await footer.evaluate((element) => getComputedStyle(element).maxWidth)).toBe("2520px");
  });
});

test.describe("pages", () => {
  test("About and Contact are real pages with their own titles", async ({ page }) => {
    await page.goto("/about");
    await expect(page).toHaveTitle("About | Backline");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.goto("/contact");
    await expect(page).toHaveTitle("Contact | Backline");
    await expect(page.getByRole("link", { name: /@backline/ }).first()).toHaveAttribute("href", /^mailto:/);
  });

  test.describe("an unknown address", () => {
    // Chromium reports the document's own 404 status on the console.
    test.use({ allowedConsoleErrors: [/status of 404/] });

    test("gets a real 404 page with a way home", async ({ page }) => {
      const response = await page.goto("/no-such-page");
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle("Page not found | Backline");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
      await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
      await page.getByRole("main").getByRole("link", { name: "Back to the shop" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Our Shop Category");
    });
  });

  test("the shop page has a title, description, Open Graph tags, canonical URL, favicon and language", async ({
    page,
  }) => {
    await page.goto("/?band=artistry&search=lamp&page=1&sort=asc");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page).toHaveTitle(/Artistry .*Backline/);
    const head = page.locator("head");
    await expect(head.locator('meta[name="description"]')).toHaveAttribute("content", /.{50,}/);
    await expect(head.locator('meta[property="og:title"]')).toHaveAttribute("content", /Backline/);
    await expect(head.locator('meta[property="og:description"]')).toHaveAttribute("content", /.+/);
    await expect(head.locator('meta[property="og:type"]')).toHaveAttribute("content", "website");
    const origin = new URL(page.url()).origin;
    await expect(head.locator('link[rel="canonical"]')).toHaveAttribute("href", `${origin}/?band=artistry`);
    await expect(head.locator('meta[property="og:url"]')).toHaveAttribute(
      "content",
      `${origin}/?band=artistry`,
    );
    await expect(head.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
    expect((await page.request.get("/favicon.svg")).status()).toBe(200);
  });
});
