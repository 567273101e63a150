import { describe, expect, it } from "vitest";
import { type RandomSource, randomSource } from "../../../../tests/support/random-source";
import type { CatalogQuery, FacetCell, Product } from "../core/catalog-schema";
import { SORT_VALUES } from "../core/catalog-vocabulary";
import { cardOf, productOfCard } from "./card-shelf";
import type { CatalogIndex, IndexedProductRow, IndexedSearch } from "./catalog-index.server";
import { CatalogIndexBuilder } from "./index-builder.server";
import { LiveIndex } from "./index-changes.server";
import type { VariantRows } from "./index-types";

/**
 * The index with its changes applied must answer exactly what an index read
 * afresh from the changed catalogue answers: every order, filter, search,
 * page and facet count, after rounds of price and rating changes, renamed,
 * moved, deleted and added products (a brand the index never had among them).
 */

const WORDS = ["lamp", "lantern", "blender", "blend", "mat", "yoga", "tent", "kettle", "pro", "mini"];
const BRANDS = ["lumen", "campSafe", "blendMaster"];
const CATEGORIES = ["outdoor", "fitness", "home"];

function row(id: number, random: RandomSource, brands = BRANDS): IndexedProductRow {
  const name = [random.pick(WORDS), random.pick(WORDS), ...(random.chance(0.3) ? [random.pick(WORDS)] : [])];
  const description = [random.pick(WORDS), random.pick(WORDS)];
  const priceMinor = random.pick([500, 999, 1950, 4999, 5000, 12000]);
  const ratingTenths = random.int(6) * 10;
  // Few dates: ties in every order are common, and broken by the id as the SQL does.
  const createdMicros = Date.UTC(2026, 0, 1 + random.int(5)) * 1000;
  const product: Product = {
    id,
    name: name.join(" "),
    image: "/images/products/p.svg",
    price: priceMinor / 100,
    priceMax: priceMinor / 100,
    variantCount: 1,
    compareAtPrice: null,
    ratings: ratingTenths / 10,
    ratingCount: ratingTenths === 0 ? 0 : 1 + random.int(20),
    bandName: random.pick(brands),
    category: random.pick(CATEGORIES),
    creationDate: new Date(createdMicros / 1000).toISOString(),
    description: description.join(" "),
  };
  return {
    id,
    bandName: product.bandName,
    category: product.category,
    card: cardOf(product),
    priceMinor,
    ratingTenths,
    createdMicros,
    lexemes: [...new Set([...name, ...description])],
    nameLexemes: [...new Set(name)],
    inStock: random.chance(0.7),
    variants: random.chance(0.4) ? someVariants(random) : null,
  };
}

/** A few variants in sizes and perhaps colours, not every combination made. */
function someVariants(random: RandomSource): VariantRows {
  const coloured = random.chance(0.5);
  const made = ["S", "M", "L"].flatMap((size) =>
    coloured
      ? [
          [size, "Red"],
          [size, "Blue"],
        ]
      : [[size]],
  );
  const kept = made.filter(() => random.chance(0.6));
  return {
    names: coloured ? ["Size", "Colour"] : ["Size"],
    values: kept.length > 0 ? kept : made.slice(0, 1),
  };
}

function indexOf(rows: Iterable<IndexedProductRow>, revision: number): CatalogIndex {
  const builder = new CatalogIndexBuilder();
  for (const product of rows) builder.add(product);
  return builder.build(revision);
}

function someQuery(random: RandomSource): { query: CatalogQuery; words: IndexedSearch | undefined } {
  const query: CatalogQuery = {
    page: 1 + random.int(4),
    size: 1 + random.int(7),
    sort: random.chance(0.2) ? undefined : random.pick(SORT_VALUES),
  };
  if (random.chance(0.3)) query.band = random.some([...BRANDS, "zeta"]);
  if (random.chance(0.3)) query.category = random.some(CATEGORIES);
  if (random.chance(0.3)) query.range = random.pick([10, 50, 120]);
  if (random.chance(0.3)) query.inStock = true;
  if (random.chance(0.3))
    query.option = random.some(["Size:M", "Size:L", "Colour:Red", "Colour:Blue"]).sort();
  const words = random.chance(0.5)
    ? Array.from({ length: 1 + random.int(2) }, () => {
        const word = random.pick(WORDS);
        // The start of a word, or the whole word (as the stem and alike words come).
        return random.chance(0.5)
          ? { anyOf: [{ lexeme: word.slice(0, 2 + random.int(2)), prefix: true }] }
          : {
              anyOf: [
                { lexeme: word, prefix: false },
                { lexeme: random.pick(WORDS), prefix: false },
              ],
            };
      })
    : undefined;
  // Now and then a SKU's products too (ids that exist, changed, deleted, or none).
  const skuProducts = random.chance(0.3) ? [1 + random.int(70)] : [];
  return { query, words: words && { words, skuProducts } };
}

