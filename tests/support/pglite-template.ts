import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "~/db/client.server";
import { migrateDatabase } from "~/db/migrate.server";

/**
 * One migrated, empty embedded database, dumped once, that every in-memory
 * test database starts from (test-database.ts): creating a PGlite database
 * runs PostgreSQL's initdb, and migrating it replays every migration, about
 * 5 s of CPU together, paid by each of some twenty test files before; loading
 * the dump costs about a third of that.
 *
 * Vitest's global set-up (vitest.config.ts) makes the dump, or finds the one
 * made for the same migrations and PGlite before, in node_modules/.cache, and
 * names it in BACKLINE_TEST_PGLITE_TEMPLATE for the test files. Without it
 * (a benchmark, say) the test databases are created and migrated as before.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const CACHE = path.join(ROOT, "node_modules/.cache/backline-tests");
const VARIABLE = "BACKLINE_TEST_PGLITE_TEMPLATE";

/**
 * The buffer cache of the embedded databases the tests start from, here and in
 * shop-data-template.ts, as one setting that reads the same in `alter system
 * set …` and in postgresql.auto.conf. PostgreSQL's default (128 MB) is set up
 * at every start, and the tests start some two hundred embedded databases,
 * each holding a few megabytes: a start from a template took 1.15 s of CPU
 * with the default and 0.7 s with 16 MB. The size of the cache changes how
 * fast, never what, the database answers; the shop itself keeps the default.
 */
export const TEST_BUFFER_CACHE = "shared_buffers = '16MB'";

export default async function makePgliteTemplate(): Promise<void> {
  const file = path.join(CACHE, `pglite-${templateKey()}.tar`);
  if (!fs.existsSync(file)) {
    const handle = await openDatabase({ dataDir: "memory://" });
    try {
      await migrateDatabase(handle);
      await handle.db.execute(sql.raw(`alter system set ${TEST_BUFFER_CACHE}`));
      const client = (
        handle.db as unknown as { $client: { dumpDataDir(compression: "none"): Promise<Blob> } }
      ).$client;
      const dump = Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer());
      fs.mkdirSync(CACHE, { recursive: true });
      // Written aside and renamed: a run beside this one never reads half a dump.
      const partial = `${file}.${process.pid}`;
      fs.writeFileSync(partial, dump);
      fs.renameSync(partial, file);
    } finally {
      await handle.close();
    }
  }
  process.env[VARIABLE] = file;
}

/** The migrated empty database to start a test database from, when the global set-up made one. */
export function pgliteTemplate(): Blob | undefined {
  const file = process.env[VARIABLE];
  return file ? new Blob([fs.readFileSync(file)]) : undefined;
}

/** What the dump depends on: the migrations, the migrator and PGlite's version. */
function templateKey(): string {
  const hash = createHash("sha256");
  const migrations = path.join(ROOT, "drizzle");
  for (const entry of fs.readdirSync(migrations, { recursive: true }).map(String).sort()) {
    const file = path.join(migrations, entry);
    if (fs.statSync(file).isFile()) hash.update(entry).update(fs.readFileSync(file));
  }
  hash.update(fs.readFileSync(path.join(ROOT, "app/db/migrate.server.ts"))).update(TEST_BUFFER_CACHE);
  for (const pkg of ["@electric-sql/pglite", "drizzle-orm"]) {
    hash.update(fs.readFileSync(path.join(ROOT, "node_modules", pkg, "package.json")));
  }
  return hash.digest("hex").slice(0, 16);
}
