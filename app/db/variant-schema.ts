import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { xid8 } from "./column-types";
// Lazily, in `references`: schema.ts re-exports this module.
import { products } from "./schema";

// Options and variants (docs/decisions/0045): what a shopper buys is a variant.

/** One value of an option as the owner ordered it, with the swatch a colour shows (`#1f6feb`), if any. */
export interface OptionValue {
  value: string;
  swatch?: string;
}

/**
 * A product's option (`Size: S, M, L`), at most three per product, in the
 * order the product page asks them. A product without options has none and
 * exactly one variant.
 */
export const productOptions = pgTable(
  "product_options",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** 1–3: which of a variant's `option1`–`option3` holds this option's value (Shopify's layout). */
    position: integer("position").notNull(),
    name: text("name").notNull(),
    /** The values in the owner's order. */
    values: jsonb("values").$type<OptionValue[]>().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.productId, table.position] }),
    check("product_options_position_check", sql`${table.position} between 1 and 3`),
    uniqueIndex("product_options_name_idx").on(table.productId, sql`lower(${table.name})`),
  ],
);

/**
 * One thing a shopper can buy: a product in one value of each of its
 * options, with its own SKU, price and stock. Every product has at least
 * one; `products.price_minor` is its live variants' lowest price.
 */
export const productVariants = pgTable(
  "product_variants",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** Unique across the shop, archived variants included: an order line's SKU names one variant for good. */
    sku: text("sku").notNull(),
    /** The value of the product's option at position 1, 2, 3; null where it has fewer options. */
    option1: text("option1"),
    option2: text("option2"),
    option3: text("option3"),
    /** In whole minor units of the shop's currency, as every price (app/commerce/money.ts). */
    priceMinor: bigint("price_minor", { mode: "number" }).notNull(),
    /** The "was" price shown struck through; above the price when set. */
    compareAtMinor: bigint("compare_at_minor", { mode: "number" }),
    /** For shipping by weight: grams of one unit. */
    weightGrams: integer("weight_grams"),
    /** Site-relative URL of its own picture; null shows the product's. */
    image: text("image"),
    /** Its place in the owner's table of variants. */
    position: integer("position").notNull().default(0),
    /** Archived by the owner: out of the shop, its stock and the orders naming it kept. */
    archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("product_variants_sku_idx").on(table.sku),
    // A shop search for a SKU, typed in any case, finds its product (docs/decisions/0045).
    index("product_variants_sku_search_idx")
      .on(sql`lower(${table.sku})`)
      .where(sql`${table.archivedAt} is null`),
    // Stock rows and order lines name (variant, product) with one composite foreign key.
    unique("product_variants_id_product_unique").on(table.id, table.productId),
    // Two live variants of one product never have the same values ('' stands for "no such option":
    // a value is never empty).
    uniqueIndex("product_variants_values_idx")
      .on(
        table.productId,
        sql`coalesce(${table.option1}, '')`,
        sql`coalesce(${table.option2}, '')`,
        sql`coalesce(${table.option3}, '')`,
      )
      .where(sql`${table.archivedAt} is null`),
    index("product_variants_product_idx").on(table.productId, table.position, table.id),
    // The few archived variants, whose stock a product's level leaves out (catalog/core/stock-snapshot.server.ts).
    index("product_variants_archived_idx").on(table.id).where(sql`${table.archivedAt} is not null`),
    check("product_variants_price_check", sql`${table.priceMinor} >= 0`),
    check(
      "product_variants_compare_at_check",
      sql`${table.compareAtMinor} is null or ${table.compareAtMinor} > ${table.priceMinor}`,
    ),
    check("product_variants_weight_check", sql`${table.weightGrams} is null or ${table.weightGrams} >= 0`),
    check(
      "product_variants_values_check",
      sql`${table.option1} <> '' and ${table.option2} <> '' and ${table.option3} <> ''`,
    ),
  ],
);

/**
 * Each variant's units on hand, beside it rather than in it: a sale updates
 * this narrow row alone, so it is not a catalogue change (no revision
 * counted, no index work) unless its product as a whole sells out or comes
 * back (drizzle/0022's trigger records those). The product is named beside
 * the variant so a checkout locks every stock row of a product in one index
 * range, in (product, variant) order (docs/decisions/0045).
 */
export const stockLevels = pgTable(
  "stock_levels",
  {
    variantId: integer("variant_id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    onHand: integer("on_hand").notNull().default(0),
    /**
     * The transaction that last wrote the level (drizzle/0016's trigger): each
     * process reads the levels changed since it last looked, so listings show
     * stock without a query each (catalog/search/stock-snapshot.server.ts).
     */
    changedBy: xid8("changed_by").notNull().default(sql`pg_current_xact_id()`),
  },
  (table) => [
    foreignKey({
      name: "stock_levels_variant_fk",
      columns: [table.variantId, table.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }).onDelete("cascade"),
    // The last guard: whatever the code does, stock never goes below zero.
    check("stock_levels_on_hand_check", sql`${table.onHand} >= 0`),
    // A product's rows, in the order checkouts lock them.
    uniqueIndex("stock_levels_product_variant_idx").on(table.productId, table.variantId),
    // The back office's low-stock view and the dashboard: the few products at or under a line.
    index("stock_levels_on_hand_idx").on(table.onHand, table.productId),
    index("stock_levels_changed_by_idx").on(table.changedBy),
  ],
);
