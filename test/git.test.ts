// The git transport (plugin git, docs/git.md): a bare repository and clones
// on this machine, driven in-process through the CLI entry (runCli).
// ACP_GIT_RACE_FULL=1 runs the issue's full race (4 writers × 25 appends);
// by default 4 writers × 6.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../acp.ts';
import { appendArgs, initArgs, OWNER, REVIEWER, STEPS } from './happy-path.ts';

const IDENTITY = { GIT_AUTHOR_NAME: 'acp test', GIT_AUTHOR_EMAIL: 'acp@example.invalid', GIT_COMMITTER_NAME: 'acp test', GIT_COMMITTER_EMAIL: 'acp@example.invalid' };
const GIT_ENV = { ...IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

let root: string;
let previousCwd: string;
const savedEnv: Record<string, string | undefined> = {};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function acp(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  return { code, stdout, stderr };
}

/** A bare remote holding an initialized folder `collab`, and `n` clones of it. */
async function setup(name: string, initArgv: (folder: string) => string[], n: number): Promise<{ remote: string; clones: string[] }> {
  const base = join(root, name);
  mkdirSync(base);
  const remote = join(base, 'remote.git');
  git(base, 'init', '--quiet', '--bare', '-b', 'main', remote);
  const seed = join(base, 'seed');
  git(base, 'clone', '--quiet', remote, seed);
  const init = await acp(...initArgv(join(seed, 'collab')));
  expect(init.stderr).toBe('');
  writeFileSync(join(seed, '.gitignore'), '.acp.lock\n.acp.lock.break\n.acp.checkpoint.json\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '--quiet', '-m', 'start the collaboration');
  git(seed, 'push', '--quiet', 'origin', 'main');
  const clones = Array.from({ length: n }, (_, i) => {
    const clone = join(base, `clone${i}`);
    git(base, 'clone', '--quiet', remote, clone);
    return clone;
  });
  return { remote, clones };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'acp-git-'));
  for (const [key, value] of Object.entries(GIT_ENV)) {
    savedEnv[key] = process.env[key];
    process.env[key] = value;
  }
  // The config file enables git for every folder under root and sets a short poll interval.
  writeFileSync(join(root, 'acp.config.yaml'), 'git:\n  remote: origin\n  interval: 0.3\n  max-interval: 1\n');
  previousCwd = process.cwd();
  process.chdir(root);
});

