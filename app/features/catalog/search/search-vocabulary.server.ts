import { type SearchWord, searchTerms } from "../core/search-words";
import {
  closeSpellingRanks,
  type SearchBudget,
  type SpellingTrie,
  searchBudget,
  spellingTrie,
} from "./close-spellings.server";

/**
 * The words the catalogue holds (names, descriptions, brands, categories):
 * what a typed word can be completed, split or corrected into. Read from the
 * database now and then (catalog.server.ts), kept in memory: a few hundred
 * words for the demo, up to 100,000 for a large catalogue. Every question a
 * search asks of it is a binary search or a trie walk over its orders, never
 * a pass over every word, so a search costs the same on any vocabulary.
 */
export interface SearchVocabulary {
  /** Lower-case words of letters and digits, most used first: a word's rank is its place here. */
  words: readonly string[];
  /** The same words, to ask "is this a word of the catalogue?" at once. */
  known: ReadonlySet<string>;
  /** The same words in code-unit order, to find "a word starting with …" by binary search. */
  sorted: readonly string[];
  /** The sorted words as a trie, for close spellings (close-spellings.server.ts). */
  trie: SpellingTrie;
  /** Each word spelled backwards, in code-unit order: "a word ending with …" is a start of these. */
  endings: readonly string[];
  endingRank: Uint32Array;
}

const reversed = (word: string) => [...word].reverse().join("");

/**
 * The strings in code-unit order, each with its position in `strings`. The
 * engine's own sort of plain strings is several times faster than a sort with
 * a comparator, which matters at 100,000 words: the vocabulary is made again
 * every few minutes while the shop serves.
 */
function inOrder(strings: readonly string[]): { sorted: string[]; positions: Uint32Array } {
  const positionOf = new Map<string, number>();
  strings.forEach((string, position) => {
    if (!positionOf.has(string)) positionOf.set(string, position);
  });
  const sorted = [...positionOf.keys()].sort();
  return { sorted, positions: Uint32Array.from(sorted, (string) => positionOf.get(string) as number) };
}

/** A vocabulary of these words (distinct), most used first. */
export function searchVocabulary(words: readonly string[]): SearchVocabulary {
  const { sorted, positions: sortedRank } = inOrder(words);
  const { sorted: endings, positions: endingRank } = inOrder(words.map(reversed));
  return {
    words,
    known: new Set(words),
    sorted,
    trie: spellingTrie(sorted, sortedRank),
    endings,
    endingRank,
  };
}

/** The first position in `sorted` not before `start`. */
function firstNotBefore(sorted: readonly string[], start: string): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < start) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The positions [from, to) of the strings in `sorted` that start with `start`. */
function startingWith(sorted: readonly string[], start: string): [number, number] {
  const from = firstNotBefore(sorted, start);
  // Every string starting with `start` sorts before `start` followed by the highest code unit.
  return [from, firstNotBefore(sorted, `${start}\uffff`)];
}

/** Whether some word starts with `start`: the first word not before it, in order, is the one to ask. */
function someWordStartsWith(start: string, vocabulary: SearchVocabulary): boolean {
  return vocabulary.sorted[firstNotBefore(vocabulary.sorted, start)]?.startsWith(start) ?? false;
}

export const EMPTY_VOCABULARY = searchVocabulary([]);

/** A word shorter than this is never split out of a compound ("mat" would find "format"). */
const COMPOUND_MIN_LENGTH = 4;
/** The shortest start a compound keeps before the typed word ("headphones" for "phones"). */
const COMPOUND_HEAD_MIN_LENGTH = 3;
/** Endings that make words, not compounds: "able" must not find "portable", nor "less" "wireless". */
const SUFFIXES = new Set([
  "able",
  "ible",
  "less",
  "ness",
  "ment",
  "ship",
  "ward",
  "wards",
  "like",
  "some",
  "ful",
]);
/** The shortest word given close spellings. */
const TYPO_MIN_LENGTH = 3;
/** At most this many catalogue words stand for one typed word. */
const ALIKE_MAX = 20;
/**
 * At most this many words of one search try close spellings, whether or not
 * one is found: a search of words nothing is close to costs no more than one
 * whose typos are corrected.
 */
const CORRECTION_TRIES_MAX = 3;

/** Typos forgiven in a word of this length: one from three letters, two from eight (a swap of two letters is one). */
function typosAllowed(length: number): number {
  if (length < TYPO_MIN_LENGTH) return 0;
  return length >= 8 ? 2 : 1;
}

const hasDigit = (word: string) => /\p{N}/u.test(word);

/**
 * The forms an English plural may stand for, as the stemmer matches them:
 * "lamps" → "lamp", "boxes" → "box", "batteries" → "battery".
 */
function singularForms(typed: string): string[] {
  const forms: string[] = [];
  if (typed.endsWith("ies")) forms.push(`${typed.slice(0, -3)}y`);
  if (typed.endsWith("es")) forms.push(typed.slice(0, -2));
  if (typed.endsWith("s")) forms.push(typed.slice(0, -1));
  return forms;
}

/**
 * Whether the catalogue already answers the typed word without help: a word
 * starts with it, or it is the plural of a word ("tents" for "Tent"). Such a
 * word is never corrected.
 */
function isKnown(typed: string, vocabulary: SearchVocabulary): boolean {
  if (singularForms(typed).some((form) => vocabulary.known.has(form))) return true;
  return someWordStartsWith(typed, vocabulary);
}

