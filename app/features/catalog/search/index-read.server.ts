import { and, eq, gt, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { CurrencyCode, ShopMoney } from "~/commerce/money";
import { decimalOfMinor } from "~/commerce/money-sql";
import { readShopMoney, shopMoney } from "~/commerce/shop-money.server";
import {
  productCompareAtMinor,
  productInStock,
  productPriceMaxMinor,
  productVariantCount,
} from "~/commerce/units-on-hand.server";
import type { Database } from "~/db/client.server";
import { catalogChanges, catalogRevisions, productOptions, products, productVariants } from "~/db/schema";
import type { Product } from "../core/catalog-schema";
import { CARD_FIELDS } from "./card-shelf";
import type { CatalogIndex, IndexedProductRow, IndexTerm } from "./catalog-index.server";
import { CatalogIndexBuilder } from "./index-builder.server";

/**
 * What a process reads from the database to search in memory: the whole
 * index (each product with the lexemes PostgreSQL stored for it), the
 * catalogue's revision, and how to_tsquery stems a typed word.
 */

/** The channel every change to the catalogue is announced on when it commits, with its revision (drizzle/0008). */
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

/**
 * A product's card as the index keeps it (card-shelf.ts): the JSON array of
 * its values, written by the database. Dates as toISOString writes them;
 * numbers as numeric prints them (12.50), which JSON.parse reads as 12.5.
 * Writing a million cards in node cost 4 s of start-up (rows to objects,
 * dates parsed and printed, JSON.stringify); PostgreSQL writes them in a
 * fraction of that.
 */
const cardValues = (currency: CurrencyCode): Record<keyof Product, SQL> => ({
  id: sql`${products.id}`,
  name: sql`${products.name}`,
  image: sql`${products.image}`,
  price: decimalOfMinor(products.priceMinor, currency),
  ratings: sql`${products.ratings}`,
  bandName: sql`${products.bandName}`,
  category: sql`${products.category}`,
  creationDate: sql`to_char(${products.creationDate} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  description: sql`${products.description}`,
  ratingCount: sql`${products.ratingCount}`,
  priceMax: decimalOfMinor(productPriceMaxMinor, currency),
  variantCount: productVariantCount,
  compareAtPrice: decimalOfMinor(productCompareAtMinor, currency),
});

/** A product as the index reads it: its card, what chooses and orders it, and the lexemes PostgreSQL stored for it. */
const indexColumns = (
  currency: CurrencyCode,
  card = cardValues(currency),
): Record<Exclude<keyof IndexRow, "variants">, SQL> => ({
  id: sql`${products.id}`,
  bandName: sql`${products.bandName}`,
  category: sql`${products.category}`,
  card: sql`json_build_array(${sql.join(
    CARD_FIELDS.map((field) => card[field]),
    sql`, `,
  )})::text`,
  priceMinor: sql`${products.priceMinor}::float8`,
  ratingTenths: sql`(${products.ratings} * 10)::int`,
  createdMicros: sql`(extract(epoch from ${products.creationDate}) * 1000000)::float8`,
  lexemes: sql`array_to_string(tsvector_to_array(${products.searchVector}), ' ')`,
  // The lexemes with a position of weight A (the name), by ts_filter: the same lexemes in the same
  // order as unnest and string_agg per row, which made reading 1M products cost PostgreSQL 14 s of CPU, not 5.
  nameLexemes: sql`array_to_string(tsvector_to_array(ts_filter(${products.searchVector}, '{a}')), ' ')`,
  // Only whether a unit is on hand: drizzle/0022 records a change when that flips, never for a sale that leaves some.
  inStock: productInStock,
});

function indexedRow({ lexemes, nameLexemes, variants, ...row }: IndexRow): IndexedProductRow {
  return {
    ...row,
    lexemes: wordsOf(lexemes),
    nameLexemes: wordsOf(nameLexemes),
    variants: variants
      ? {
          names: variants.names.split("\u001f"),
          values: variants.values.split("\u001e").map((values) => values.split("\u001f")),
        }
      : null,
  };
}

/** A row of indexColumns: lexemes as one string each (wordsOf), options and variants as separated text (readVariantText). */
type IndexRow = Omit<IndexedProductRow, "lexemes" | "nameLexemes" | "variants"> & {
  lexemes: string;
  nameLexemes: string;
  variants?: VariantText;
};

interface VariantText {
  names: string;
  values: string;
}

/**
 * The options' names and live variants' values of the products with options
 * among `productIds` (SQL over `v.product_id`), as text split by unit and
 * record separators (no name or value holds a control character). One query
 * per batch of products, not a subquery per product: the latter, with jsonb
 * per variant, took a million-product read from 25 to 45 s.
 */
async function readVariantText(db: Database, productIds: SQL): Promise<Map<number, VariantText>> {
  const result = await db.execute(sql`
    select v.product_id as id,
           (select string_agg(o.name, chr(31) order by o.position) from ${productOptions} o
             where o.product_id = v.product_id) as names,
           string_agg(concat_ws(chr(31), v.option1, v.option2, v.option3), chr(30) order by v.position, v.id) as values
      from ${productVariants} v
     where ${productIds} and v.archived_at is null and v.option1 is not null
     group by v.product_id`);
  const rows = (result as unknown as { rows: (VariantText & { id: number })[] }).rows;
  return new Map(rows.map(({ id, names, values }) => [Number(id), { names, values }]));
}

/**
 * Rows as the driver reads them, not through the query builder's mapping:
 * every column is a number or text already, and at a million products the
 * mapping cost two seconds of start-up.
 */
async function readIndexRows(db: Database, where: SQL, currency: CurrencyCode): Promise<IndexRow[]> {
  const columns = sql.join(
    Object.entries(indexColumns(currency)).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`),
    sql`, `,
  );
  const result = await db.execute(
    // An archived product is not in the index: a change that archives one takes it out, as a deletion would.
    sql`select ${columns} from ${products} where ${where} and ${products.archivedAt} is null order by ${products.id} limit ${INDEX_BATCH}`,
  );
  // Both drivers (node-postgres and PGlite) answer { rows }; the columns are typed by the casts above.
  const rows = (result as unknown as { rows: IndexRow[] }).rows;
  const first = rows[0]?.id;
  const last = rows.at(-1)?.id;
  if (first === undefined || last === undefined) return rows;
  // A batch is a run of ids: one range scan of its variants. A few changed products: by their ids.
  const productIds =
    rows.length === INDEX_BATCH || last - first < rows.length * 4
      ? sql`v.product_id between ${first} and ${last}`
      : sql`v.product_id in (${sql.join(
          rows.map((row) => sql`${row.id}`),
          sql`, `,
        )})`;
  const variants = await readVariantText(db, productIds);
  for (const row of rows) row.variants = variants.get(row.id);
  return rows;
}

