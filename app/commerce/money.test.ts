import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocateMoney,
  compareMoney,
  decimalAmount,
  decimalText,
  formatMoney,
  formatWholeAmount,
  isCurrencyCode,
  minorAtMost,
  minorDigitsOf,
  minorOfDecimalText,
  money,
  sumMoney,
  timesQuantity,
  wholeUnitsOf,
} from "./money";

// Intl writes a no-break space (U+00A0) or a narrow one (U+202F) between amount and sign in many locales.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("a currency's minor unit", () => {
  it.each([
    ["JPY", 0],
    ["USD", 2],
    ["EUR", 2],
    ["KWD", 3],
  ])("%s has %i decimals", (currency, digits) => {
    expect(minorDigitsOf(currency)).toBe(digits);
  });

  it("knows ISO 4217 codes and nothing else", () => {
    expect(isCurrencyCode("EUR")).toBe(true);
    expect(isCurrencyCode("eur")).toBe(false);
    expect(isCurrencyCode("XYZ1")).toBe(false);
    expect(isCurrencyCode("__proto__")).toBe(false);
  });
});

describe("allocating an amount", () => {
  const currencies = fc.constantFrom("USD", "JPY", "KWD");
  const amounts = fc.integer({ min: -1e12, max: 1e12 });
  const weights = fc.array(fc.integer({ min: 0, max: 1e9 }), { minLength: 1, maxLength: 12 });

  it("gives parts that add up to the whole, to the minor unit, for any amount and weights", () => {
    fc.assert(
      fc.property(currencies, amounts, weights, (currency, minor, parts) => {
        fc.pre(parts.some((weight) => weight > 0));
        const shares = allocateMoney(money(minor, currency), parts);
        expect(shares).toHaveLength(parts.length);
        expect(sumMoney(currency, shares)).toEqual(money(minor, currency));
        for (const share of shares) expect(Number.isSafeInteger(share.minor)).toBe(true);
      }),
    );
  });

  it("keeps each part within one minor unit of its exact share, and a part of weight 0 gets nothing", () => {
    fc.assert(
      fc.property(amounts, weights, (minor, parts) => {
        const total = parts.reduce((sum, weight) => sum + weight, 0);
        fc.pre(total > 0);
        const shares = allocateMoney(money(minor, "USD"), parts);
        parts.forEach((weight, index) => {
          const exact = (BigInt(minor) * BigInt(weight) * 1000n) / BigInt(total);
          const given = BigInt(shares[index]?.minor ?? 0) * 1000n;
          expect(given - exact <= 1000n && exact - given <= 1000n).toBe(true);
          if (weight === 0) expect(shares[index]?.minor).toBe(0);
        });
      }),
    );
  });

  it("splits 10.00 three ways as 3.34, 3.33, 3.33 (the first takes the leftover cent on a tie)", () => {
    expect(allocateMoney(money(1000, "USD"), [1, 1, 1]).map((share) => share.minor)).toEqual([334, 333, 333]);
    expect(allocateMoney(money(-1000, "USD"), [1, 1, 1]).map((share) => share.minor)).toEqual([
      -334, -333, -333,
    ]);
  });
});

describe("arithmetic", () => {
  it("adds and multiplies in whole minor units, and refuses to mix currencies", () => {
    expect(timesQuantity(money(1999, "USD"), 3)).toEqual(money(5997, "USD"));
    expect(sumMoney("EUR", [money(1, "EUR"), money(2, "EUR")])).toEqual(money(3, "EUR"));
    expect(() => sumMoney("EUR", [money(1, "USD")])).toThrow(TypeError);
    expect(() => money(0.5, "USD")).toThrow(RangeError);
    expect(compareMoney(money(100, "JPY"), money(99, "JPY"))).toBe(1);
  });
});

