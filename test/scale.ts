// How much one test run does (issue 32). Three sizes, chosen by the
// environment and read only when a test asks:
//
//   quick  `npm test`: every behaviour checked at least once, with counts
//          small enough to keep the run short (the goal: under 2 minutes on
//          2 idle cores, ~200 CPU-seconds; vitest.config.ts says what it
//          takes now, scripts/test-cpu.mjs where). The developer's loop.
//   full   ACP_FULL=1 (`npm run test:all`, which CI runs after `npm test`):
//          the whole runtime matrix and the counts the issues ask for (the
//          property tests' cases, the race and crash trials).
//   long   ACP_LONG=1 (`npm run test:long`): the long race, crash and fuzz
//          modes, on top of everything full does.
//
// A test that moves work out of `quick` keeps it in `full`, so CI still runs
// every check the default run used to.

/** The size of this run. */
export type Scale = 'quick' | 'full' | 'long';

/** The size of this run, from ACP_LONG and ACP_FULL (long wins; both imply full). */
export function testScale(env: NodeJS.ProcessEnv = process.env): Scale {
  if (env.ACP_LONG === '1') return 'long';
  return env.ACP_FULL === '1' ? 'full' : 'quick';
}

/** Whether this run is at least `size` (`atLeast('full')` is true under test:all and test:long). */
export function atLeast(size: Scale, env: NodeJS.ProcessEnv = process.env): boolean {
  const order: Scale[] = ['quick', 'full', 'long'];
  return order.indexOf(testScale(env)) >= order.indexOf(size);
}

/** The value for this run's size; `long` defaults to `full`'s. */
export function byScale<T>(choices: { quick: T; full: T; long?: T }, env: NodeJS.ProcessEnv = process.env): T {
  const size = testScale(env);
  if (size === 'long') return choices.long ?? choices.full;
  return choices[size];
}
