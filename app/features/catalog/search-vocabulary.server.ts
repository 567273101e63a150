import editDistance from "damerau-levenshtein";
import { type SearchWord, searchTerms } from "./search-words";

/**
 * The words the catalogue holds (names, descriptions, brands, categories):
 * what a typed word can be completed, split or corrected into. Read from the
 * database now and then (catalog.server.ts), kept in memory: a few hundred
 * words for the demo or a generated catalogue of any size, tens of
 * thousands at most for a real one.
 */
export interface SearchVocabulary {
  /** Lower-case words of letters and digits, most used first. */
  words: readonly string[];
  /** The same words, to ask "is this a word of the catalogue?" at once. */
  known: ReadonlySet<string>;
  /** The same words in code-point order, to find "a word starting with …" by binary search. */
  sorted: readonly string[];
}

/** A vocabulary of these words, most used first. */
export function searchVocabulary(words: readonly string[]): SearchVocabulary {
  return { words, known: new Set(words), sorted: [...words].sort() };
}

/** Whether some word starts with `start`: the first word not before it, in order, is the one to ask. */
function someWordStartsWith(start: string, vocabulary: SearchVocabulary): boolean {
  const { sorted } = vocabulary;
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < start) low = middle + 1;
    else high = middle;
  }
  return sorted[low]?.startsWith(start) ?? false;
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
/** At most this many words of one search are given close spellings: each costs a pass over the vocabulary. */
const CORRECTED_WORDS_MAX = 3;

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
 * ("able", "less") is no word to split out.
 */
function compoundsOf(typed: string, vocabulary: SearchVocabulary): string[] {
  if (typed.length < COMPOUND_MIN_LENGTH || SUFFIXES.has(typed)) return [];
  const forms = [typed, `${typed}s`, `${typed}es`];
  const standsAlone = typed.length > COMPOUND_MIN_LENGTH && forms.some((form) => vocabulary.known.has(form));
  const compounds: string[] = [];
  for (const word of vocabulary.words) {
    const tail = forms.find((ending) => word.endsWith(ending));
    if (!tail) continue;
    const head = word.slice(0, -tail.length);
    if (head.length < COMPOUND_HEAD_MIN_LENGTH) continue;
    if (standsAlone || vocabulary.known.has(head)) compounds.push(word);
    if (compounds.length === ALIKE_MAX) break;
  }
  return compounds;
}

/**
 * How far a typed word is from a catalogue word, or from its start: the
 * start as long as the typed word, give or take the typos allowed (a missed
 * letter makes "hedpho" the start "headpho").
 */
function distanceTo(typed: string, word: string, allowed: number, asStart: boolean): number {
  let distance = editDistance(typed, word).steps;
  if (!asStart) return distance;
  for (let length = typed.length - allowed; length <= typed.length + allowed; length++) {
    if (length > 0 && length < word.length) {
      distance = Math.min(distance, editDistance(typed, word.slice(0, length)).steps);
    }
  }
  return distance;
}

/**
 * The catalogue words closest to a typed word within `allowed` typos, most
 * used first: whole words, or (asStart) words whose start is close. Words of
 * a length that cannot be close are skipped before measuring; a start must
 * begin with the same letter, as nearly every typo mid-typing does, which
 * keeps the pass short on a large vocabulary.
 */
function closeSpellings(typed: string, vocabulary: SearchVocabulary, allowed: number, asStart: boolean) {
  let best = allowed + 1;
  let found: string[] = [];
  for (const word of vocabulary.words) {
    if (hasDigit(word) || word.length < typed.length - allowed) continue;
    if (asStart ? word[0] !== typed[0] : word.length > typed.length + allowed) continue;
    const distance = distanceTo(typed, word, allowed, asStart);
    if (distance < best) [best, found] = [distance, [word]];
    else if (distance === best) found.push(word);
  }
  return best <= allowed ? found.slice(0, ALIKE_MAX) : [];
}

/** Whether a word may be corrected at all: long enough, and no number ("13" is not a typo for "12"). */
const correctable = (typed: string) => typed.length >= TYPO_MIN_LENGTH && !hasDigit(typed);

/**
 * One typed word and what else answers it. A word the catalogue knows keeps
 * its own matches, plus the compounds it ends; a word it does not know (a
 * typo) is answered by its close spellings too: whole words if any is close
 * enough, else words whose start is. `mayCorrect` is false once a search has
 * had its share of corrections.
 */
function searchWord(typed: string, vocabulary: SearchVocabulary, mayCorrect: boolean): SearchWord {
  const plain = { typed, alike: [], corrected: false };
  if (!correctable(typed)) return plain;
  const compounds = compoundsOf(typed, vocabulary);
  if (compounds.length > 0 || isKnown(typed, vocabulary) || !mayCorrect)
    return { ...plain, alike: compounds };
  const allowed = typosAllowed(typed.length);
  const whole = closeSpellings(typed, vocabulary, allowed, false);
  const spellings = whole.length > 0 ? whole : closeSpellings(typed, vocabulary, allowed, true);
  return { typed, alike: spellings, corrected: spellings.length > 0 };
}

/**
 * A search read word by word against the catalogue's vocabulary: undefined
 * when there is no search, null when it has no word in it (only punctuation
 * or emoji), which matches nothing rather than everything.
 */
export function interpretSearch(
  search: string | undefined,
  vocabulary: SearchVocabulary,
): SearchWord[] | null | undefined {
  if (!search?.trim()) return undefined;
  const terms = searchTerms(search);
  if (terms.length === 0) return null;
  let corrections = 0;
  return terms.map((typed) => {
    const word = searchWord(typed, vocabulary, corrections < CORRECTED_WORDS_MAX);
    if (word.corrected) corrections += 1;
    return word;
  });
}

/**
 * For a search that found nothing: the same search with each word the
 * catalogue does not know replaced by the nearest whole word, allowing one
 * typo more than the search itself forgave (three words at most). Null when
 * there is nothing to correct. Whether it finds anything is the caller's question.
 */
export function suggestSpelling(words: readonly SearchWord[], vocabulary: SearchVocabulary): string | null {
  let corrections = 0;
  const suggested = words.map((word) => {
    const unknown = word.corrected || (word.alike.length === 0 && !isKnown(word.typed, vocabulary));
    if (!unknown || !correctable(word.typed) || corrections === CORRECTED_WORDS_MAX) return word.typed;
    const [nearest] = closeSpellings(word.typed, vocabulary, typosAllowed(word.typed.length) + 1, false);
    if (!nearest || nearest === word.typed) return word.typed;
    corrections += 1;
    return nearest;
  });
  return corrections > 0 ? suggested.join(" ") : null;
}
