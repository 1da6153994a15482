// Replays the recorded conformance scenarios (test/conformance/) with the CLI
// spawned under each runtime of ACP_RUNTIMES (default all four: node runs
// dist/acp.mjs, bun and deno run acp.ts — deno with only the scenario
// folder's read/write permissions and --no-prompt — and binary is dist/acp).
// `npm test` builds dist/acp.mjs and dist/acp first.
//
// `npm test` replays a sample here (every scenario runs in-process in
// conformance-inproc.test.ts); `npm run test:all` (ACP_FULL=1) replays every
// scenario under every runtime; both recorded files (160 + 80 edge cases).
// See conformance/select.ts for the switches.
//
// No fixed timeout: each scenario's budget is its number of commands times
// the runtime's start cost measured on this machine now (timing.ts), so a
// loaded machine gets more time instead of red seeds.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { formatResult, isCmd, replayScenario, runtimeSpec } from './conformance/replay.ts';
import { scenarioSets, spawnedChoice, spawnedRuntimes } from './conformance/select.ts';
import { type SpawnedRuntime, budgetMs, startCostOrFloor } from './timing.ts';

const sets = scenarioSets();
for (const name of spawnedRuntimes()) {
  const spec = runtimeSpec(name);
  const missing = spec.needs.filter((f) => !existsSync(f));
  // Measured before the tests are defined: a test's timeout is fixed when it is declared.
  const cost = missing.length ? 0 : await startCostOrFloor(name as SpawnedRuntime);
  for (const { label, scenarios } of sets) {
    const { picked, note } = spawnedChoice(name, scenarios);
    describe.concurrent(`conformance (${name}, ${label}, ${note})`, () => {
      if (missing.length > 0) {
        // Not a skip: a fresh clone has every runtime (devDependencies) once built.
        test(`${name} is available`, () => expect.fail(`missing ${missing.join(', ')} (npm ci; npm run build)`));
        return;
      }
      test('the sample is not empty', () => expect(picked.length).toBeGreaterThan(0));
      for (const scenario of picked) {
        const commands = scenario.steps.filter(isCmd).length;
        test(`seed ${scenario.seed}`, { timeout: budgetMs(cost, commands) }, async () => {
          const r = await replayScenario(scenario, spec.runtime, { timeoutMs: budgetMs(cost, 1) });
          if (r.mismatches.length > 0) expect.fail(formatResult(r));
          expect(r.passedChecks).toBe(r.checks);
        });
      }
    });
  }
}
