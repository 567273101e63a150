import v8 from "node:v8";

/**
 * How far V8 lets the old generation grow past what the last full collection found alive, in
 * percent. Left to itself, V8 picks a factor of up to 4 while a process allocates fast, and a shop
 * serving listings allocates fast: with the catalogue cache full (64 MiB) its resident memory went
 * on rising to 530–580 MiB over 15,000 distinct pages, most of it garbage waiting for a collection.
 * At 1.5 times it levelled off near 440 MiB (`npm run bench -- memory`, docs/decisions/0046).
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growth for this process, unless its command line already chose one. Called once
 * the search index is read: reading a large catalogue at start-up multiplies the live heap tenfold,
 * which V8's own choice does in fewer full collections (the 1,000,000-product start is timed by
 * `npm run bench -- index-changes`).
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((flag) => flag.startsWith("--heap-growing-percent"))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
