// Issue 40: acp against the reference Python tool set itself, on seeded
// generated folders and command lines (test/reference/harness.ts). Quick: a
// sample of each generator; full (ACP_FULL=1): thousands of cases.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { byScale } from './scale.ts';
import { describe as explain, excludedBySpec, referenceMissing, runCases, stopReferenceDriver } from './reference/harness.ts';
import { buildStages, GENERATORS, generate } from './reference/generate.ts';

const missing = referenceMissing();
// One python3 answers every case of the file (test/reference/driver.py); it ends with the file.
afterAll(stopReferenceDriver);
/** Cases per generator: a few seconds in quick, thousands in all in full. */
const PER_GENERATOR = byScale({ quick: 20, full: 600 });
const SEEDS = byScale({ quick: [1], full: [1, 2, 3] });
/** A bound on one generator's run: 1,800 cases take minutes on a loaded machine. */
const TIMEOUT_MS = byScale({ quick: 120_000, full: 1_800_000 });

describe.skipIf(missing !== undefined)(`acp agrees with the reference Python tools${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let stages: Awaited<ReturnType<typeof buildStages>>;
  beforeAll(async () => {
    stages = await buildStages();
  });

  for (const name of Object.keys(GENERATORS)) {
    test(`generator ${name}`, async () => {
      const cases = SEEDS.flatMap((seed) => generate(stages, PER_GENERATOR, seed)).filter((c) => c.label.startsWith(`${name}#`));
      const run = cases.filter((c) => !excludedBySpec(c));
      const verdicts = await runCases(run);
      const differing = verdicts.filter((v) => v.differs.length);
      const crashed = verdicts.filter((v) => v.referenceCrashed).length;
      const refused = verdicts.filter((v) => v.refusedInvalid).length;
      const deliberate = verdicts.filter((v) => v.deliberate).length;
      console.log(`reference-diff ${name}: ${verdicts.length} cases, ${verdicts.length - differing.length} agree (${crashed} where the reference crashes, ${refused} where it writes a folder its validate rejects, ${deliberate} deliberate refusals), ${cases.length - run.length} left out by the spec`);
      if (process.env.REF_DEBUG) for (const v of differing) console.log(explain(v));
      expect(differing.map(explain).slice(0, 5).join('\n\n')).toBe('');
    }, TIMEOUT_MS);
  }
});
