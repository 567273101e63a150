import { LRUCache } from "lru-cache";
import { logFailure } from "~/utils/logger.server";
import type { SearchWord } from "../core/search-words";
import {
  EMPTY_VOCABULARY,
  interpretSearch,
  type SearchVocabulary,
  suggestSpelling,
} from "./search-vocabulary.server";

/**
 * Seconds the search vocabulary is used before it is read again. Past that
 * the old one still answers while the new one is read, so no search waits
 * for it; a word new to the catalogue is found by its start at once and
 * forgiven its typos within this time.
 */
const VOCABULARY_SECONDS = 300;

/** Seconds before a failed vocabulary read is tried again. */
const VOCABULARY_RETRY_SECONDS = 30;

/**
 * Searches read word by word against the catalogue's vocabulary
 * (search-vocabulary.server.ts), the vocabulary read now and then in the
 * background. A page asks for one search's reading several times (products,
 * counts, facets): each search is read once per vocabulary, and the readings
 * go with the vocabulary they were made with.
 */
export function createSearchReading(readVocabulary: () => Promise<SearchVocabulary>) {
  // Read on first use, then again in the background once VOCABULARY_SECONDS have passed.
  const vocabularyCache = new LRUCache<"vocabulary", SearchVocabulary>({
    max: 1,
    ttl: VOCABULARY_SECONDS * 1000,
    allowStale: true,
    noDeleteOnFetchRejection: true,
    perf: { now: () => performance.now() },
    fetchMethod: () => readVocabulary(),
  });
  /**
   * The vocabulary, or none while it cannot be read (the database is down, or
   * slow on a huge catalogue): searches then match each word as typed, as
   * before there was one, instead of failing.
   */
  let retryAt = Number.NEGATIVE_INFINITY;
  const vocabulary = async (): Promise<SearchVocabulary> => {
    // After a failed read, not every search tries again (each try is a slow statement).
    if (performance.now() < retryAt) {
      return vocabularyCache.get("vocabulary", { allowStale: true }) ?? EMPTY_VOCABULARY;
    }
    try {
      return (await vocabularyCache.fetch("vocabulary")) ?? EMPTY_VOCABULARY;
    } catch (error) {
      retryAt = performance.now() + VOCABULARY_RETRY_SECONDS * 1000;
      logFailure(error, "search vocabulary read failed; words are matched as typed");
      return EMPTY_VOCABULARY;
    }
  };
  const readings = new WeakMap<SearchVocabulary, LRUCache<string, { words: SearchWord[] | null }>>();

  return {
    vocabulary,
    /** The search read word by word: undefined without a search, null with no word in it. */
    async read(search: string | undefined): Promise<SearchWord[] | null | undefined> {
      if (!search) return undefined;
      const current = await vocabulary();
      const read =
        readings.get(current) ?? new LRUCache<string, { words: SearchWord[] | null }>({ max: 1000 });
      readings.set(current, read);
      const known = read.get(search);
      if (known) return known.words;
      const words = interpretSearch(search, current) ?? null;
      read.set(search, { words });
      return words;
    },
    /** The search respelled as the catalogue spells it ("Did you mean"), or null. */
    async respell(words: readonly SearchWord[]): Promise<string | null> {
      return suggestSpelling(words, await vocabulary());
    },
    /** Reads the vocabulary now, so the first searches need not wait for it. */
    warmUp: () => void vocabulary(),
    /** Forgets the vocabulary (read again on the next search). */
    clear: () => vocabularyCache.clear(),
  };
}
