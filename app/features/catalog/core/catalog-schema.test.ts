import { describe, expect, it } from "vitest";
import { parseCatalogFilters, parseCatalogQuery } from "./catalog-schema";

const parse = (query: string) => parseCatalogQuery(new URLSearchParams(query));

describe("parseCatalogQuery", () => {
  it("defaults to page 1 of 5 with no filters and no sort", () => {
    expect(parse("")).toEqual({ ok: true, value: { page: 1, size: 5, sort: undefined } });
  });

  it("reads every parameter", () => {
    expect(
      parse("page=3&size=20&sort=dsc&search=%20Blend%20&category=fitness&band=cycleFit&range=100"),
    ).toEqual({
      ok: true,
      value: {
        page: 3,
        size: 20,
        sort: "dsc",
        search: "Blend",
        category: ["fitness"],
        band: ["cycleFit"],
        range: 100,
      },
    });
  });

  it("treats empty values, as a GET form sends them, as not given", () => {
    expect(parse("page=&size=&sort=&search=&category=&band=&range=")).toEqual({
      ok: true,
      value: { page: 1, size: 5, sort: undefined },
    });
  });

  it("treats range=0 as no price limit", () => {
    expect(parse("range=0")).toEqual({ ok: true, value: { page: 1, size: 5, sort: undefined } });
  });

  it("ignores parameters it does not know", () => {
    expect(parse("utm_source=mail&_=123").ok).toBe(true);
  });

  it.each([
    ["page=abc", "page", "page must be a whole number from 1 to 1000000."],
    ["page=0", "page", "page must be a whole number from 1 to 1000000."],
    ["page=-1", "page", "page must be a whole number from 1 to 1000000."],
    ["page=1.5", "page", "page must be a whole number from 1 to 1000000."],
    ["page=1000001", "page", "page must be a whole number from 1 to 1000000."],
    ["size=0", "size", "size must be a whole number from 1 to 100."],
    ["size=101", "size", "size must be a whole number from 1 to 100."],
    ["size=5000", "size", "size must be a whole number from 1 to 100."],
    ["sort=sideways", "sort", "sort must be one of dsc, asc, date-added, rating."],
    ["sort=ASC", "sort", "sort must be one of dsc, asc, date-added, rating."],
    [`search=${"a".repeat(101)}`, "search", "search must be at most 100 characters."],
    ["range=abc", "range", "range must be a price of 0 or more, such as 50 or 49.99."],
    ["range=-5", "range", "range must be a price of 0 or more, such as 50 or 49.99."],
    ["range=1e3", "range", "range must be a price of 0 or more, such as 50 or 49.99."],
    ["page=1&page=2", "page", "page must be given at most once."],
    [`category=${"x".repeat(101)}`, "category", "category must be at most 100 characters."],
    ["category=%00", "category", "category must not contain control characters."],
    ["band=camp%0ASafe", "band", "band must not contain control characters."],
    ["band=a&band=camp%0ASafe", "band", "band must not contain control characters."],
    [`${"band=x&".repeat(21)}`, "band", "band may be given at most 20 times."],
    ["search=tent%00", "search", "search must not contain control characters."],
  ])("refuses %s, naming %s", (query, field, message) => {
    expect(parse(query)).toEqual({ ok: false, error: { code: "invalid_parameter", field, message } });
  });

  it("accepts a search of exactly 100 characters", () => {
    expect(parse(`search=${"a".repeat(100)}`).ok).toBe(true);
  });
});

describe("parseCatalogFilters", () => {
  it("reads the filters and ignores paging and sort", () => {
    expect(parseCatalogFilters(new URLSearchParams("page=abc&sort=sideways&band=artistry"))).toEqual({
      ok: true,
      value: { band: ["artistry"] },
    });
  });

  it("reads a repeated brand or category as several, merged and in one order", () => {
    expect(
      parseCatalogFilters(
        new URLSearchParams("band=cycleFit&band=campSafe&band=&band=cycleFit&category=outdoor"),
      ),
    ).toEqual({ ok: true, value: { band: ["campSafe", "cycleFit"], category: ["outdoor"] } });
  });

  it("refuses a malformed range", () => {
    expect(parseCatalogFilters(new URLSearchParams("range=cheap"))).toMatchObject({
      ok: false,
      error: { field: "range" },
    });
  });
});
