import { describe, expect, it } from "vitest";
import { centsOfDollarsText, formatCents } from "./money";

describe("money", () => {
  it("reads dollars written as text into whole cents, without a float on the way", () => {
    expect(centsOfDollarsText("4.99")).toBe(499);
    expect(centsOfDollarsText("50")).toBe(5000);
    expect(centsOfDollarsText("0.1")).toBe(10);
    expect(centsOfDollarsText("1.05")).toBe(105);
    // 0.29 * 100 is 28.999999999999996 as a float.
    expect(centsOfDollarsText("0.29")).toBe(29);
  });

  it("writes cents as a shopper reads them", () => {
    expect(formatCents(123450)).toBe("$1,234.50");
    expect(formatCents(0)).toBe("$0.00");
  });
});
