import { sql } from "drizzle-orm";
import { productUnitsOnHand } from "~/commerce/units-on-hand.server";
import type { Database } from "~/db/client.server";
import { products, productVariants, stockLevels } from "~/db/schema";
import type { Product, ProductWithStock } from "./catalog-schema";

/**
 * Products' units on hand as this process last read them, so that a listing
 * shows stock without asking the database for it (a query per listing cost
 * the shop almost half of its listings per second).
 *
 * Kept current by asking, now and then, for the levels changed since the last
 * look: drizzle/0016 stamps each level with the transaction that last changed
 * it (`changed_by`), and each look keeps its horizon, the oldest transaction
 * still running when it read (`pg_snapshot_xmin`). Whatever commits after a
 * look carries an id at least as large, so the next look finds it. The first
 * look reads every level (at start-up, beside the search index: 4 bytes a
 * product); a product made since the last look is read by id.
 *
 * How old a level may be: a look is started in the background when the last
 * one is more than `lookEveryMs` old, and waited for when it is more than
 * `maxAgeMs` old (an idle process), or after `changed()` (the catalogue
 * announced a change: a product sold out or came back, and its card must say
 * so with the index that filters it).
 */
export interface StockReads {
  /** The horizon now, with every level changed by a transaction at or after `since` (every level when `since` is null). */
  readStockChanges(db: Database, since: string | null): Promise<StockChanges>;
  /** These products' levels; a product without a level has none on hand. */
  readStockLevels(db: Database, ids: readonly number[]): Promise<Map<number, number>>;
}

export interface StockChanges {
  horizon: string;
  levels: Map<number, number>;
}

export interface StockSnapshotOptions {
  lookEveryMs?: number;
  maxAgeMs?: number;
}

const UNKNOWN = -1;

export function createStockSnapshot(
  db: Database,
  reads: StockReads,
  { lookEveryMs = 1_000, maxAgeMs = 3_000 }: StockSnapshotOptions = {},
) {
  /** By product id; UNKNOWN where never read. Ids are dense (a serial), so an array beats a Map by far in memory. */
  let levels = new Int32Array(0);
  let horizon: string | null = null;
  let lookedAt = Number.NEGATIVE_INFINITY;
  let looking: Promise<void> | null = null;

  const set = (id: number, onHand: number) => {
    if (id >= levels.length) {
      const grown = new Int32Array(Math.max(id + 1, levels.length * 2, 1024)).fill(UNKNOWN);
      grown.set(levels);
      levels = grown;
    }
    levels[id] = onHand;
  };
  const known = (id: number) => (id < levels.length ? (levels[id] as number) : UNKNOWN);

  const look = () => {
    looking ??= (async () => {
      const started = performance.now();
      try {
        const changes = await reads.readStockChanges(db, horizon);
        for (const [id, onHand] of changes.levels) set(id, onHand);
        horizon = changes.horizon;
        lookedAt = started;
      } finally {
        looking = null;
      }
    })();
    return looking;
  };

  /** Waits for a look when the levels may be too old (or none was ever taken); starts one in the background when due. */
  const fresh = async () => {
    const age = performance.now() - lookedAt;
    if (age > maxAgeMs || horizon === null) {
      await look();
    } else if (age > lookEveryMs) {
      // A failed background look is logged by the next one that is waited for, which fails the same way.
      look().catch(() => {});
    }
  };

  const levelsOf = async (ids: readonly number[]): Promise<number[]> => {
    await fresh();
    const unknown = ids.filter((id) => known(id) === UNKNOWN);
    if (unknown.length > 0) {
      const read = await reads.readStockLevels(db, unknown);
      // Only where still unknown: a look that ended meanwhile may hold a newer level than this read.
      for (const id of unknown) if (known(id) === UNKNOWN) set(id, read.get(id) ?? 0);
    }
    return ids.map((id) => Math.max(known(id), 0));
  };

  return {
    /** These products with their units on hand. */
    async withStock(found: readonly Product[]): Promise<ProductWithStock[]> {
      if (found.length === 0) return [];
      const onHand = await levelsOf(found.map((product) => product.id));
      return found.map((product, at) => ({ ...product, stock: onHand[at] as number }));
    },
    /** Reads every level now, so the first listings need not wait for them (at start-up). */
    warmUp: () => look(),
    /** The catalogue announced a change: the next listing waits for a fresh look. */
    changed() {
      lookedAt = Number.NEGATIVE_INFINITY;
    },
    /** Forgets every level (a test's or an import's clear). */
    clear() {
      levels = new Int32Array(0);
      horizon = null;
      lookedAt = Number.NEGATIVE_INFINITY;
    },
  };
}

const [COLON, COMMA, ZERO] = [":".charCodeAt(0), ",".charCodeAt(0), "0".charCodeAt(0)];

/**
 * Adds "id:units,id:units" to `levels`, times `sign`: one text column, read
 * the same by both drivers however many levels changed. Read digit by digit:
 * at a million products, splitting it made two million strings at start-up.
 */
function addLevels(levels: Map<number, number>, list: string | null, sign: 1 | -1): void {
  if (!list) return;
  let id = 0;
  let units = 0;
  let inUnits = false;
  for (let at = 0; at <= list.length; at++) {
    const code = at < list.length ? list.charCodeAt(at) : COMMA;
    if (code === COLON) {
      inUnits = true;
    } else if (code === COMMA) {
      levels.set(id, (levels.get(id) ?? 0) + sign * units);
      id = 0;
      units = 0;
      inUnits = false;
    } else if (inUnits) {
      units = units * 10 + (code - ZERO);
    } else {
      id = id * 10 + (code - ZERO);
    }
  }
}

/**
 * One statement, so the horizon and the levels come from the same snapshot.
 * A product's level is its live variants' sum, read as every level's sum less
 * the archived variants' levels: grouping the levels alone, then the few
 * archived variants through their partial index (drizzle/0028), costs a
 * million products about a second, where joining every level to its variant
 * took 3 to 5 s and ran into the statement timeout (bench/index-changes.ts).
 */
export async function readStockChanges(db: Database, since: string | null): Promise<StockChanges> {
  // A changed variant's product is read whole.
  const touched =
    since === null
      ? sql`true`
      : sql`s.product_id in (select ${stockLevels.productId} from ${stockLevels} where ${stockLevels.changedBy} >= ${since}::xid8)`;
  const summed = sql`(select string_agg(product_id || ':' || units, ',') from (
      select s.product_id, sum(s.on_hand) as units from ${stockLevels} s where ${touched} group by s.product_id) levels)`;
  const archived = sql`(select string_agg(s.product_id || ':' || s.on_hand, ',')
      from ${productVariants} v join ${stockLevels} s on s.variant_id = v.id
     where v.archived_at is not null and s.on_hand > 0 and ${touched})`;
  const result = await db.execute(
    sql`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon, ${summed} as levels, ${archived} as archived`,
  );
  const [row] = (
    result as unknown as { rows: { horizon: string; levels: string | null; archived: string | null }[] }
  ).rows;
  if (!row) throw new Error("the stock horizon could not be read");
  const levels = new Map<number, number>();
  addLevels(levels, row.levels, 1);
  addLevels(levels, row.archived, -1);
  return { horizon: row.horizon, levels };
}

/** By the products' primary key (`= any($1)`: one statement and one plan for any number of products), each its live variants' sum. */
export async function readStockLevels(db: Database, ids: readonly number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({ productId: products.id, onHand: productUnitsOnHand })
    .from(products)
    .where(sql`${products.id} = any(${sql.param(ids)}::int[])`);
  return new Map(rows.map((row) => [row.productId, row.onHand]));
}
