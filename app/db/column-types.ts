import { sql } from "drizzle-orm";
import { customType } from "drizzle-orm/pg-core";

/**
 * Bytes (pictures, uploaded files), as PostgreSQL's bytea. Written as base64
 * text the database decodes: PGlite turns a Uint8Array into hex one byte at
 * a time in JavaScript, which held the process for seconds on an uploaded
 * catalogue file (and made a string per byte); Buffer encodes natively.
 */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
  toDriver: (bytes) =>
    sql`decode(${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}, 'base64')`,
});

/**
 * A transaction id (PostgreSQL's 64-bit xid8), as text: read as a string so
 * no id is rounded by a JS number. Compared in SQL only.
 */
export const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => "xid8",
});

/** A large bytea column read as base64 text, made bytes by bytesOf: PGlite would parse it a byte at a time. */
export const byteaAsText = (column: unknown) => sql<string>`encode(${column}, 'base64')`;

/** The bytes of byteaAsText's text (the line breaks PostgreSQL puts in it are skipped). */
export const bytesOf = (base64: string): Uint8Array => Buffer.from(base64, "base64");
