import type { Page } from "@playwright/test";
import sharp from "sharp";
import { signInAsOwner } from "./support/back-office";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * An owner runs the catalogue from the back office (issue 24): adds a
 * product with a picture and finds it in the shop, changes its price and
 * the shop shows the new one, archives it and the shop no longer has it.
 * Every products page passes axe and stays inside a 390 px phone screen.
 */

/** A small picture made for the test: a red 4:3 PNG. */
const picture = () =>
  sharp({ create: { width: 120, height: 90, channels: 3, background: "#b91c1c" } })
    .png()
    .toBuffer();

/** Whether the page scrolls sideways (it must not: the tables scroll inside their frames). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test.describe("products in the back office", () => {
  // A shop page of an archived product is a 404, and the browser says so in the console.
  test.use({ allowedConsoleErrors: [/the server responded with a status of 404/] });

  test("an owner adds a product with a picture, changes its price and archives it, and the shop follows", async ({
    page,
  }) => {
    const name = `Test Kettle ${Date.now().toString(36)}`;
    await signInAsOwner(page, "/admin/products");
    await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "New product" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New product" })).toBeVisible();
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    await expectNoAxeViolations(page);
    // A form sent half filled names what is missing, and the focus goes to the first of them.
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByLabel("Name")).toBeFocused();
    await expect(page.getByText("Name is required.")).toBeVisible();

    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Brand").selectOption({ index: 1 });
    await page.getByLabel("Category").selectOption({ index: 1 });
    await page.getByLabel("Price").fill("12.34");
    await page.getByLabel("Stock").fill("7");
    await page.getByLabel("Description").fill("Boils a litre in two minutes.");
    await page
      .getByLabel("Picture")
      .setInputFiles({ name: "kettle.png", mimeType: "image/png", buffer: await picture() });
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText("Product created.")).toBeVisible();
    const adminUrl = page.url();
    await expectNoAxeViolations(page);

    // In the shop: its page, with its picture in the shop's sizes, and in a search.
    await page.getByRole("link", { name: "See it in the shop" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByText("$12.34").first()).toBeVisible();
    await expect(page.locator(`img[src^="/pictures/"]`).first()).toBeVisible();
    const shopUrl = page.url();
    await page.goto(`/?search=${encodeURIComponent(name)}`);
    await expect(page.getByRole("link", { name, exact: true }).first()).toBeVisible();

    // A new price, and the shop says it.
    await gotoInteractive(page, adminUrl);
    await page.getByLabel("Price").fill("9.87");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Product saved.")).toBeVisible();
    await page.goto(shopUrl);
    await expect(page.getByText("$9.87").first()).toBeVisible();

    // Archived: gone from the shop, still in the back office, marked in words.
    await gotoInteractive(page, adminUrl);
    await page.getByRole("button", { name: "Archive" }).click();
    await expect(page.getByText("Product archived: the shop no longer shows it.")).toBeVisible();
    expect((await page.goto(shopUrl))?.status()).toBe(404);
    await page.goto(`/?search=${encodeURIComponent(name)}`);
    await expect(page.getByRole("status").filter({ hasText: /^0 products/ })).toBeVisible();
    await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
    await page.goto(`/admin/products?search=${encodeURIComponent(name)}`);
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row.getByText("Archived")).toBeVisible();
  });

  test("the products pages pass axe and fit a 390 px phone", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsOwner(page, "/admin/products");
    for (const path of [
      "/admin/products",
      "/admin/products?stock=low",
      "/admin/products/new",
      "/admin/products/brands-and-categories",
    ]) {
      await gotoInteractive(page, path);
      expect(await scrollsSideways(page), path).toBe(false);
      await expectNoAxeViolations(page);
    }
    await gotoInteractive(page, "/admin/products");
    await page.getByRole("table").getByRole("link").first().click();
    await expect(page.getByRole("button", { name: "Save" })).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
    await expectNoAxeViolations(page);
  });

  test.describe("its SKU", () => {
    // The taken SKU's refusal is a 409, which the browser reports in the console.
    test.use({ allowedConsoleErrors: [/the server responded with a status of (404|409)/] });

    test("a new product takes the SKU typed; a SKU another product has is refused next to the field", async ({
      page,
    }) => {
      const stamp = Date.now().toString(36);
      const fill = async (name: string, sku: string) => {
        await page.getByLabel("Name").fill(name);
        await page.getByLabel("SKU").fill(sku);
        await page.getByLabel("Brand").selectOption({ index: 1 });
        await page.getByLabel("Category").selectOption({ index: 1 });
        await page.getByLabel("Price").fill("5");
        await page
          .getByLabel("Picture")
          .setInputFiles({ name: "mug.png", mimeType: "image/png", buffer: await picture() });
        await page.getByRole("button", { name: "Save" }).click();
      };
      await signInAsOwner(page, "/admin/products/new");
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      await fill(`SKU Mug ${stamp}`, `MUG-${stamp}`);
      await expect(page.getByRole("heading", { level: 1, name: `SKU Mug ${stamp}` })).toBeVisible();
      await expect(page.getByText(`SKU MUG-${stamp}`)).toBeVisible();
      await expect(page.getByLabel("SKU")).toHaveValue(`MUG-${stamp}`);

      await gotoInteractive(page, "/admin/products/new");
      await fill(`SKU Cup ${stamp}`, `MUG-${stamp}`);
      const sku = page.getByLabel("SKU");
      await expect(sku).toBeFocused();
      await expect(sku).toHaveAttribute("aria-invalid", "true");
      await expect(sku).toHaveAccessibleDescription(
        new RegExp(
          `Another product has the SKU MUG-${stamp}: SKU Mug ${stamp}\\. Each product's SKU must be unique\\.`,
        ),
      );
      await expectNoAxeViolations(page);
      // Archived, so the shop's catalogue is as the other journeys expect it.
      await page.goto(`/admin/products?search=${encodeURIComponent(`SKU Mug ${stamp}`)}`);
      await page.getByRole("link", { name: `SKU Mug ${stamp}` }).click();
      await page.getByRole("button", { name: "Archive" }).click();
      await expect(page.getByText("Product archived: the shop no longer shows it.")).toBeVisible();
    });
  });

  test("a picture dropped on the Picture field becomes the form's file", async ({ page }) => {
    await signInAsOwner(page, "/admin/products/new");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const field = page.getByLabel("Picture");
    const zone = field.locator("xpath=ancestor::div[contains(@class, 'border-dashed')]");
    // What a browser hands a page when a file is dropped on it.
    await zone.evaluate((element) => {
      const dropped = new DataTransfer();
      dropped.items.add(new File(["not checked until saved"], "dropped.png", { type: "image/png" }));
      element.dispatchEvent(
        new DragEvent("drop", { dataTransfer: dropped, bubbles: true, cancelable: true }),
      );
    });
    await expect(page.getByText("Chosen: dropped.png.")).toBeVisible();
    expect(await field.evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe("dropped.png");
  });

  test("brands and categories are reordered with buttons, by keyboard", async ({ page }) => {
    await signInAsOwner(page, "/admin/products/brands-and-categories");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const brands = page.getByRole("table", { name: /^Brands/ });
    const values = () => brands.locator("tbody tr td:first-child").allTextContents();
    // The page after the login's redirect: its rows are read once they are there.
    await expect(brands.locator("tbody tr").nth(1)).toBeVisible();
    const [first, second] = await values();
    const secondLabel = await brands.getByRole("textbox").nth(1).inputValue();
    await page.getByRole("button", { name: `Move ${secondLabel} up` }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main").getByText("Moved up.")).toBeVisible();
    await expect.poll(async () => (await values()).slice(0, 2)).toEqual([second, first]);
    // Put back, so the shop's order is as it was.
    await page.getByRole("button", { name: `Move ${secondLabel} down` }).click();
    await expect.poll(async () => (await values()).slice(0, 2)).toEqual([first, second]);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a product is created, repriced and archived by the plain forms", async ({ page }) => {
      const name = `Plain Form Lamp ${Date.now().toString(36)}`;
      await signInAsOwner(page, "/admin/products/new");
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Brand").selectOption({ index: 1 });
      await page.getByLabel("Category").selectOption({ index: 1 });
      await page.getByLabel("Price").fill("30");
      await page.getByLabel("Stock").fill("4");
      await page
        .getByLabel("Picture")
        .setInputFiles({ name: "lamp.png", mimeType: "image/png", buffer: await picture() });
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByRole("img", { name: /as the shop shows it now/ })).toHaveAttribute(
        "src",
        /^\/pictures\//,
      );

      await page.getByLabel("Price").fill("77.77");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByLabel("Price")).toHaveValue("77.77");
      // Archived again, so the shop's catalogue is as the other journeys expect it.
      await page.getByRole("button", { name: "Archive" }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Archived" })).toBeVisible();
    });
  });
});
