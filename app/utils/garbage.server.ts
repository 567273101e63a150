import v8 from "node:v8";
import vm from "node:vm";

/**
 * A full garbage collection, now, that also gives the freed memory back to
 * the system: for after a one-off job that left much behind, such as reading
 * a million products into the search index (their rows as strings, the
 * builder's growing arrays, a young generation grown to its maximum). Left to
 * itself V8 keeps that until some later collection — in a shop that sits
 * idle, possibly never: 250 MiB resident at 1M products (docs/decisions/0038).
 * A regular collection frees the objects but returns the pages only when V8's
 * memory reducer runs, 8 s later; the "last resort" flavour (several passes,
 * memory reduction included) does both at once: 80 ms at 1M products, once
 * per whole read of the index.
 *
 * The collector is reached the way V8's own `--expose-gc` flag offers it,
 * set at run time, so the shop needs no flag on its command line.
 */
export function collectGarbage(): void {
  collector ??= exposedCollector();
  collector({ type: "major", execution: "sync", flavor: "last-resort" });
}

let collector: Collector | undefined;

function exposedCollector(): Collector {
  const global = globalThis as { gc?: Collector };
  if (typeof global.gc === "function") return global.gc;
  v8.setFlagsFromString("--expose-gc");
  // The flag applies to contexts made after it: a new one has `gc`, and it collects the whole process's heap.
  return vm.runInNewContext("gc") as Collector;
}

/** V8's `gc` with its options (v8/src/extensions/gc-extension.cc). */
type Collector = (options?: {
  type?: "major" | "minor";
  execution?: "sync" | "async";
  flavor?: "regular" | "last-resort";
}) => void;
