// Least privilege under Deno: every command works with read/write access to
// the collaboration's directory and nothing else — no env, sys, net, run or
// ffi — and `--no-prompt`, so any other access throws NotCapable and fails
// the command (and this test). The library runs with no permission at all.
// Run size (test/scale.ts): every command runs from acp.ts in `npm test`
// (humans-deno.test.ts runs dist/acp.mjs under Deno there), and from
// dist/acp.mjs too under ACP_FULL=1.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCAL_BIN, REPO_DIR, runCommand, spawnUntil, type RunResult } from './conformance/replay.ts';
import { appendArgs, initArgs, OWNER, REVIEWER, STEPS } from './happy-path.ts';
import { configCandidates } from './deno-grants.ts';
import { runtimesOfRun } from './runtime-matrix.ts';
import { budgetMs, startCostOrFloor } from './timing.ts';

const DENO = join(LOCAL_BIN, 'deno');
const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
delete env.FORCE_COLOR;

/** Exactly the permissions we claim are enough: the folder, read and write. */
function leastPrivilege(folder: string): string[] {
  return ['run', '--no-prompt', '--quiet', `--allow-read=${[folder, ...configCandidates(folder)].join(',')}`, `--allow-write=${folder}`];
}

/** A bound on one deno run, from deno's start cost measured now (timing.ts); 60 s was a guess. */
const RUN_MS = budgetMs(await startCostOrFloor('deno'), 1);

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'acp-deno-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function denied(r: RunResult): boolean {
  return /NotCapable|Requires \w+ access/.test(r.stderr + r.stdout);
}

