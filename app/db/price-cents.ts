import { sql } from "drizzle-orm";
import { products } from "./schema";

/** A product's price in whole cents, computed by the database from its exact numeric(10,2): no float on the way. */
export const priceCents = sql<number>`(${products.price} * 100)::int`;
