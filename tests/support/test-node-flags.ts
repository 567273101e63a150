/**
 * V8 flags for the Node processes the tests run (Vitest's workers, and the shop processes and
 * commands the tests start): PGlite's WebAssembly compiled by the baseline compiler only, each
 * function when it is first called. Optimising it took 1.9 s of the 4.7 s of CPU time a shop took
 * to start, and 3 s of a worker's first embedded database, while a test process runs a few dozen
 * queries; on two cores the whole run is CPU-bound, so that time was the run's. The compiler tier
 * changes how fast the same code runs, never what it does. The benchmarks (bench/, not run by
 * Vitest) start the shop as production does, without these flags.
 */
export const TEST_NODE_FLAGS = ["--liftoff-only", "--wasm-lazy-compilation"];

/** The flags for a process a test starts: only under Vitest, so a benchmark's shop runs as in production. */
export const testProcessFlags = (): string[] => (process.env.VITEST ? TEST_NODE_FLAGS : []);
