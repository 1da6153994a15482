// Figures of the benchmark scripts that take the middle run as it is.

/**
 * The middle of `values` once sorted, the upper of the two middle ones for an
 * even count: always a measured run, never the mean of two (which is what
 * scripts/bench-start.ts's `median` gives).
 */
export function middleRun(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
