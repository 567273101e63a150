import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every change of an order's status goes through the one table of
 * transitions (app/commerce/order-states.ts): no code writes a status of its
 * own choosing to `orders`. This reads every update of `orders` in app/ and
 * server/ and refuses one that sets `status` to a literal.
 */

const ROOTS = ["app", "server"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Each `.update(orders)…set({ … })` in the text: the set's object, as written. */
function orderUpdates(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\.update\(orders\)\s*\.set\(\{/g)) {
    const start = (match.index ?? 0) + match[0].length;
    found.push(text.slice(start, text.indexOf("})", start)));
  }
  return found;
}

const literalStatus = /\bstatus:\s*["'`]/;

describe("order status writes", () => {
  it("finds the updates it reads, and a literal status among them", () => {
    const sample = `await tx.update(orders).set({ status: "cancelled" }).where(x);
      await tx.update(orders).set({ status: refund.to, paymentDueAt: null });`;
    expect(orderUpdates(sample).map((set) => literalStatus.test(set))).toEqual([true, false]);
  });

  it("never sets a status to a literal: every change is a transition of the table", () => {
    const files = ROOTS.flatMap(sourceFiles);
    const updates = files.flatMap((file) =>
      orderUpdates(fs.readFileSync(file, "utf8")).map((set) => ({ file, set })),
    );
    expect(updates.length).toBeGreaterThan(3);
    expect(updates.filter(({ set }) => literalStatus.test(set)).map(({ file }) => file)).toEqual([]);
  });
});
