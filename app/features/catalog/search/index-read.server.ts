import { asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { catalogRevisions, products } from "~/db/schema";
import { productColumns, productOf } from "../core/product-rows.server";
import type { CatalogIndex, IndexTerm } from "./catalog-index.server";
import { CatalogIndexBuilder } from "./index-builder.server";

/**
 * What a process reads from the database to search in memory: the whole
 * index (each product with the lexemes PostgreSQL stored for it), the
 * catalogue's revision, and how to_tsquery stems a typed word.
 */

/** The PostgreSQL channel every change to the catalogue is announced on when it commits (drizzle/0005). */
export const CATALOG_CHANGED_CHANNEL = "catalog_changed";

/** The catalogue's revision: counted up by every change to products, brands or categories. */
export async function readCatalogRevision(db: Database): Promise<number> {
  const [row] = await db
    .select({ revision: catalogRevisions.revision })
    .from(catalogRevisions)
    .where(eq(catalogRevisions.id, 1));
  return row?.revision ?? 0;
}

/** Products read per statement while the index is read. */
const INDEX_BATCH = 20_000;

/** Reads of the index that may start again because the catalogue changed during one. */
const INDEX_READ_ATTEMPTS = 3;

/**
 * The catalogue's search index (catalog-index.server.ts), read in batches by
 * id. No long transaction (on PGlite one would hold every other query until
 * it ends): the revision is read before and after, and a read during which
 * the catalogue changed starts again; after INDEX_READ_ATTEMPTS it keeps the
 * revision from before, so the next check reads it once more. Each product
 * brings the lexemes PostgreSQL stored for it, and which come from its name.
 */
export async function readCatalogIndex(db: Database): Promise<CatalogIndex | null> {
  for (let attempt = 1; ; attempt++) {
    const revision = await readCatalogRevision(db);
    const builder = new CatalogIndexBuilder();
    let after = 0;
    for (;;) {
      const rows = await db
        .select({
          ...productColumns,
          priceCents: sql<number>`(${products.price} * 100)::float8`,
          ratingTenths: sql<number>`(${products.ratings} * 10)::int`,
          createdMicros: sql<number>`(extract(epoch from ${products.creationDate}) * 1000000)::float8`,
          lexemes: sql<string>`array_to_string(tsvector_to_array(${products.searchVector}), ' ')`,
          nameLexemes: sql<string>`(select coalesce(string_agg(lexeme, ' '), '') from unnest(${products.searchVector}) where 'A' = any(weights))`,
        })
        .from(products)
        .where(gt(products.id, after))
        .orderBy(asc(products.id))
        .limit(INDEX_BATCH);
      for (const { priceCents, ratingTenths, createdMicros, lexemes, nameLexemes, ...product } of rows) {
        builder.add({
          product: productOf(product),
          priceCents,
          ratingTenths,
          createdMicros,
          lexemes: wordsOf(lexemes),
          nameLexemes: wordsOf(nameLexemes),
        });
      }
      const last = rows.at(-1);
      if (!last || rows.length < INDEX_BATCH) break;
      after = last.id;
    }
    if ((await readCatalogRevision(db)) === revision || attempt === INDEX_READ_ATTEMPTS) {
      return builder.build(revision);
    }
  }
}

/** Lexemes never hold a space: the list travels as one string, cheaper than an array. */
const wordsOf = (list: string) => (list === "" ? [] : list.split(" "));

/** The operands of a tsquery's text ('run':* → run, prefix). */
const operandsOf = (query: string): IndexTerm[] =>
  [...query.matchAll(/'((?:[^']|'')*)'(:\*)?/g)].map((match) => ({
    lexeme: (match[1] as string).replaceAll("''", "'"),
    prefix: match[2] !== undefined,
  }));

/**
 * A search word as to_tsquery reads it: its English stem ("running:*" → run,
 * prefix; none for a stop word), or null when the parser splits the word in
 * two (letters the database's locale does not count as letters): the index
 * would not match what SQL matches, so the SQL queries answer that search.
 */
export async function readWordStem(
  db: Database,
  typed: string,
  written: string,
): Promise<IndexTerm[] | null> {
  const [row] = await db
    .select({
      english: sql<string>`to_tsquery('english', ${written})::text`,
      simple: sql<string>`to_tsquery('simple', ${written})::text`,
    })
    .from(sql`(values (1)) as one`);
  const english = operandsOf(row?.english ?? "");
  const simple = operandsOf(row?.simple ?? "");
  const whole = english.length <= 1 && simple.length === 1 && simple[0]?.lexeme === typed;
  return whole ? english : null;
}
