import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Fixture, lintFixtures } from "../support/lint-fixtures";

/**
 * The import rules of docs/decisions/0014 are the linter's (biome.json,
 * noRestrictedImports per folder), so `npm run lint` fails on a layer break.
 * This test lints small fixture files with the project's own configuration,
 * in a scratch copy of the tree's shape: each break must be reported, each
 * allowed import must not.
 */

const importing = (specifier: string) =>
  `import { thing } from "${specifier}";\nexport const used = thing;\n`;

/** Every case's fixture file, registered while the tests are collected, and linted together. */
const fixtures: Fixture[] = [];
/** The rules each fixture file breaks, by its path. */
let broken = new Map<string, string[]>();

/**
 * The cases of an `it.each` table, each with a fixture file of its own: the
 * table's path with the case's number in the name (`app/x.ts` becomes
 * `app/x-3.ts`; the folder and the ending, which the rules look at, stay),
 * all linted together before the tests.
 */
function fixtureCases(cases: [name: string, file: string, specifier: string][]) {
  return cases.map(([name, file, specifier]) => {
    const own = path.posix.join(
      path.posix.dirname(file),
      path.posix.basename(file).replace(/^[^.]+/, (stem) => `${stem}-${fixtures.length}`),
    );
    fixtures.push({ file: own, source: importing(specifier) });
    return [name, own] as const;
  });
}

beforeAll(() => {
  broken = lintFixtures(fixtures);
});

/** The rules the fixture file `file` breaks. */
function restrictedImports(file: string): string[] {
  const rules = broken.get(file);
  if (!rules) throw new Error(`${file} was not linted`);
  return rules;
}

const BROKEN = ["lint/style/noRestrictedImports"];

describe("npm run lint refuses imports across the layers", () => {
  it.each(
    fixtureCases([
      ["a feature importing another feature", "app/features/catalog/x.ts", "~/features/auth/redirect"],
      [
        "a feature's component importing another feature",
        "app/features/auth/components/x.tsx",
        "~/features/catalog/browsing/catalog-url",
      ],
      [
        "a feature reaching another feature by a relative path",
        "app/features/auth/x.ts",
        "../catalog/browsing/catalog-url",
      ],
      [
        "a feature's component reaching another feature by a relative path",
        "app/features/auth/components/x.tsx",
        "../../catalog/browsing/catalog-url",
      ],
      ["a feature importing the router context", "app/features/catalog/x.ts", "~/context.server"],
      ["a feature importing a route", "app/features/catalog/x.ts", "~/routes/shop"],
      [
        "a shared component importing a feature",
        "app/components/layout/x.tsx",
        "~/features/auth/components/account-menu",
      ],
      [
        "a shared component reaching a feature by a relative path",
        "app/components/layout/x.tsx",
        "../../features/auth/redirect",
      ],
      [
        "the database layer importing a feature",
        "app/db/seed/x.ts",
        "~/features/catalog/core/catalog-vocabulary",
      ],
      [
        "the database layer reaching a feature by a relative path",
        "app/db/seed/x.ts",
        "../../features/catalog/core/catalog-vocabulary",
      ],
      ["a utility importing the router context", "app/utils/x.ts", "~/context.server"],
      ["the commerce layer importing a feature", "app/commerce/x.ts", "~/features/orders/order-json"],
      [
        "the commerce layer reaching a feature by a relative path",
        "app/commerce/x.ts",
        "../features/cart/cart.server",
      ],
      ["application code importing zod itself", "app/features/catalog/x.ts", "zod"],
      [
        "the catalogue's core importing its search",
        "app/features/catalog/core/x.ts",
        "../search/index.server",
      ],
      [
        "the catalogue's search importing browsing",
        "app/features/catalog/search/x.ts",
        "../browsing/catalog-url",
      ],
      [
        "the catalogue's management importing browsing",
        "app/features/catalog/management/x.ts",
        "../browsing/catalog.server",
      ],
      [
        "the catalogue's management importing the search",
        "app/features/catalog/management/x.ts",
        "../search/index.server",
      ],
      [
        "browsing reaching into the search's own modules",
        "app/features/catalog/browsing/x.ts",
        "../search/catalog-index.server",
      ],
      [
        "a browsing component reaching into the search's own modules",
        "app/features/catalog/browsing/components/x.tsx",
        "../../search/search-words",
      ],
      ["browsing importing management", "app/features/catalog/browsing/x.ts", "../management/index.server"],
      [
        "a back-office component of management importing browsing",
        "app/features/catalog/management/components/x.tsx",
        "../../browsing/back-office-listing.server",
      ],
      [
        "a shopper's component importing a back-office component",
        "app/features/catalog/browsing/components/x.tsx",
        "../../management/components/product-form",
      ],
      [
        "a catalogue module leaving the catalogue by a relative path",
        "app/features/catalog/search/x.ts",
        "../../auth/redirect",
      ],
      [
        "a route reaching into the search's own modules",
        "app/routes/x.ts",
        "~/features/catalog/search/catalog-index.server",
      ],
      [
        "a script reaching into management's own modules",
        "scripts/x.ts",
        "../app/features/catalog/management/catalog-file.server",
      ],
      ["a shared module importing zod itself", "app/utils/x.ts", "zod/v4"],
    ]),
  )("%s", (_name, file) => {
    expect(restrictedImports(file)).toEqual(BROKEN);
  });
});

