// Issue 40: Node, Bun, Deno and the compiled binary agree with each other
// (and with the in-process CLI) on the differential harness's cases:
// exit code, stdout, stderr and the files left, exactly. Quick: the binary
// on a few cases of each generator; full (ACP_FULL=1): every runtime on
// fifty of each.
//
// Left out: arguments holding a byte that is not UTF-8 (a lone surrogate in
// the case): a spawned process gets its arguments as UTF-8, so the byte
// cannot be passed from here; what each runtime does with such names is in
// docs/spec-notes.md (Node addresses them, Bun, Deno and the binary refuse
// them), and test/pyargv.test.ts runs them through a shell.
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { runtimeSpec } from './conformance/replay.ts';
import { byScale } from './scale.ts';
import { buildStages, generate } from './reference/generate.ts';
import { excludedBySpec, runAcpOnly, type Outcome } from './reference/harness.ts';

const RUNTIMES = byScale({ quick: ['binary'], full: ['node', 'bun', 'deno', 'binary'] });
const PER_GENERATOR = byScale({ quick: 1, full: 50 });

const show = (o: Outcome): string => JSON.stringify(o).slice(0, 1500);

describe('the runtimes agree with each other on the differential cases', () => {
  let stages: Awaited<ReturnType<typeof buildStages>>;
  beforeAll(async () => {
    stages = await buildStages();
  });

  for (const name of RUNTIMES) {
    test(`${name} agrees with the in-process CLI`, async () => {
      const spec = runtimeSpec(name);
      const missing = spec.needs.find((path) => !existsSync(path));
      if (missing) throw new Error(`${name}: ${missing} is missing (npm run build; bun and deno come with npm install)`);
      const cases = generate(stages, PER_GENERATOR, 7).filter((c) => !excludedBySpec(c) && !/[\ud800-\udfff]/.test(c.argv.join('')));
      const inProcess = await runAcpOnly(cases);
      const spawned = await runAcpOnly(cases, { name, prefix: spec.runtime.prefix, env: spec.runtime.env });
      const differing = cases.flatMap((c, i) => (JSON.stringify(inProcess[i]) === JSON.stringify(spawned[i]) ? [] : [`${c.label} ${JSON.stringify(c.argv)}\n  in-process ${show(inProcess[i]!)}\n  ${name} ${show(spawned[i]!)}`]));
      console.log(`reference-runtimes ${name}: ${cases.length} cases, ${cases.length - differing.length} agree`);
      expect(differing.slice(0, 3).join('\n')).toBe('');
    }, 600_000);
  }
});
