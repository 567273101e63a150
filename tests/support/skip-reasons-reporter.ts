import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestCase } from "vitest/node";

/**
 * Writes every skipped test and the reason it gave (`context.skip(reason)`,
 * see requirements.ts) to test-results/skipped.json, for the closing summary
 * of `npm test`.
 */
export default class SkipReasonsReporter implements Reporter {
  private skipped: { test: string; reason: string }[] = [];

  onTestCaseResult(testCase: TestCase) {
    const result = testCase.result();
    if (result.state !== "skipped") return;
    this.skipped.push({
      test: `${testCase.module.moduleId.replace(`${process.cwd()}/`, "")} › ${testCase.fullName}`,
      reason: result.note ?? "(no reason given)",
    });
  }

  onTestRunEnd() {
    const file = path.resolve("test-results/skipped.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(this.skipped, null, 2)}\n`);
  }
}
