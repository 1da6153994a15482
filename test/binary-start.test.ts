// The compiled binary (dist/acp) where it differs from acp on Node: what it
// reads before acp's code runs, and the checkpoint MAC it computes natively.
//
// What it reads before acp's code runs. Bun's
// default for an executable loads `.env` and `bunfig.toml` from the working
// directory: a place other users and agents can write (a shared folder, a
// checkout). A bunfig.toml's `preload` would run its code as the user, a
// `.env` would set the variables acp reads (HOME, ACP_TRUSTED_CONFIG…).
// scripts/build.mjs turns both off; these cases hold it.
//
// The append checkpoint's MAC: Bun's native HMAC in the binary, TypeScript's
// or node:crypto's on Node (runtime/checkpoint.ts hmacHex). A MAC that
// differed would only cost speed (each side would read the whole log), so
// nothing else would notice it. `npm test` builds
// dist/acp first (run `node scripts/build.mjs` yourself otherwise).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createNodeHost } from '../acp.ts';
import { loadCheckpoint } from '../runtime/checkpoint.ts';

const REPO = resolve(import.meta.dirname, '..');
const BINARY = join(REPO, 'dist', 'acp');
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A scratch directory with `home/` (HOME for the binary) and `cwd/` (its working directory). */
function scratch(): { root: string; home: string; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), 'acp-binary-start-'));
  roots.push(root);
  const home = join(root, 'home');
  const cwd = join(root, 'cwd');
  mkdirSync(home);
  mkdirSync(cwd);
  return { root, home, cwd };
}

/** The binary run in `cwd` with only PATH, NO_COLOR and `env` set (nothing from the test's own environment that could steer it). */
function runBinary(args: string[], cwd: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(BINARY, args, { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.concurrent('the binary reads no configuration from its working directory', () => {
  test('dist/acp is built', () => {
    expect(existsSync(BINARY), `${BINARY} is missing (node scripts/build.mjs)`).toBe(true);
  });

  test("a bunfig.toml's preload in the working directory is not run", () => {
    const { root, home, cwd } = scratch();
    const marker = join(root, 'preloaded');
    writeFileSync(join(cwd, 'preload.js'), `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\n`);
    writeFileSync(join(cwd, 'bunfig.toml'), 'preload = ["./preload.js"]\n');
    for (const args of [['--version'], ['--help']]) {
      const r = runBinary(args, cwd, { HOME: home });
      expect({ args, status: r.status, stderr: r.stderr }).toEqual({ args, status: 0, stderr: '' });
    }
    expect(existsSync(marker)).toBe(false);
  });

  test('a .env in the working directory sets nothing (a HOME it names does not become `~`)', () => {
    const { root, cwd } = scratch();
    // A name no real home holds: without the .env, `~/<name>` is nowhere.
    const name = `collab-${basename(root)}`;
    const planted = join(root, 'planted-home');
    const init = ['init', '--folder', join(planted, name), '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr'];
    expect(runBinary(init, cwd).status).toBe(0);
    writeFileSync(join(cwd, '.env'), `HOME=${planted}\n`);
    // HOME is not set for the binary: only the .env could give it one.
    const r = runBinary(['next', '--folder', `~/${name}`, '--participant', 'alice'], cwd);
    expect(r.stdout).toBe('');
    expect(r.status).toBe(2);
    expect(r.stderr).not.toContain(planted);
  });
});

test("the binary's append checkpoint is authentic to acp on Node (one MAC, native or not)", async () => {
  const { root, home, cwd } = scratch();
  const state = join(root, 'state');
  const folder = join(root, 'collab');
  const env = { HOME: home, XDG_STATE_HOME: state };
  const init = ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr'];
  expect(runBinary(init, cwd, env).status).toBe(0);
  const append = ['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'];
  expect(runBinary(append, cwd, env)).toMatchObject({ status: 0, stderr: '' });
  const host = await createNodeHost({ checkpointKeyFile: join(state, 'acp', 'checkpoint.key') });
  const checkpoint = await loadCheckpoint(host, folder, ['alice', 'bob'], Object.keys(JSON.parse(readFileSync(join(folder, '.acp.checkpoint.json'), 'utf8')).state).sort());
  expect(checkpoint?.count).toBe(2);
});
