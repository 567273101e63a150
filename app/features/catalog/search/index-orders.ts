import type { CatalogQuery } from "../core/catalog-schema";
import { forEachBit, has, stepsOf } from "./bits";
import { priceCapOf } from "./price-cap.server";
import { denseRanks, orderById, orderByKey } from "./sorting";

/**
 * Positions no longer shown: their products changed or went since the index
 * was read (index-changes.server.ts shows them as they are now). A few
 * thousand at most, so each answer takes them out one by one.
 */
export interface Removal {
  bits: Uint32Array;
  /** The same positions, ascending. */
  positions: Uint32Array;
}

/** A predicate on positions for the brand, category and price filters; null when they filter nothing. */
export type Filter = ((position: number) => boolean) | null;

/** Candidates for a page as a bit set: a search's matches. */
export interface BitCandidates {
  bits: true;
  all: Uint32Array;
  count: number;
}

/** Candidates for a page as runs of positions (brand × category cells, each up to its price cap). */
export interface CellCandidates {
  runs: { from: number; to: number }[];
  count: number;
  /** Positions within the runs that are not candidates. */
  removed: Removal | null;
}

export type Candidates = BitCandidates | CellCandidates;

/** An order (its positions, and each position's step in it), between two steps. */
export interface Order {
  positions: Uint32Array;
  steps: Uint32Array;
  reversed: boolean;
  from: number;
  to: number;
}

/** What the orders are made from: each position's id, price, rating and date. */
export interface OrderKeys {
  ids: Int32Array;
  priceMinor: Float64Array;
  ratingTenths: Uint8Array;
  createdMicros: Float64Array;
}

/** The most a rating's tenths can be (ratingTenths is one byte). */
const MAX_RATING_TENTHS = 255;

/**
 * The index's three orders — best rated first (the shop's own, and "Top
 * Rated"), by price, newest first — each ending on the id as the SQL orders
 * do, and paging through them: a slice, a walk over candidates, or the
 * candidates' steps gathered and sorted, whichever costs less.
 */
export class IndexOrders {
  readonly size: number;
  private readonly priceMinor: Float64Array;
  /** Positions by id: a changed product is found by a binary search. */
  readonly byId: Uint32Array;
  /** Positions in the shop's order: best rated first, then newest, then by id. */
  private readonly byRating: Uint32Array;
  /** Positions by price, cheapest first, then by id. */
  private readonly byPrice: Uint32Array;
  /** Positions by date added, newest first, then by id, highest first. */
  private readonly byDate: Uint32Array;
  /** Each position's step in byRating, byPrice and byDate: few candidates are paged by sorting theirs. */
  private readonly ratingSteps: Uint32Array;
  private readonly priceSteps: Uint32Array;
  private readonly dateSteps: Uint32Array;

  /** The orders of these keys, a pause (yield) after each sort (CatalogIndexBuilder.buildInTurns). */
  static *inPhases({
    ids,
    priceMinor,
    ratingTenths,
    createdMicros,
  }: OrderKeys): Generator<void, IndexOrders> {
    const size = ids.length;
    const byId = orderById(ids);
    const idRank = stepsOf(byId);
    yield;
    const { ranks: dateRank, count: dates } = denseRanks(createdMicros);
    const newness = (position: number) => dates - 1 - (dateRank[position] as number);
    yield;
    const byRating = orderByKey(
      (position) => (MAX_RATING_TENTHS - (ratingTenths[position] as number)) * dates + newness(position),
      idRank,
      byId,
    );
    yield;
    const byPrice = orderByKey((position) => priceMinor[position] as number, idRank, byId);
    yield;
    // Highest id first: the same ranks counted from the other end.
    const idRankDown = idRank.map((rank) => size - 1 - rank);
    const byDate = orderByKey(newness, idRankDown, byId.slice().reverse());
    yield;
    return new IndexOrders(priceMinor, { byId, byRating, byPrice, byDate });
  }

  private constructor(
    priceMinor: Float64Array,
    orders: { byId: Uint32Array; byRating: Uint32Array; byPrice: Uint32Array; byDate: Uint32Array },
  ) {
    this.size = priceMinor.length;
    this.priceMinor = priceMinor;
    this.byId = orders.byId;
    this.byRating = orders.byRating;
    this.byPrice = orders.byPrice;
    this.byDate = orders.byDate;
    this.ratingSteps = stepsOf(this.byRating);
    this.priceSteps = stepsOf(this.byPrice);
    this.dateSteps = stepsOf(this.byDate);
  }

  get bytes(): number {
    return [
      this.byRating,
      this.byPrice,
      this.byDate,
      this.ratingSteps,
      this.priceSteps,
      this.dateSteps,
    ].reduce((sum, array) => sum + array.byteLength, 0);
  }

