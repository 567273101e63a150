import { signInAsOwner } from "./support/back-office";
import { expectNoAxeViolations, gotoInteractive } from "./support/page-checks";
import { expect, test } from "./support/test";

/**
 * The back office's catalogue import (issue 24): the owner uploads a file
 * with a bad line and sees it named by its line number before anything is
 * written; then a good file, confirms it, follows it to the result, and the
 * new product is on the shop. axe reports nothing on the pages on the way.
 */

const HEADER =
  "sku,name,description,price,stock,rating,brand,brand_label,category,category_label,created,image";

function csv(lines: string[]) {
  return {
    name: "lanterns.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`${HEADER}\n${lines.join("\n")}\n`),
  };
}

test("an owner imports a file: a bad line is named by its number, a good file is imported and shown on the shop", async ({
  page,
}) => {
  const run = Date.now().toString(36);
  const name = `Trailhead Lantern ${run}`;
  const row = (sku: string, productName: string, price: string, description = "Bright all night.") =>
    // The demo catalogue's own brand and category: the shop's other journeys expect its five of each.
    `${sku},${productName},${description},${price},7,4.5,campSafe,CampSafe,outdoor,Outdoor,2026-05-01T10:00:00.000Z,`;
  // Rows with long descriptions make this file larger than the shop's 32 KiB for other forms.
  const long = (at: number) =>
    row(`E2E-${run}-L${at}`, `${name} Spare ${at}`, "9.00", "Glows. ".repeat(1_400));
  await signInAsOwner(page, "/admin/products/import");
  await gotoInteractive(page, "/admin/products/import");
  await expectNoAxeViolations(page);

  // A file with a bad price on its third line (the header is line 1): named, and nothing written.
  await page
    .getByLabel("Catalogue file")
    .setInputFiles(
      csv([
        row(`E2E-${run}-1`, name, "24.50"),
        row(`E2E-${run}-2`, `${name} Mini`, "twelve"),
        long(1),
        long(2),
        long(3),
        long(4),
      ]),
    );
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page).toHaveURL(/\/admin\/products\/import\/[0-9a-f-]{36}$/);
  const badLines = page.getByRole("region", { name: /Bad lines/ });
  await expect(badLines.getByRole("listitem")).toHaveText([/^Line 3, price: price must be an amount/]);
  await expect(
    page.getByRole("checkbox", { name: /Leave out the 1 bad line and import the 5 good rows/ }),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // The fixed file: its dry run, then Confirm, then the progress (or at once the result), then the result.
  await gotoInteractive(page, "/admin/products/import");
  await page
    .getByLabel("Catalogue file")
    .setInputFiles(csv([row(`E2E-${run}-1`, name, "24.50"), row(`E2E-${run}-2`, `${name} Mini`, "12.00")]));
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByRole("region", { name: /What importing it changes/ })).toContainText(
    "New products: 2",
  );
  await expect(page.getByRole("region", { name: /Bad lines/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Confirm the import" }).click();
  const result = page.getByRole("region", { name: "Import finished" });
  await expect(page.getByRole("progressbar").or(result)).toBeVisible();
  await expect(result).toBeVisible({ timeout: 20_000 });
  await expect(result.getByRole("definition").first()).toHaveText("2");
  await expectNoAxeViolations(page);

  // The shop shows it (the catalogue learns of the import at its commit).
  await expect(async () => {
    await page.goto(`/?search=${encodeURIComponent(name)}`);
    await expect(page.getByRole("heading", { name, exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
});