/** Rows added between two turns of the event loop while the index is read: the socket is drained meanwhile, so the database keeps writing the next batch, and requests are answered. */
const ROWS_PER_TURN = 2_000;

/**
 * The catalogue's search index (catalog-index.server.ts), read in batches by
 * id, at the revision read first. No long transaction (on PGlite one would
 * hold every other query until it ends): a product that changes while the
 * batches are read is read again with the changes since that revision
 * (readCatalogChanges), as every later change is.
 */
export async function readCatalogIndex(db: Database): Promise<ReadIndex | null> {
  const revision = await readCatalogRevision(db);
  // The cards' decimal prices are written in the shop's currency as the database holds it now, read
  // after the revision: an owner's change of currency counts one (drizzle/0020), so a change after
  // this read of it makes the index be read again.
  const money = await readShopMoney(db);
  const { currency } = money;
  const builder = new CatalogIndexBuilder();
  const batchAfter = (id: number): Promise<IndexRow[]> => {
    const batch = readIndexRows(db, gt(products.id, id), currency);
    // Awaited in the next round; until then a failure must not count as unhandled.
    batch.catch(() => {});
    return batch;
  };
  let next: Promise<IndexRow[]> | null = batchAfter(0);
  while (next) {
    const rows: IndexRow[] = await next;
    const last = rows.at(-1);
    // The next batch is asked for before this one is added: PostgreSQL reads it meanwhile.
    next = last && rows.length === INDEX_BATCH ? batchAfter(last.id) : null;
    for (let at = 0; at < rows.length; at++) {
      builder.add(indexedRow(rows[at] as IndexRow));
      if (at % ROWS_PER_TURN === ROWS_PER_TURN - 1) await new Promise(setImmediate);
    }
  }
  return { index: await builder.buildInTurns(revision), money };
}

/** An index as read, with the currency and locale its cards were written in: the process takes them up as it puts the index in use. */
export interface ReadIndex {
  index: CatalogIndex;
  money: ShopMoney;
}

/** The revisions whose changed products are recorded (drizzle/0008): older ones are forgotten. */
const CHANGES_KEPT = 1000;

/** What changed in the catalogue after a revision. */
export type CatalogChanges =
  | { everything: true; revision: number }
  | {
      everything: false;
      revision: number;
      /** Every product that changed or went. */
      ids: number[];
      /** Those of them that still exist, as they are now. */
      rows: IndexedProductRow[];
    };

/**
 * The products that changed after revision `since`, up to the revision now
 * (catalog_changes, written by the triggers that count the revision), read
 * as they are now; or "everything", when brands or categories changed, a
 * statement changed thousands of rows, more than `atMost` products changed,
 * or `since` is older than the changes kept.
 */
export async function readCatalogChanges(
  db: Database,
  since: number,
  atMost: number,
): Promise<CatalogChanges> {
  const revision = await readCatalogRevision(db);
  if (revision - since >= CHANGES_KEPT) return { everything: true, revision };
  if (revision === since) return { everything: false, revision, ids: [], rows: [] };
  const changes = await db
    .selectDistinct({ productId: catalogChanges.productId })
    .from(catalogChanges)
    .where(and(gt(catalogChanges.revision, since), lte(catalogChanges.revision, revision)))
    .limit(atMost + 1);
  const ids = changes.map((change) => change.productId);
  if (ids.length > atMost || ids.includes(null)) return { everything: true, revision };
  const changed = ids as number[];
  // A change of currency is a change of everything (drizzle/0020): these are in the index's currency.
  const rows =
    changed.length > 0 ? await readIndexRows(db, inArray(products.id, changed), shopMoney().currency) : [];
  return { everything: false, revision, ids: changed, rows: rows.map(indexedRow) };
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
