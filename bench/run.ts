/**
 * `npm run bench`: every benchmark, one after the other on a quiet machine,
 * each recording its figures in bench/RESULTS.md. Pass names to run some:
 * `npm run bench -- api auth`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const BENCHMARKS = {
  api: "bench/api.ts",
  storefront: "bench/storefront.ts",
  auth: "bench/auth.ts",
  memory: "bench/memory.ts",
} as const;

const requested = process.argv.slice(2);
const names = (requested.length > 0 ? requested : Object.keys(BENCHMARKS)) as (keyof typeof BENCHMARKS)[];

if (!fs.existsSync(path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js"))) {
  console.log("No build yet: building…");
  if (spawnSync("react-router", ["build"], { stdio: "inherit" }).status !== 0) process.exit(1);
}

for (const name of names) {
  const file = BENCHMARKS[name];
  if (!file) {
    console.error(`Unknown benchmark "${name}"; choose from ${Object.keys(BENCHMARKS).join(", ")}.`);
    process.exit(2);
  }
  console.log(`\n===== ${name} (${file}) =====`);
  const result = spawnSync("tsx", [file], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
