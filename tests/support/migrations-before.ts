import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A copy of the migrations folder as it was just before the migration
 * `tag` (its journal and files), for a test that writes data the way the
 * schema held it then and migrates it with the current code. The caller
 * removes it (fs.rmSync) once migrated.
 */
export function migrationsBefore(tag: string): string {
  const source = path.resolve("drizzle");
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "backline-migrations-"));
  const journal = JSON.parse(fs.readFileSync(path.join(source, "meta/_journal.json"), "utf8"));
  const upTo = journal.entries.findIndex((entry: { tag: string }) => entry.tag === tag);
  if (upTo < 0) throw new Error(`no migration ${tag} in drizzle/meta/_journal.json`);
  journal.entries = journal.entries.slice(0, upTo);
  fs.mkdirSync(path.join(folder, "meta"));
  fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify(journal));
  for (const { tag: earlier } of journal.entries) {
    fs.copyFileSync(path.join(source, `${earlier}.sql`), path.join(folder, `${earlier}.sql`));
  }
  return folder;
}
