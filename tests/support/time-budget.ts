import { expect } from "vitest";

/**
 * A time limit a fault test keeps because the behaviour is the limit (a frozen database must fail a
 * request in seconds, not hang it). How fast the shop is otherwise is measured by the benchmarks, not
 * asserted by tests. The time taken is printed with the limit, so a run shows how much room was left.
 */
export function expectWithinBudget(what: string, milliseconds: number, budgetMs: number) {
  console.info(`${what}: ${Math.round(milliseconds)} ms (budget ${budgetMs} ms)`);
  expect(milliseconds, `${what} took ${Math.round(milliseconds)} ms`).toBeLessThanOrEqual(budgetMs);
}
