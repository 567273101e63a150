// `npm run db:generate-catalog -- --count 100000 [--replace] [--seed 1]`:
// fill the configured database with a large synthetic catalogue, for
// benchmarks and for trying pagination and search at scale. CATALOG_WITH_VARIANTS=1 gives a
// third of the products 2 to 12 variants in sizes and colours (read from the environment, so a
// benchmark comparing an older build, whose generator has no such thing, can ask both the same).
import { z } from "zod";
import { generateCatalog } from "./catalog/synthetic-catalog";
import { commandLine, runDatabaseScript, UsageError } from "./database-script";

const USAGE =
  "usage: npm run db:generate-catalog -- --count <1..5000000> [--replace] [--seed <n>] [--coined-words <n>]";

const argsSchema = z.object({
  count: z.coerce
    .number({ error: "--count must be a whole number." })
    .int("--count must be a whole number.")
    .min(1, "--count must be at least 1.")
    .max(5_000_000, "--count must be at most 5000000."),
  replace: z.boolean().default(false),
  seed: z.coerce
    .number()
    .int("--seed must be a whole number.")
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  "coined-words": z.coerce
    .number()
    .int("--coined-words must be a whole number.")
    .min(0)
    .max(1_000_000, "--coined-words must be at most 1000000.")
    .default(0),
});

const args = commandLine(
  USAGE,
  {
    count: { type: "string" },
    replace: { type: "boolean" },
    seed: { type: "string" },
    "coined-words": { type: "string" },
  },
  ({ values, positionals }) => {
    if (positionals.length > 0) throw new UsageError(`Unexpected argument '${positionals[0]}'.`);
    if (values.count === undefined) throw new UsageError("--count is required.");
    const result = argsSchema.safeParse(values);
    if (!result.success) throw new UsageError(result.error.issues[0]?.message ?? "Invalid arguments.");
    return result.data;
  },
);

if (args) {
  const { count, replace, seed, "coined-words": coinedWords } = args;
  await runDatabaseScript(async (database) => {
    const started = performance.now();
    const variants = process.env.CATALOG_WITH_VARIANTS === "1";
    const { inserted } = await generateCatalog(database.db, { count, replace, seed, coinedWords, variants });
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(inserted / seconds);
    const verb = replace ? "Replaced the catalogue with" : "Added";
    return `${verb} ${inserted.toLocaleString("en")} products in ${seconds.toFixed(1)} s (${rate.toLocaleString("en")} rows/s).`;
  });
}
