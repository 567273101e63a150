import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

import type { TaxAmount } from "../commerce/checkout-quote";
import { ORDER_STATUS_LIST_SQL, type OrderStatus } from "../commerce/order-states";
import { users } from "./auth-schema";
import { bytea } from "./column-types";
// Lazily, in the tables' callbacks: variant-schema.ts imports `products` from here.
import { productVariants } from "./variant-schema";

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

/**
 * The catalogue's brands and categories: the values products carry (and the
 * API's `band` and `category` take) with the labels shoppers read. Rows, not
 * code constants, so an owner's own catalogue brings its own; `position`
 * orders the choices (then the label), as the owner wants them listed.
 */
export const brands = pgTable("brands", {
  value: text("value").primaryKey(),
  label: text("label").notNull(),
  position: integer("position").notNull().default(0),
});

export const categories = pgTable("categories", {
  value: text("value").primaryKey(),
  label: text("label").notNull(),
  position: integer("position").notNull().default(0),
});

export type FacetValueRow = typeof brands.$inferSelect;

export const products = pgTable(
  "products",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /**
     * The owner's own key for the product (a SKU, a Shopify handle): what a
     * catalogue import matches rows by, so importing a file again updates
     * products instead of adding them twice. Products made without one get
     * a random one.
     */
    sku: text("sku").notNull().default(sql`gen_random_uuid()::text`),
    name: text("name").notNull(),
    description: text("description").notNull(),
    /** Site-relative URL of the product picture, served from /images/products. */
    image: text("image").notNull(),
    /**
     * Its price in whole minor units of the shop's currency (cents, yen; app/commerce/money.ts):
     * the same unit every total is summed in, so no conversion stands between a card and an order.
     */
    priceMinor: bigint("price_minor", { mode: "number" }).notNull(),
    /**
     * The highest price of its live variants when they differ (a card then says "From" the
     * lowest, `price_minor`); null when they are one price. Written with the variants
     * (catalog/management/variant-writing.server.ts, docs/decisions/0045).
     */
    priceMaxMinor: bigint("price_max_minor", { mode: "number" }),
    /** Its cheapest live variant's "was" price (the variant writer's): a card strikes it through while above the price. */
    compareAtMinor: bigint("compare_at_minor", { mode: "number" }),
    /**
     * The mean of its published reviews, to one decimal (drizzle/0015's trigger keeps it); for a
     * product no buyer has reviewed, the rating its import gave, or 0.
     */
    ratings: numeric("ratings", { precision: 2, scale: 1, mode: "number" }).notNull(),
    /** Its published reviews, and the sum of their stars: the mean is exact whatever the order of changes. */
    ratingCount: integer("rating_count").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    bandName: text("band_name")
      .notNull()
      .references(() => brands.value),
    category: text("category")
      .notNull()
      .references(() => categories.value),
    creationDate: timestamp("creation_date", { withTimezone: true, mode: "date" }).notNull(),
    /**
     * Archived by the owner: hidden from the shop (its pages, listings, API,
     * search), kept for the orders that name it. Null: on sale.
     */
    archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
    /**
     * Its tax class ("reduced" for books or food): the rate a tax zone gives
     * that class (app/commerce/tax-shipping-setup.ts); null for the zone's standard rate.
     */
    taxClass: text("tax_class"),
    searchVector: tsvector("search_vector").generatedAlwaysAs(productSearchDocument).notNull(),
  },
  (table) => [
    // Every sort ends on id, so each index carries it: an ordered index scan
    // then serves sort + tie-breaker + LIMIT/OFFSET without a sort step.
    check("products_price_minor_check", sql`${table.priceMinor} >= 0`),
    check("products_tax_class_check", sql`${table.taxClass} ~ '^[a-z][a-z0-9-]{0,39}$'`),
    check(
      "products_price_max_minor_check",
      sql`${table.priceMaxMinor} is null or ${table.priceMaxMinor} > ${table.priceMinor}`,
    ),
    index("products_price_id_idx").on(table.priceMinor, table.id),
    index("products_creation_date_id_idx").on(table.creationDate, table.id),
    index("products_band_name_price_id_idx").on(table.bandName, table.priceMinor, table.id),
    index("products_category_price_id_idx").on(table.category, table.priceMinor, table.id),
    index("products_band_name_creation_date_id_idx").on(table.bandName, table.creationDate, table.id),
    index("products_category_creation_date_id_idx").on(table.category, table.creationDate, table.id),
    // The default order and "Top Rated": best rated first, newest among equals (the queries
    // say "desc nulls last" as these do, or PostgreSQL cannot read the order from them);
    // within a category (a product page's related products) and a brand too.
    index("products_ratings_creation_date_id_idx").on(
      table.ratings.desc(),
      table.creationDate.desc(),
      table.id,
    ),
    index("products_category_ratings_creation_date_id_idx").on(
      table.category,
      table.ratings.desc(),
      table.creationDate.desc(),
      table.id,
    ),
    index("products_band_name_ratings_creation_date_id_idx").on(
      table.bandName,
      table.ratings.desc(),
      table.creationDate.desc(),
      table.id,
    ),
    index("products_search_vector_idx").using("gin", table.searchVector),
    uniqueIndex("products_sku_idx").on(table.sku),
  ],
);

