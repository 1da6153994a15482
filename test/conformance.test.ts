// Replays every recorded conformance scenario (test/conformance/: the 160 of
// scenarios.jsonl.gz and the 80 edge cases of scenarios-edges.jsonl.gz) against
// each runtime in ACP_RUNTIMES (comma list of node, bun, deno, binary;
// default all four: node runs dist/acp.mjs, bun and deno run acp.ts — deno
// with only the scenario folder's read/write permissions and --no-prompt —
// and binary is dist/acp). `npm test` builds dist/acp.mjs and dist/acp first.
//
// ACP_REPLAY_EVERY=deno:4,bun:4 replays only every 4th scenario on those
// runtimes (a deterministic sample, named in the suite title) for a faster
// run; unset (the default) replays every scenario everywhere.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { type ScenarioResult, formatMismatch, loadScenarios, replayScenario, runtimeSpec } from './conformance/replay.ts';

const scenarios = loadScenarios();
const names = (process.env.ACP_RUNTIMES ?? 'node,bun,deno,binary')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const every = new Map(
  (process.env.ACP_REPLAY_EVERY ?? '')
    .split(',')
    .filter((s) => s.includes(':'))
    .map((s) => [s.split(':')[0]!.trim(), Math.max(1, Number.parseInt(s.split(':')[1]!, 10) || 1)] as const),
);

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
  const step = every.get(name) ?? 1;
  const title = step === 1 ? `conformance (${name})` : `conformance (${name}, every ${step}th scenario)`;
  describe.concurrent(title, () => {
    if (missing.length > 0) {
      // Not a skip: a fresh clone has every runtime (devDependencies) once built.
      test(`${name} is available`, () => expect.fail(`missing ${missing.join(', ')} (npm ci; npm run build)`));
      return;
    }
    for (const scenario of scenarios.filter((_, i) => i % step === 0)) {
      test(`seed ${scenario.seed}`, async () => {
        const r = await replayScenario(scenario, spec.runtime);
        if (r.mismatches.length > 0) expect.fail(report(r));
        expect(r.passedChecks).toBe(r.checks);
      });
    }
  });
}
