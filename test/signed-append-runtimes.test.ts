// Signed II (issue 36) on the other runtimes: a signed collaboration end to
// end, and the cut-tail refusal, through the CLI under bun, deno and the
// binary dist/acp (acp.ts on bun and deno, as test/runtimes.test.ts runs
// them; deno under least privilege plus the one variable that names the key
// directory). The library's every door is in signed-append.test.ts; this is
// the runtime matrix, so it runs in `npm run test:all` (ACP_FULL=1) only.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCommand, runtimeSpec, type RunResult } from './conformance/replay.ts';
import { appendArgs, initArgs, STEPS } from './happy-path.ts';
import { runtimesOfRun } from './runtime-matrix.ts';
import { budgetMs, startCostOrFloor } from './timing.ts';

const names = runtimesOfRun(['bun', 'deno', 'binary'] as const, []);

/** The runtime's command prefix; deno also reads ACP_SIGNING_KEY_DIR (without it, a least-privilege run has no key directory). */
function prefixOf(name: string, root: string): string[] {
  const spec = runtimeSpec(name);
  const prefix = typeof spec.runtime.prefix === 'function' ? spec.runtime.prefix(root) : spec.runtime.prefix;
  return name === 'deno' ? [prefix[0]!, 'run', '--allow-env=ACP_SIGNING_KEY_DIR', ...prefix.slice(2)] : prefix;
}

if (!names.length) test.skip('signed appends on bun, deno and the binary: the runtime matrix runs under ACP_FULL=1 (npm run test:all)', () => {});

for (const name of names) {
  describe(`signed collaboration on ${name}`, () => {
    test('end to end, the cut tail refused in validate\'s words with exit 2 and nothing written', async () => {
      const spec = runtimeSpec(name);
      const missing = spec.needs.filter((f) => !existsSync(f));
      expect(missing, `missing ${missing.join(', ')} (npm ci; npm run build)`).toEqual([]);
      const cost = await startCostOrFloor(name);
      const root = await mkdtemp(join(tmpdir(), `acp-signed-${name}-`));
      const folder = join(root, 'collab');
      const log = join(folder, 'events.jsonl');
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ACP_SIGNING_KEY_DIR: join(root, 'keys') };
      delete env.FORCE_COLOR;
      const acp = (args: string[]): Promise<RunResult> => runCommand([...prefixOf(name, root), ...args], root, env, budgetMs(cost, 1));
      const ok = async (args: string[]): Promise<string> => {
        const r = await acp(args);
        expect({ args, rc: r.rc, stderr: r.stderr }).toEqual({ args, rc: 0, stderr: '' });
        return r.stdout;
      };
      try {
        await ok([...initArgs(folder), '--sign']);
        for (const [i, step] of STEPS.entries()) {
          for (const [rel, text] of Object.entries(step.files)) {
            await mkdir(dirname(join(folder, rel)), { recursive: true });
            await writeFile(join(folder, rel), text);
          }
          if (i === 3) {
            // Cut seq 4 (bob's, the last line): alice's honest append is refused, and the folder stays as it was.
            const whole = await readFile(log, 'utf8');
            await writeFile(log, whole.split('\n').slice(0, -2).map((l) => `${l}\n`).join(''));
            const cut = await readFile(log, 'utf8');
            const refused = await acp(appendArgs(folder, step.event));
            expect(refused.rc).toBe(2);
            expect(refused.stderr).toMatch(/^error: the log this append would extend is not what its signers wrote, so nothing was appended: seq 4: missing: events\.jsonl ends at seq 3, but protocol\.json's signed head is seq 4/);
            expect(await readFile(log, 'utf8')).toBe(cut);
            await writeFile(log, whole);
          }
          expect(await ok(appendArgs(folder, step.event))).toBe(`appended seq ${i + 2}: ${step.event.event}\n`);
        }
        // Every line signed, and validate says how many signatures its verdict rests on (on this runtime's own thread pool).
        const validated = await acp(['validate', '--folder', folder]);
        expect(validated).toMatchObject({ rc: 0, stdout: 'ACP validation passed\n', stderr: `note: ${STEPS.length + 1} signatures verified\n` });
        expect((await readFile(log, 'utf8')).split('\n').slice(0, -1).every((line) => /,"sig":"[A-Za-z0-9_-]{86}"\}$/.test(line))).toBe(true);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    }, 600_000);
  });
}
