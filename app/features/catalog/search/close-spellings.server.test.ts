import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closeSpellingRanks, SEARCH_STEPS, spellingTrie } from "./close-spellings.server";

/** The optimal string alignment distance, the plain way: the table in full. */
function distance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = table[i] as number[];
      const above = table[i - 1] as number[];
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((table[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (table[a.length] as number[])[b.length] as number;
}

/**
 * What a pass over every word finds (the vocabulary's behaviour before the
 * trie): whole words within `allowed`, or words whose start as long as the
 * typed word (give or take `allowed`) is, beginning with the same letter;
 * all at the best distance, most used first.
 */
function everyWordPass(typed: string, words: string[], allowed: number, asStart: boolean): number[] {
  let best = allowed + 1;
  let found: number[] = [];
  words.forEach((word, rank) => {
    if (/\p{N}/u.test(word) || word.length < typed.length - allowed) return;
    if (asStart ? word[0] !== typed[0] : word.length > typed.length + allowed) return;
    let measured = distance(typed, word);
    if (asStart) {
      for (let length = typed.length - allowed; length <= typed.length + allowed; length++) {
        if (length > 0 && length < word.length)
          measured = Math.min(measured, distance(typed, word.slice(0, length)));
      }
    }
    if (measured < best) [best, found] = [measured, [rank]];
    else if (measured === best) found.push(rank);
  });
  return best <= allowed ? found : [];
}

function trieOf(words: string[]) {
  const sorted = [...words].sort();
  return spellingTrie(
    sorted,
    Uint32Array.from(sorted, (word) => words.indexOf(word)),
  );
}

const letters = fc.constantFrom(..."abcde1");
const wordOf = (min: number, max: number) =>
  fc.array(letters, { minLength: min, maxLength: max }).map((chars) => chars.join(""));

describe("closeSpellingRanks", () => {
  it("finds exactly what a pass over every word finds, whole words and starts alike", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(wordOf(1, 9), { minLength: 1, maxLength: 60 }),
        wordOf(1, 8),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        (words, typed, allowed, asStart) => {
          const found = closeSpellingRanks(typed, trieOf(words), allowed, asStart, { steps: SEARCH_STEPS });
          expect(found).toEqual(everyWordPass(typed, words, allowed, asStart));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("counts a swap of two neighbouring letters as one typo", () => {
    const words = ["mat", "headphones", "blender"];
    expect(closeSpellingRanks("mta", trieOf(words), 1, false, { steps: SEARCH_STEPS })).toEqual([0]);
    expect(closeSpellingRanks("hedpho", trieOf(words), 1, true, { steps: SEARCH_STEPS })).toEqual([1]);
  });

  it("stops when its budget is spent and offers nothing rather than a worse spelling", () => {
    const words = Array.from({ length: 5000 }, (_, at) =>
      `w${at.toString(36)}x`.replace(/\d/g, (d) => "klmnopqrst"[Number(d)] as string),
    );
    const trie = trieOf(words);
    const budget = { steps: 50 };
    expect(closeSpellingRanks("wkkkk", trie, 2, false, budget)).toBeNull();
    expect(budget.steps).toBeLessThan(0);
    // With room to finish, the same walk answers.
    expect(closeSpellingRanks("wkkkk", trie, 2, false, { steps: SEARCH_STEPS })).not.toBeNull();
  });
});
