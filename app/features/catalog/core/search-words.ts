/**
 * A search as the catalogue reads it, word by word: shared by the server
 * (search-vocabulary.server.ts reads each word against the catalogue's words,
 * catalog.server.ts turns the reading into a tsquery) and the cards and
 * suggestions (which mark the matched words in names).
 */

/** At most this many words of a search are used; more only slow the query down. */
const MAX_SEARCH_TERMS = 12;

/** The shortest word matched as a prefix; a shorter one matches only itself. */
export const PREFIX_MIN_LENGTH = 2;

/**
 * Splits a search into words a tsquery can hold safely: letters and digits
 * only, lower case, so no user input ever reaches the tsquery syntax.
 */
export function searchTerms(search: string): string[] {
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_SEARCH_TERMS);
}

/** One word of a search and the catalogue words that answer it. */
export interface SearchWord {
  /** As typed, lower case: matched as the start of a word (a one-character word only whole). */
  typed: string;
  /**
   * Catalogue words matched whole as well: those the typed word ends
   * ("phones" → "headphones"), or, when no catalogue word starts with it,
   * its close spellings ("blendr" → "blender").
   */
  alike: string[];
  /** True when `alike` are close spellings, not longer words. */
  corrected: boolean;
}

/** A stretch of a product name, marked when it matched the search. */
export interface NamePart {
  text: string;
  matched: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Where a name's word matches the search: the typed word's length at its
 * start or inside it (a compound), the whole word when it is one of the
 * alike words, or when the typed word is a longer form of it ("mixers" for
 * "Mixer", as the English stemmer matches).
 */
function matchIn(word: string, words: readonly SearchWord[]): [number, number] | null {
  const lower = word.toLowerCase();
  let best: [number, number] | null = null;
  for (const { typed, alike } of words) {
    let found: [number, number] | null = null;
    if (typed.length < PREFIX_MIN_LENGTH ? lower === typed : lower.startsWith(typed))
      found = [0, typed.length];
    else if (alike.includes(lower)) {
      const at = lower.indexOf(typed);
      found = at > 0 ? [at, at + typed.length] : [0, word.length];
    } else if (lower.length >= 4 && typed.startsWith(lower)) found = [0, word.length];
    if (found && (!best || found[1] - found[0] > best[1] - best[0])) best = found;
  }
  return best;
}

/**
 * A product name cut into parts, the matched stretches marked, for the
 * card to render as text (never as HTML). Without a search, one plain part.
 */
export function highlightName(name: string, words: readonly SearchWord[] | null | undefined): NamePart[] {
  if (!words || words.length === 0) return [{ text: name, matched: false }];
  const parts: NamePart[] = [];
  let plainFrom = 0;
  for (const { 0: word, index } of name.matchAll(WORD)) {
    const match = matchIn(word, words);
    if (!match) continue;
    const [start, end] = [index + match[0], index + match[1]];
    if (start > plainFrom) parts.push({ text: name.slice(plainFrom, start), matched: false });
    parts.push({ text: name.slice(start, end), matched: true });
    plainFrom = end;
  }
  if (plainFrom < name.length) parts.push({ text: name.slice(plainFrom), matched: false });
  return parts;
}
