import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
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
    // The append checkpoint's key (plugins/core/node-host.ts) goes to a
    // scratch state directory, not the home of whoever runs the tests.
    env: { XDG_STATE_HOME: join(tmpdir(), 'acp-test-state') },
  },
});
