import { sql } from "drizzle-orm";
import { products } from "./schema";

/**
 * A product's price in whole cents, computed by the database from its exact
 * numeric(10,2): no float on the way. 64 bits, as every money column: the
 * dearest price the shop accepts (99,999,999.99) is past 32 bits of cents.
 * Both drivers answer a bigint as text, so it is read back as a number (exact
 * below 2^53 cents).
 */
export const priceCents = sql<number>`(${products.price} * 100)::bigint`.mapWith(Number);
