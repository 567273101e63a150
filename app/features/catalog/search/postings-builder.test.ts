import { describe, expect, it } from "vitest";
import { randomSource } from "../../../../tests/support/random-source";
import type { PostingList } from "./postings";
import { LexemeNumbers, PostingsBuilder } from "./postings-builder";

/** Each lexeme's positions, as a list or a bit set says them. */
function positionsOf(list: PostingList | undefined): number[] {
  if (!list) return [];
  if (list.positions) return [...list.positions];
  const found: number[] = [];
  list.bits.forEach((block, at) => {
    for (let bit = 0; bit < 32; bit++) if ((block >>> bit) & 1) found.push(at * 32 + bit);
  });
  return found;
}

describe("posting lists built product by product", () => {
  it("lists every lexeme's positions ascending, for the whole products and their names, however large the vocabulary", () => {
    for (const seed of [1, 2, 3]) {
      const random = randomSource(seed);
      // Thousands of lexemes: the first products' names use a few words while their descriptions
      // number thousands; later names bring new words, numbered far past anything the names' own
      // builder has counted.
      const vocabulary = Array.from({ length: 6000 }, (_, at) => `w${at}`);
      const products = Array.from({ length: 600 }, (_, at) => {
        const nameWord = () =>
          at < 300 ? `n${random.int(10)}` : (vocabulary[5000 + random.int(1000)] as string);
        const name = Array.from({ length: 1 + random.int(3) }, nameWord);
        const description = Array.from({ length: 20 }, () => vocabulary[random.int(5000)] as string);
        return { name: [...new Set(name)], all: [...new Set([...description, ...name])] };
      });
      // A few lexemes every product carries: bit sets beside the lists.
      for (const product of products) product.all.push("common");
      const numbers = new LexemeNumbers();
      const all = new PostingsBuilder(numbers);
      const names = new PostingsBuilder(numbers);
      for (const product of products) {
        all.add(product.all);
        names.add(product.name);
      }
      // Positions in a shuffled order of the products added.
      const added = Uint32Array.from(products.keys());
      for (let at = added.length - 1; at > 0; at--) {
        const other = random.int(at + 1);
        [added[at], added[other]] = [added[other] as number, added[at] as number];
      }
      const expected = (pick: (product: (typeof products)[number]) => string[]) => {
        const lists = new Map<string, number[]>();
        added.forEach((product, position) => {
          for (const lexeme of pick(products[product] as (typeof products)[number])) {
            lists.set(lexeme, [...(lists.get(lexeme) ?? []), position]);
          }
        });
        return lists;
      };
      const built = (phases: ReturnType<PostingsBuilder["build"]>) => {
        for (;;) {
          const step = phases.next();
          if (step.done) return step.value;
        }
      };
      const allLists = built(all.build(added));
      for (const [lists, want] of [
        [allLists, expected((product) => product.all)],
        [built(names.build(added)), expected((product) => product.name)],
      ] as const) {
        expect([...lists.keys()].sort()).toEqual([...want.keys()].sort());
        for (const [lexeme, positions] of want)
          expect(positionsOf(lists.get(lexeme)), lexeme).toEqual(positions);
      }
      // Carried by every product: a bit set, read as the same positions above.
      expect(allLists.get("common")?.bits).toBeDefined();
    }
  });
});
