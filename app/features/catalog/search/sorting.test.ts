import { describe, expect, it } from "vitest";
import { randomSource } from "../../../../tests/support/random-source";
import { denseRanks, orderById, orderByKey } from "./sorting";

/** The order a comparator sort gives: by key, then by rank. */
function comparatorOrder(keys: number[], rank: ArrayLike<number>): number[] {
  return keys
    .map((_, position) => position)
    .sort((a, b) => (keys[a] as number) - (keys[b] as number) || (rank[a] as number) - (rank[b] as number));
}

describe("orders by packed keys", () => {
  it("orders as the comparator sort does, ties by rank, whether the keys pack or not", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = randomSource(seed);
      const size = 1 + random.int(500);
      const ids = [...new Set(Array.from({ length: size * 2 }, () => 1 + random.int(2 ** 31 - 2)))].slice(
        0,
        size,
      );
      const byId = orderById(ids);
      expect([...byId]).toEqual(comparatorOrder(ids, ids));
      const rank = new Uint32Array(ids.length);
      byId.forEach((position, step) => {
        rank[position] = step;
      });
      // Few different keys (many ties), keys too large to pack, and fractions or negatives (neither packs).
      const choices = [
        () => random.int(5),
        () => 2 ** 52 + random.int(3),
        () => random.int(7) - 3 + (random.chance(0.5) ? 0.5 : 0),
      ];
      for (const choose of choices) {
        const keys = ids.map(() => choose());
        expect([...orderByKey((position) => keys[position] as number, rank, byId)]).toEqual(
          comparatorOrder(keys, rank),
        );
      }
    }
  });

  it("numbers values densely in ascending order", () => {
    expect(denseRanks([30, 10, 20, 10, -5, 30.5])).toEqual({
      ranks: Uint32Array.from([3, 1, 2, 1, 0, 4]),
      count: 5,
    });
  });
});
