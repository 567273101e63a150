import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { failedWith, UNIQUE_VIOLATION } from "~/db/errors.server";
import { brands, categories } from "~/db/schema";
import { type Actor, recordChange } from "~/utils/audit-log.server";
import type { CatalogLabelForm, LabelKind } from "../core/product-form-schema";

/**
 * The catalogue's brands and categories as the back office keeps them: add
 * one, rename its label, move it up or down the order shoppers see. Each in
 * a transaction with its audit entry. A change to either table is recorded
 * by the triggers as "anything may have changed" (drizzle/0008): every
 * process reads its index again — rare, and what these changes need.
 */

const TABLES = { brand: brands, category: categories } as const;

/** Each kind's rows in the shop's order: position, then label. */
export async function catalogLabels(db: Pick<Database, "select">) {
  const read = (kind: LabelKind) => {
    const table = TABLES[kind];
    return db
      .select({ value: table.value, label: table.label })
      .from(table)
      .orderBy(asc(table.position), asc(table.label));
  };
  const [brandRows, categoryRows] = await Promise.all([read("brand"), read("category")]);
  return { brand: brandRows, category: categoryRows };
}

export type LabelChange = { done: true } | { refused: { field: "value" | "label"; message: string } };

const NAMES: Record<LabelKind, string> = { brand: "brand", category: "category" };

/** Applies one form of the brands and categories page. */
export async function changeCatalogLabel(
  db: Database,
  actor: Actor,
  form: CatalogLabelForm,
): Promise<LabelChange> {
  const table = TABLES[form.kind];
  const subject = `${form.kind}:${form.value}`;
  try {
    return await db.transaction(async (tx): Promise<LabelChange> => {
      // One change to a kind's order at a time: two staff moving at once each see the other's result.
      const rows = await tx
        .select({ value: table.value, label: table.label, position: table.position })
        .from(table)
        .orderBy(asc(table.position), asc(table.label))
        .for("update");
      const at = rows.findIndex((row) => row.value === form.value);
      if (form.intent === "add") {
        if (at >= 0) {
          return {
            refused: { field: "value", message: `There is already a ${NAMES[form.kind]} ${form.value}.` },
          };
        }
        const position = rows.reduce((last, row) => Math.max(last, row.position + 1), 0);
        await tx.insert(table).values({ value: form.value, label: form.label, position });
        await recordChange(tx, actor, {
          action: `${form.kind}.added`,
          subject,
          subjectName: `the ${NAMES[form.kind]} ${form.label} (${form.value})`,
          after: { value: form.value, label: form.label },
        });
        return { done: true };
      }
      const row = rows[at];
      if (!row)
        return { refused: { field: "value", message: `There is no ${NAMES[form.kind]} ${form.value}.` } };
      if (form.intent === "rename") {
        if (row.label !== form.label) {
          await tx.update(table).set({ label: form.label }).where(eq(table.value, form.value));
          await recordChange(tx, actor, {
            action: `${form.kind}.renamed`,
            subject,
            subjectName: `the ${NAMES[form.kind]} ${form.label} (${form.value})`,
            names: [row.label],
            before: { label: row.label },
            after: { label: form.label },
          });
        }
        return { done: true };
      }
      const to = form.intent === "move-up" ? at - 1 : at + 1;
      // At the top moving up, or the bottom moving down: already there.
      if (to < 0 || to >= rows.length) return { done: true };
      const order = rows.map((entry) => entry.value);
      [order[at], order[to]] = [order[to] as string, order[at] as string];
      // Numbered afresh 0, 1, 2…: rows added by imports all start at 0, and only their labels order them.
      await tx
        .update(table)
        .set({ position: sql`array_position(${sql.param(order)}::text[], ${table.value}) - 1` })
        .where(sql`${table.value} = any(${sql.param(order)}::text[])`);
      await recordChange(tx, actor, {
        action: `${form.kind}.moved`,
        subject,
        subjectName: `the ${NAMES[form.kind]} ${row.label} (${form.value})`,
        before: { position: at + 1 },
        after: { position: to + 1 },
      });
      return { done: true };
    });
  } catch (error) {
    // Added by someone else between the read and the insert.
    if (failedWith(error, UNIQUE_VIOLATION)) {
      return {
        refused: { field: "value", message: `There is already a ${NAMES[form.kind]} ${form.value}.` },
      };
    }
    throw error;
  }
}
