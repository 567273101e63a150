import v8 from "node:v8";

/**
 * How far V8 lets the old generation grow past what the last full collection found alive, in
 * percent. Left to itself, V8 picks a factor of up to 4 while a process allocates fast, and a shop
 * serving listings allocates fast: with the catalogue cache full (64 MiB), dead objects and the
 * Buffers they own waited ever longer for a full collection, and resident memory went on rising to
 * 513–580 MiB over 15,000 distinct pages. At 1.5 times it levels off at 439–455 MiB
 * (`npm run bench -- memory`, docs/decisions/0046).
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growth for this process, unless its command line already chose one
 * (`--heap-growing-percent=0` gives the choice back to V8). Called once the search index is read:
 * reading a large catalogue at start-up multiplies the live heap (455 MB of index at 1,000,000
 * products), which V8's own choice gets through with fewer full collections.
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  // V8 reads its flags with dashes or underscores alike.
  if (execArgv.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
