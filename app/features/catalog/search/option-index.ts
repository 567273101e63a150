import type { ChosenOptions } from "../core/option-choices";
import { pairKey } from "../core/option-choices";
import { has, setBit } from "./bits";
import type { VariantRows } from "./index-types";

/**
 * Pair numbers, 16 bits each while the shop has fewer than 65,535 (name,
 * value) pairs (at a million products in variants, 18 MB less than 32 bits),
 * else 32; the largest number the width holds stands for "no pair".
 */
type Pairs = Uint16Array | Uint32Array;

/** Pairs of the width `pairCount` pairs need, with `length` places. */
const pairsFor = (pairCount: number, length: number): Pairs =>
  pairCount < 0xffff ? new Uint16Array(length) : new Uint32Array(length);

/**
 * The option values of the index's products (docs/decisions/0045): each
 * (option name, value) pair numbered once, and every live variant of a
 * product with options as the pairs it has, three slots a variant ("no
 * pair" where the product has fewer options). Products without options have
 * none and cost one offset. A filter or a count walks the products with
 * options only.
 */
export class OptionIndex {
  constructor(
    /** Each pair's option name (its number in `names`) and value. */
    private readonly pairNames: Int32Array,
    private readonly pairValues: string[],
    private readonly names: string[],
    /** Position p's variants are slots starts[p] * 3 up to starts[p + 1] * 3 of `slots`. */
    private readonly starts: Uint32Array,
    private readonly slots: Pairs,
    /** The positions with options, in order. */
    private readonly withOptions: Uint32Array,
    /** The same, one bit per position. */
    private readonly hasOptions: Uint32Array,
    /**
     * Each position's values, each once (positions pairStarts[p] up to pairStarts[p + 1] of
     * `productPairs`): what a product counts towards with nothing chosen, the commonest count.
     */
    private readonly pairStarts: Uint32Array,
    private readonly productPairs: Pairs,
  ) {
    this.noPair = slots instanceof Uint16Array ? 0xffff : 0xffffffff;
  }

  /** What a slot holds where the product has fewer than three options. */
  private readonly noPair: number;

  /** Each brand × category's counts with nothing chosen (addCell), once asked: of all products, of those in stock. */
  private readonly cellTables = new Map<"all" | "inStock", Int32Array>();

  get bytes(): number {
    return (
      this.starts.byteLength +
      this.slots.byteLength +
      this.withOptions.byteLength +
      this.hasOptions.byteLength +
      this.pairStarts.byteLength +
      this.productPairs.byteLength +
      this.pairNames.byteLength
    );
  }

  /** The positions with a live variant in the chosen values, as a bit set over `size` positions. */
  matching(chosen: ChosenOptions, size: number): Uint32Array {
    const bits = new Uint32Array(Math.ceil(size / 32));
    const reading = this.reading(chosen);
    for (const position of this.withOptions) {
      for (
        let variant = this.starts[position] as number;
        variant < (this.starts[position + 1] as number);
        variant++
      ) {
        if (reading.failing(variant) === NONE_FAILING) {
          setBit(bits, position);
          break;
        }
      }
    }
    return bits;
  }

  /** Counts by pair (byKey names them), for the methods below to add to. */
  newCounts(): Int32Array {
    return new Int32Array(this.pairValues.length);
  }

  /**
   * Adds the counts of the positions `from` up to `to` that have options, are
   * in `matched` (all, when null) and not in `skipped`: each value once per
   * product, when a variant has it and every other chosen value
   * (valuesCounted in option-choices.ts). Walks only the products with options.
   */
  addRange(
    counts: Int32Array,
    { from, to }: { from: number; to: number },
    matched: Uint32Array | null,
    skipped: Uint32Array | null,
    chosen: ChosenOptions | null,
  ): void {
    const counting = this.counting(counts, chosen, 1);
    for (let block = from >>> 5; block <= (to - 1) >>> 5 && from < to; block++) {
      let word = (this.hasOptions[block] as number) & (matched ? (matched[block] as number) : -1);
      if (skipped) word &= ~(skipped[block] as number);
      word >>>= 0;
      while (word !== 0) {
        const lowest = word & -word;
        const position = block * 32 + (31 - Math.clz32(lowest));
        if (position >= from && position < to) counting.add(position);
        word = (word ^ lowest) >>> 0;
      }
    }
  }

