// Replays every recorded conformance scenario (test/conformance/) against
// each runtime in ACP_RUNTIMES (comma list of node, bun, deno, binary;
// default all four: node runs dist/acp.mjs, bun and deno run acp.ts — deno
// with only the scenario folder's read/write permissions and --no-prompt —
// and binary is dist/acp). `npm test` builds dist/acp.mjs and dist/acp first.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type ScenarioResult, formatMismatch, loadScenarios, replayScenario, runtimeSpec } from './conformance/replay.ts';

const scenarios = loadScenarios();
const names = (process.env.ACP_RUNTIMES ?? 'node,bun,deno,binary')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

function report(r: ScenarioResult): string {
  const head = `seed ${r.seed}: ${r.checks - r.passedChecks} of ${r.checks} checks failed (${r.mismatches.length} mismatches)`;
  const body = r.mismatches.slice(0, 5).map((m) => formatMismatch(m, 600));
  const more = r.mismatches.length > 5 ? [`… ${r.mismatches.length - 5} more`] : [];
  const kept = r.keptRoot ? [`kept ROOT: ${r.keptRoot}`] : [];
  return [head, ...body, ...more, ...kept].join('\n\n');
}

for (const name of names) {
  const spec = runtimeSpec(name);
  const missing = spec.needs.filter((f) => !existsSync(f));
  describe.concurrent(`conformance (${name})`, () => {
    if (missing.length > 0) {
      // Not a skip: a fresh clone has every runtime (devDependencies) once built.
      test(`${name} is available`, () => expect.fail(`missing ${missing.join(', ')} (npm ci; npm run build)`));
      return;
    }
    for (const scenario of scenarios) {
      test(`seed ${scenario.seed}`, async () => {
        const r = await replayScenario(scenario, spec.runtime);
        if (r.mismatches.length > 0) expect.fail(report(r));
        expect(r.passedChecks).toBe(r.checks);
      });
    }
  });
}
