// One seeded random generator for the tests.
/** The seeded generator of every property test and fuzz (mulberry32): the same seed gives the same cases on every runtime, so a failing run can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a fuzzer draws from a seeded {@link rng}: a number in [0, 1), an item of a list, a coin with chance `p`, an integer below `n`. */
export interface SeededDraws {
  next(): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  int(n: number): number;
}

/** The draws of {@link rng}'s generator for `seed`. */
export function seededDraws(seed: number): SeededDraws {
  const next = rng(seed);
  return { next, pick: (items) => items[Math.floor(next() * items.length)]!, chance: (p) => next() < p, int: (n) => Math.floor(next() * n) };
}
