import { Param, Placeholder, SQL, StringChunk, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database, Transaction } from "./client.server";

/**
 * A statement of the shop's busiest paths (add to cart, checkout, the mail
 * sender), its text built once (docs/decisions/0047).
 *
 * drizzle builds a query's text anew on every call, walking its tables,
 * columns and conditions: for the dozen statements of a checkout that cost
 * the shop more CPU than the statements' own round trips to PostgreSQL. A
 * fixed statement is written once, with drizzle's `sql` (so it still names the
 * schema's tables and columns) and a named placeholder for each value; each
 * run only slots the values in.
 *
 * It answers the driver's rows under the names the statement gives its
 * columns; the `bigint` columns it lists in `numbers` are read as numbers (the
 * schema's mode for them: node-postgres reads them as text). Values are sent
 * as given: JSON as text (JSON.stringify), times as ISO text.
 */

/** Whatever runs statements: the database, or a transaction of it. */
type Runner = Pick<Database, "execute"> | Pick<Transaction, "execute">;

/** Where each `$n` of the text takes its value from: a named value of the run, or a constant of the statement. */
type Slot<Name extends string> = { name: Name } | { constant: unknown };

const dialect = new PgDialect();

type FixedStatement<Name extends string, Row> = (
  runner: Runner,
  values: Readonly<Record<Name, unknown>>,
) => Promise<Row[]>;

/**
 * A statement written once: `write` gets `value(name)`, a placeholder for
 * the value of that name each run brings; `numbers` names the columns of
 * type `bigint` it answers (money in minor units, ids), read as numbers.
 */
export function fixedStatement<Row, Name extends string = never>(
  write: (value: (name: Name) => Placeholder) => SQL,
  { numbers = [] }: { numbers?: readonly (keyof Row & string)[] } = {},
): FixedStatement<Name, Row> {
  const query = dialect.sqlToQuery(write((name) => sql.placeholder(name)));
  // The parameters are numbered $1, $2, … in the order they stand, each once (drizzle's own numbering).
  const texts = query.sql.split(/\$\d+\b/);
  if (texts.length !== query.params.length + 1) {
    throw new Error(`a fixed statement's text holds a "$" of its own: ${query.sql}`);
  }
  const slots: Slot<Name>[] = query.params.map((param) =>
    param instanceof Placeholder ? { name: param.name as Name } : { constant: param },
  );
  const textChunks = texts.map((text) => new StringChunk(text));
  return async (runner, values) => {
    const chunks: (StringChunk | Param)[] = [textChunks[0] as StringChunk];
    slots.forEach((slot, at) => {
      chunks.push(
        new Param("name" in slot ? values[slot.name] : slot.constant),
        textChunks[at + 1] as StringChunk,
      );
    });
    const result = await runner.execute(new SQL(chunks));
    // Both drivers (node-postgres and PGlite) answer { rows }.
    const { rows } = result as unknown as { rows: Record<string, unknown>[] };
    for (const row of rows)
      for (const column of numbers) if (row[column] != null) row[column] = Number(row[column]);
    return rows as Row[];
  };
}
