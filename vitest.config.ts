import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    environment: "node",
    setupFiles: ["./tests/support/each-test-file.ts"],
    // One migrated embedded database, which every test database starts from (tests/support/pglite-template.ts).
    globalSetup: ["./tests/support/pglite-template.ts"],
    // Most integration files wait on the shop processes and servers they start, not on the CPU:
    // three files at a time on two cores halve the suite's wall time (Vitest's default is cores - 1).
    maxWorkers: 3,
    // A test that starts shop processes waits for each to start: 20–25 s for some in a loaded CI run.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Chosen by where a test sits, so a new one lands in the right set with no list to edit.
    projects: [
      {
        extends: true,
        test: {
          // The unit and component tests, next to their code: in-process (an embedded database at
          // most), with no build, no shop process and no browser. `npm run test:quick` runs these.
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          // One module cache per worker instead of one per file: importing the shop's modules
          // afresh for each of a hundred files was most of this run's CPU time (269 s against
          // 96 s on two cores). The set-up file puts back what a file may leave changed.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // What builds the shop, starts processes or browsers, or lints fixtures: only `npm test`.
          name: "shop",
          include: ["tests/integration/**/*.test.ts", "tests/architecture/**/*.test.ts"],
          // The shop processes on the embedded database start from one first start's folder.
          globalSetup: ["./tests/support/shop-data-template.ts"],
        },
      },
    ],
  },
});
