import type { Product } from "../core/catalog-schema";

/**
 * Every product's card, as the JSON the API writes, in UTF-8 buffers outside
 * the JS heap: a page needs no round trip to the database, and a million
 * cards cost the garbage collector nothing to keep.
 */
export class CardShelf {
  constructor(
    private readonly chunks: Buffer[],
    /** Each card's chunk, in the order the cards were added. */
    private readonly chunkOf: Uint32Array,
    /** Each card's first byte in its chunk, and the byte after its last. */
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    /** The card at each position of the index. */
    private readonly cardAt: Uint32Array,
  ) {}

  at(position: number): Product {
    const card = this.cardAt[position] as number;
    const chunk = this.chunks[this.chunkOf[card] as number] as Buffer;
    return JSON.parse(chunk.toString("utf8", this.starts[card], this.ends[card])) as Product;
  }

  get bytes(): number {
    return (
      this.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0) +
      this.chunkOf.byteLength +
      this.starts.byteLength +
      this.ends.byteLength +
      this.cardAt.byteLength
    );
  }
}

/** Cards written a chunk at a time, so reading a large catalogue never holds them all as strings. */
export class CardShelfBuilder {
  private readonly chunks: Buffer[] = [];
  private readonly chunkOf: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private waiting: string[] = [];
  private waitingBytes = 0;

  add(product: Product) {
    const card = JSON.stringify(product);
    const bytes = Buffer.byteLength(card);
    this.chunkOf.push(this.chunks.length);
    this.starts.push(this.waitingBytes);
    this.ends.push(this.waitingBytes + bytes);
    this.waiting.push(card);
    this.waitingBytes += bytes;
    if (this.waiting.length === CARDS_PER_CHUNK) this.flush();
  }

  /** The shelf, given the card (by the order added) at each position of the index. */
  build(cardAt: Uint32Array): CardShelf {
    this.flush();
    return new CardShelf(
      this.chunks,
      Uint32Array.from(this.chunkOf),
      Uint32Array.from(this.starts),
      Uint32Array.from(this.ends),
      cardAt,
    );
  }

  private flush() {
    if (this.waiting.length === 0) return;
    this.chunks.push(Buffer.from(this.waiting.join(""), "utf8"));
    this.waiting = [];
    this.waitingBytes = 0;
  }
}

const CARDS_PER_CHUNK = 4096;
