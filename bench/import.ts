/**
 * The catalogue import at scale: `npm run bench -- import`.
 *
 * Target (issue 10): 100,000 rows import in under a minute on PostgreSQL.
 * A 100,000-product catalogue is generated (npm run db:generate-catalog) in
 * one scratch database and exported to CSV (npm run catalog:export); then the
 * import command, as an owner runs it, loads that file into a second, empty
 * database (every row new), loads it again (nothing to change), and loads a
 * copy in which every tenth product has a new price (10,000 updates). Each
 * time is the command's whole run, from start to exit: Node and tsx start-up,
 * reading and checking the file, comparing with the catalogue, writing in one
 * transaction, and the ANALYZE after it. Pictures are the demo's, already on
 * the shop, so the figures are the catalogue's (a picture is resized once, at
 * about 10 per second per core, however many products share it).
 * Writes the "Import" section of bench/RESULTS.md.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import sharp from "sharp";
import { dropScratchDatabase, scratchDatabase } from "./scratch-database";
import { replaceSection, runInfo, runInfoLine } from "./workload";

const COUNT = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const TARGET_SECONDS = 60;
const RESULTS = path.resolve("bench/RESULTS.md");
const SCRATCH_DATABASES = [
  "backline_bench_import_source",
  "backline_bench_import",
  "backline_bench_import_pictures",
] as const;

/** Runs a command to its end; its wall time in seconds and its output. */
function timed(args: string[], database: string | { dataDir: string }): { seconds: number; output: string } {
  const started = performance.now();
  const target = typeof database === "string" ? { DATABASE_URL: database } : { DATA_DIR: database.dataDir };
  const result = spawnSync(process.execPath, ["--import", "tsx", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: undefined, ...target, LOG_LEVEL: "warn" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${output}`);
  return { seconds, output };
}

/** The file with every tenth product's price raised by a dollar (rewritten through the CSV parser: descriptions hold commas). */
function withNewPrices(file: string, changed: string): void {
  const rows: Record<string, string>[] = parse(fs.readFileSync(file, "utf8"), { columns: true });
  rows.forEach((row, at) => {
    if (at % 10 === 0) row.price = (Number(row.price) + 1).toFixed(2);
  });
  fs.writeFileSync(changed, stringify(rows, { header: true }));
}

const PICTURED = 300;

/**
 * An owner's shop of PICTURED products, each with its own photo (1600×1200
 * JPEG, ~100 KB, as a phone or a supplier gives them), next to the CSV.
 */
async function picturedCatalogue(folder: string): Promise<string> {
  fs.mkdirSync(path.join(folder, "photos"));
  const rows = ["sku,name,price,brand,category,image"];
  for (let at = 0; at < PICTURED; at++) {
    const hue = (at * 47) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><rect width="1600" height="1200" fill="hsl(${hue},45%,55%)"/><circle cx="${400 + (at % 8) * 100}" cy="600" r="${200 + (at % 5) * 40}" fill="hsl(${(hue + 180) % 360},60%,40%)"/></svg>`;
    await sharp(Buffer.from(svg))
      .jpeg({ quality: 85 })
      .toFile(path.join(folder, "photos", `p${at}.jpg`));
    rows.push(
      `OWN-${at},Owner Product ${at},${(10 + (at % 90)).toFixed(2)},Owner Brand,Owner Category,photos/p${at}.jpg`,
    );
  }
  const file = path.join(folder, "pictured.csv");
  fs.writeFileSync(file, `${rows.join("\n")}\n`);
  return file;
}

async function main() {
  const info = runInfo("npm run bench -- import");
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "backline-bench-import-"));
  const file = path.join(folder, "catalogue.csv");
  const changed = path.join(folder, "catalogue-new-prices.csv");
  try {
    console.log(`== generating ${COUNT.toLocaleString("en")} products and exporting them`);
    const source = await scratchDatabase(SCRATCH_DATABASES[0]);
    timed(["scripts/db-generate-catalog.ts", "--count", String(COUNT), "--replace"], source);
    const exported = timed(["scripts/catalog-export.ts", file], source);
    const megabytes = fs.statSync(file).size / 2 ** 20;
    withNewPrices(file, changed);

    const target = await scratchDatabase(SCRATCH_DATABASES[1]);
    // The empty shop's migrations and demo brands come first, as they would on a shop's first start.
    timed(["scripts/db-migrate.ts"], target);
    console.log("== importing into an empty catalogue");
    const fresh = timed(["scripts/catalog-import.ts", file], target);
    console.log(
      fresh.output
        .split("\n")
        .filter((line) => !line.startsWith("Writing:"))
        .join("\n"),
    );
    console.log("== importing the same file again");
    const again = timed(["scripts/catalog-import.ts", file], target);
    console.log("== importing it with 10% new prices");
    const update = timed(["scripts/catalog-import.ts", changed], target);
    for (const [name, run, expected] of [
      ["fresh", fresh, `${COUNT.toLocaleString("en")} new products`],
      ["again", again, "nothing to change"],
      ["update", update, `${(COUNT / 10).toLocaleString("en")} updated products`],
    ] as const) {
      if (!run.output.includes(expected))
        throw new Error(`the ${name} import did not say "${expected}":\n${run.output}`);
    }
    console.log(
      `== ${PICTURED} products with ${PICTURED} photos, on PostgreSQL and on the embedded database`,
    );
    const pictured = await picturedCatalogue(folder);
    const picturedTarget = await scratchDatabase(SCRATCH_DATABASES[2]);
    timed(["scripts/db-migrate.ts"], picturedTarget);
    const withPictures = timed(["scripts/catalog-import.ts", pictured], picturedTarget);
    const picturesAgain = timed(["scripts/catalog-import.ts", pictured], picturedTarget);
    const embedded = { dataDir: path.join(folder, "embedded") };
    timed(["scripts/db-migrate.ts"], embedded);
    const withPicturesEmbedded = timed(["scripts/catalog-import.ts", pictured], embedded);
    if (
      !withPictures.output.includes(`${PICTURED} new products`) ||
      !picturesAgain.output.includes("nothing to change")
    )
      throw new Error(
        `the pictured import did not go as expected:\n${withPictures.output}\n${picturesAgain.output}`,
      );
    const mark = (seconds: number) => (seconds < TARGET_SECONDS ? "✅ met" : "❌ missed");
    const rows = [
      `| ${COUNT.toLocaleString("en")} new products (empty catalogue) | ${fresh.seconds.toFixed(1)} s | ${Math.round(COUNT / fresh.seconds).toLocaleString("en")} | ${mark(fresh.seconds)} |`,
      `| the same file again (nothing to change) | ${again.seconds.toFixed(1)} s | ${Math.round(COUNT / again.seconds).toLocaleString("en")} | ${mark(again.seconds)} |`,
      `| ${(COUNT / 10).toLocaleString("en")} new prices among ${COUNT.toLocaleString("en")} rows | ${update.seconds.toFixed(1)} s | ${Math.round(COUNT / update.seconds).toLocaleString("en")} | ${mark(update.seconds)} |`,
    ];
    const section = `## Import (npm run catalog:import)

${runInfoLine(info)}

A ${megabytes.toFixed(1)} MB CSV of ${COUNT.toLocaleString("en")} generated products (exported in ${exported.seconds.toFixed(1)} s), imported into PostgreSQL by \`npm run catalog:import\`; each time is the whole command, start to exit. Target: under ${TARGET_SECONDS} s.

| Import | Time | Rows/s | Target |
|---|---|---|---|
${rows.join("\n")}

An owner's ${PICTURED} products, each with its own 1600×1200 JPEG photo next to the CSV (each cut to 3 WebP widths; ${os.availableParallelism()} at a time):

| Import | Time | Photos/s |
|---|---|---|
| PostgreSQL, new | ${withPictures.seconds.toFixed(1)} s | ${(PICTURED / withPictures.seconds).toFixed(0)} |
| PostgreSQL, the same file again (photos known by their hash) | ${picturesAgain.seconds.toFixed(1)} s | ${(PICTURED / picturesAgain.seconds).toFixed(0)} |
| embedded database (PGlite), new | ${withPicturesEmbedded.seconds.toFixed(1)} s | ${(PICTURED / withPicturesEmbedded.seconds).toFixed(0)} |
`;
    const previous = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, "utf8") : "# Benchmark results\n";
    fs.writeFileSync(RESULTS, replaceSection(previous, "import-bench", section));
    console.log(`\n${section}\nRecorded in ${RESULTS}`);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    for (const name of SCRATCH_DATABASES) await dropScratchDatabase(name);
  }
}

await main();
