import { describe, expect, it } from "vitest";
import { shopperLocale } from "./locale.server";

const asking = (acceptLanguage?: string) =>
  shopperLocale(
    new Request(
      "http://shop.test/",
      acceptLanguage ? { headers: { "accept-language": acceptLanguage } } : {},
    ),
  );

describe("shopperLocale", () => {
  it("takes the browser's first language, by weight", () => {
    expect(asking("de-DE,de;q=0.9,en;q=0.8")).toBe("de-DE");
    expect(asking("en;q=0.5, fr-CA")).toBe("fr-CA");
  });

  it("falls back to the shop's en-US without a usable language", () => {
    expect(asking()).toBe("en-US");
    expect(asking("*")).toBe("en-US");
    expect(asking("")).toBe("en-US");
  });

  it("skips tags Intl cannot take instead of failing on them", () => {
    expect(asking("x-ÿ-not-a-tag, 12345678901, ja-JP")).toBe("ja-JP");
    expect(asking("a".repeat(5_000))).toBe("en-US");
  });
});
