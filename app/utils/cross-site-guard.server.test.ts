import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./cross-site-guard.server";

const request = (method: string, headers: Record<string, string>) => ({
  method,
  headers: { host: "shop.example", ...headers },
});

describe("isCrossSiteRequest", () => {
  it("never blocks reads", () => {
    expect(isCrossSiteRequest(request("GET", { "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isCrossSiteRequest(request("HEAD", { origin: "https://evil.example" }))).toBe(false);
  });

  it("blocks a POST, PUT or DELETE that a browser marks cross-site or same-site", () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      expect(isCrossSiteRequest(request(method, { "sec-fetch-site": "cross-site" }))).toBe(true);
      expect(isCrossSiteRequest(request(method, { "sec-fetch-site": "same-site" }))).toBe(true);
    }
  });

  it("allows same-origin requests and ones the user typed", () => {
    expect(
      isCrossSiteRequest(
        request("POST", { "sec-fetch-site": "same-origin", origin: "https://shop.example" }),
      ),
    ).toBe(false);
    expect(isCrossSiteRequest(request("POST", { "sec-fetch-site": "none" }))).toBe(false);
  });

  it("without Fetch Metadata, compares Origin with Host", () => {
    expect(isCrossSiteRequest(request("POST", { origin: "https://shop.example" }))).toBe(false);
    expect(isCrossSiteRequest(request("POST", { origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteRequest(request("POST", { origin: "https://shop.example.evil.example" }))).toBe(true);
    expect(isCrossSiteRequest(request("POST", { origin: "null" }))).toBe(true);
  });

  it("lets non-browser clients (no Origin, no Fetch Metadata) through", () => {
    expect(isCrossSiteRequest(request("PUT", {}))).toBe(false);
  });
});