describe("amounts as text", () => {
  it("writes the decimal from the integer's digits and reads it back the same, in every currency", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("USD", "JPY", "KWD"),
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        (currency, minor) => {
          const text = decimalText(money(minor, currency));
          expect(minorOfDecimalText(text, currency)).toBe(minor);
        },
      ),
    );
  });

  it.each([
    ["USD", 1250, "12.50"],
    ["USD", 5, "0.05"],
    ["USD", -5, "-0.05"],
    ["JPY", 1250, "1250"],
    ["KWD", 1250, "1.250"],
  ])("%s %i is %s", (currency, minor, text) => {
    expect(decimalText(money(minor, currency))).toBe(text);
  });

  it("refuses more decimals than the currency has", () => {
    expect(minorOfDecimalText("12.5", "JPY")).toBeUndefined();
    expect(minorOfDecimalText("12", "JPY")).toBe(12);
    expect(minorOfDecimalText("1.2345", "KWD")).toBeUndefined();
    expect(minorOfDecimalText("1.5", "USD")).toBe(150);
    // 0.29 * 100 is 28.999999999999996 as a float: read as text, it is 29.
    expect(minorOfDecimalText("0.29", "USD")).toBe(29);
    expect(minorOfDecimalText("1e3", "USD")).toBeUndefined();
  });

  it("gives the API its decimal number exactly", () => {
    expect(decimalAmount(money(1999, "USD"))).toBe(19.99);
    expect(decimalAmount(money(9_999_999_999, "USD"))).toBe(99_999_999.99);
  });
});

describe("formatting for the shop's locale", () => {
  it.each([
    ["en-US", "USD", 123450, "$1,234.50"],
    ["de-DE", "EUR", 1250, "12,50 €"],
    ["ja-JP", "JPY", 1250, "￥1,250"],
    ["en-US", "JPY", 1250, "¥1,250"],
    ["en-US", "KWD", 1250, "KWD 1.250"],
  ])("%s %s %i reads %s", (locale, currency, minor, expected) => {
    expect(plain(formatMoney(money(minor, currency), locale))).toBe(expected);
  });

  it("writes 0-, 2- and 3-decimal currencies with exactly their minor unit's decimals", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(["JPY", 0], ["USD", 2], ["EUR", 2], ["KWD", 3]),
        fc.integer({ min: 0, max: 1e15 }),
        ([currency, digits], minor) => {
          const written = formatMoney(money(minor, currency as string), "en-US");
          const decimals = /\.(\d+)/.exec(written)?.[1] ?? "";
          expect(decimals.length).toBe(digits);
          // The digits written are the amount's own, none lost to a float.
          expect(written.replace(/\D/g, "")).toBe(String(minor).padStart((digits as number) + 1, "0"));
        },
      ),
    );
  });

  it("writes a whole step of the price slider without decimals", () => {
    expect(formatWholeAmount(150, "USD", "en-US")).toBe("$150");
    expect(plain(formatWholeAmount(150, "EUR", "de-DE"))).toBe("150 €");
  });
});

describe("a price cap in minor units", () => {
  it.each([
    [49.99, "USD", 4999],
    [0.29, "USD", 29],
    [50, "USD", 5000],
    [49.99, "JPY", 49],
    [1.5, "KWD", 1500],
    [0, "USD", 0],
    [1_000_000, "USD", 100_000_000],
  ])("%d %s allows at most %i minor units", (amount, currency, minor) => {
    expect(minorAtMost(amount, currency)).toBe(minor);
  });

  it("is the cap's own digits for every two-decimal amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => {
        const amount = Number(decimalText(money(cents, "USD")));
        expect(minorAtMost(amount, "USD")).toBe(cents);
      }),
    );
  });
});

describe("whole units", () => {
  it("drops the minor part, in any currency", () => {
    expect(wholeUnitsOf(money(123_456, "USD"))).toBe(1234);
    expect(wholeUnitsOf(money(123_456, "JPY"))).toBe(123_456);
    expect(wholeUnitsOf(money(99, "USD"))).toBe(0);
  });
});
