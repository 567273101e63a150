import { describe, expect, it } from "vitest";
import { formatDate, productCount } from "./catalog-format";

describe("catalogue formatting", () => {
  it("writes dates in UTC, so the server and every browser agree", () => {
    // 23:30 UTC is already the next day east of Greenwich and still the same day west of it.
    expect(formatDate("2025-03-04T23:30:00.000Z", "en-US")).toBe("Mar 4, 2025");
    expect(formatDate("2025-03-05T00:10:00.000Z", "en-US")).toBe("Mar 5, 2025");
  });

  it("writes dates the shopper's way", () => {
    expect(formatDate("2025-03-04T12:00:00.000Z", "de-DE")).toBe("04.03.2025");
    expect(formatDate("2025-03-04T12:00:00.000Z", "en-GB")).toBe("4 Mar 2025");
  });

  it("counts products in words", () => {
    expect(productCount(0)).toBe("0 products");
    expect(productCount(1)).toBe("1 product");
    expect(productCount(100_000)).toBe("100,000 products");
  });
});