describe("npm run lint allows imports that follow the layers", () => {
  it.each(
    fixtureCases([
      ["a feature importing inside itself", "app/features/auth/components/x.tsx", "../redirect"],
      ["a feature importing shared code", "app/features/catalog/x.ts", "~/components/ui/button"],
      ["a feature importing the database layer", "app/features/catalog/x.ts", "~/db/schema"],
      ["a feature importing the commerce layer", "app/features/orders/x.ts", "~/commerce/order-states"],
      [
        "a feature's component importing the commerce layer",
        "app/features/orders/components/x.tsx",
        "~/commerce/order-states",
      ],
      ["the commerce layer importing the database layer", "app/commerce/x.ts", "~/db/schema"],
      ["a feature importing zod through the CSP-safe wrapper", "app/features/catalog/x.ts", "~/utils/zod"],
      [
        "a route importing a feature and the router context",
        "app/routes/x.ts",
        "~/features/catalog/browsing/catalog.server",
      ],
      [
        "a route using the search through its entry",
        "app/routes/x.ts",
        "~/features/catalog/search/index.server",
      ],
      [
        "browsing using the search through its entry",
        "app/features/catalog/browsing/x.ts",
        "../search/index.server",
      ],
      [
        "a browsing component using the catalogue's core",
        "app/features/catalog/browsing/components/x.tsx",
        "../../core/catalog-format",
      ],
      ["the search using the catalogue's core", "app/features/catalog/search/x.ts", "../core/search-words"],
      [
        "management using the catalogue's core",
        "app/features/catalog/management/x.ts",
        "../core/catalog-schema",
      ],
      [
        "a back-office component of management using the catalogue's core",
        "app/features/catalog/management/components/x.tsx",
        "../../core/product-form-schema",
      ],
      [
        "a back-office route using management's components",
        "app/routes/x.tsx",
        "~/features/catalog/management/components/product-form",
      ],
      [
        "a script using management through its entry",
        "scripts/x.ts",
        "../app/features/catalog/management/index.server",
      ],
      [
        "a catalogue test reaching any part of the catalogue",
        "app/features/catalog/search/x.test.ts",
        "../browsing/catalog.server",
      ],
      ["the root composing features", "app/root.tsx", "~/features/auth/components/account-nav"],
      [
        "a test importing the test support",
        "app/features/auth/x.test.ts",
        "../../../tests/support/test-database",
      ],
    ]),
  )("%s", (_name, file) => {
    expect(restrictedImports(file)).toEqual([]);
  });
});
