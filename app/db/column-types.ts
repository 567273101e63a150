import { customType } from "drizzle-orm/pg-core";

/** Bytes (pictures, uploaded files), as PostgreSQL's bytea. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});
