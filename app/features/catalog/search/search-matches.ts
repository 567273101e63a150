import { countBits, setBit } from "./bits";
import type { BitCandidates } from "./index-orders";
import type { IndexedSearch } from "./index-types";
import type { Postings } from "./postings";

/** Searches whose matches an index keeps (MB per search: products / 4 million at most). */
const KEPT = 32;

/** A search's matches, and (once a page in order of relevance asks) them split by relevance. */
export interface Matches extends BitCandidates {
  tiers: { inName: BitCandidates; elsewhere: BitCandidates } | null;
}

/**
 * The products matching every word of a search, from an index's postings,
 * kept for the next asks: a page and its count ask for the same search one
 * after the other. Bounded: KEPT searches, each three bits per product at
 * most (all, and split by relevance). Like ChosenVariants below for chosen
 * option values.
 */
export class SearchMatches {
  private readonly recent = new Map<string, Matches>();

  constructor(
    readonly postings: Postings,
    private readonly namePostings: Postings,
    /** A product's position, -1 for one not in the index. */
    private readonly positionOf: (id: number) => number,
  ) {}

  /** What the kept matches may hold at most, in bytes, for an index of `size` products, with the postings. */
  bytes(size: number): number {
    return KEPT * Math.ceil(size / 32) * 12 + this.postings.bytes + this.namePostings.bytes;
  }

  of(search: IndexedSearch): Matches {
    const key = JSON.stringify(search);
    let found = this.recent.get(key);
    if (found) {
      // Most recently used last: the first key is the one to let go.
      this.recent.delete(key);
    } else {
      const all = this.withSkuProducts(this.postings.allOf(search.words), search);
      found = { bits: true, all, count: countBits(all), tiers: null };
      if (this.recent.size >= KEPT) this.recent.delete(this.recent.keys().next().value as string);
    }
    this.recent.set(key, found);
    return found;
  }

  /** A search's matches split by relevance: every word in the name, or not. */
  tiersOf(matches: Matches, search: IndexedSearch): Matches["tiers"] & object {
    if (!matches.tiers) {
      // A SKU's product is as good a match as one with every word in its name.
      const name = this.withSkuProducts(this.namePostings.allOf(search.words), search);
      const inName = new Uint32Array(matches.all.length);
      const elsewhere = new Uint32Array(matches.all.length);
      for (let block = 0; block < inName.length; block++) {
        inName[block] = (matches.all[block] as number) & (name[block] as number);
        elsewhere[block] = (matches.all[block] as number) & ~(name[block] as number);
      }
      const named = countBits(inName);
      matches.tiers = {
        inName: { bits: true, all: inName, count: named },
        elsewhere: { bits: true, all: elsewhere, count: matches.count - named },
      };
    }
    return matches.tiers;
  }

  /** The bits, and the SKU's products. */
  private withSkuProducts(bits: Uint32Array, { skuProducts }: IndexedSearch): Uint32Array {
    for (const id of skuProducts) {
      const position = this.positionOf(id);
      if (position >= 0) setBit(bits, position);
    }
    return bits;
  }
}

/** Choices of option values whose products an index keeps: a page, its count and its facets ask one after the other. */
const CHOICES_KEPT = 8;

/** The products with a live variant in chosen values, kept for the next asks (option-index.ts finds them). */
export class ChosenVariants {
  private readonly recent = new Map<string, BitCandidates>();

  constructor(private readonly find: (choices: readonly string[]) => Uint32Array) {}

  bytes(size: number): number {
    return CHOICES_KEPT * Math.ceil(size / 32) * 4;
  }

  /** `choices`: the `option` parameter's values, sorted (the schema sorts them). */
  of(choices: readonly string[]): BitCandidates {
    const key = choices.join("\n");
    let found = this.recent.get(key);
    if (found) this.recent.delete(key);
    else {
      const all = this.find(choices);
      found = { bits: true, all, count: countBits(all) };
      if (this.recent.size >= CHOICES_KEPT) this.recent.delete(this.recent.keys().next().value as string);
    }
    this.recent.set(key, found);
    return found;
  }
}
