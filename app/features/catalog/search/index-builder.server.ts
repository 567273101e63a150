import { setBit, stepsOf } from "./bits";
import { CardShelfBuilder } from "./card-shelf";
import { CatalogIndex, type IndexedProductRow } from "./catalog-index.server";
import { IndexOrders } from "./index-orders";
import { OptionIndexBuilder } from "./option-index";
import { valueNumber } from "./postings";
import { LexemeNumbers, PostingsBuilder } from "./postings-builder";
import { denseRanks, orderById, orderByKey } from "./sorting";

/** Builds an index from products added in any order (readCatalogIndex adds them by id). */
export class CatalogIndexBuilder {
  private readonly ids: number[] = [];
  private readonly prices: number[] = [];
  private readonly ratings: number[] = [];
  private readonly created: number[] = [];
  private readonly brands: number[] = [];
  private readonly categories: number[] = [];
  private readonly inStock: boolean[] = [];
  private readonly brandValues = new Map<string, number>();
  private readonly categoryValues = new Map<string, number>();
  private readonly lexemes = new LexemeNumbers();
  private readonly postings = new PostingsBuilder(this.lexemes);
  private readonly namePostings = new PostingsBuilder(this.lexemes);
  private readonly cards = new CardShelfBuilder();
  private readonly options = new OptionIndexBuilder();

  add(row: IndexedProductRow) {
    this.ids.push(row.id);
    this.prices.push(row.priceMinor);
    this.ratings.push(row.ratingTenths);
    this.created.push(row.createdMicros);
    this.brands.push(valueNumber(this.brandValues, row.bandName));
    this.categories.push(valueNumber(this.categoryValues, row.category));
    this.inStock.push(row.inStock);
    this.postings.add(row.lexemes);
    this.namePostings.add(row.nameLexemes);
    this.cards.add(row.card);
    this.options.add(row.variants);
  }

  /**
   * The index, its products numbered by brand × category, then price, then
   * id: each brand × category is then one run of positions, cheapest first,
   * and its products under a price cap the start of that run. A facet count
   * or a filter on a search's matches is a population count over runs of its
   * bit set, not a visit to every match.
   */
  build(revision: number): CatalogIndex {
    const phases = this.phases(revision);
    for (;;) {
      const step = phases.next();
      if (step.done) return step.value;
    }
  }

  /** The same index, the event loop given a turn between its phases: requests are answered meanwhile. */
  async buildInTurns(revision: number): Promise<CatalogIndex> {
    const phases = this.phases(revision);
    for (;;) {
      const step = phases.next();
      if (step.done) return step.value;
      await new Promise(setImmediate);
    }
  }

  /** Building the index, a pause (yield) between parts that take tens or hundreds of milliseconds at a million products. */
  private *phases(revision: number): Generator<void, CatalogIndex> {
    if (this.brandValues.size > 0xffff || this.categoryValues.size > 0xffff) {
      throw new RangeError("The search index holds at most 65,535 brands and as many categories.");
    }
    const categoryCount = this.categoryValues.size;
    // Products by the order they were added in, as each position holds them.
    const byId = orderById(this.ids);
    yield;
    const { ranks: priceRank, count: prices } = denseRanks(this.prices);
    yield;
    const added = orderByKey(
      (product) =>
        ((this.brands[product] as number) * categoryCount + (this.categories[product] as number)) * prices +
        (priceRank[product] as number),
      stepsOf(byId),
      byId,
    );
    yield;
    const byPosition = <T extends Int32Array | Float64Array | Uint8Array | Uint16Array>(
      values: number[],
      array: T,
    ): T => {
      added.forEach((product, position) => {
        array[position] = values[product] as number;
      });
      return array;
    };
    const size = added.length;
    const keys = {
      ids: byPosition(this.ids, new Int32Array(size)),
      priceMinor: byPosition(this.prices, new Float64Array(size)),
      ratingTenths: byPosition(this.ratings, new Uint8Array(size)),
      createdMicros: byPosition(this.created, new Float64Array(size)),
    };
    yield;
    const orders = yield* IndexOrders.inPhases(keys);
    const postings = yield* this.postings.build(added);
    const namePostings = yield* this.namePostings.build(added);
    const cards = this.cards.build(added);
    const options = this.options.build(added);
    const inStock = new Uint32Array(Math.ceil(size / 32));
    added.forEach((product, position) => {
      if (this.inStock[product]) setBit(inStock, position);
    });
    yield;
    return new CatalogIndex({
      revision,
      ...keys,
      brands: byPosition(this.brands, new Uint16Array(size)),
      categories: byPosition(this.categories, new Uint16Array(size)),
      brandValues: [...this.brandValues.keys()],
      categoryValues: [...this.categoryValues.keys()],
      inStock,
      postings,
      namePostings,
      cards,
      options,
      orders,
    });
  }
}
