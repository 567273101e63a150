/**
 * `npm run bench`: every benchmark, one after the other on a quiet machine,
 * each recording its figures in bench/RESULTS.md. Pass names to run some:
 * `npm run bench -- api auth`.
 */
import { spawnSync } from "node:child_process";
import os from "node:os";

const BENCHMARKS = {
  api: "bench/api.ts",
  search: "bench/search.ts",
  storefront: "bench/storefront.ts",
  auth: "bench/auth.ts",
  memory: "bench/memory.ts",
  import: "bench/import.ts",
  "index-changes": "bench/index-changes.ts",
  shop: "bench/shop.ts",
} as const;

const requested = process.argv.slice(2);
const names = (requested.length > 0 ? requested : Object.keys(BENCHMARKS)) as (keyof typeof BENCHMARKS)[];

// Always built afresh: a build left from older sources would be measured under this commit's name.
console.log("Building the shop from the working tree…");
if (spawnSync("react-router", ["build"], { stdio: "inherit" }).status !== 0) process.exit(1);

/**
 * Waits, up to two minutes, for the machine to settle (1-minute load average
 * under 1) so that one benchmark's load does not spill into the next one's
 * figures; each section records the load it started with either way.
 */
async function settle() {
  const deadline = Date.now() + 120_000;
  while ((os.loadavg()[0] ?? 0) >= 1 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
  console.log(`load average ${os.loadavg()[0]?.toFixed(2)}: starting`);
}

for (const name of names) {
  const file = BENCHMARKS[name];
  if (!file) {
    console.error(`Unknown benchmark "${name}"; choose from ${Object.keys(BENCHMARKS).join(", ")}.`);
    process.exit(2);
  }
  console.log(`\n===== ${name} (${file}) =====`);
  await settle();
  const result = spawnSync("tsx", [file], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
