// `npm run db:migrate`: bring the configured database (DATABASE_URL, or the
// embedded one in DATA_DIR) up to the latest committed migration.
import { runDatabaseScript } from "./database-script";

await runDatabaseScript(async (database) =>
  database.kind === "pglite"
    ? "The embedded database is up to date."
    : "The PostgreSQL database is up to date.",
);
