import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * Refuses passwords from lists of the most used (leaked) passwords — OWASP and
 * NIST SP 800-63B ask for this. The composition rules alone let "Password1!"
 * through; this check does not. The list (~30,000 entries, most common first)
 * ships with zxcvbn-ts; it stays on the server.
 */
const ALL = dictionary["passwords-common"];
const COMMON = new Set(ALL);
/** The most common words: a password that is one of these plus digits or symbols is still weak. */
const MOST_COMMON_BASES = new Set(ALL.slice(0, 2000).filter((word) => /^[a-z]{4,}$/.test(word)));

const LEET: Record<string, string> = {
  "@": "a",
  "4": "a",
  "0": "o",
  "1": "i",
  "!": "i",
  "3": "e",
  $: "s",
  "5": "s",
  "7": "t",
};

function variants(password: string): string[] {
  const lower = password.toLowerCase();
  const unleet = lower.replace(/[@40135$7!]/g, (character) => LEET[character] ?? character);
  const strip = (value: string) => value.replace(/^[^a-z]+|[^a-z]+$/g, "");
  // "Abc123!" is "abc123" with a symbol added.
  const withoutTrailingSymbols = lower.replace(/[^a-z0-9]+$/, "");
  return [lower, unleet, withoutTrailingSymbols, strip(lower), strip(unleet)];
}

export function isCommonPassword(password: string): boolean {
  const candidates = variants(password);
  if (candidates.some((candidate) => COMMON.has(candidate))) return true;
  // "Password1!", "P@ssw0rd#", "Dragon2024!": a top word dressed up with digits and symbols.
  return candidates.slice(3).some((base) => MOST_COMMON_BASES.has(base));
}
