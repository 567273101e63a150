import { expect, it } from "vitest";
import { checkFloorOnScratch } from "../../bench/floor-check";
import { describeWhen, postgresServer } from "../support/requirements";

/**
 * The cart and checkout benchmark compares the shop with the floor of its
 * work: bench/floor-server.mjs, a bare server running the shop's own SQL
 * statements. When the shop's statements change and the floor's do not, the
 * benchmark's ratios measure something else: a variant's options read
 * another way went unnoticed until a benchmark run. Checked here on every
 * run with PostgreSQL, as the benchmark checks it before measuring.
 */
describeWhen(
  [postgresServer],
  "the benchmark's floor server",
  () => {
    it("runs the shop's statements for adds and a checkout, the same and in the same order", async () => {
      const check = await checkFloorOnScratch();
      expect(check.differences).toEqual([]);
      expect(check.shop.length).toBeGreaterThan(0);
    });
  },
  { timeout: 180_000 },
);
