import { count, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import { type SearchVocabulary, searchVocabulary } from "./search-vocabulary.server";
import { isPlainWord } from "./sql-search.server";

/**
 * Products whose descriptions the vocabulary reads at most (about 1 s on
 * PostgreSQL); past that, a sample of as many. A description word used by
 * fewer than about one product in this many may then be left out: it is
 * still found by its start, only not forgiven its typos.
 */
const VOCABULARY_SAMPLE_PRODUCTS = 200_000;

/** Words a vocabulary keeps at most, the most used first: far more than a shop's names and descriptions hold. */
const VOCABULARY_MAX_WORDS = 100_000;

/**
 * Every word of the catalogue's names, descriptions, brands and categories,
 * as written (no stems), letters and digits only, the most used first.
 * The descriptions' words are read from the stored search vector (its
 * weight D is the description as written: no parsing again); the names are
 * parsed once per distinct name, the brands and categories from their rows.
 * About 0.4 s on 100,000 products: read now and then, never per search.
 */
export async function readSearchVocabulary(db: Database): Promise<SearchVocabulary> {
  const [counted] = await db.select({ total: count() }).from(products);
  // On a large catalogue the descriptions are read from a sample of pages: their words are
  // common ones, and reading every vector of a million products takes longer than a statement may.
  const percent = Math.min(100, (100 * VOCABULARY_SAMPLE_PRODUCTS) / Math.max(1, counted?.total ?? 0));
  const descriptions =
    percent < 100
      ? `select search_vector from products tablesample system (${percent.toFixed(4)}) where archived_at is null`
      : "select search_vector from products where archived_at is null";
  const parts = [
    sql`select word, ndoc from ts_stat(${descriptions}, 'd')`,
    sql`select word, ndoc from ts_stat('select to_tsvector(''simple'', name) from (select distinct name from products where archived_at is null) names')`,
    sql`select word, ndoc from ts_stat('select to_tsvector(''simple'', value || '' '' || label) from brands union all select to_tsvector(''simple'', value || '' '' || label) from categories')`,
  ];
  const rows = await db
    .select({ word: sql<string>`word` })
    .from(sql`(${sql.join(parts, sql` union all `)}) as words`)
    .groupBy(sql`word`)
    .orderBy(sql`sum(ndoc) desc`, sql`word`)
    .limit(VOCABULARY_MAX_WORDS);
  // Words with a hyphen or an apostrophe are also stored in their parts; the whole is left out.
  return searchVocabulary(rows.map((row) => row.word).filter(isPlainWord));
}
