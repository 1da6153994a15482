// The git transport (plugin git, docs/git.md): a bare repository and clones
// on this machine, driven in-process through the CLI entry (runCli).
// ACP_GIT_RACE_FULL=1 runs the issue's full race (4 writers × 25 appends);
// by default 4 writers × 3 (the file stays fast).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../acp.ts';
import { RpcClient, type SubscriptionNotification } from '../plugins/rpc/client.ts';
import { rankOf } from '../plugins/git/order.ts';
import { appendArgs, initArgs, OWNER, REVIEWER, STEPS } from './happy-path.ts';

const IDENTITY = { GIT_AUTHOR_NAME: 'acp test', GIT_AUTHOR_EMAIL: 'acp@example.invalid', GIT_COMMITTER_NAME: 'acp test', GIT_COMMITTER_EMAIL: 'acp@example.invalid' };
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
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
  // init --git commits and pushes the new folder (with a .gitignore for acp's clone-local files).
  const init = await acp(...initArgv(join(seed, 'collab')), '--git');
  expect(init.stderr).toBe('');
  expect(init.stdout).toContain('committed and pushed to origin/main');
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
    const perWriter = process.env.ACP_GIT_RACE_FULL === '1' ? 25 : 3;
    const ids = Array.from({ length: writers }, (_, i) => `p${i}`);
    const initArgv = (folder: string) => ['init', '--folder', folder, ...ids.flatMap((id) => ['--participant', id]), '--objective', 'race', '--completion', 'done', '--primary-deliverable-type', 'design-spec'];
    const { remote, clones } = await setup('race', initArgv, writers);
    const attempts: number[] = [];
    const failures: string[] = [];
    const durations: number[] = [];
    const started = Date.now();
    await Promise.all(ids.map(async (id, w) => {
      for (let k = 0; k < perWriter; k++) {
        // blocked is legal for any participant from any phase: every append may race every other.
        const t0 = Date.now();
        const r = await acp('append', '--git', '--json', '--folder', join(clones[w]!, 'collab'), '--participant', id, '--event', 'blocked', '--summary', `${id}-${k}`, '--reply-to', '1');
        durations.push(Date.now() - t0);
        if (r.code === 0) attempts.push(JSON.parse(r.stdout).git.attempts);
        else failures.push(r.stderr);
      }
    }));
    const elapsed = Date.now() - started;
    const ok = attempts.length;
    const retries = attempts.reduce((a, b) => a + b - 1, 0);
    console.log(`git race: ${writers}×${perWriter}: ${ok} appended, ${failures.length} gave up; attempts/append mean ${(attempts.reduce((a, b) => a + b, 0) / ok).toFixed(2)}, max ${Math.max(...attempts)}; retries ${retries}; one append took ${(durations.reduce((a, b) => a + b, 0) / durations.length).toFixed(0)} ms on average, at most ${Math.max(...durations)} ms; wall ${(elapsed / 1000).toFixed(1)} s, ${(elapsed / ok).toFixed(0)} ms per landed append`);
    const log = git(remote, 'show', 'main:collab/events.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: ok + 1 }, (_, i) => i + 1));
    const summaries = log.slice(1).map((e) => e.summary).sort();
    expect(new Set(summaries).size).toBe(ok);
    // One commit per event, plus init --git's (seq 1).
    expect(git(remote, 'log', '--format=%s', 'main').split('\n').filter((s) => s.startsWith('acp: seq ')).length).toBe(ok + 1);
    // No append gives up: the retries are fair and bounded (see backOff and yieldAfterPush in plugins/git/repo.ts).
    expect(failures).toEqual([]);
    for (const clone of clones) {
      git(clone, 'pull', '--quiet', '--ff-only');
      const v = await acp('validate', '--folder', join(clone, 'collab'));
      expect(v.stdout).toContain('ACP validation passed');
      expect(git(clone, 'status', '--porcelain')).toBe('');
    }
  });
});

