import { describe, expect, it } from "vitest";
import { highlightName, type SearchWord, searchTerms } from "./search-words";

const typed = (...words: string[]): SearchWord[] =>
  words.map((word) => ({ typed: word, alike: [], corrected: false }));
const marked = (name: string, words: SearchWord[]) =>
  highlightName(name, words)
    .map((part) => (part.matched ? `[${part.text}]` : part.text))
    .join("");

describe("searchTerms", () => {
  it("keeps letters and digits, lower-cased, at most 12 words", () => {
    expect(searchTerms("BlendMaster  Pro-900!")).toEqual(["blendmaster", "pro", "900"]);
    expect(searchTerms("Café crème")).toEqual(["café", "crème"]);
    expect(searchTerms(Array.from({ length: 20 }, (_, i) => `w${i}`).join(" "))).toHaveLength(12);
  });

  it("finds no word in punctuation or emoji", () => {
    expect(searchTerms("?! … 🎧")).toEqual([]);
  });
});

describe("highlightName", () => {
  it("marks the typed start of each word, whatever its case", () => {
    expect(marked("BlendMaster Pro 900 Blender", typed("blend"))).toBe("[Blend]Master Pro 900 [Blend]er");
    expect(marked("CycleFit Yoga Mat Pro", typed("yoga", "mat"))).toBe("CycleFit [Yoga] [Mat] Pro");
  });

  it("marks a one-character word only where it is a whole word", () => {
    expect(marked("CycleFit Kettlebell 12 kg", typed("k"))).toBe("CycleFit Kettlebell 12 kg");
    expect(marked("Plan A", typed("a"))).toBe("Plan [A]");
  });

  it("marks the typed part inside a compound, and a close spelling whole", () => {
    const phones: SearchWord = { typed: "phones", alike: ["headphones"], corrected: false };
    expect(marked("TeachPro Wireless Headphones", [phones])).toBe("TeachPro Wireless Head[phones]");
    const blendr: SearchWord = { typed: "blendr", alike: ["blender"], corrected: true };
    expect(marked("BlendMaster Pro 900 Blender", [blendr])).toBe("BlendMaster Pro 900 [Blender]");
  });

  it("marks a word the typed one is a longer form of, as the stemmer matches it", () => {
    expect(marked("BlendMaster Stand Mixer", typed("mixers"))).toBe("BlendMaster Stand [Mixer]");
  });

  it("keeps the name as text: markup in it stays characters", () => {
    const parts = highlightName("<b>Blend</b> & co", typed("blend"));
    expect(parts.map((part) => part.text).join("")).toBe("<b>Blend</b> & co");
    expect(parts.filter((part) => part.matched).map((part) => part.text)).toEqual(["Blend"]);
  });

  it("leaves the name whole without a search", () => {
    expect(highlightName("CampSafe Dome Tent", undefined)).toEqual([
      { text: "CampSafe Dome Tent", matched: false },
    ]);
    expect(highlightName("CampSafe Dome Tent", [])).toEqual([{ text: "CampSafe Dome Tent", matched: false }]);
  });
});