/**
 * The compounds a typed word ends, plural or not: "phones" (or "phone")
 * finds "headphones". A compound's start must be three letters or more, and
 * either a word of its own or the typed word one the catalogue uses alone —
 * so "ring" does not find "bearing", nor "port" "supports" — and a suffix
 * ("able", "less") is no word to split out. The words ending so are a run of
 * the backwards words, found by binary search; the most used come first.
 */
function compoundsOf(typed: string, vocabulary: SearchVocabulary, budget: SearchBudget): string[] {
  if (typed.length < COMPOUND_MIN_LENGTH || SUFFIXES.has(typed)) return [];
  const forms = [typed, `${typed}s`, `${typed}es`];
  const standsAlone = typed.length > COMPOUND_MIN_LENGTH && forms.some((form) => vocabulary.known.has(form));
  const ranks = new Set<number>();
  for (const form of forms) {
    const [from, to] = startingWith(vocabulary.endings, reversed(form));
    budget.steps -= to - from;
    if (budget.steps < 0) return [];
    for (let at = from; at < to; at++) ranks.add(vocabulary.endingRank[at] as number);
  }
  const compounds: string[] = [];
  for (const rank of [...ranks].sort((a, b) => a - b)) {
    const word = vocabulary.words[rank] as string;
    const tail = forms.find((ending) => word.endsWith(ending)) as string;
    const head = word.slice(0, -tail.length);
    if (head.length < COMPOUND_HEAD_MIN_LENGTH) continue;
    if (standsAlone || vocabulary.known.has(head)) compounds.push(word);
    if (compounds.length === ALIKE_MAX) break;
  }
  return compounds;
}

/**
 * The catalogue words closest to a typed word within `allowed` typos, most
 * used first: whole words, or (asStart) words whose start is close and
 * begins with the same letter (close-spellings.server.ts). None when the
 * search's budget ran out.
 */
function closeSpellings(
  typed: string,
  vocabulary: SearchVocabulary,
  allowed: number,
  asStart: boolean,
  budget: SearchBudget,
): string[] {
  const ranks = closeSpellingRanks(typed, vocabulary.trie, allowed, asStart, budget) ?? [];
  return ranks.slice(0, ALIKE_MAX).map((rank) => vocabulary.words[rank] as string);
}

/** Whether a word may be corrected at all: long enough, and no number ("13" is not a typo for "12"). */
const correctable = (typed: string) => typed.length >= TYPO_MIN_LENGTH && !hasDigit(typed);

/**
 * One typed word and what else answers it. A word the catalogue knows keeps
 * its own matches, plus the compounds it ends; a word it does not know (a
 * typo) is answered by its close spellings too: whole words if any is close
 * enough, else words whose start is. `mayCorrect` is false once a search has
 * had its share of tries.
 */
function searchWord(
  typed: string,
  vocabulary: SearchVocabulary,
  mayCorrect: boolean,
  budget: SearchBudget,
): SearchWord & { tried: boolean } {
  const plain = { typed, alike: [], corrected: false, tried: false };
  if (!correctable(typed)) return plain;
  const compounds = compoundsOf(typed, vocabulary, budget);
  if (compounds.length > 0 || isKnown(typed, vocabulary) || !mayCorrect)
    return { ...plain, alike: compounds };
  const allowed = typosAllowed(typed.length);
  const whole = closeSpellings(typed, vocabulary, allowed, false, budget);
  const spellings = whole.length > 0 ? whole : closeSpellings(typed, vocabulary, allowed, true, budget);
  return { typed, alike: spellings, corrected: spellings.length > 0, tried: true };
}

/**
 * A search read word by word against the catalogue's vocabulary: undefined
 * when there is no search, null when it has no word in it (only punctuation
 * or emoji), which matches nothing rather than everything. Its work is
 * bounded whatever it holds: three words at most try close spellings, and
 * all of them share one budget of steps.
 */
export function interpretSearch(
  search: string | undefined,
  vocabulary: SearchVocabulary,
): SearchWord[] | null | undefined {
  if (!search?.trim()) return undefined;
  const terms = searchTerms(search);
  if (terms.length === 0) return null;
  const budget = searchBudget();
  let tries = 0;
  return terms.map((typed) => {
    const { tried, ...word } = searchWord(typed, vocabulary, tries < CORRECTION_TRIES_MAX, budget);
    if (tried) tries += 1;
    return word;
  });
}

/**
 * For a search that found nothing: the same search with each word the
 * catalogue does not know replaced by the nearest whole word, allowing one
 * typo more than the search itself forgave (three words at most try, within
 * one budget of steps). Null when there is nothing to correct. Whether it
 * finds anything is the caller's question.
 */
export function suggestSpelling(words: readonly SearchWord[], vocabulary: SearchVocabulary): string | null {
  const budget = searchBudget();
  let [tries, corrections] = [0, 0];
  const suggested = words.map((word) => {
    const unknown = word.corrected || (word.alike.length === 0 && !isKnown(word.typed, vocabulary));
    if (!unknown || !correctable(word.typed) || tries === CORRECTION_TRIES_MAX) return word.typed;
    tries += 1;
    const allowed = typosAllowed(word.typed.length) + 1;
    const [nearest] = closeSpellings(word.typed, vocabulary, allowed, false, budget);
    if (!nearest || nearest === word.typed) return word.typed;
    corrections += 1;
    return nearest;
  });
  return corrections > 0 ? suggested.join(" ") : null;
}
