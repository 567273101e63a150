import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { fixedStatement } from "./fixed-statement.server";
import { products } from "./schema";

const engines = await openTestDatabases();

/** A statement naming a value twice, with a constant of its own and arrays, as the checkout's do. */
const sums = fixedStatement<{ twice: number; seven: number; each: number }, "n" | "ns">(
  (value) => sql`
    select (${value("n")}::int + ${value("n")}::int) as "twice", ${7}::int as "seven", each::int as "each"
      from unnest(${value("ns")}::int[]) as each`,
);

describe.each(engines)("a fixed statement on $name", (engine: TestDatabase) => {
  it("slots each run's values in by name, every place the name stands, and keeps its constants", async () => {
    expect(await sums(engine.db, { n: 4, ns: [1, 2] })).toEqual([
      { twice: 8, seven: 7, each: 1 },
      { twice: 8, seven: 7, each: 2 },
    ]);
    // Built once, run again with other values: nothing of the first run stays.
    expect(await sums(engine.db, { n: -1, ns: [3] })).toEqual([{ twice: -2, seven: 7, each: 3 }]);
  });

  it("reads the bigint columns it names as numbers, and leaves a null as null", async () => {
    const amounts = fixedStatement<{ amount: number | null; text: string }, "amount">(
      (value) =>
        sql`select ${value("amount")}::bigint as "amount", ${value("amount")}::bigint::text as "text"`,
      { numbers: ["amount"] },
    );
    expect(await amounts(engine.db, { amount: 9_007_199_254_740_991 })).toEqual([
      { amount: 9_007_199_254_740_991, text: "9007199254740991" },
    ]);
    expect(await amounts(engine.db, { amount: null })).toEqual([{ amount: null, text: null }]);
  });

  it("runs in a transaction, and sends text as given (a quote, a comma, a brace: no SQL of its own)", async () => {
    const named = fixedStatement<{ name: string }, "names">(
      (value) => sql`select name as "name" from unnest(${value("names")}::text[]) as name`,
    );
    const names = ["O'Brien, {Ltd}", 'say "hi"', "$1"];
    const rows = await engine.db.transaction((tx) => named(tx, { names }));
    expect(rows.map((row) => row.name)).toEqual(names);
  });
});
reportPostgresSkipped("a fixed statement on $name");

describe("a fixed statement's text", () => {
  it("is refused when it holds a $ of its own, which could not be told from a value's place", () => {
    expect(() =>
      fixedStatement(() => sql`select ${products.id} from ${products} where ${products.sku} = '$1'`),
    ).toThrow(/holds a "\$" of its own/);
  });
});