  /** Adds one position's counts with nothing chosen, or takes them away (`sign` -1). */
  addPosition(counts: Int32Array, position: number, sign: 1 | -1): void {
    if (has(this.hasOptions, position)) this.counting(counts, null, sign).add(position);
  }

  /**
   * Adds a brand × category's counts with nothing chosen, of all its products
   * or those in stock (`inStock` given): made once per index for every cell
   * (`cellStarts` as CatalogIndex keeps them), the commonest listings' facets.
   */
  addCell(counts: Int32Array, cell: number, cellStarts: Uint32Array, inStock: Uint32Array | null): void {
    const kind = inStock ? "inStock" : "all";
    let table = this.cellTables.get(kind);
    if (!table) {
      const pairs = this.pairValues.length;
      const made = new Int32Array((cellStarts.length - 1) * pairs);
      for (let each = 0; each < cellStarts.length - 1; each++) {
        const into = made.subarray(each * pairs, (each + 1) * pairs);
        const range = { from: cellStarts[each] as number, to: cellStarts[each + 1] as number };
        this.addRange(into, range, inStock, null, null);
      }
      table = made;
      this.cellTables.set(kind, made);
    }
    const pairs = this.pairValues.length;
    for (let pair = 0; pair < pairs; pair++) {
      counts[pair] = (counts[pair] as number) + (table[cell * pairs + pair] as number);
    }
  }

  /** Adds a product's counts to `counts` (or takes them away): each value once, as valuesCounted says. */
  private counting(counts: Int32Array, chosen: ChosenOptions | null, sign: 1 | -1) {
    if (!chosen || chosen.size === 0) {
      // Nothing chosen: each of its values, once.
      return {
        add: (position: number) => {
          for (
            let at = this.pairStarts[position] as number;
            at < (this.pairStarts[position + 1] as number);
            at++
          ) {
            const pair = this.productPairs[at] as number;
            counts[pair] = (counts[pair] as number) + sign;
          }
        },
      };
    }
    const lastCounted = new Int32Array(this.pairValues.length).fill(-1);
    const reading = this.reading(chosen);
    return {
      add: (position: number) => {
        for (
          let variant = this.starts[position] as number;
          variant < (this.starts[position + 1] as number);
          variant++
        ) {
          const failing = reading.failing(variant);
          for (let slot = variant * 3; slot < variant * 3 + 3; slot++) {
            const pair = this.slots[slot] as number;
            // Every chosen option holds: each value counts; one fails: only its own option's value does.
            if (pair === this.noPair || lastCounted[pair] === position) continue;
            if (failing === NONE_FAILING || failing === this.pairNames[pair]) {
              lastCounted[pair] = position;
              counts[pair] = (counts[pair] as number) + sign;
            }
          }
        }
      },
    };
  }

  /** Counts by pairKey, those above 0. */
  byKey(counts: Int32Array): Map<string, number> {
    const tallied = new Map<string, number>();
    counts.forEach((found, pair) => {
      if (found > 0) {
        tallied.set(
          pairKey(this.names[this.pairNames[pair] as number] as string, this.pairValues[pair] as string),
          found,
        );
      }
    });
    return tallied;
  }

  /**
   * For chosen values, which chosen option a variant fails: none
   * (NONE_FAILING), one it has another value of (that option's number), one
   * it has no value for (MISSING_OPTION) or several (SEVERAL_FAILING).
   */
  private reading(chosen: ChosenOptions) {
    const chosenNames = new Uint8Array(this.names.length);
    const pairChosen = new Uint8Array(this.pairValues.length);
    for (const name of chosen.keys()) {
      const number = this.names.indexOf(name);
      if (number >= 0) chosenNames[number] = 1;
    }
    this.pairValues.forEach((value, pair) => {
      const name = this.names[this.pairNames[pair] as number] as string;
      if (chosen.get(name)?.has(value)) pairChosen[pair] = 1;
    });
    const chosenCount = chosen.size;
    return {
      failing: (variant: number): number => {
        let held = 0;
        let otherValue = NONE_FAILING;
        for (let slot = variant * 3; slot < variant * 3 + 3; slot++) {
          const pair = this.slots[slot] as number;
          if (pair === this.noPair) continue;
          if (pairChosen[pair]) held++;
          else if (chosenNames[this.pairNames[pair] as number]) otherValue = this.pairNames[pair] as number;
        }
        // A variant has one value per option: each chosen option it does not hold, it fails.
        const fails = chosenCount - held;
        if (fails === 0) return NONE_FAILING;
        if (fails === 1) return otherValue >= 0 ? otherValue : MISSING_OPTION;
        return SEVERAL_FAILING;
      },
    };
  }
}

