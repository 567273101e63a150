import { sql } from "drizzle-orm";
import { customType, index, integer, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";

const tsvector = customType<{ data: string }>({
  dataType: () => "tsvector",
});

/**
 * The words a product can be found by. Two dictionaries on purpose:
 * 'english' stems ("mixers" finds "mixer"), 'simple' keeps whole words so a
 * prefix of the written word matches ("blend" finds "BlendMaster",
 * "runn" finds "running" even though 'english' stores "run").
 * Name weighs most, then brand and category, then description.
 */
const productSearchDocument = sql`
  setweight(to_tsvector('english', "name"), 'A') ||
  setweight(to_tsvector('simple', "name"), 'A') ||
  setweight(to_tsvector('simple', "band_name" || ' ' || "category"), 'B') ||
  setweight(to_tsvector('english', "category"), 'B') ||
  setweight(to_tsvector('english', "description"), 'C') ||
  setweight(to_tsvector('simple', "description"), 'D')`;

export const products = pgTable(
  "products",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    /** Site-relative URL of the product picture, served from /images/products. */
    image: text("image").notNull(),
    /** Money: exact decimal, never a float in the database. */
    price: numeric("price", { precision: 10, scale: 2, mode: "number" }).notNull(),
    ratings: numeric("ratings", { precision: 2, scale: 1, mode: "number" }).notNull(),
    bandName: text("band_name").notNull(),
    category: text("category").notNull(),
    creationDate: timestamp("creation_date", { withTimezone: true, mode: "date" }).notNull(),
    searchVector: tsvector("search_vector").generatedAlwaysAs(productSearchDocument).notNull(),
  },
  (table) => [
    // Every sort ends on id, so each index carries it: an ordered index scan
    // then serves sort + tie-breaker + LIMIT/OFFSET without a sort step.
    index("products_price_id_idx").on(table.price, table.id),
    index("products_creation_date_id_idx").on(table.creationDate, table.id),
    index("products_band_name_price_id_idx").on(table.bandName, table.price, table.id),
    index("products_category_price_id_idx").on(table.category, table.price, table.id),
    index("products_band_name_creation_date_id_idx").on(table.bandName, table.creationDate, table.id),
    index("products_category_creation_date_id_idx").on(table.category, table.creationDate, table.id),
    index("products_search_vector_idx").using("gin", table.searchVector),
  ],
);

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;

// Accounts and sessions (Better Auth's tables).
export * from "./auth-schema";
