// `npm run catalog:export -- FILE`: write the whole catalogue as a catalogue
// file (CSV, JSON or NDJSON, by FILE's extension) that `catalog:import` reads
// back without changing anything. README: "Your own catalogue".
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import { catalogFileFormat, writeCatalogFile } from "../app/features/catalog/catalog-file.server";
import { exportCatalog } from "../app/features/catalog/catalog-import.server";
import { runDatabaseScript, UsageError } from "./database-script";

const USAGE = "usage: npm run catalog:export -- FILE (.csv, .json, .ndjson or .jsonl)";

function parseCommandLine() {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ allowPositionals: true, options: {}, strict: true }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (${USAGE})`);
  }
  const [file] = positionals;
  if (positionals.length !== 1 || !file) throw new UsageError(`Give one file to write. (${USAGE})`);
  const format = catalogFileFormat(file);
  if (!format) throw new UsageError(`${file}: ${USAGE}`);
  return { file, format };
}

let target: ReturnType<typeof parseCommandLine> | undefined;
try {
  target = parseCommandLine();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}

if (target) {
  const { file, format } = target;
  await runDatabaseScript(
    async (database) => {
      const records = await exportCatalog(database.db);
      // Written beside, then renamed: an interrupted export never leaves half a file under FILE's name.
      const partial = `${file}.partial`;
      await fs.writeFile(partial, writeCatalogFile(records, format));
      await fs.rename(partial, file);
      return `Wrote ${records.length.toLocaleString("en")} products to ${file}.`;
    },
    { stopTheShopTo: "export" },
  );
}
