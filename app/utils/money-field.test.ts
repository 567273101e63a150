import { describe, expect, it } from "vitest";
import { amountField, amountText } from "./money-field";

const read = (currency: string, typed: string) =>
  amountField("Price", currency, { most: 99_999_999 }).safeParse(typed);

describe("an amount typed in the shop's currency", () => {
  it.each([
    ["USD", "4.99", 499],
    ["USD", "$1,250.5", 125_050],
    ["USD", "0.29", 29],
    ["EUR", "12,50 €".replace(",", "."), 1250],
    ["JPY", "1250", 1250],
    ["JPY", "¥1,250", 1250],
    ["KWD", "1.250", 1250],
  ])("%s %s is %i minor units", (currency, typed, minor) => {
    expect(read(currency, typed)).toMatchObject({ success: true, data: minor });
  });

  it("refuses more decimals than the currency has, saying what it takes", () => {
    const yen = read("JPY", "12.5");
    expect(yen.success).toBe(false);
    expect(yen.error?.issues[0]?.message).toBe("Enter the price in JPY, like 499.");
    expect(read("USD", "4.999").error?.issues[0]?.message).toBe("Enter the price in dollars, like 4.99.");
    expect(read("KWD", "x").error?.issues[0]?.message).toBe("Enter the price in KWD, like 4.990.");
    expect(read("USD", "four dollars").error?.issues[0]?.message).toBe(
      "Enter the price in dollars, like 4.99.",
    );
    expect(read("USD", "$").error?.issues[0]?.message).toBe("Enter the price in dollars, like 4.99.");
  });

  it("refuses an amount past the field's most, written in its currency", () => {
    const over = amountField("Standard shipping", "JPY", { most: 100_000 }).safeParse("100001");
    expect(over.error?.issues[0]?.message).toBe("The standard shipping can be at most 100000.");
  });

  it("shows an amount in the field as its decimal, without sign or separators", () => {
    expect(amountText(123_450, "USD")).toBe("1234.50");
    expect(amountText(1250, "JPY")).toBe("1250");
    expect(amountText(1250, "KWD")).toBe("1.250");
  });
});
