import { setBit } from "./bits";
import { type PostingList, valueNumber } from "./postings";

/** 2^16 numbers (256 KiB) a chunk: above the allocator's threshold for its own mapping, so a chunk let go is given back to the system. */
const CHUNK_BITS = 16;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;

/** A list of 32-bit numbers that grows a chunk at a time: never copied as it grows. */
class NumberStream {
  private readonly chunks: Uint32Array[] = [];
  length = 0;

  push(value: number) {
    const at = this.length & CHUNK_MASK;
    if (at === 0) this.chunks.push(new Uint32Array(CHUNK_SIZE));
    (this.chunks[this.chunks.length - 1] as Uint32Array)[at] = value;
    this.length++;
  }

  at(index: number): number {
    return (this.chunks[index >>> CHUNK_BITS] as Uint32Array)[index & CHUNK_MASK] as number;
  }
}

/** Lexemes numbered in the order first met, shared by the postings of a whole index and of its names. */
export class LexemeNumbers {
  private readonly numbers = new Map<string, number>();
  readonly lexemes: string[] = [];

  numberOf(lexeme: string): number {
    const number = valueNumber(this.numbers, lexeme);
    if (number === this.lexemes.length) this.lexemes.push(lexeme);
    return number;
  }
}

/**
 * A lexeme carried by more than one product in 32 × this many is kept as a
 * bit set: or-ing one in costs about what setting this share of its bits one
 * by one does, so up to twice the memory of a list of positions buys the
 * faster match (at a million products, a tenth more requests per second).
 */
const DENSE_SHARE = 2;

/** Positions filled between two pauses of PostingsBuilder.build (a few tens of milliseconds at most). */
const POSITIONS_PER_TURN = 100_000;

/**
 * Posting lists gathered product by product, in the order products are
 * added, and written out once the index's positions are known. Each
 * product's lexemes are kept as numbers in one stream; the lists are then
 * filled position by position, so each comes out ascending without a sort,
 * and the sparse ones share one array sized exactly (at a million products,
 * a list per lexeme grown by doubling and then copied and sorted cost 150 MiB
 * and two seconds more, in many small blocks the allocator kept).
 */
export class PostingsBuilder {
  private readonly stream = new NumberStream();
  /** Each product's first entry in the stream. */
  private readonly starts = new NumberStream();
  private counts = new Uint32Array(1024);

  constructor(private readonly numbers: LexemeNumbers) {}

  /** The lexemes of the next product added. */
  add(lexemes: readonly string[]) {
    this.starts.push(this.stream.length);
    for (const lexeme of lexemes) {
      const number = this.numbers.numberOf(lexeme);
      // Numbers are shared with the other builder (a name's lexemes may have been numbered long before by descriptions).
      if (number >= this.counts.length) {
        const grown = new Uint32Array(Math.max(this.counts.length * 2, number + 1));
        grown.set(this.counts);
        this.counts = grown;
      }
      this.counts[number] = (this.counts[number] as number) + 1;
      this.stream.push(number);
    }
  }

  /**
   * Each lexeme's products, as positions of the index; `added` is the product
   * (by the order added) at each position. A generator: it pauses every
   * POSITIONS_PER_TURN positions, for a caller that gives the event loop a
   * turn meanwhile (CatalogIndexBuilder.buildInTurns).
   */
  *build(added: Uint32Array): Generator<void, Map<string, PostingList>> {
    const products = added.length;
    const blocks = Math.ceil(products / 32);
    const lexemeCount = this.numbers.lexemes.length;
    // Where each sparse lexeme's positions start in the one shared array; -1 for a dense one.
    const offsets = new Float64Array(lexemeCount);
    const bits: (Uint32Array | undefined)[] = new Array(lexemeCount);
    let sparse = 0;
    const countOf = (number: number) => (number < this.counts.length ? (this.counts[number] as number) : 0);
    for (let number = 0; number < lexemeCount; number++) {
      const count = countOf(number);
      if (count === 0) continue;
      if (count * DENSE_SHARE > blocks) {
        bits[number] = new Uint32Array(blocks);
        offsets[number] = -1;
      } else {
        offsets[number] = sparse;
        sparse += count;
      }
    }
    const positions = new Uint32Array(sparse);
    const filled = Float64Array.from(offsets);
    for (let position = 0; position < products; position++) {
      if (position % POSITIONS_PER_TURN === POSITIONS_PER_TURN - 1) yield;
      const product = added[position] as number;
      const to = product + 1 < products ? this.starts.at(product + 1) : this.stream.length;
      for (let entry = this.starts.at(product); entry < to; entry++) {
        const number = this.stream.at(entry);
        const dense = bits[number];
        if (dense) {
          setBit(dense, position);
        } else {
          const at = filled[number] as number;
          positions[at] = position;
          filled[number] = at + 1;
        }
      }
    }
    const lists = new Map<string, PostingList>();
    for (let number = 0; number < lexemeCount; number++) {
      const count = countOf(number);
      if (count === 0) continue;
      const lexeme = this.numbers.lexemes[number] as string;
      const dense = bits[number];
      const from = offsets[number] as number;
      lists.set(lexeme, dense ? { bits: dense } : { positions: positions.subarray(from, from + count) });
    }
    return lists;
  }
}