/**
 * The catalogue's revision: one row, counted up by a trigger on every
 * statement that changes products, brands or categories (drizzle/0004), and
 * visible when that change commits. Each shop process reads the changes
 * recorded since the revision its search index holds (docs/decisions/0026).
 */
export const catalogRevisions = pgTable("catalog_revisions", {
  id: integer("id").primaryKey(),
  revision: bigint("revision", { mode: "number" }).notNull().default(0),
});

/**
 * Which products each catalogue revision changed (drizzle/0008): written by
 * the triggers that count the revision, in the same statement, so a process
 * applies just those products to its search index instead of reading the
 * catalogue again. `productId` null: everything may have changed (brands or
 * categories, a truncate, a statement of thousands of rows). The last 1,000
 * revisions are kept.
 */
export const catalogChanges = pgTable(
  "catalog_changes",
  {
    revision: bigint("revision", { mode: "number" }).notNull(),
    productId: integer("product_id"),
  },
  (table) => [index("catalog_changes_revision_idx").on(table.revision)],
);

export type ProductRow = typeof products.$inferSelect;

/**
 * Pictures the owner imported, in the sizes the pages show them, kept in the
 * database so that every process of the shop serves them (no shared disk
 * needed). Named by their content's hash and width, so a name never changes
 * meaning and browsers may keep them for good.
 */
