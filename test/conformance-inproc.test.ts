// Replays every recorded conformance scenario with the CLI called in this
// process: runCli of the bundle dist/lib.mjs, which Node users run (vitest
// loads it through Node's own loader: vitest.config.ts), without a process
// start per command. The same replay on Bun, Deno and the other Node
// versions: conformance-runtimes.test.ts (`npm run test:all`); spawned, as
// processes: conformance.test.ts.
// Both recorded files replay: the 160 scenarios and the 80 edge cases, each
// in a folder of a scratch directory in memory where there is one
// (test/scratch.ts).
import { afterAll, describe, expect, test } from 'vitest';
import { formatResult, replayScenario, runtimeSpec } from './conformance/replay.ts';
import { scenarioSets } from './conformance/select.ts';
import { makeScratch, removeScratch } from './scratch.ts';

const inproc = runtimeSpec('inproc-dist').runtime;
// ACP_KEEP keeps a failing scenario's folder for inspection (replay.ts): then they go to the system's temporary directory, which outlives the run.
const scratch = process.env.ACP_KEEP ? undefined : makeScratch();
afterAll(() => scratch && removeScratch(scratch));
for (const { label, scenarios } of scenarioSets()) {
  describe.concurrent(`conformance in-process (${label}, all ${scenarios.length})`, () => {
    test('every scenario file holds scenarios', () => expect(scenarios.length).toBeGreaterThan(0));
    for (const scenario of scenarios) {
      test(`seed ${scenario.seed}`, async () => {
        const r = await replayScenario(scenario, inproc, { tmpRoot: scratch });
        if (r.mismatches.length > 0) expect.fail(formatResult(r));
        expect(r.passedChecks).toBe(r.checks);
      });
    }
  });
}
