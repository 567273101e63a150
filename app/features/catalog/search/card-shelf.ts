import type { Product } from "../core/catalog-schema";

/**
 * Each field's place in a card, in the order the API writes them (productOf's).
 * A card is kept as the JSON array of its values: the field names, 89 bytes
 * of every card, are written once here, not once per product (at 100,000
 * products the cards took 35 MiB with them, 26 without). A Record, so a
 * field added to Product must be given a place.
 */
const CARD_FIELD_PLACES: Record<keyof Product, number> = {
  id: 0,
  name: 1,
  image: 2,
  price: 3,
  ratings: 4,
  ratingCount: 5,
  bandName: 6,
  category: 7,
  creationDate: 8,
  description: 9,
  priceMax: 10,
  variantCount: 11,
  compareAtPrice: 12,
};
export const CARD_FIELDS = (Object.keys(CARD_FIELD_PLACES) as (keyof Product)[]).sort(
  (a, b) => CARD_FIELD_PLACES[a] - CARD_FIELD_PLACES[b],
);

/**
 * Every product's card, as JSON values (CARD_FIELDS), in UTF-8 buffers
 * outside the JS heap: a page needs no round trip to the database, and a
 * million cards cost the garbage collector nothing to keep.
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
    return productOfCard(chunk.toString("utf8", this.starts[card], this.ends[card]));
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

/** A product from its card: the JSON array of its values in CARD_FIELDS' order. */
export function productOfCard(card: string): Product {
  const values = JSON.parse(card) as unknown[];
  const product: Record<string, unknown> = {};
  for (const [place, field] of CARD_FIELDS.entries()) product[field] = values[place];
  return product as Product;
}

/** A product's card, as the database writes it for the index (for products made in memory: tests). */
export function cardOf(product: Product): string {
  return JSON.stringify(CARD_FIELDS.map((field) => product[field]));
}

/** Cards written a chunk at a time, so reading a large catalogue never holds them all as strings. */
export class CardShelfBuilder {
  private readonly chunks: Buffer[] = [];
  private readonly chunkOf: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private waiting: string[] = [];
  private waitingBytes = 0;

  /** A card as productOfCard reads it (the database writes it: index-read.server.ts). */
  add(card: string) {
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