const NONE_FAILING = -1;
const SEVERAL_FAILING = -2;
const MISSING_OPTION = -3;

/** Collects each product's variants as it is added, numbering pairs in the order they come. */
export class OptionIndexBuilder {
  private readonly pairs = new Map<string, number>();
  private readonly pairNames: number[] = [];
  private readonly pairValues: string[] = [];
  private readonly names: string[] = [];
  /** Every added product's variants' pair slots, one after the other (no array per product: a million small ones cost more than their contents). */
  private slots = new Int32Array(1 << 16);
  private used = 0;
  /** Each added product's first slot and the slot after its last (equal without options). */
  private readonly bounds: number[] = [];

  add(variants: VariantRows | null) {
    this.bounds.push(this.used);
    if (variants && variants.values.length > 0) {
      const needed = this.used + variants.values.length * 3;
      if (needed > this.slots.length) {
        const grown = new Int32Array(Math.max(needed, this.slots.length * 2));
        grown.set(this.slots.subarray(0, this.used));
        this.slots = grown;
      }
      const named = variants.names.slice(0, 3);
      for (const values of variants.values) {
        for (let slot = 0; slot < 3; slot++) {
          const name = named[slot];
          const value = values[slot];
          this.slots[this.used++] = name !== undefined && value !== undefined ? this.pairOf(name, value) : -1;
        }
      }
    }
    this.bounds.push(this.used);
  }

  /** The index, products at the positions `added` gives them (position → the product's number in adding order). */
  build(added: ArrayLike<number>): OptionIndex {
    const size = added.length;
    const starts = new Uint32Array(size + 1);
    const withOptions: number[] = [];
    let variants = 0;
    const boundsOf = (position: number) => {
      const product = added[position] as number;
      return [this.bounds[product * 2] as number, this.bounds[product * 2 + 1] as number] as const;
    };
    for (let position = 0; position < size; position++) {
      const [from, to] = boundsOf(position);
      starts[position] = variants;
      if (to > from) {
        withOptions.push(position);
        variants += (to - from) / 3;
      }
    }
    starts[size] = variants;
    // The builder's -1 becomes the width's largest number as it is copied: "no pair".
    const pairCount = this.pairValues.length;
    const slots = pairsFor(pairCount, variants * 3);
    const hasOptions = new Uint32Array(Math.ceil(size / 32));
    const pairStarts = new Uint32Array(size + 1);
    const productPairs = pairsFor(pairCount, Math.min(variants * 3, pairCount * withOptions.length));
    const lastSeen = new Int32Array(this.pairValues.length).fill(-1);
    let pairsUsed = 0;
    for (let position = 0; position < size; position++) {
      pairStarts[position] = pairsUsed;
      const [from, to] = boundsOf(position);
      if (to === from) continue;
      setBit(hasOptions, position);
      slots.set(this.slots.subarray(from, to), (starts[position] as number) * 3);
      // Its values, each once: what it counts towards with nothing chosen.
      for (let slot = from; slot < to; slot++) {
        const pair = this.slots[slot] as number;
        if (pair < 0 || lastSeen[pair] === position) continue;
        lastSeen[pair] = position;
        productPairs[pairsUsed++] = pair;
      }
    }
    pairStarts[size] = pairsUsed;
    return new OptionIndex(
      Int32Array.from(this.pairNames),
      this.pairValues,
      this.names,
      starts,
      slots,
      Uint32Array.from(withOptions),
      hasOptions,
      pairStarts,
      productPairs.slice(0, pairsUsed),
    );
  }

  private pairOf(name: string, value: string): number {
    const key = pairKey(name, value);
    let pair = this.pairs.get(key);
    if (pair === undefined) {
      pair = this.pairValues.length;
      this.pairs.set(key, pair);
      let nameNumber = this.names.indexOf(name);
      if (nameNumber < 0) nameNumber = this.names.push(name) - 1;
      this.pairNames.push(nameNumber);
      this.pairValues.push(value);
    }
    return pair;
  }
}
