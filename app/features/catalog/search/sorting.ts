/**
 * Orders of a million positions in a fraction of a comparator sort's time
 * (the index's orders took seconds of start-up and held the event loop while
 * a catalogue was read again): each position's key and its rank among equal
 * keys are packed into one double, exactly, and the doubles sorted natively.
 * When a key cannot be packed (not a whole number ≥ 0, or over
 * 2^53 / 2^bits(size)), the comparator sort answers the same order.
 */

/** The number the rank is multiplied past: the power of two above the largest rank. */
const rankSpan = (size: number) => 2 ** Math.max(1, Math.ceil(Math.log2(size + 1)));

/**
 * The positions in the order of `key` (a whole number ≥ 0 for each position),
 * equal keys in the order of `rank` (a different whole number from 0 to
 * size − 1 for each position); `atRank[r]` is the position of rank r.
 */
export function orderByKey(
  key: (position: number) => number,
  rank: ArrayLike<number>,
  atRank: ArrayLike<number>,
): Uint32Array {
  const size = rank.length;
  const span = rankSpan(size);
  const keys = new Float64Array(size);
  let largest = 0;
  let whole = true;
  for (let position = 0; position < size; position++) {
    const value = key(position);
    keys[position] = value;
    if (value > largest) largest = value;
    if (!Number.isInteger(value) || value < 0) whole = false;
  }
  const order = new Uint32Array(size);
  if (!whole || (largest + 1) * span > Number.MAX_SAFE_INTEGER) {
    for (let position = 0; position < size; position++) order[position] = position;
    return order.sort(
      (a, b) => (keys[a] as number) - (keys[b] as number) || (rank[a] as number) - (rank[b] as number),
    );
  }
  const packed = new Float64Array(size);
  for (let position = 0; position < size; position++) {
    packed[position] = (keys[position] as number) * span + (rank[position] as number);
  }
  packed.sort();
  for (let step = 0; step < size; step++) order[step] = atRank[(packed[step] as number) % span] as number;
  return order;
}

/** The positions in the order of their ids (each different, ≥ 0). */
export function orderById(ids: ArrayLike<number>): Uint32Array {
  const positions = Uint32Array.from({ length: ids.length }, (_, position) => position);
  return orderByKey((position) => ids[position] as number, positions, positions);
}

/**
 * Each position's value numbered densely from 0 in ascending order (equal
 * values, equal numbers), and how many different values there are.
 */
export function denseRanks(values: ArrayLike<number>): { ranks: Uint32Array; count: number } {
  // The different values, ascending, in the front of one sorted copy.
  const distinct = Float64Array.from(values).sort();
  let count = 0;
  for (let at = 0; at < distinct.length; at++) {
    if (count === 0 || distinct[count - 1] !== distinct[at]) distinct[count++] = distinct[at] as number;
  }
  const ranks = new Uint32Array(values.length);
  for (let position = 0; position < values.length; position++) {
    const value = values[position] as number;
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((distinct[middle] as number) < value) low = middle + 1;
      else high = middle;
    }
    ranks[position] = low;
  }
  return { ranks, count };
}
