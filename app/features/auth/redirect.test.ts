import { describe, expect, it } from "vitest";
import { loginPath, publicPageAfterLogOut, safeRedirectPath } from "./redirect";

describe("safeRedirectPath", () => {
  it.each([
    ["/", "/"],
    ["/about", "/about"],
    ["/?search=blender&page=2", "/?search=blender&page=2"],
    ["/contact#form", "/contact#form"],
    ["/a/../about", "/about"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    ["//evil.example", "protocol-relative"],
    ["///evil.example", "triple slash"],
    ["/\\evil.example", "backslash after the slash"],
    ["/\\/evil.example", "backslash then slash"],
    ["\\\\evil.example", "two backslashes"],
    ["http://evil.example/", "absolute http"],
    ["https://evil.example/", "absolute https"],
    ["javascript:alert(1)", "javascript URL"],
    ["evil.example", "no leading slash"],
    ["about", "relative path"],
    ["/\t/evil.example", "tab that browsers drop"],
    ["/\n/evil.example", "newline that browsers drop"],
    [" /about", "leading space"],
    ["", "empty"],
    [`/${"a".repeat(3000)}`, "too long"],
    // Paths that only become another site once normalised: judged after normalisation.
    ["/.//evil.example", "dot segment before a double slash"],
    ["/..//evil.example", "dot-dot segment before a double slash"],
    ["/%2e%2e//evil.example", "encoded dot-dot before a double slash"],
    ["/%2E//evil.example/path?q=1", "encoded dot before a double slash"],
    ["/a/..//evil.example", "a segment climbed out of into a double slash"],
  ])("rejects %s (%s) with the fallback", (input) => {
    expect(safeRedirectPath(input)).toBe("/");
    expect(safeRedirectPath(input, "/account")).toBe("/account");
  });

  it("rejects values that are not strings", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined)).toBe("/");
    expect(safeRedirectPath(["/about"])).toBe("/");
  });
});

describe("loginPath", () => {
  it("carries the page to come back to", () => {
    expect(loginPath("/?category=fitness")).toBe("/login?redirectTo=%2F%3Fcategory%3Dfitness");
  });
  it("leaves out the home page, the account pages and anything unsafe", () => {
    expect(loginPath("/")).toBe("/login");
    expect(loginPath("/sign-up")).toBe("/login");
    expect(loginPath("//evil.example")).toBe("/login");
    expect(loginPath("/.//evil.example")).toBe("/login");
  });
});

describe("publicPageAfterLogOut", () => {
  it("stays on a public page, filters and all", () => {
    expect(publicPageAfterLogOut("/about")).toBe("/about");
    expect(publicPageAfterLogOut("/?category=fitness&page=2")).toBe("/?category=fitness&page=2");
  });
  it("goes home from a page only a signed-in shopper may see, or from anything unsafe", () => {
    expect(publicPageAfterLogOut("/verify-email")).toBe("/");
    expect(publicPageAfterLogOut("/account?tab=sessions")).toBe("/");
    expect(publicPageAfterLogOut("/account/")).toBe("/");
    expect(publicPageAfterLogOut("//evil.example")).toBe("/");
    expect(publicPageAfterLogOut(null)).toBe("/");
  });
  it("does not mistake a public page whose name starts like a private one", () => {
    expect(publicPageAfterLogOut("/accountancy-books")).toBe("/accountancy-books");
  });
});
