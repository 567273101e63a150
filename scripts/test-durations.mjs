// `npm run test:durations`: records each test file's time from the last `npm test`
// (test-results/vitest.json) in tests/support/test-durations.json, which orders the next runs
// longest first where Vitest has no times of its own (vitest.config.ts, LongestFirst).
// Run it after a full `npm test` on a two-core machine when files were added or got slower.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const report = path.resolve(root, process.argv[2] ?? "test-results/vitest.json");
const target = path.join(root, "tests/support/test-durations.json");

const { testResults } = JSON.parse(fs.readFileSync(report, "utf8"));
const seconds = Object.fromEntries(
  testResults
    .map((file) => [path.relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
fs.writeFileSync(target, `${JSON.stringify(seconds, null, 2)}\n`);
process.stdout.write(
  `Recorded the times of ${testResults.length} test files in ${path.relative(root, target)}.\n`,
);
