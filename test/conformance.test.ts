// Replays recorded conformance scenarios with the CLI spawned under each
// runtime of ACP_RUNTIMES (default: the run's Node versions, bun, deno and
// the binary; node runs dist/acp.mjs, bun and deno run acp.ts — deno with
// only the scenario folder's read/write permissions and --no-prompt — and
// binary is dist/acp). `npm test` builds dist/acp.mjs and dist/acp first.
//
// This is the process edge: argv, exit codes, output, permissions. Every
// scenario's decisions are replayed in-process (conformance-inproc.test.ts
// on the machine's Node, conformance-runtimes.test.ts on the others), so
// `npm test` spawns one scenario per runtime here and `npm run test:all` a
// sample of each file; conformance/select.ts says which and how to ask for
// more.
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
  const { picked, note } = spawnedChoice(name, sets);
  describe.concurrent(`conformance (${name}, ${note})`, () => {
    if (missing.length > 0) {
      // Not a skip: a fresh clone has every runtime (devDependencies) once built.
      test(`${name} is available`, () => expect.fail(`missing ${missing.join(', ')} (npm ci; npm run build)`));
      return;
    }
    test('the sample is not empty', () => expect(picked.length).toBeGreaterThan(0));
    for (const { label, scenario } of picked) {
      const commands = scenario.steps.filter(isCmd).length;
      test(`${label} seed ${scenario.seed}`, { timeout: budgetMs(cost, commands) }, async () => {
        const r = await replayScenario(scenario, spec.runtime, { timeoutMs: budgetMs(cost, 1) });
        if (r.mismatches.length > 0) expect.fail(formatResult(r));
        expect(r.passedChecks).toBe(r.checks);
      });
    }
  });
}