afterAll(() => {
  process.chdir(previousCwd);
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

describe('append --git races through push', () => {
  it('every successful append reaches the remote exactly once, seqs continuous, every clone validates', async () => {
    const writers = 4;
    const perWriter = process.env.ACP_GIT_RACE_FULL === '1' ? 25 : 6;
    const ids = Array.from({ length: writers }, (_, i) => `p${i}`);
    const initArgv = (folder: string) => ['init', '--folder', folder, ...ids.flatMap((id) => ['--participant', id]), '--objective', 'race', '--completion', 'done', '--primary-deliverable-type', 'design-spec'];
    const { remote, clones } = await setup('race', initArgv, writers);
    const attempts: number[] = [];
    const failures: string[] = [];
    const started = Date.now();
    await Promise.all(ids.map(async (id, w) => {
      for (let k = 0; k < perWriter; k++) {
        // blocked is legal for any participant from any phase: every append may race every other.
        const r = await acp('append', '--git', '--json', '--folder', join(clones[w]!, 'collab'), '--participant', id, '--event', 'blocked', '--summary', `${id}-${k}`, '--reply-to', '1');
        if (r.code === 0) attempts.push(JSON.parse(r.stdout).git.attempts);
        else failures.push(r.stderr);
      }
    }));
    const elapsed = Date.now() - started;
    const ok = attempts.length;
    const log = git(remote, 'show', 'main:collab/events.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: ok + 1 }, (_, i) => i + 1));
    const summaries = log.slice(1).map((e) => e.summary).sort();
    expect(new Set(summaries).size).toBe(ok);
    expect(git(remote, 'log', '--format=%s', 'main').split('\n').filter((s) => s.startsWith('acp: seq ')).length).toBe(ok);
    // Failures are only give-ups under contention, and change nothing.
    for (const f of failures) expect(f).toMatch(/the push was rejected \d+ times/);
    expect(ok).toBeGreaterThan(0);
    for (const clone of clones) {
      git(clone, 'pull', '--quiet', '--ff-only');
      const v = await acp('validate', '--folder', join(clone, 'collab'));
      expect(v.stdout).toContain('ACP validation passed');
      expect(git(clone, 'status', '--porcelain')).toBe('');
    }
    const retries = attempts.reduce((a, b) => a + b - 1, 0);
    console.log(`git race: ${writers}×${perWriter}: ${ok} appended, ${failures.length} gave up; attempts/append mean ${(attempts.reduce((a, b) => a + b, 0) / ok).toFixed(2)}, max ${Math.max(...attempts)}; retries ${retries}; ${(elapsed / ok).toFixed(0)} ms per append (wall, ${writers} writers), ${(elapsed * writers / (ok + failures.length)).toFixed(0)} ms per append per writer`);
  });
});

describe('wait --git across clones', () => {
  it('runs a full two-participant collaboration, each participant in its own clone', async () => {
    const { clones } = await setup('pair', initArgs, 2);
    const cloneOf: Record<string, string> = { [OWNER]: join(clones[0]!, 'collab'), [REVIEWER]: join(clones[1]!, 'collab') };
    const handoffs: number[] = [];
    for (let i = 0; i < STEPS.length; i++) {
      const step = STEPS[i]!;
      const following = STEPS[i + 1]?.event.participant;
      const handsOver = following !== undefined && following !== step.event.participant;
      // The next participant is already waiting in its own clone when this append is pushed.
      const waiting = handsOver ? acp('wait', '--git', '--json', '--folder', cloneOf[following]!, '--participant', following, '--timeout', '60') : undefined;
      const folder = cloneOf[step.event.participant]!;
      for (const [file, text] of Object.entries(step.files)) {
        mkdirSync(join(folder, file, '..'), { recursive: true });
        writeFileSync(join(folder, file), text);
      }
      const r = await acp(...appendArgs(folder, step.event), '--git');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const pushedAt = Date.now();
      if (waiting) {
        const w = await waiting;
        handoffs.push(Date.now() - pushedAt);
        expect(w.code).toBe(0);
        expect(JSON.parse(w.stdout).waitingFor).toContain(following);
      }
    }
    for (const folder of Object.values(cloneOf)) {
      await acp('wait', '--git', '--folder', folder, '--participant', REVIEWER, '--timeout', '60');
      const v = await acp('validate', '--folder', folder);
      expect(v.stdout).toContain('ACP validation passed');
      expect(JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8')).currentPhase).toBe('completed');
    }
    console.log(`git handoff (poll interval 0.3 s, max 1 s): ${handoffs.map((h) => `${h} ms`).join(', ')}`);
  });
});

describe('append --git refuses bad states and changes nothing', () => {
  it('a stray change in the folder, then a missing remote', async () => {
    const { remote, clones } = await setup('bad', initArgs, 1);
    const folder = join(clones[0]!, 'collab');
    const head = git(clones[0]!, 'rev-parse', 'HEAD');
    writeFileSync(join(folder, 'notes.txt'), 'scratch\n');
    const before = readFileSync(join(folder, 'events.jsonl'), 'utf8');
    const stray = await acp('append', '--git', '--folder', folder, '--participant', OWNER, '--event', 'blocked', '--summary', 'stop', '--reply-to', '1');
    expect(stray.code).toBe(2);
    expect(stray.stderr).toBe('error: git: the folder has changes this event does not name: collab/notes.txt (commit, stash or discard them first)\n');
    rmSync(join(folder, 'notes.txt'));
    git(clones[0]!, 'remote', 'rename', 'origin', 'upstream');
    const missing = await acp('append', '--git', '--folder', folder, '--participant', OWNER, '--event', 'blocked', '--summary', 'stop', '--reply-to', '1');
    expect(missing.stderr).toBe("error: git: no remote 'origin' in this repository (remotes: upstream)\n");
    expect(readFileSync(join(folder, 'events.jsonl'), 'utf8')).toBe(before);
    expect(git(clones[0]!, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(remote, 'rev-parse', 'main')).toBe(head);
  });
});