describe('the ordering hint of racing clones', () => {
  it('puts the participants that appended least recently first, and ignores idle ones', () => {
    const now = Date.parse('2026-01-01T00:01:00Z');
    const at = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    // p0 has not appended for 10 s, p1 for 6, p2 for 3, p3 has just won; old is idle for a minute.
    const events = [
      { seq: 1, from: 'old', at: at(60) },
      { seq: 2, from: 'p0', at: at(10) },
      { seq: 3, from: 'p1', at: at(6) },
      { seq: 4, from: 'p2', at: at(3) },
      { seq: 5, from: 'p3', at: at(0) },
    ];
    expect(['p0', 'p1', 'p2', 'p3', 'old', 'newcomer'].map((p) => rankOf(events, p, now))).toEqual([0, 1, 2, 3, 0, 0]);
    // A participant that appended twice in a row while its partner was idle waits for nobody.
    expect(rankOf([{ seq: 1, from: 'a', at: at(60) }, { seq: 2, from: 'b', at: at(2) }, { seq: 3, from: 'b', at: at(1) }], 'b', now)).toBe(0);
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

describe('append --git refuses a missing remote', () => {
  it('names the remotes there are; nothing changes', async () => {
    const { remote, clones } = await setup('bad', initArgs, 1);
    const folder = join(clones[0]!, 'collab');
    git(clones[0]!, 'remote', 'rename', 'origin', 'upstream');
    const before = [git(clones[0]!, 'rev-parse', 'HEAD'), readFileSync(join(folder, 'events.jsonl'), 'utf8')];
    const missing = await acp('append', '--git', '--folder', folder, '--participant', OWNER, '--event', 'blocked', '--summary', 'stop', '--reply-to', '1');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("error: git: no remote 'origin' in this repository (remotes: upstream)\n");
    expect([git(clones[0]!, 'rev-parse', 'HEAD'), readFileSync(join(folder, 'events.jsonl'), 'utf8')]).toEqual(before);
    expect(git(remote, 'rev-parse', 'main')).toBe(before[0]);
  });
});

/** Resolves with the first value `pick` returns once `subscribe`'s callback runs; rejects after `ms`. */
function waitFor<T>(what: string, ms: number, subscribe: (check: () => void) => void, pick: () => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    subscribe(() => {
      const value = pick();
      if (value !== undefined) {
        clearTimeout(timer);
        resolve(value);
      }
    });
  });
}

/** What a clone's state is: HEAD, the folder's files, and the remote's branch. */
function snapshot(clone: string, remote: string): string[] {
  const folder = join(clone, 'collab');
  return [git(clone, 'rev-parse', 'HEAD'), git(remote, 'rev-parse', 'main'), git(clone, 'status', '--porcelain'), readFileSync(join(folder, 'events.jsonl'), 'utf8'), readFileSync(join(folder, 'protocol.json'), 'utf8')];
}

const blocked = (folder: string, participant = OWNER): string[] => ['append', '--git', '--folder', folder, '--participant', participant, '--event', 'blocked', '--summary', 'stop', '--reply-to', '1'];

describe('append --git: clear errors that change nothing', () => {
  it('a diverged branch with unpushed commits that are not acp events', async () => {
    const { remote, clones } = await setup('diverged', initArgs, 2);
    const [mine, theirs] = [clones[0]!, clones[1]!];
    writeFileSync(join(mine, 'NOTES.md'), 'my own notes\n');
    git(mine, 'add', 'NOTES.md');
    git(mine, 'commit', '--quiet', '-m', 'my notes');
    expect((await acp(...blocked(join(theirs, 'collab'), REVIEWER))).code).toBe(0);
    const before = snapshot(mine, remote);
    const r = await acp(...blocked(join(mine, 'collab')));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: git: the local branch 'main' has diverged from origin\/main: 1 unpushed commit\(s\) that are not acp events \([0-9a-f]{8} my notes\) and 1 remote commit\(s\); merge or rebase them yourself, then run the command again\n$/);
    expect(snapshot(mine, remote)).toEqual(before);
  });

  it('a change in the folder that the event does not name (untracked, then a tracked document)', async () => {
    const { remote, clones } = await setup('dirty', initArgs, 1);
    const folder = join(clones[0]!, 'collab');
    writeFileSync(join(folder, 'notes.txt'), 'scratch\n');
    const before = snapshot(clones[0]!, remote);
    const stray = await acp(...blocked(folder));
    expect(stray.code).toBe(2);
    expect(stray.stderr).toBe('error: git: the folder has changes this event does not name: collab/notes.txt (commit, stash or discard them first)\n');
    expect(snapshot(clones[0]!, remote)).toEqual(before);
    rmSync(join(folder, 'notes.txt'));
    // blocked speaks for conclusion.md, not for proposal.md.
    writeFileSync(join(folder, 'proposal.md'), '# Proposal\n\nhalf-written\n');
    const tracked = snapshot(clones[0]!, remote);
    const r = await acp(...blocked(folder));
    expect(r.stderr).toBe('error: git: the folder has changes this event does not name: collab/proposal.md (commit, stash or discard them first)\n');
    expect(snapshot(clones[0]!, remote)).toEqual(tracked);
  });

  it("an authentication failure from git: git's message is passed on (fetch, then push)", async () => {
    const { remote, clones } = await setup('auth', initArgs, 1);
    const clone = clones[0]!;
    const folder = join(clone, 'collab');
    // A transport that fails the way a refused credential does (git's ext:: helper, exit 128).
    const helper = join(root, 'auth', 'refuse.sh');
    writeFileSync(helper, "#!/bin/sh\necho \"fatal: Authentication failed for 'https://git.example.invalid/team/collab.git/'\" >&2\nexit 128\n", { mode: 0o755 });
    git(clone, 'config', 'protocol.ext.allow', 'always');
    const url = git(clone, 'remote', 'get-url', 'origin').trim();
    git(clone, 'remote', 'set-url', 'origin', `ext::${helper}`);
    writeFileSync(join(folder, 'conclusion.md'), '# Conclusion\n\nblocked on access\n');
    const before = snapshot(clone, remote);
    const fetch = await acp(...blocked(folder));
    expect(fetch.code).toBe(2);
    expect(fetch.stderr).toMatch(/^error: git fetch from 'origin' failed: fatal: Authentication failed for 'https:\/\/git\.example\.invalid\/team\/collab\.git\/'/);
    expect(snapshot(clone, remote)).toEqual(before);
    git(clone, 'remote', 'set-url', 'origin', url);
    git(clone, 'remote', 'set-url', '--push', 'origin', `ext::${helper}`);
    const push = await acp(...blocked(folder));
    expect(push.code).toBe(2);
    expect(push.stderr).toMatch(/^error: git push to 'origin' failed \(nothing was appended\): fatal: Authentication failed for 'https:\/\/git\.example\.invalid\/team\/collab\.git\/'/);
    // Nothing appended, nothing committed, the document edit kept for the next try.
    expect(snapshot(clone, remote)).toEqual(before);
    expect(readFileSync(join(folder, 'conclusion.md'), 'utf8')).toBe('# Conclusion\n\nblocked on access\n');
  });
});

describe('doctor --git', () => {
  it('names unpushed events, a diverged branch, a line changed in the remote, and a force-pushed remote', async () => {
    const { remote, clones } = await setup('doctor', initArgs, 3);
    const [a, b, c] = clones as [string, string, string];
    const doctor = (clone: string) => acp('doctor', '--git', '--folder', join(clone, 'collab'));
    const clean = await doctor(a);
    expect(clean.stdout).toContain('ok: git: in step with origin/main');
    expect(clean.stdout).toContain('ok: git: events.jsonl history is append-only');
    // An event appended without git and committed by hand, not pushed.
    expect((await acp('append', '--no-config', '--folder', join(a, 'collab'), '--participant', OWNER, '--event', 'blocked', '--summary', 'local', '--reply-to', '1')).code).toBe(0);
    git(a, 'commit', '--quiet', '-am', `acp: seq 2 blocked by ${OWNER}`);
    const unpushed = await doctor(a);
    expect(unpushed.code).toBe(1);
    expect(unpushed.stdout).toContain(`PROBLEM: git: 1 event commit(s) not pushed to origin/main (seq 2 blocked by ${OWNER}); the next append --git pushes them`);
    expect((await acp(...blocked(join(b, 'collab'), REVIEWER))).code).toBe(0);
    const diverged = await doctor(a);
    expect(diverged.stdout).toContain('PROBLEM: git: diverged from origin/main: 1 local commit(s) (1 acp event(s)) and 1 remote commit(s)');
    // c has seen seq 2 by bob; then b rewrites that line and force-pushes.
    expect((await doctor(c)).stdout).toContain('ok: git: events.jsonl history is append-only');
    const log = join(b, 'collab', 'events.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replace('"summary":"stop"', '"summary":"never mind"'));
    git(b, 'commit', '--quiet', '--amend', '-am', `acp: seq 2 blocked by ${REVIEWER}`);
    git(b, 'push', '--quiet', '--force', 'origin', 'main');
    const forced = await doctor(c);
    expect(forced.code).toBe(1);
    expect(forced.stdout).toContain(`PROBLEM: git: origin/main was rewritten (force-pushed): 1 commit(s) it had are gone from it, with the events seq 2 blocked by ${REVIEWER}; events.jsonl history is not append-only`);
    // A commit that edits a pushed line is named by its hash, even before this clone merges it.
    writeFileSync(log, readFileSync(log, 'utf8').replace('"summary":"never mind"', '"summary":"edited"'));
    git(b, 'commit', '--quiet', '-am', 'tidy the log');
    git(b, 'push', '--quiet', 'origin', 'main');
    const hash = git(b, 'rev-parse', '--short', 'HEAD').trim();
    const edited = await doctor(c);
    expect(edited.stdout).toContain(`PROBLEM: git: events.jsonl history is not append-only: ${hash} changed or removed lines`);
    expect(git(remote, 'rev-parse', 'main')).toBe(git(b, 'rev-parse', 'HEAD'));
  });
});

describe('init --git', () => {
  it('commits and pushes the new folder; a repository without the remote is refused before anything is written', async () => {
    const { remote, clones } = await setup('init', initArgs, 1);
    expect(git(remote, 'log', '--format=%s', 'main').trim()).toBe(`acp: seq 1 initialized by ${OWNER}`);
    expect(git(remote, 'ls-tree', '-r', '--name-only', 'main', 'collab').split('\n')).toEqual(expect.arrayContaining(['collab/.gitignore', 'collab/events.jsonl', 'collab/protocol.json']));
    expect(git(clones[0]!, 'status', '--porcelain')).toBe('');
    const lonely = join(root, 'init', 'lonely');
    git(join(root, 'init'), 'init', '--quiet', '-b', 'main', lonely);
    const r = await acp(...initArgs(join(lonely, 'collab')), '--git');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: git: no remote 'origin' in this repository (remotes: none)\n");
    expect(existsSync(join(lonely, 'collab'))).toBe(false);
  });
});

describe('serve --git', () => {
  it("tells a subscriber about an event pushed from another clone", async () => {
    const { clones } = await setup('serve', initArgs, 2);
    const socket = join(root, 'serve', 'acp.sock');
    // A separate process (serve runs until a signal); cwd = root, whose acp.config.yaml enables git (interval 0.3 s).
    const server = spawn(join(REPO, 'node_modules', '.bin', 'bun'), [join(REPO, 'acp.ts'), 'serve', '--unix', socket, '--root', clones[0]!], { cwd: root, env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const checks: Array<() => void> = [];
    server.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      for (const check of checks) check();
    });
    let client: RpcClient | undefined;
    try {
      await waitFor(`the server to listen (stderr: ${log})`, 20_000, (c) => checks.push(c), () => (log.includes('listening on unix:') ? true : undefined));
      client = await RpcClient.connect(`unix:${socket}`, { participant: REVIEWER, reconnect: false, heartbeatMs: 0 });
      const updates: SubscriptionNotification[] = [];
      const notified: Array<() => void> = [];
      const sub = await client.subscribe({ task: 'collab', participant: REVIEWER }, (n) => {
        updates.push(n);
        for (const check of notified) check();
      });
      expect((sub.initial as { seq: number }).seq).toBe(1);
      const step = STEPS[0]!;
      const folder = join(clones[1]!, 'collab');
      for (const [file, text] of Object.entries(step.files)) {
        mkdirSync(join(folder, file, '..'), { recursive: true });
        writeFileSync(join(folder, file), text);
      }
      const r = await acp(...appendArgs(folder, step.event), '--git');
      expect(r.stderr).toBe('');
      // Bounded: the poll interval is 0.3 s (growing to at most 1 s while idle).
      const event = await waitFor('the pushed event to reach the subscriber', 15_000, (c) => notified.push(c), () => updates.find((n) => n.event?.seq === 2)?.event);
      expect(event.event).toBe(step.event.event);
      expect(event.from).toBe(step.event.participant);
      expect(log).not.toContain('served without git');
    } finally {
      client?.close();
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await waitFor('the server to stop', 10_000, (c) => void exited.then(c), () => (server.exitCode !== null || server.signalCode !== null ? true : undefined));
    }
  });
});
