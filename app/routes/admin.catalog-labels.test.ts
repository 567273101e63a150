import { like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, brands } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { action, loader } from "./admin.catalog-labels";

/** The brands and categories page: add, rename, move up and down, each with an audit entry; refusals name the field. */
const engines = await openTestDatabases();
reportPostgresSkipped("the brands and categories page");

describe.each(engines)("brands and categories on $name", (engine: TestDatabase) => {
  const { context, signedUpAs } = shopContext(engine);
  const send = async (form: Record<string, string>) =>
    sendForm(action, context, "/admin/products/brands-and-categories", {
      form,
      cookie: await signedUpAs(`staff-${Math.random().toString(36).slice(2, 8)}@example.com`, "staff"),
    });
  const order = async () =>
    (await engine.db.select().from(brands).where(like(brands.value, "lab%")))
      .sort((a, b) => a.position - b.position || a.label.localeCompare(b.label))
      .map((row) => `${row.value}:${row.label}`);

  it("adds, renames and reorders brands, and refuses a value twice or a bad one by its field", async () => {
    for (const [value, label] of [
      ["labA", "Alpha"],
      ["labB", "Bravo"],
      ["labC", "Charlie"],
    ]) {
      const added = await send({
        intent: "add",
        kind: "brand",
        value: value as string,
        label: label as string,
        form: "add-brand",
      });
      expect(added.body).toMatchObject({ done: "Added." });
    }
    const twice = await send({
      intent: "add",
      kind: "brand",
      value: "labA",
      label: "Again",
      form: "add-brand",
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({
      form: "add-brand",
      result: { error: { value: ["There is already a brand labA."] } },
    });
    const bad = await send({ intent: "add", kind: "brand", value: "a b/c", label: "", form: "add-brand" });
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { result: { error: object } }).result.error).sort()).toEqual([
      "label",
      "value",
    ]);

    await send({ intent: "rename", kind: "brand", value: "labB", label: "Bravo Gear", form: "brand:labB" });
    await send({ intent: "move-up", kind: "brand", value: "labC", form: "brand:labC" });
    await send({ intent: "move-up", kind: "brand", value: "labC", form: "brand:labC" });
    expect(await order()).toEqual(["labC:Charlie", "labA:Alpha", "labB:Bravo Gear"]);
    await send({ intent: "move-down", kind: "brand", value: "labC", form: "brand:labC" });
    expect(await order()).toEqual(["labA:Alpha", "labC:Charlie", "labB:Bravo Gear"]);

    const page = await sendForm(loader, context, "/admin/products/brands-and-categories", {
      method: "GET",
      cookie: await signedUpAs("reader@example.com", "staff"),
    });
    const listed = (page.body as { brand: { value: string }[] }).brand.map((row) => row.value);
    expect(listed.filter((value) => value.startsWith("lab"))).toEqual(["labA", "labC", "labB"]);

    const entries = await engine.db
      .select()
      .from(auditLog)
      .where(like(auditLog.subject, "brand:lab%"))
      .orderBy(auditLog.id);
    expect(entries.map((entry) => `${entry.action} ${entry.subject}`)).toEqual([
      "brand.added brand:labA",
      "brand.added brand:labB",
      "brand.added brand:labC",
      "brand.renamed brand:labB",
      "brand.moved brand:labC",
      "brand.moved brand:labC",
      "brand.moved brand:labC",
    ]);
  });
});
