import { describe, expect, it } from "vitest";
import { isOrderToken, orderPath } from "./order-link.server";

const SECRET = "a-shop-secret-of-at-least-32-characters";

const tokenOf = (path: string) => new URL(path, "http://shop.test").searchParams.get("token") ?? "";

describe("an order's signed link", () => {
  it("is the order's page with a token only the shop's secret makes", () => {
    const path = orderPath("BL-7Q4K9", SECRET);
    expect(path).toMatch(/^\/orders\/BL-7Q4K9\?token=[A-Za-z0-9_-]{43}$/);
    expect(isOrderToken("BL-7Q4K9", tokenOf(path), SECRET)).toBe(true);
    expect(orderPath("BL-7Q4K9", SECRET)).toBe(path);
  });

  it("opens no other order, and none under another secret", () => {
    const token = tokenOf(orderPath("BL-7Q4K9", SECRET));
    expect(isOrderToken("BL-7Q4KA", token, SECRET)).toBe(false);
    expect(isOrderToken("BL-7Q4K9", token, `${SECRET}-rotated`)).toBe(false);
  });

  it("refuses a missing, shortened, lengthened or altered token", () => {
    const token = tokenOf(orderPath("BL-7Q4K9", SECRET));
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const wrong of [undefined, "", token.slice(0, -1), `${token}A`, altered, "é".repeat(43)]) {
      expect(isOrderToken("BL-7Q4K9", wrong, SECRET)).toBe(false);
    }
  });
});
