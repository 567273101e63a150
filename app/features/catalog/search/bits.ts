/** Bit sets over an index's positions, and the small searches over typed arrays the index makes. */

/** Each position's step in an order. */
export function stepsOf(order: Uint32Array): Uint32Array {
  const steps = new Uint32Array(order.length);
  for (let step = 0; step < order.length; step++) steps[order[step] as number] = step;
  return steps;
}

/** Calls `use` with each set bit's position, in ascending order. */
export function forEachBit(bits: Uint32Array, use: (position: number) => void): void {
  for (let block = 0; block < bits.length; block++) {
    let word = bits[block] as number;
    while (word !== 0) {
      const lowest = word & -word;
      use(block * 32 + (31 - Math.clz32(lowest)));
      word ^= lowest;
    }
  }
}

/** Population count of a 32-bit word (Hacker's Delight). */
function bitCount(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function countBits(bits: Uint32Array): number {
  let count = 0;
  for (let block = 0; block < bits.length; block++) count += bitCount(bits[block] as number);
  return count;
}

/** The bits of a block from bit `from` (0–31) up to, not including, bit `to` (1–32). */
const blockMask = (from: number, to: number) =>
  ((to === 32 ? 0xffffffff : (1 << to) - 1) & ~((1 << from) - 1)) >>> 0;

/**
 * Calls `use` with each block of positions `from` up to `to` touches, and the
 * mask of its bits in that range: a run of positions, a block at a time.
 */
function forEachBlockBetween(from: number, to: number, use: (block: number, mask: number) => void): void {
  if (from >= to) return;
  const first = from >>> 5;
  const last = (to - 1) >>> 5;
  for (let block = first; block <= last; block++) {
    use(block, blockMask(block === first ? from & 31 : 0, block === last ? ((to - 1) & 31) + 1 : 32));
  }
}

/** How many bits are set at positions `from` up to, not including, `to`. */
export function countBitsBetween(bits: Uint32Array, from: number, to: number): number {
  let count = 0;
  forEachBlockBetween(from, to, (block, mask) => {
    count += bitCount((bits[block] as number) & mask);
  });
  return count;
}

/** Copies the bits at positions `from` up to `to` into `into`; how many were set. */
export function copyBits(bits: Uint32Array, into: Uint32Array, from: number, to: number): number {
  let count = 0;
  forEachBlockBetween(from, to, (block, mask) => {
    const kept = (bits[block] as number) & mask;
    into[block] = (into[block] as number) | kept;
    count += bitCount(kept);
  });
  return count;
}

export const has = (bits: Uint32Array, position: number) =>
  ((bits[position >>> 5] as number) & (1 << (position & 31))) !== 0;

export function setBit(bits: Uint32Array, position: number): void {
  bits[position >>> 5] = (bits[position >>> 5] as number) | (1 << (position & 31));
}

export function numbersOf(values: string[], chosen: string[]): Set<number> {
  const numbers = new Set<number>();
  for (const value of chosen) {
    const number = values.indexOf(value);
    if (number >= 0) numbers.add(number);
  }
  return numbers;
}

/** How many of the sorted prices are at most `cap`. */
export function countAtMost(prices: Float64Array, cap: number): number {
  let low = 0;
  let high = prices.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((prices[middle] as number) <= cap) low = middle + 1;
    else high = middle;
  }
  return low;
}
