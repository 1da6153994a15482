import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Conformance scenarios spawn the CLI dozens of times each.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // describe.concurrent tests inside one file run up to this many at once.
    maxConcurrency: Math.max(2, availableParallelism()),
  },
});