describe.concurrent('deno, least privilege', () => {
  test('deno is installed (devDependency)', () => {
    expect(existsSync(DENO), `${DENO} missing: npm ci`).toBe(true);
  });

  test('control: these flags really deny env and sys reads (so a sneaked-in read would fail)', async () => {
    const dir = join(root, 'control');
    await mkdir(dir);
    const probes = {
      'process.env': "import process from 'node:process'; console.log(process.env.HOME);",
      'Deno.env': 'console.log(Deno.env.get("HOME"));',
      'os.hostname': "import os from 'node:os'; console.log(os.hostname());",
      'os.tmpdir': "import os from 'node:os'; console.log(os.tmpdir());",
    };
    for (const [name, code] of Object.entries(probes)) {
      const file = join(dir, `${name}.mjs`);
      await writeFile(file, code);
      const r = await runCommand([DENO, ...leastPrivilege(dir), file], dir, env, RUN_MS);
      expect({ name, rc: r.rc === 0 ? 0 : 'failed', denied: denied(r) }).toEqual({ name, rc: 'failed', denied: true });
    }
  });

  test('a config Deno may not read fails loudly instead of being skipped (a veto plugin is never bypassed silently)', async () => {
    const top = join(root, 'unreadable-config');
    const work = join(top, 'work');
    await mkdir(work, { recursive: true });
    await writeFile(join(top, 'acp.config.yaml'), 'plugins:\n  - acp:rfc\n');
    const r = await runCommand([DENO, 'run', '--no-prompt', '--quiet', `--allow-read=${work}`, join(REPO_DIR, 'acp.ts'), 'types'], work, env, 60_000);
    expect({ rc: r.rc, stderr: r.stderr }).toEqual({ rc: 2, stderr: expect.stringContaining(`error: cannot look for ${join(top, 'acp.config.yaml')}: this runtime may not read it`) });
  });

  const entries: Record<string, string> = { 'acp.ts': join(REPO_DIR, 'acp.ts'), 'dist/acp.mjs': join(REPO_DIR, 'dist', 'acp.mjs') };
  for (const label of runtimesOfRun(Object.keys(entries), ['acp.ts'])) {
    const entry = entries[label]!;
    test(`${label}: every command with only --allow-read/--allow-write of the folder`, async () => {
      expect(existsSync(entry), `${entry} missing (npm run build)`).toBe(true);
      const top = join(root, label.replace(/\W/g, '-'));
      await mkdir(top);
      // The grant names the collaboration folder itself, before it exists.
      const folder = join(top, 'collab');
      const prefix = [DENO, ...leastPrivilege(folder), entry];
      const acp = (args: string[], cwd = top): Promise<RunResult> => runCommand([...prefix, ...args], cwd, env, RUN_MS);
      const ok = async (args: string[], cwd?: string): Promise<string> => {
        const r = await acp(args, cwd);
        expect({ args, rc: r.rc, stderr: r.stderr }).toEqual({ args, rc: 0, stderr: '' });
        return r.stdout;
      };

      expect(await ok(['--version'])).toMatch(/^acp\//);
      expect(await ok(['types'])).toContain('design-spec');
      expect(await ok(initArgs('collab'))).toBe(`Initialized ACP schema v2 collaboration folder: ${folder}\n`);
      expect(await ok(['next', '--folder', folder, '--participant', OWNER])).toContain('phase: drafting');
      expect(await ok(['validate', '--folder', folder])).toBe('ACP validation passed\n');

      let waiter: Promise<RunResult> | undefined;
      for (const [i, step] of STEPS.entries()) {
        for (const [rel, text] of Object.entries(step.files)) {
          await mkdir(dirname(join(folder, rel)), { recursive: true });
          await writeFile(join(folder, rel), text);
        }
        if (step.event.event === 'proposal_submitted') {
          // `wait` under Deno: node:fs watch (Deno.watchFs underneath) wakes it;
          // the hour-long poll interval could not.
          const w = spawnUntil(env, [...prefix, 'wait', '--folder', folder, '--participant', REVIEWER, '--interval', '3600', '--timeout', '120'], top, 'waiting: ');
          await w.started;
          waiter = w.done;
        }
        expect(await ok(appendArgs(folder, step.event))).toBe(`appended seq ${i + 2}: ${step.event.event}\n`);
      }
      const woken = await waiter!;
      expect({ rc: woken.rc, stderr: woken.stderr }).toEqual({ rc: 0, stderr: '' });
      expect(woken.stdout).toContain('ready: bob is listed in waitingFor');

      expect(JSON.parse(await ok(['validate', '--folder', folder, '--json']))).toEqual({ ok: true, exitCode: 0, errors: [], warnings: [] });
      expect(await ok(['wait', '--folder', folder, '--participant', OWNER, '--json'])).toContain('"ready":"phase is completed"');

      // A refusal is the protocol's error, not a permission failure.
      const refused = await acp(['next', '--folder', folder, '--participant', 'mallory']);
      expect({ rc: refused.rc, stderr: refused.stderr }).toEqual({ rc: 2, stderr: "error: participant 'mallory' is not listed in protocol.json\n" });
      // Outside the grant, Deno refuses: the permission set is what we claim.
      await writeFile(join(top, 'protocol.json'), '{}');
      const outside = await acp(['validate', '--folder', top]);
      expect(outside.rc).not.toBe(0);
      expect(denied(outside)).toBe(true);

      // A lock left behind by a dead process: without --allow-run its holder
      // cannot be checked, so it is recognised by age, and Deno never prompts.
      const lock = join(folder, '.acp.lock');
      await writeFile(lock, JSON.stringify({ pid: 2 ** 30, token: 'dead', at: 0 }));
      const old = new Date(Date.now() - 60_000);
      await utimes(lock, old, old);
      const blocked = appendArgs(folder, { participant: REVIEWER, event: 'blocked', summary: 'reopened', replyTo: 11 });
      expect(await ok(blocked)).toBe('appended seq 12: blocked\n');
      expect(existsSync(lock)).toBe(false);
    });
  }

  test('the library with no permission at all: import has no side effects; in-memory collaboration', async () => {
    const dir = join(root, 'library');
    await mkdir(dir);
    const script = join(dir, 'embed.ts');
    await writeFile(
      script,
      `import { createMemoryHost, openCollaboration } from ${JSON.stringify(pathToFileURL(join(REPO_DIR, 'acp.ts')).href)};
const host = createMemoryHost();
const collab = await openCollaboration('/nowhere/collab', { host });
await collab.init({ participants: ['alice', 'bob'], objective: 'x', completion: ['y'], primaryType: 'adr' });
const next = await collab.next('alice');
console.log(JSON.stringify({ phase: next.phase, files: [...host.fs.snapshot().keys()].length }));
`,
    );
    const r = await runCommand([DENO, 'run', '--no-prompt', '--quiet', script], dir, env, RUN_MS);
    expect({ rc: r.rc, stderr: r.stderr }).toEqual({ rc: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ phase: 'drafting' });
    expect(JSON.parse(r.stdout).files).toBeGreaterThan(5);
  });
});
