import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { TEST_NODE_FLAGS } from "./tests/support/test-node-flags";

/** Each test file's time in a full `npm test` on a two-core machine, in seconds (scripts/test-durations.mjs). */
const RECORDED_DURATIONS = path.resolve(import.meta.dirname, "tests/support/test-durations.json");

function recordedSeconds(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(RECORDED_DURATIONS, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Runs the longest test files first, so that the last minutes of a run are not one slow file
 * working alone while the other workers have nothing left. Vitest does this by itself only with
 * the durations it cached in an earlier run on this machine; in a fresh clone (CI) it orders by
 * file size, which started the two slowest files (they start dozens of shop processes from small
 * files) four minutes in, and the run ended three minutes after everything else. Without a cached
 * duration this takes the recorded one; a file that has neither (a new one) runs first.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const recorded = recordedSeconds();
    const cache = this.ctx.cache;
    const milliseconds = (spec: TestSpecification) => {
      const cached = cache.getTestSpecificationResult(spec);
      if (cached) return cached.failed ? Number.POSITIVE_INFINITY : cached.duration;
      const seconds = recorded[path.relative(this.ctx.config.root, spec.moduleId)];
      return seconds === undefined ? Number.POSITIVE_INFINITY : seconds * 1000;
    };
    const ordered = await super.sort(files);
    const rank = new Map(ordered.map((spec, index) => [spec, index]));
    return [...ordered].sort((a, b) => {
      // Projects still run one after the other, in Vitest's order.
      if (a.project.name !== b.project.name) return (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
      const difference = milliseconds(b) - milliseconds(a);
      return Number.isNaN(difference) || difference === 0
        ? (rank.get(a) ?? 0) - (rank.get(b) ?? 0)
        : difference;
    });
  }
}

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
    // PGlite's WebAssembly unoptimised in the workers and the processes they start (tests/support/test-node-flags.ts).
    execArgv: TEST_NODE_FLAGS,
    // One module cache per worker instead of one per file: importing the shop's modules afresh for
    // each of a hundred unit files was most of their CPU time (269 s against 96 s on two cores),
    // and a fresh worker per integration file 65 of the 547 s of CPU that project took. The set-up
    // file (tests/support/each-test-file.ts) puts back what a file may leave changed.
    isolate: false,
    // The longest files first, also in a fresh clone (LongestFirst, above).
    sequence: { sequencer: LongestFirst },
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
