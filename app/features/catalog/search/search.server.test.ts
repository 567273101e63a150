import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemoCatalog } from "~/db/seed/seed.server";
import { openTestDatabases, reportPostgresSkipped } from "../../../../tests/support/test-database";
import { type Catalog, createCatalog } from "../browsing/catalog.server";
import type { CatalogQuery } from "../core/catalog-schema";
import { readSearchVocabulary } from "./vocabulary-read.server";

/** Search as shoppers type it, on the demo catalogue, on each database engine. */
const engines = await openTestDatabases();

describe.each(engines)("search that finds what shoppers mean, on $name", (engine) => {
  let catalog: Catalog;

  beforeAll(async () => {
    await seedDemoCatalog(engine.db);
    catalog = createCatalog(engine.db, { cacheSeconds: 0 });
  });

  const found = async (search: string, rest: Partial<CatalogQuery> = {}) =>
    (await catalog.findProducts({ page: 1, size: 100, search, ...rest })).value.map(
      (product) => product.name,
    );
  const counted = async (search: string) => (await catalog.countProducts({ search })).value.count;

  it("reads the catalogue's words as written, letters and digits only, the most used first", async () => {
    const { words } = await readSearchVocabulary(engine.db);
    expect(words).toEqual(expect.arrayContaining(["blender", "headphones", "yoga", "mat", "blendmaster"]));
    expect(words.every((word) => /^[\p{L}\p{N}]+$/u.test(word))).toBe(true);
    // No stems: "headphon" is how the English stemmer stores it, not a word a shopper reads.
    expect(words).not.toContain("headphon");
    expect(words.indexOf("blendmaster")).toBeLessThan(words.indexOf("blender"));
  });

  it("forgives typos: 'blendr', 'headphnes' and 'yoga mta' find what was meant", async () => {
    // The blenders come first; "blend" (a wool blend) is one typo away too, and ranks below them.
    const blenders = await found("blendr");
    expect(blenders.slice(0, 3).every((name) => /\bBlender\b/.test(name))).toBe(true);
    expect(blenders.slice(0, 3)).toEqual(expect.arrayContaining(await found("blender")));
    expect(await found("headphnes")).toEqual(["TeachPro Wireless Headphones"]);
    expect(await found("yoga mta")).toEqual(["CycleFit Yoga Mat Pro"]);
    expect(await counted("yoga mta")).toBe(1);
  });

  it("finds the end of a compound word: 'phones' finds 'Headphones'", async () => {
    expect(await found("phones")).toContain("TeachPro Wireless Headphones");
    expect(await found("wireless phones")).toEqual(["TeachPro Wireless Headphones"]);
  });

  it("keeps exact searches as they were: prefixes, stems, every word required", async () => {
    expect(await found("blendmas")).toHaveLength(await counted("blendmaster"));
    expect(await found("mixers")).toEqual(expect.arrayContaining(["BlendMaster Hand Mixers Duo"]));
    expect(await found("yoga blender")).toEqual([]);
  });

  it("counts a corrected search in the facets as in the listing", async () => {
    const facets = (await catalog.listingFacets({ search: "headphnes" })).value;
    expect(facets.count).toBe(1);
    expect(facets.categories.find((choice) => choice.value === "electronics")?.count).toBe(1);
  });

  it("offers 'Did you mean' for a search too far off to forgive, with what it finds", async () => {
    const meant = await catalog.didYouMean({ search: "blxndxr" });
    expect(meant).toEqual({ search: "blender", count: await counted("blender") });
    expect(await found("blxndxr")).toEqual([]);
    // Known words that do not go together: there is no spelling to offer.
    expect(await catalog.didYouMean({ search: "yoga blender" })).toBeNull();
    // A respelling that the other filters leave empty is not offered.
    expect(await catalog.didYouMean({ search: "blxndxr", band: ["teachPro"] })).toBeNull();
  });

  it("does not respell a plural the stemmer already finds", async () => {
    expect(await catalog.searchWords("tents")).toEqual([{ typed: "tents", alike: [], corrected: false }]);
    expect(await found("tents")).toEqual(await found("tent"));
  });

  it("matches each word as typed while the vocabulary cannot be read, instead of failing", async () => {
    const withoutWords = createCatalog(
      engine.db,
      { cacheSeconds: 0 },
      { readSearchVocabulary: () => Promise.reject(new Error("vocabulary read timed out")) },
    );
    const blend = (await withoutWords.findProducts({ page: 1, size: 100, search: "blend" })).value;
    expect(blend.length).toBe(await counted("blend"));
    expect((await withoutWords.findProducts({ page: 1, size: 100, search: "blendr" })).value).toEqual([]);
  });

  it("reads a new word after the catalogue changed and was cleared", async () => {
    await engine.db.execute(sql`
      insert into products (name, description, image, price_minor, ratings, band_name, category, creation_date)
      values ('CampSafe Hammock', 'Sleeps above wet ground.', '/images/products/x.svg', 4000, 4, 'campSafe', 'outdoor', now())`);
    catalog.clear();
    expect(await found("hamock")).toEqual(["CampSafe Hammock"]);
    await engine.db.execute(sql`delete from products where name = 'CampSafe Hammock'`);
    catalog.clear();
  });
});

reportPostgresSkipped("search that finds what shoppers mean on $name");
