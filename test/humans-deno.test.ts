// The humans' commands under Deno with least privilege: read and write
// access to the collaboration folder only, `--no-prompt` (any other access —
// the environment for colour, say — fails the command and this test).
// Run size (test/scale.ts): the commands run from dist/acp.mjs in `npm test`
// (deno.test.ts runs acp.ts under Deno there), and from acp.ts too under
// ACP_FULL=1; the terminal test runs acp.ts in both.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { LOCAL_BIN, REPO_DIR, runCommand, spawnUntil } from './conformance/replay.ts';
import { cleanup, happyFolder, STEPS } from './humans/folders.ts';
import { configCandidates } from './deno-grants.ts';
import { runtimesOfRun } from './runtime-matrix.ts';

afterAll(cleanup);

const DENO = join(LOCAL_BIN, 'deno');
const env: Record<string, string | undefined> = { ...process.env, DENO_NO_UPDATE_CHECK: '1', FORCE_COLOR: '1' };
delete env.NO_COLOR;

function leastPrivilege(folder: string): string[] {
  // The config search's candidates too: acp refuses to guess about a config it may not read.
  return ['run', '--no-prompt', '--quiet', `--allow-read=${[folder, ...configCandidates(folder)].join(',')}`, `--allow-write=${folder}`];
}

describe.concurrent('humans commands under deno, least privilege', () => {
  const entries: Record<string, string> = { 'acp.ts': join(REPO_DIR, 'acp.ts'), 'dist/acp.mjs': join(REPO_DIR, 'dist', 'acp.mjs') };
  for (const label of runtimesOfRun(Object.keys(entries), ['dist/acp.mjs'])) {
    const entry = entries[label]!;
    test(`${label}: status (text and --json), log, report with only the folder granted`, async () => {
      expect(existsSync(entry), `${entry} missing (npm run build)`).toBe(true);
      const folder = await happyFolder(STEPS.length);
      const acp = (args: string[]) => runCommand([DENO, ...leastPrivilege(folder), entry, ...args], folder, env, 60_000);
      const status = await acp(['status', '--folder', folder]);
      expect({ rc: status.rc, stderr: status.stderr }).toEqual({ rc: 0, stderr: '' });
      expect(status.stdout).toMatch(/^phase: +completed/m);
      // FORCE_COLOR is set, but the environment is not granted: no colour, no read.
      expect(status.stdout).not.toContain('\u001b[');
      const json = await acp(['status', '--folder', folder, '--json']);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, phase: 'completed', validation: { ok: true } });
      const log = await acp(['log', '--folder', folder, '--since', '9']);
      expect({ rc: log.rc, stderr: log.stderr, lines: log.stdout.trimEnd().split('\n').length }).toEqual({ rc: 0, stderr: '', lines: 2 });
      const report = await acp(['report', '--folder', folder, '--out', join(folder, 'report.html')]);
      expect({ rc: report.rc, stderr: report.stderr }).toEqual({ rc: 0, stderr: '' });
      expect(report.stdout).toMatch(/^report: .*report\.html \(\d+ bytes\)\n$/);
    });

    test(`${label}: log --follow sees another writer's events and stops at completed`, async () => {
      const folder = await happyFolder(STEPS.length - 2);
      const follower = spawnUntil(env, [DENO, ...leastPrivilege(folder), entry, 'log', '--folder', folder, '--follow', '--json'], folder, '"seq":9');
      await follower.started;
      const host = await lib.createNodeHost();
      for (const step of STEPS.slice(-2)) {
        for (const [name, text] of Object.entries(step.files)) writeFileSync(join(folder, name), text);
        await lib.append(host, folder, step.event);
      }
      const r = await follower.done;
      expect({ rc: r.rc, stderr: r.stderr }).toEqual({ rc: 0, stderr: '' });
      expect(r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    });
  }

  test('status on a terminal: colour stays off (and no environment is read) unless the environment is granted', async () => {
    // `script` gives the command a pseudo-terminal, where colour would be on by default.
    expect(existsSync('/usr/bin/script'), '/usr/bin/script (util-linux) is needed for a terminal').toBe(true);
    const folder = await happyFolder(STEPS.length);
    const onTty = (flags: string[]) => {
      const command = [DENO, ...flags, join(REPO_DIR, 'acp.ts'), 'status', '--folder', folder].map((a) => `'${a}'`).join(' ');
      return runCommand(['/usr/bin/script', '-qec', command, '/dev/null'], folder, { ...env, TERM: 'xterm' }, 60_000);
    };
    const denied = await onTty(leastPrivilege(folder));
    expect({ rc: denied.rc, stderr: denied.stderr }).toEqual({ rc: 0, stderr: '' });
    expect(denied.stdout).toMatch(/phase: +completed/);
    expect(denied.stdout).not.toContain('\u001b[');
    const granted = await onTty([...leastPrivilege(folder), '--allow-env']);
    expect(granted.rc).toBe(0);
    expect(granted.stdout).toContain('\u001b[');
  });
});
