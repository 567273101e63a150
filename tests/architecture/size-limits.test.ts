import { beforeAll, describe, expect, it } from "vitest";
import { lintFixtures } from "../support/lint-fixtures";

/**
 * No source file in app/, server/ or scripts/ over 450 lines and no function
 * over 150 (STYLE.md, issue 22): the linter's rules (biome.json,
 * noExcessiveLinesPerFile and noExcessiveLinesPerFunction), so `npm run lint`
 * names the file or function. Tests and the demo's drawing
 * (scripts/catalog/product-image.ts) are exempt. This test lints fixture
 * files just past and just at each limit.
 */

const FILE_LIMIT = 450;
const FUNCTION_LIMIT = 150;
const TOO_LONG_FILE = ["lint/style/noExcessiveLinesPerFile"];
const TOO_LONG_FUNCTION = ["lint/complexity/noExcessiveLinesPerFunction"];

/** A module of `lines` lines, none of them in a function. */
const moduleOf = (lines: number) =>
  Array.from({ length: lines }, (_, at) => `export const value${at} = ${at};`).join("\n");

/** A module with one function whose body has `lines` lines. */
const functionOf = (lines: number) =>
  [
    "export function tally(): number {",
    "  let total = 0;",
    ...Array.from({ length: lines - 2 }, (_, at) => `  total += ${at};`),
    "  return total;",
    "}",
  ].join("\n");

const CASES = {
  "app/features/x/long.server.ts": moduleOf(FILE_LIMIT + 1),
  "server/long.ts": moduleOf(FILE_LIMIT + 1),
  "scripts/long.ts": moduleOf(FILE_LIMIT + 1),
  "app/routes/at-limit.tsx": moduleOf(FILE_LIMIT),
  "app/features/x/long.test.ts": moduleOf(FILE_LIMIT + 100),
  "scripts/catalog/product-image.ts": `${moduleOf(FILE_LIMIT + 1)}\n${functionOf(FUNCTION_LIMIT + 1)}`,
  "app/utils/long-function.ts": functionOf(FUNCTION_LIMIT + 1),
  "server/long-function.ts": functionOf(FUNCTION_LIMIT + 1),
  "app/utils/function-at-limit.ts": functionOf(FUNCTION_LIMIT),
};

let broken = new Map<string, string[]>();
beforeAll(() => {
  broken = lintFixtures(Object.entries(CASES).map(([file, source]) => ({ file, source })));
});

describe("npm run lint refuses long files and functions", () => {
  it.each(["app/features/x/long.server.ts", "server/long.ts", "scripts/long.ts"])(
    `refuses ${FILE_LIMIT + 1} lines in %s`,
    (file) => {
      expect(broken.get(file)).toEqual(TOO_LONG_FILE);
    },
  );

  it(`allows a file of ${FILE_LIMIT} lines`, () => {
    expect(broken.get("app/routes/at-limit.tsx")).toEqual([]);
  });

  it.each(["app/utils/long-function.ts", "server/long-function.ts"])(
    `refuses a function of ${FUNCTION_LIMIT + 1} lines in %s`,
    (file) => {
      expect(broken.get(file)).toEqual(TOO_LONG_FUNCTION);
    },
  );

  it(`allows a function of ${FUNCTION_LIMIT} lines`, () => {
    expect(broken.get("app/utils/function-at-limit.ts")).toEqual([]);
  });

  it("leaves tests and the demo's drawing alone", () => {
    expect(broken.get("app/features/x/long.test.ts")).toEqual([]);
    expect(broken.get("scripts/catalog/product-image.ts")).toEqual([]);
  });
});
