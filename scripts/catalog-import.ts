// `npm run catalog:import -- FILE [--images DIR] [--allow-private-network] [--dry-run] [--skip-invalid]
// [--prune [--yes]]`: load an owner's catalogue (CSV, JSON, NDJSON or a Shopify product export)
// into the database the shop is configured for. Pictures come from the file's folder (or DIR) and
// the public internet; --allow-private-network also downloads from loopback, private and link-local
// addresses (an owner's intranet). docs/operations.md: "Your own catalogue".
import { type ImportRequest, importCatalog } from "./catalog/import-command";
import { startProgress } from "./catalog/progress";
import { commandLine, report, runDatabaseScript, UsageError } from "./database-script";

const request = commandLine(
  "usage: npm run catalog:import -- FILE [--images DIR] [--allow-private-network] [--dry-run] [--skip-invalid] [--prune [--yes]]",
  {
    images: { type: "string" },
    "allow-private-network": { type: "boolean" },
    "dry-run": { type: "boolean" },
    "skip-invalid": { type: "boolean" },
    prune: { type: "boolean" },
    yes: { type: "boolean" },
  },
  ({ positionals, values }): ImportRequest => {
    const [file] = positionals;
    if (positionals.length !== 1 || !file) throw new UsageError("Give one catalogue file.");
    if (values.yes && !values.prune) throw new UsageError("--yes only confirms --prune.");
    return {
      file,
      images: values.images,
      allowPrivateNetwork: values["allow-private-network"] ?? false,
      dryRun: values["dry-run"] ?? false,
      skipInvalid: values["skip-invalid"] ?? false,
      prune: values.prune ?? false,
      yes: values.yes ?? false,
    };
  },
);

if (request) {
  const chosen = request;
  // Ctrl-C (or a TERM from a supervisor): stop at the next batch and roll the transaction back.
  const interruption = new AbortController();
  // (Run as one process, `node --import tsx`, not through tsx's own runner, which would kill a
  // process busy in the embedded database instead of letting it roll back.)
  const stop = () => {
    if (interruption.signal.aborted) return;
    process.stderr.write("\nStopping at the next step: what is not yet committed is rolled back…\n");
    interruption.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await runDatabaseScript(
    async (database) => {
      const outcome = await importCatalog(database, chosen, {
        print: report,
        progress: startProgress,
        signal: interruption.signal,
      });
      process.exitCode = outcome.exitCode;
      return outcome.message;
    },
    { stopTheShopTo: "run the import" },
  );
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
}
