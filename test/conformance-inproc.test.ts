// Replays every recorded conformance scenario with the CLI called in this
// process (runCli of acp.ts: the same code every runtime runs, without a
// process start per command), so `npm test` checks all of them in about a
// minute. conformance.test.ts spawns the CLI under each runtime (a sample in
// `npm test`, everything in `npm run test:all`).
// Both recorded files replay: the 160 scenarios and the 80 edge cases.
import { describe, expect, test } from 'vitest';
import { formatResult, replayScenario, runtimeSpec } from './conformance/replay.ts';
import { scenarioSets } from './conformance/select.ts';

const inproc = runtimeSpec('inproc').runtime;
for (const { label, scenarios } of scenarioSets()) {
  describe.concurrent(`conformance in-process (${label}, all ${scenarios.length})`, () => {
    test('every scenario file holds scenarios', () => expect(scenarios.length).toBeGreaterThan(0));
    for (const scenario of scenarios) {
      test(`seed ${scenario.seed}`, async () => {
        const r = await replayScenario(scenario, inproc);
        if (r.mismatches.length > 0) expect.fail(formatResult(r));
        expect(r.passedChecks).toBe(r.checks);
      });
    }
  });
}
