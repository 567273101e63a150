import { describe, expect, it } from "vitest";
import { interpretSearch, searchVocabulary, suggestSpelling } from "./search-vocabulary.server";

/** Words as a catalogue holds them, most used first. */
const vocabulary = searchVocabulary([
  "cyclefit",
  "blendmaster",
  "pro",
  "headphones",
  "earphones",
  "blender",
  "yoga",
  "mat",
  "matte",
  "format",
  "spring",
  "12",
  "kettlebell",
  "running",
  "shoes",
  "phones",
  "lamp",
  "lumps",
  "maps",
  "tent",
  "port",
  "portable",
  "supports",
  "bearing",
  "wireless",
  "cordless",
  "cord",
  "foot",
  "football",
  "battery",
]);

describe("interpretSearch", () => {
  it("tells no search (undefined) from a search with no word in it (null)", () => {
    expect(interpretSearch(undefined, vocabulary)).toBeUndefined();
    expect(interpretSearch("   ", vocabulary)).toBeUndefined();
    expect(interpretSearch("?! 🎧", vocabulary)).toBeNull();
  });

  it("keeps a word the catalogue has a word starting with as it is", () => {
    expect(interpretSearch("blend", vocabulary)).toEqual([{ typed: "blend", alike: [], corrected: false }]);
  });

  it("never corrects a plural of a catalogue word: the stemmer finds it", () => {
    for (const plural of ["lamps", "mats", "tents", "batteries"]) {
      expect(interpretSearch(plural, vocabulary)?.[0], plural).toEqual({
        typed: plural,
        alike: [],
        corrected: false,
      });
    }
  });

  it("splits only real compounds: a word of its own before it, or the typed word used alone", () => {
    expect(interpretSearch("ball", vocabulary)?.[0]?.alike).toEqual(["football"]);
    expect(interpretSearch("phone", vocabulary)?.[0]?.alike).toEqual(["headphones", "earphones"]);
    // Suffixes are not words, and "bea" or "sup" are not starts of compounds.
    expect(interpretSearch("able", vocabulary)?.[0]?.alike).toEqual([]);
    expect(interpretSearch("less", vocabulary)?.[0]?.alike).toEqual([]);
    expect(interpretSearch("ring", vocabulary)?.[0]?.alike).toEqual([]);
    expect(interpretSearch("port", vocabulary)?.[0]?.alike).toEqual([]);
  });

  it("corrects at most three words of one search", () => {
    const words = interpretSearch("blendr headphnes kettlbel yogaa", vocabulary) ?? [];
    expect(words.map((word) => word.corrected)).toEqual([true, true, true, false]);
  });

  it("counts every word that tries a correction, found or not, against the three", () => {
    // Three words nothing is close to use up the tries: the fourth, a real typo, is left as typed.
    const words = interpretSearch("qxzvw wqxzv zvwqx blendr", vocabulary) ?? [];
    expect(words.map((word) => word.corrected)).toEqual([false, false, false, false]);
    expect(words[3]).toEqual({ typed: "blendr", alike: [], corrected: false });
  });

  it("adds the compounds a word ends, but not from a short word or a short head", () => {
    expect(interpretSearch("phones", vocabulary)).toEqual([
      { typed: "phones", alike: ["headphones", "earphones"], corrected: false },
    ]);
    // "mat" is in "format", but three letters are too few to split out of a word.
    expect(interpretSearch("mat", vocabulary)?.[0]?.alike).toEqual([]);
    // "ring" ends "spring", but "sp" is no word of its own.
    expect(interpretSearch("ring", vocabulary)?.[0]?.alike).toEqual([]);
  });

  it("answers a word nothing starts with by its close spellings", () => {
    expect(interpretSearch("blendr", vocabulary)).toEqual([
      { typed: "blendr", alike: ["blender"], corrected: true },
    ]);
    // No whole word is close to a word still being typed: words whose start is.
    expect(interpretSearch("hedpho", vocabulary)?.[0]?.alike).toEqual(["headphones"]);
    expect(interpretSearch("headphnes", vocabulary)).toEqual([
      { typed: "headphnes", alike: ["headphones"], corrected: true },
    ]);
    // Two letters swapped are one typo.
    expect(interpretSearch("yoga mta", vocabulary)).toEqual([
      { typed: "yoga", alike: [], corrected: false },
      { typed: "mta", alike: ["mat"], corrected: true },
    ]);
  });

  it("forgives two typos only in long words, and never corrects numbers or short words", () => {
    expect(interpretSearch("kettlbel", vocabulary)?.[0]?.alike).toEqual(["kettlebell"]);
    expect(interpretSearch("blxndxr", vocabulary)?.[0]).toEqual({
      typed: "blxndxr",
      alike: [],
      corrected: false,
    });
    expect(interpretSearch("13", vocabulary)?.[0]).toEqual({ typed: "13", alike: [], corrected: false });
    expect(interpretSearch("zq", vocabulary)?.[0]).toEqual({ typed: "zq", alike: [], corrected: false });
  });
});

describe("suggestSpelling", () => {
  const suggest = (search: string) => suggestSpelling(interpretSearch(search, vocabulary) ?? [], vocabulary);

  it("respells the words the catalogue does not know, allowing one typo more", () => {
    expect(suggest("blxndxr")).toBe("blender");
    expect(suggest("runnign shoes")).toBe("running shoes");
  });

  it("tries at most three words, found or not", () => {
    expect(suggest("qxzvwy wqxzvy zvwqxy blxndxr")).toBeNull();
    expect(suggest("blxndxr qxzvwy")).toBe("blender qxzvwy");
  });

  it("offers nothing when every word is known or nothing is close", () => {
    expect(suggest("yoga blender")).toBeNull();
    expect(suggest("xylophone")).toBeNull();
    expect(suggest("13")).toBeNull();
  });
});
