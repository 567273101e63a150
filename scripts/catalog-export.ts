// `npm run catalog:export -- FILE`: write the whole catalogue as a catalogue
// file (CSV, JSON or NDJSON, by FILE's extension) that `catalog:import` reads
// back without changing anything. docs/operations.md: "Your own catalogue".
import fs from "node:fs/promises";
import {
  catalogFileFormat,
  exportCatalog,
  writeCatalogFile,
} from "../app/features/catalog/management/index.server";
import { commandLine, runDatabaseScript, UsageError } from "./database-script";

const target = commandLine("usage: npm run catalog:export -- FILE", {}, ({ positionals }) => {
  const [file] = positionals;
  if (positionals.length !== 1 || !file) throw new UsageError("Give one file to write.");
  const format = catalogFileFormat(file);
  if (!format) throw new UsageError(`${file}: a catalogue file ends in .csv, .json, .ndjson or .jsonl.`);
  return { file, format };
});

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
