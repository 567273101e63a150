import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * Refuses passwords from lists of the most used (leaked) passwords — OWASP and
 * NIST SP 800-63B ask for this. The composition rules alone let "Password1!"
 * through; this check does not. The list (~49,000 entries, most common first)
 * ships with zxcvbn-ts; it stays on the server.
 *
 * Guessers try the well-known variants first, so they are refused too: a
 * common word with digits or symbols around it ("Dragon2024!"), written in
 * leetspeak ("P@ssword1", "Pa$$word1"), or with one character swapped
 * ("Passwo1d!"); and anything built on the shop's own name ("Backline1!", "BACKLINE1a!").
 */
const ALL = dictionary["passwords-common"];
const COMMON = new Set(ALL);

/** Words a password must not merely decorate: the most common ones, and the shop's own name. */
const SHOP_WORDS = ["backline"];
const BASE_WORDS = [...SHOP_WORDS, ...ALL.slice(0, 2000).filter((word) => /^[a-z]{4,}$/.test(word))];
const BASES = new Set(BASE_WORDS);

/** Each base word of 6+ letters with one letter replaced by "?": "passwo?d" is "password" with one swap. */
const ONE_SWAP = new Set(
  BASE_WORDS.filter((word) => word.length >= 6).flatMap((word) =>
    [...word].map((_, index) => `${word.slice(0, index)}?${word.slice(index + 1)}`),
  ),
);

/** Leetspeak readings of a character; "1" and "!" may stand for "i" or "l". */
const LEET: Record<string, string[]> = {
  "@": ["a"],
  "4": ["a"],
  "0": ["o"],
  "1": ["i", "l"],
  "!": ["i", "l"],
  "3": ["e"],
  $: ["s"],
  "5": ["s"],
  "7": ["t"],
  "8": ["b"],
  "9": ["g"],
};

/** Every letters-only reading of `text` (a handful: each ambiguous character doubles them, capped). */
function readings(text: string): string[] {
  let results = [""];
  for (const character of text) {
    const options = LEET[character] ?? [character];
    results = results.flatMap((prefix) => options.map((option) => prefix + option)).slice(0, 64);
  }
  return results;
}

/** The password without the digits and symbols around it: "Dragon2024!" → "dragon". */
const core = (password: string) => password.toLowerCase().replace(/^[^a-z@$]+|[^a-z]+$/g, "");

function swappedOnce(word: string): boolean {
  if (word.length < 6) return false;
  for (let index = 0; index < word.length; index++) {
    if (ONE_SWAP.has(`${word.slice(0, index)}?${word.slice(index + 1)}`)) return true;
  }
  return false;
}

/** True when any letters-only reading of the password has the shop's name in it ("BACKLINE1a!", "Backline1!Backline1"). */
function buildsOnShopName(lower: string): boolean {
  return readings(lower).some((reading) => {
    const letters = reading.replace(/[^a-z]/g, "");
    return SHOP_WORDS.some((word) => letters.includes(word));
  });
}

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (buildsOnShopName(lower)) return true;
  // "Abc123!" is "abc123" with a symbol added.
  const withoutTrailingSymbols = lower.replace(/[^a-z0-9]+$/, "");
  if (COMMON.has(lower) || COMMON.has(withoutTrailingSymbols)) return true;
  const candidates = [core(password), ...readings(core(password))];
  return candidates.some(
    (candidate) => COMMON.has(candidate) || BASES.has(candidate) || swappedOnce(candidate),
  );
}
