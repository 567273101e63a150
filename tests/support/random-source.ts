/**
 * A small deterministic random source (xorshift): the same seed gives the
 * same sequence, so a benchmark run can be repeated and a failing test
 * replayed.
 */
export function randomSource(seed = 1) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (probability: number) => next() < probability,
    /** About three items in ten, in their order. */
    some: <T>(items: readonly T[]): T[] => items.filter(() => next() < 0.3),
  };
}

export type RandomSource = ReturnType<typeof randomSource>;
