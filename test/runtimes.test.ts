// Happy-path smoke test of the CLI under every runtime in ACP_RUNTIMES
// (comma list; default: the Node versions of conformance/select.ts, bun,
// deno, binary). Run size (test/scale.ts): `npm test` runs the newest other
// Node version only (the machine's Node runs the CLI in cli.test.ts, docs,
// mcp, rpc-* and the spawned conformance sample; the CLI runs under Deno in
// deno.test.ts, and each of bun, deno and the binary in other files' quick
// runs: plugins-runtimes, architecture, mcp, rpc-*); ACP_FULL=1 all of them;
// ACP_RUNTIMES is run as listed. node and node<major> run dist/acp.mjs, bun
// and deno run acp.ts (deno with only the scenario folder's read/write
// permissions and --no-prompt), binary is dist/acp. Every command, a whole
// collaboration from init to completed, and `wait` woken by an append.
// `npm test` builds dist/ first (run `node scripts/build.mjs` yourself otherwise).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCommand, runtimeSpec, spawnUntil, type RunResult } from './conformance/replay.ts';
import { nodeRuntimes, spawnedRuntimes } from './conformance/select.ts';
import { appendArgs, initArgs, OWNER, REVIEWER, STEPS } from './happy-path.ts';
import { runtimesOfRun } from './runtime-matrix.ts';
import { type SpawnedRuntime, budgetMs, startCostOrFloor } from './timing.ts';

const names = runtimesOfRun(spawnedRuntimes(), nodeRuntimes().slice(-1), process.env.ACP_RUNTIMES ? spawnedRuntimes() : undefined);

const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
delete env.FORCE_COLOR;

for (const name of names) {
  const spec = runtimeSpec(name);
  const missing = spec.needs.filter((f) => !existsSync(f));
  // Budgets from this runtime's measured start cost (timing.ts), not fixed
  // guesses: about 30 commands run below.
  const cost = missing.length ? 0 : await startCostOrFloor(name as SpawnedRuntime);
  describe.concurrent(`runtime ${name}`, () => {
    test('every command, init → completed, wait woken by an append', { timeout: budgetMs(cost, 40) }, async () => {
      // A missing runtime fails (not skips): `npm test` builds dist/ and the
      // devDependencies provide bun and deno, so all four must be there.
      expect(missing, `missing ${missing.join(', ')} (npm ci; npm run build)`).toEqual([]);
      const root = await mkdtemp(join(tmpdir(), `acp-runtime-${name}-`));
      const prefix = typeof spec.runtime.prefix === 'function' ? spec.runtime.prefix(root) : spec.runtime.prefix;
      const folder = join(root, 'collab');
      const acp = (args: string[], cwd = root): Promise<RunResult> => runCommand([...prefix, ...args], cwd, env, budgetMs(cost, 1));
      const ok = async (args: string[], cwd?: string): Promise<string> => {
        const r = await acp(args, cwd);
        expect({ args, rc: r.rc, stderr: r.stderr, spawnError: r.spawnError }).toEqual({ args, rc: 0, stderr: '', spawnError: undefined });
        return r.stdout;
      };
      try {
        expect(await ok(['--version'])).toMatch(/^acp\/\d+\.\d+\.\d+/);
        expect(await ok(['--help'])).toContain('validate');
        const types = JSON.parse(await ok(['types', '--json'])) as { types: { type: string; origin: string }[] };
        expect(types.types.filter((t) => t.origin === 'built-in').map((t) => t.type).sort()).toEqual(
          ['adr', 'custom', 'decision-memo', 'design-spec', 'implementation-plan', 'review-report', 'test-plan'],
        );

        // A relative --folder resolves against the working directory.
        expect(await ok(initArgs('collab'), root)).toBe(`Initialized ACP schema v2 collaboration folder: ${folder}\n`);
        expect(await ok([...initArgs(folder), '--resume'])).toBe(`Collaboration folder already exists: ${folder}\n`);
        expect(await ok(['next', '--folder', folder, '--participant', OWNER])).toContain('phase: drafting\n');
        expect(await ok(['validate', '--folder', folder])).toBe('ACP validation passed\n');

        let waiter: Promise<RunResult> | undefined;
        for (const [i, step] of STEPS.entries()) {
          for (const [rel, text] of Object.entries(step.files)) {
            await mkdir(dirname(join(folder, rel)), { recursive: true });
            await writeFile(join(folder, rel), text);
          }
          if (step.event.event === 'proposal_submitted') {
            // bob waits with an hour between polls: only a file-system
            // notification can wake him when alice's append lands.
            const w = spawnUntil(env, [...prefix, 'wait', '--folder', folder, '--participant', REVIEWER, '--interval', '3600', '--timeout', '120'], root, 'waiting: ');
            await w.started;
            waiter = w.done;
          }
          expect(await ok(appendArgs(folder, step.event))).toBe(`appended seq ${i + 2}: ${step.event.event}\n`);
        }
        const woken = await waiter!;
        expect(woken.rc, woken.stderr).toBe(0);
        expect(woken.stdout).toContain('ready: bob is listed in waitingFor\n');

        expect(await ok(['validate', '--folder', folder])).toBe('ACP validation passed\n');
        expect(JSON.parse(await ok(['validate', '--folder', folder, '--json']))).toEqual({ ok: true, exitCode: 0, errors: [], warnings: [] });
        expect(await ok(['next', '--folder', folder, '--participant', REVIEWER])).toContain('next action: stop; collaboration is complete.');
        expect(await ok(['wait', '--folder', folder, '--participant', REVIEWER, '--timeout', '5'])).toContain('ready: phase is completed');
        const protocol = JSON.parse(await readFile(join(folder, 'protocol.json'), 'utf8')) as { currentPhase: string };
        expect(protocol.currentPhase).toBe('completed');

        // Refusals: `error: …` on stderr, exit 2, folder unchanged.
        const before = await readFile(join(folder, 'events.jsonl'), 'utf8');
        const refused = await acp(['append', '--folder', folder, '--participant', 'mallory', '--event', 'blocked', '--summary', 'x', '--reply-to', '1']);
        expect({ rc: refused.rc, stderr: refused.stderr }).toEqual({ rc: 2, stderr: "error: participant 'mallory' is not listed in protocol.json\n" });
        expect(await readFile(join(folder, 'events.jsonl'), 'utf8')).toBe(before);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  });
}