export const productPictures = pgTable("product_pictures", {
  /** `<hash>-<width>.webp` */
  name: text("name").primaryKey(),
  contentType: text("content_type").notNull(),
  content: bytea("content").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
export type NewProductRow = typeof products.$inferInsert;

// Stock and orders (docs/decisions/0027).

/**
 * A cart: a guest's, found by the hash of its cookie's token (30 days), or an
 * account's, found by its user and so on every device (docs/decisions/0039).
 */
export const carts = pgTable(
  "carts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the guest's cookie token: the token itself is never stored. */
    tokenHash: text("token_hash").unique(),
    /** A guest cart is forgotten after this; an account's never is. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [check("carts_owner_check", sql`${table.userId} is not null or ${table.tokenHash} is not null`)],
);

/** A variant in a cart, once: adding it again adds to its quantity (docs/decisions/0045). */
export const cartLines = pgTable(
  "cart_lines",
  {
    cartId: uuid("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    /** What the shopper buys; its product beside it (one composite foreign key names both). */
    variantId: integer("variant_id").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    /** The unit price when it was added, so the cart can say when it changed. */
    unitPriceCentsSeen: bigint("unit_price_cents_seen", { mode: "number" }).notNull(),
    /** The currency of that price: a line seen before the shop changed its currency is re-priced, with a note. */
    currencySeen: text("currency_seen").notNull(),
    addedAt: timestamp("added_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.cartId, table.variantId] }),
    foreignKey({
      name: "cart_lines_variant_fk",
      columns: [table.variantId, table.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }).onDelete("cascade"),
    index("cart_lines_variant_idx").on(table.variantId),
    check("cart_lines_quantity_check", sql`${table.quantity} between 1 and 99`),
    check("cart_lines_currency_seen_check", sql`${table.currencySeen} ~ '^[A-Z]{3}$'`),
  ],
);

/** An order: what was bought, by whom, shipped where, for how much (integer cents), in one snapshot. */
export const orders = pgTable(
  "orders",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** What a person reads out ("BL-7Q4K9"): random, never a sequence. */
    number: text("number").notNull().unique(),
    /** Whose key space `idempotency_key` is in: the account, or the guest's cart. */
    idempotencyScope: text("idempotency_scope").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** A hash of what was asked: the same key with another request is refused, not answered with this order. */
    requestHash: text("request_hash").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status").$type<OrderStatus>().notNull().default("placed"),
    email: text("email").notNull(),
    /** Name, lines, city, postal code and country, as they were when the order was placed. */
    shippingAddress: jsonb("shipping_address").notNull(),
    shippingMethod: text("shipping_method").notNull(),
    /** The method's name as its zone offered it ("Colissimo"); null for orders from before zones (Standard, Express). */
    shippingMethodName: text("shipping_method_name"),
    paymentMethod: text("payment_method").notNull(),
    subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull(),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull(),
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
    /** The tax charged, the sum of `taxes`: in the lines and shipping when prices include tax, else added to them. */
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
    /** Whether the lines' and shipping's prices contain the tax (the shop's setup when it was placed). */
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    /** The tax by rate as charged: `[{ name: "Germany", rate: 190000, amount: 1596 }]` (rate in millionths). */
    taxes: jsonb("taxes").$type<TaxAmount[]>().notNull().default([]),
    /**
     * The ISO 4217 currency its amounts are in (every `_cents` column holds that currency's minor
     * units): the shop's when it was placed, kept when the shop later changes its own.
     */
    currency: text("currency").notNull(),
    /** The carrier's tracking number, given when the order is marked shipped (optional). */
    trackingNumber: text("tracking_number"),
    /**
     * A card order waiting for its payment (`awaiting-payment`) is cancelled, its stock put back,
     * once this has passed (CARD_PAYMENT_MINUTES after it was placed); null for every other order.
     */
    paymentDueAt: timestamp("payment_due_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    // The back office's order list: newest first, and by status.
    index("orders_created_at_idx").on(table.createdAt),
    index("orders_status_created_at_idx").on(table.status, table.createdAt),
    index("orders_email_idx").on(table.email),
    uniqueIndex("orders_idempotency_idx").on(table.idempotencyScope, table.idempotencyKey),
    index("orders_user_idx").on(table.userId, table.createdAt),
    check(
      "orders_status_check",
      // Written from the one list of states (app/commerce/order-states.ts).
      sql`${table.status} in (${sql.raw(ORDER_STATUS_LIST_SQL)})`,
    ),
    // What each process's sweeper looks for: card orders waiting for a payment, by when it is due.
    index("orders_payment_due_idx").on(table.paymentDueAt).where(sql`${table.status} = 'awaiting-payment'`),
    check("orders_currency_check", sql`${table.currency} ~ '^[A-Z]{3}$'`),
    check(
      "orders_total_check",
      sql`${table.subtotalCents} >= 0 and ${table.shippingCents} >= 0 and ${table.taxCents} >= 0 and ${table.totalCents} = ${table.subtotalCents} + ${table.shippingCents} + case when ${table.pricesIncludeTax} then 0 else ${table.taxCents} end`,
    ),
  ],
);

/** One line of an order, as it was sold: the variant's name, SKU, options and price then, not now. */
export const orderLines = pgTable(
  "order_lines",
  {
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** Restrict (with its product): a variant an order names cannot be deleted (it can be archived). */
    variantId: integer("variant_id").notNull(),
    /** Restrict: a product an order names cannot be deleted (it can be archived). */
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    /** The variant's SKU when it was sold. */
    sku: text("sku").notNull(),
    /** Its option values when it was sold, by option name (`{ "Size": "M" }`); `{}` for a product without options. */
    options: jsonb("options").$type<Record<string, string>>().notNull().default({}),
    unitPriceCents: bigint("unit_price_cents", { mode: "number" }).notNull(),
    quantity: integer("quantity").notNull(),
    lineTotalCents: bigint("line_total_cents", { mode: "number" }).notNull(),
    /** The line's tax, half-up to the minor unit: contained in its total or added to it, as the order's `prices_include_tax`. */
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.orderId, table.variantId] }),
    foreignKey({
      name: "order_lines_variant_fk",
      columns: [table.variantId, table.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }).onDelete("restrict"),
    index("order_lines_variant_idx").on(table.variantId),
    check("order_lines_quantity_check", sql`${table.quantity} between 1 and 99`),
    check(
      "order_lines_total_check",
      sql`${table.unitPriceCents} >= 0 and ${table.lineTotalCents} = ${table.unitPriceCents} * ${table.quantity} and ${table.taxCents} >= 0`,
    ),
  ],
);

// Accounts and sessions (Better Auth's tables).
export * from "./auth-schema";
// The back office's tables (docs/decisions/0029).
export * from "./back-office-schema";
// Invoices and credit notes, numbered without gaps (docs/decisions/0049).
export * from "./invoice-schema";
// Card payments through Stripe Checkout, and the local stand-in's records (docs/decisions/0032).
export * from "./payment-schema";
// Reviews from verified buyers (docs/decisions/0033).
export * from "./review-schema";
// The shop's own machinery: its secrets, shared rate limits, the demo provider's records, outgoing mail.
export * from "./service-schema";
export * from "./variant-schema";