const ids = (products: Product[]) => products.map((product) => product.id);
const sortedCells = (cells: FacetCell[]) =>
  [...cells].sort((a, b) => `${a.bandName} ${a.category}`.localeCompare(`${b.bandName} ${b.category}`));

describe("the index with its changes", () => {
  it("answers every page and facet matrix as an index read afresh would", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const random = randomSource(seed);
      const catalogue = new Map<number, IndexedProductRow>();
      for (let id = 1; id <= 60; id++) catalogue.set(id, row(id, random));
      let live = LiveIndex.of(indexOf(catalogue.values(), 1));
      let nextId = 61;
      for (let round = 1; round <= 4; round++) {
        const touched = new Set<number>();
        for (let change = 0; change < 1 + random.int(8); change++) {
          const id = 1 + random.int(nextId - 1);
          touched.add(id);
          // The second round only deletes: a listing with nothing changed to show but products to skip.
          if (round === 2 || random.chance(0.25)) catalogue.delete(id);
          else catalogue.set(id, row(id, random, [...BRANDS, "zeta"]));
        }
        for (let added = 0; round !== 2 && added < random.int(4); added++) {
          touched.add(nextId);
          catalogue.set(nextId, row(nextId++, random, [...BRANDS, "zeta"]));
        }
        const rows = [...touched].flatMap((id) => catalogue.get(id) ?? []);
        live = live.with(touched, rows, round + 1);
        const fresh = indexOf(catalogue.values(), round + 1);
        expect(live.size).toBe(fresh.size);
        for (let asked = 0; asked < 60; asked++) {
          const { query, words } = someQuery(random);
          const what = `seed ${seed}, round ${round}: ${JSON.stringify({ query, words })}`;
          expect(ids(live.page(query, words)), what).toEqual(ids(fresh.page(query, words)));
          expect(sortedCells(live.facetMatrix(query, words)), what).toEqual(
            sortedCells(fresh.facetMatrix(query, words)),
          );
          expect(live.optionCounts(query, words), what).toEqual(fresh.optionCounts(query, words));
        }
      }
    }
  });

  it("skips deleted products on every page of every order, deep pages included", () => {
    for (let seed = 1; seed <= 5; seed++) {
      const random = randomSource(seed);
      const rows = Array.from({ length: 80 }, (_, at) => row(at + 1, random));
      const gone = new Set(Array.from({ length: 12 }, () => 1 + random.int(80)));
      const kept = rows.filter((product) => !gone.has(product.id));
      const after = LiveIndex.of(indexOf(rows, 1)).with(gone, [], 2);
      const fresh = indexOf(kept, 2);
      for (const sort of [undefined, ...SORT_VALUES]) {
        for (let page = 1; page <= 15; page++) {
          const query = { page, size: 5, sort };
          expect(ids(after.page(query, undefined)), JSON.stringify(query)).toEqual(
            ids(fresh.page(query, undefined)),
          );
        }
      }
    }
  });

  it("shows a changed product's new price at once and never its old card", () => {
    const random = randomSource(7);
    const rows = Array.from({ length: 20 }, (_, at) => row(at + 1, random));
    const live = LiveIndex.of(indexOf(rows, 1));
    const before = rows[4] as IndexedProductRow;
    const product = { ...productOfCard(before.card), price: 0.01 };
    const changed = { ...before, priceMinor: 1, card: cardOf(product) };
    const after = live.with([changed.id], [changed], 2);
    const cheapest = after.page({ page: 1, size: 3, sort: "asc" }, undefined);
    expect(cheapest[0]).toEqual(product);
    const everything = after.page({ page: 1, size: 100 }, undefined);
    expect(everything.filter((shown) => shown.id === changed.id)).toEqual([product]);
    expect(after.revision).toBe(2);
    expect(after.changeCount).toBe(1);
  });
});
