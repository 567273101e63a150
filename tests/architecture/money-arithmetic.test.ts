import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Money is whole minor units everywhere, and only app/commerce/ turns it into
 * or out of a decimal (money.ts, money-sql.ts): anywhere else, `* 100`,
 * `/ 100`, `parseFloat` or `toFixed(2)` on a line about money is the float
 * arithmetic the shop never does (0.29 * 100 is 28.999999999999996).
 */

const ROOTS = ["app", "server", "scripts"];
const COMMERCE = path.join("app", "commerce");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === COMMERCE ? [] : sourceFiles(full);
    return /\.(tsx?|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const FLOAT_MONEY = /([*/]\s*100\b|parseFloat\(|toFixed\(2\))/;
const ABOUT_MONEY = /price|cents|amount|total|money|dollar|minor|shipping|revenue/i;

/** The lines of `text` that do float arithmetic on money. */
function floatMoneyLines(text: string): string[] {
  return text.split("\n").filter((line) => FLOAT_MONEY.test(line) && ABOUT_MONEY.test(line));
}

describe("money arithmetic", () => {
  it("recognises float arithmetic on money, and leaves other hundreds alone", () => {
    expect(floatMoneyLines("const cents = Math.round(product.price * 100);")).toHaveLength(1);
    expect(floatMoneyLines("return `$${(totalCents / 100).toFixed(2)}`;")).toHaveLength(1);
    expect(floatMoneyLines("const dollars = parseFloat(priceText);")).toHaveLength(1);
    expect(floatMoneyLines("const percent = Math.round(done * 100);")).toEqual([]);
    expect(floatMoneyLines("const priceMinor = minorOfDecimalText(text, currency);")).toEqual([]);
  });

  it("finds none outside app/commerce/", () => {
    const found = ROOTS.flatMap((root) =>
      sourceFiles(root).flatMap((file) =>
        floatMoneyLines(fs.readFileSync(file, "utf8")).map((line) => `${file}: ${line.trim()}`),
      ),
    );
    expect(found).toEqual([]);
  });
});
