import { setBit } from "./bits";
import type { IndexedWord, IndexTerm } from "./index-types";

/** The products carrying a lexeme: their positions, or one bit per product. */
export type PostingList =
  | { positions: Uint32Array; bits?: undefined }
  | { bits: Uint32Array; positions?: undefined };

export function valueNumber(values: Map<string, number>, value: string): number {
  let number = values.get(value);
  if (number === undefined) {
    number = values.size;
    values.set(value, number);
  }
  return number;
}

/**
 * A prefix term whose matching costs more than this many steps (a step: a
 * position set, or a bit-set block or-ed in) keeps its products as a bit set
 * for the next searches, up to TERMS_KEPT of them: a two-letter start can
 * carry thousands of lexemes, and search-as-you-type asks for the same few
 * starts over and over.
 */
const COSTLY_TERM_BLOCKS = 4;
const TERMS_KEPT = 64;

/** Lexemes in code-unit order, with the products carrying each: a dictionary a prefix is looked up in. */
export class Postings {
  readonly lexemes: string[];
  readonly lists: PostingList[];
  /** Steps to match the lexemes before each (a prefix sum): a term's cost is known before it is matched. */
  private readonly stepsBefore: Float64Array;
  private readonly blocks: number;
  /** Costly terms' products, most recently used last. */
  private readonly keptTerms = new Map<string, Uint32Array>();

  constructor(source: Map<string, PostingList>, size: number) {
    this.lexemes = [...source.keys()].sort();
    this.lists = this.lexemes.map((lexeme) => source.get(lexeme) as PostingList);
    this.blocks = Math.ceil(size / 32);
    this.stepsBefore = new Float64Array(this.lists.length + 1);
    this.lists.forEach((list, at) => {
      const steps = list.bits ? this.blocks : list.positions.length;
      this.stepsBefore[at + 1] = (this.stepsBefore[at] as number) + steps;
    });
  }

  /** The first lexeme at or after `lexeme`, and the first after those a term matches. */
  private rangeOf({ lexeme, prefix }: IndexTerm): [number, number] {
    const from = this.firstAtOrAfter(lexeme);
    if (!prefix) return [from, this.lexemes[from] === lexeme ? from + 1 : from];
    // Every lexeme starting with `lexeme` sorts before `lexeme` followed by the highest code unit.
    return [from, this.firstAtOrAfter(`${lexeme}\uffff`)];
  }

  private firstAtOrAfter(lexeme: string): number {
    let low = 0;
    let high = this.lexemes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.lexemes[middle] as string) < lexeme) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Steps matching a word takes: known from the dictionary alone. */
  costOf(word: IndexedWord): number {
    return word.anyOf.reduce((sum, term) => {
      const [from, to] = this.rangeOf(term);
      return sum + (this.stepsBefore[to] as number) - (this.stepsBefore[from] as number);
    }, 0);
  }

  /**
   * One bit per product matching every word: for each word, the products
   * carrying any of its terms. The cheapest words first, and none once no
   * product is left: a search's work is that of its most selective words,
   * not of every broad start typed after them.
   */
  allOf(words: readonly IndexedWord[]): Uint32Array {
    const all = new Uint32Array(this.blocks);
    const ordered = words.map((word) => ({ word, cost: this.costOf(word) })).sort((a, b) => a.cost - b.cost);
    const carrying = new Uint32Array(this.blocks);
    for (const [index, { word }] of ordered.entries()) {
      const into = index === 0 ? all : carrying;
      if (index > 0) carrying.fill(0);
      for (const term of word.anyOf) this.orInto(into, term);
      let left = 0;
      for (let block = 0; block < this.blocks; block++) {
        const both =
          index === 0 ? (all[block] as number) : (all[block] as number) & (carrying[block] as number);
        all[block] = both;
        left |= both;
      }
      if (left === 0) break;
    }
    return all;
  }

  /** Or-s the products carrying a term into `bits`; a costly term's kept for the next searches. */
  private orInto(bits: Uint32Array, term: IndexTerm) {
    const [from, to] = this.rangeOf(term);
    const costly =
      (this.stepsBefore[to] as number) - (this.stepsBefore[from] as number) >
      COSTLY_TERM_BLOCKS * this.blocks;
    if (!costly) {
      for (let at = from; at < to; at++) orList(bits, this.lists[at] as PostingList);
      return;
    }
    const key = `${term.prefix ? "*" : "="}${term.lexeme}`;
    let kept = this.keptTerms.get(key);
    if (kept) {
      this.keptTerms.delete(key);
    } else {
      kept = new Uint32Array(this.blocks);
      for (let at = from; at < to; at++) orList(kept, this.lists[at] as PostingList);
      if (this.keptTerms.size >= TERMS_KEPT)
        this.keptTerms.delete(this.keptTerms.keys().next().value as string);
    }
    this.keptTerms.set(key, kept);
    orList(bits, { bits: kept });
  }

  get bytes() {
    return (
      this.lists.reduce((sum, list) => sum + (list.bits ?? list.positions).byteLength + 64, 0) +
      this.lexemes.length * 48 +
      this.stepsBefore.byteLength +
      TERMS_KEPT * this.blocks * 4
    );
  }
}

/** Or-s a posting list into a bit set. */
function orList(bits: Uint32Array, list: PostingList) {
  if (list.bits) {
    for (let block = 0; block < bits.length; block++) {
      bits[block] = (bits[block] as number) | (list.bits[block] as number);
    }
  } else {
    for (const position of list.positions) setBit(bits, position);
  }
}