  /**
   * An order to page through, and the steps of it that can hold a product
   * under the price cap: in price order, those that cost more are skipped.
   */
  order(sort: CatalogQuery["sort"], range: number | undefined): Order {
    const whole = { from: 0, to: this.size };
    switch (sort) {
      case "asc":
      case "dsc": {
        const priced = { positions: this.byPrice, steps: this.priceSteps };
        const cap = range === undefined ? this.size : this.countPricedAtMost(priceCapOf(range));
        // Price high to low, then id high to low: exactly the reverse of "asc".
        return sort === "asc"
          ? { ...priced, reversed: false, from: 0, to: cap }
          : { ...priced, reversed: true, from: this.size - cap, to: this.size };
      }
      case "date-added":
        return { positions: this.byDate, steps: this.dateSteps, reversed: false, ...whole };
      default:
        // "rating", and no sort: the shop's order.
        return { positions: this.byRating, steps: this.ratingSteps, reversed: false, ...whole };
    }
  }

  /** How many products cost at most `cap` cents: a binary search in price order. */
  private countPricedAtMost(cap: number): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.priceMinor[this.byPrice[middle] as number] as number) <= cap) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The position at a step of an order. */
  at(order: Order, step: number): number {
    return order.positions[order.reversed ? this.size - 1 - step : step] as number;
  }

  /** A position's step in an order. */
  stepOf(order: Order, position: number): number {
    const step = order.steps[position] as number;
    return order.reversed ? this.size - 1 - step : step;
  }

  /** Positions at `offset` and after in an order, when nothing filters. */
  slice(order: Order, offset: number, size: number): number[] {
    const found: number[] = [];
    const end = Math.min(order.to, order.from + offset + size);
    for (let step = order.from + offset; step < end; step++) {
      found.push(this.at(order, step));
    }
    return found;
  }

  /**
   * Positions at `offset` and after in an order, when nothing filters but
   * some are removed: the step to start from is found by counting the removed
   * steps before it (a binary search in their few steps), never by walking.
   */
  sliceWithout(order: Order, offset: number, size: number, removed: Removal): number[] {
    const steps = Uint32Array.from(removed.positions, (position) => this.stepOf(order, position)).sort();
    const removedBefore = (step: number) => {
      let [low, high] = [0, steps.length];
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((steps[middle] as number) < step) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    // The first step with `offset` shown steps before it: a fixed point, reached in a few rounds.
    let step = order.from + offset;
    for (let next = order.from + offset + removedBefore(step); next !== step; ) {
      step = next;
      next = order.from + offset + removedBefore(step);
    }
    const found: number[] = [];
    for (; step < order.to && found.length < size; step++) {
      const position = this.at(order, step);
      if (!has(removed.bits, position)) found.push(position);
    }
    return found;
  }

  /**
   * Up to `size` positions of the candidates, in an order, after `offset` of
   * them. Walking the order costs about (offset + size) steps per share of
   * the catalogue the candidates are, so few candidates are cheaper gathered
   * and their steps sorted (a typed array's numeric sort). `keep` is the
   * filters' test, for walking runs of positions (a bit set is already kept).
   */
  pageOf(candidates: Candidates, keep: Filter, order: Order, offset: number, size: number): number[] {
    const span = order.to - order.from;
    const walking = Math.min(span, ((offset + size) * span) / Math.max(1, candidates.count));
    const gathering = candidates.count * (1 + Math.log2(candidates.count + 1));
    if (gathering < walking) {
      const steps = this.gatherSteps(candidates, order).sort();
      return Array.from(steps.subarray(offset, offset + size), (step) => this.at(order, step));
    }
    const bits = "bits" in candidates ? candidates.all : null;
    const found: number[] = [];
    let skipped = 0;
    for (let step = order.from; step < order.to && found.length < size; step++) {
      const position = this.at(order, step);
      if (bits ? !has(bits, position) : keep && !keep(position)) continue;
      if (skipped < offset) skipped++;
      else found.push(position);
    }
    return found;
  }

  /** The steps in `order` of the candidates. */
  private gatherSteps(candidates: Candidates, order: Order): Uint32Array {
    const steps = new Uint32Array(candidates.count);
    let kept = 0;
    const add = (position: number) => {
      const step = this.stepOf(order, position);
      if (step >= order.from && step < order.to) steps[kept++] = step;
    };
    if ("bits" in candidates) forEachBit(candidates.all, add);
    else {
      const removed = candidates.removed?.bits;
      for (const { from, to } of candidates.runs) {
        for (let position = from; position < to; position++) {
          if (!removed || !has(removed, position)) add(position);
        }
      }
    }
    return steps.subarray(0, kept);
  }
}
