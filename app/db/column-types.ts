import { customType } from "drizzle-orm/pg-core";

/** Bytes (pictures, uploaded files), as PostgreSQL's bytea. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * A transaction id (PostgreSQL's 64-bit xid8), as text: read as a string so
 * no id is rounded by a JS number. Compared in SQL only.
 */
export const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => "xid8",
});
