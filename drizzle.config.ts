import { defineConfig } from "drizzle-kit";

// Migrations are generated from app/db/schema.ts and committed; the app
// applies them itself at start-up (app/db/migrate.server.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/schema.ts",
  out: "./drizzle",
});
