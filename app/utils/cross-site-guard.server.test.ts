import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./cross-site-guard.server";

const SHOP = "https://shop.example";
const crossSite = (method: string, headers: Record<string, string>) =>
  isCrossSiteRequest({ method, headers }, SHOP);

describe("isCrossSiteRequest", () => {
  it("never blocks reads", () => {
    expect(crossSite("GET", { "sec-fetch-site": "cross-site" })).toBe(false);
    expect(crossSite("HEAD", { origin: "https://evil.example" })).toBe(false);
  });

  it("blocks a POST, PUT or DELETE that a browser marks cross-site or same-site", () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      expect(crossSite(method, { "sec-fetch-site": "cross-site" })).toBe(true);
      expect(crossSite(method, { "sec-fetch-site": "same-site" })).toBe(true);
    }
  });

  it("allows same-origin requests and ones the user typed", () => {
    expect(crossSite("POST", { "sec-fetch-site": "same-origin", origin: SHOP })).toBe(false);
    expect(crossSite("POST", { "sec-fetch-site": "none" })).toBe(false);
  });

  it("compares Origin with the shop's own origin, scheme and port included", () => {
    expect(crossSite("POST", { origin: SHOP })).toBe(false);
    expect(crossSite("POST", { origin: "https://evil.example" })).toBe(true);
    expect(crossSite("POST", { origin: "https://shop.example.evil.example" })).toBe(true);
    expect(crossSite("POST", { origin: "http://shop.example" })).toBe(true);
    expect(crossSite("POST", { origin: "https://shop.example:8443" })).toBe(true);
    expect(crossSite("POST", { origin: "null" })).toBe(true);
    expect(crossSite("POST", { origin: "not a url" })).toBe(true);
  });

  it("refuses a mismatched Origin even when Fetch Metadata says same-origin", () => {
    expect(crossSite("POST", { "sec-fetch-site": "same-origin", origin: "https://evil.example" })).toBe(true);
  });

  it("lets non-browser clients (no Origin, no Fetch Metadata) through", () => {
    expect(crossSite("PUT", {})).toBe(false);
  });
});
