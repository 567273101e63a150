// `npm run db:seed`: migrate, then load the demo catalogue if the shop has no products yet.
import { seedDemoCatalog } from "../app/db/seed/seed.server";
import { runDatabaseScript } from "./database-script";

await runDatabaseScript(async (database) => {
  const { inserted } = await seedDemoCatalog(database.db);
  return inserted > 0
    ? `Loaded the demo catalogue: ${inserted} products.`
    : "The catalogue already has products; nothing was added.";
});
