// Race figures of the git store (docs/git.md "Scaling"): N clones of one
// bare remote, each its own participant, append concurrently through
// `append --git` with the default settings; then the handoff between two
// clones (a follower's poll, defaults) and the CPU of an idle `wait --git`.
// Prints figures; asserts nothing about time (tests never do).
//
//   bun scripts/git-race.ts                 4, 8 and 20 clones
//   GIT_RACE_CLONES=4,8 GIT_RACE_APPENDS=10 bun scripts/git-race.ts
//   GIT_RACE_ONLY=race|handoff|idle         one section
//   GIT_RACE_IDLE_SECONDS=60                length of the idle measurement
//   GIT_RACE_SERVER=http|ssh                the remote on a real server on
//                                           loopback (test/git-servers.ts:
//                                           lighttpd + git http-backend with
//                                           basic auth, or openssh-server)
//                                           instead of a bare directory
//   GIT_RACE_SSH_MULTIPLEX=1                SSH clients share a connection
//                                           (ControlMaster, as ~/.ssh/config
//                                           can set it)
//
// The race runs in one process (runCli per append, as many at once as there
// are clones); every append is a real transaction against the remote: git
// subprocesses do the work, so the process boundary changes little.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeHost, createRegistry, openStore, runCli } from '../acp.ts';
import { createProcessRuntime } from '../runtime/process.ts';
import { type GitServer, serverTools, startHttpServer, startSshServer } from '../test/git-servers.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const GIT_ENV = { GIT_AUTHOR_NAME: 'race', GIT_AUTHOR_EMAIL: 'race@example.invalid', GIT_COMMITTER_NAME: 'race', GIT_COMMITTER_EMAIL: 'race@example.invalid', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
Object.assign(process.env, GIT_ENV);

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function acp(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  return { code, stdout, stderr };
}

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** A bare remote with a project file and a folder `collab` of `participants`, and one clone per participant. */
async function setup(base: string, participants: string[]): Promise<{ remote: string; clones: string[] }> {
  mkdirSync(base, { recursive: true });
  const name = base.slice(base.lastIndexOf('/') + 1);
  const remote = server ? join(server.repos, `${name}.git`) : join(base, 'remote.git');
  git(base, 'init', '--quiet', '--bare', '-b', 'main', remote);
  const url = server ? server.url(name) : remote;
  const config = Object.entries(server?.config ?? {}).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  const seed = join(base, 'seed');
  git(base, 'clone', '--quiet', ...config, url, seed);
  // A clone of an empty repository over SSH may name its branch by init.defaultBranch: the collaboration is on main.
  git(seed, 'symbolic-ref', 'HEAD', 'refs/heads/main');
  const init = await acp('init', '--no-config', '--git', '--folder', join(seed, 'collab'), ...participants.flatMap((p) => ['--participant', p]), '--objective', 'race', '--completion', 'done', '--primary-deliverable-type', 'design-spec');
  if (init.code !== 0) throw new Error(init.stderr);
  const clones = participants.map((_, i) => {
    const clone = join(base, `clone${i}`);
    git(base, 'clone', '--quiet', ...config, url, clone);
    return clone;
  });
  return { remote, clones };
}

/** Largest number of other participants' events between two consecutive events of each participant (ideal: clones − 1). */
function largestGaps(log: { from: string }[], participants: string[]): number[] {
  return participants.map((p) => {
    let last = -1;
    let worst = 0;
    log.forEach((e, i) => {
      if (e.from !== p) return;
      if (last >= 0) worst = Math.max(worst, i - last - 1);
      last = i;
    });
    return worst;
  });
}

async function race(root: string, clones: number, perClone: number): Promise<void> {
  const ids = Array.from({ length: clones }, (_, i) => `p${i}`);
  const { remote, clones: dirs } = await setup(join(root, `race${clones}`), ids);
  const attempts: number[] = [];
  const failures: string[] = [];
  const durations: number[] = [];
  const started = Date.now();
  await Promise.all(ids.map(async (id, w) => {
    for (let k = 0; k < perClone; k++) {
      const t0 = Date.now();
      const r = await acp('append', '--no-config', '--git', '--json', '--folder', join(dirs[w]!, 'collab'), '--participant', id, '--event', 'blocked', '--summary', `${id}-${k}`, '--reply-to', '1');
      durations.push(Date.now() - t0);
      if (r.code === 0) attempts.push(JSON.parse(r.stdout).git.attempts);
      else failures.push(r.stderr.trim());
    }
  }));
  const wall = (Date.now() - started) / 1000;
  const log = git(remote, 'show', 'main:collab/events.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { seq: number; from: string });
  const seqsOk = log.every((e, i) => e.seq === i + 1) && log.length === attempts.length + 1;
  const gaps = largestGaps(log.slice(1), ids);
  console.log(`race ${clones} clones × ${perClone}: ${attempts.length} ok, ${failures.length} gave up; attempts mean ${mean(attempts).toFixed(2)}, max ${Math.max(...attempts)}; one append median ${(quantile(durations, 0.5) / 1000).toFixed(1)} s, p90 ${(quantile(durations, 0.9) / 1000).toFixed(1)} s, max ${(Math.max(...durations) / 1000).toFixed(1)} s; wall ${wall.toFixed(0)} s (${(wall / attempts.length).toFixed(2)} s per landed append, ${(attempts.length / (wall / 60)).toFixed(0)} appends/min); largest gap per clone ${gaps.join(' ')} (max ${Math.max(...gaps)}, ideal ${clones - 1}); log continuous and complete: ${seqsOk}; load ${loadavg()[0]!.toFixed(1)}`);
  for (const f of new Set(failures)) console.log(`  gave up: ${f.slice(0, 200)}`);
}

/** Handoff: clone B follows the remote (default poll); clone A appends; the time from A's append returning to B's folder holding the event. */
async function handoff(root: string, rounds: number): Promise<void> {
  const { clones } = await setup(join(root, 'handoff'), ['a', 'b']);
  const host = await createNodeHost();
  const registry = await createRegistry({ builtIns: true, host, runtime: await createProcessRuntime() });
  const follower = join(clones[1]!, 'collab');
  const store = await openStore(host, follower, registry, { git: true });
  let seen = 1;
  let wake: (() => void) | undefined;
  const stop = await store.follow!(follower, {
    changed: () => {
      seen = readFileSync(join(follower, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).length;
      wake?.();
    },
    failed: (error) => console.log(`follow failed: ${error.message}`),
    note: (line) => console.log(`  note: ${line}`),
  });
  const times: number[] = [];
  for (let k = 0; k < rounds; k++) {
    // A random idle time first, so that appends fall anywhere in the poll's cycle (and it grows while idle).
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 4000));
    const r = await acp('append', '--no-config', '--git', '--folder', join(clones[0]!, 'collab'), '--participant', 'a', '--event', 'blocked', '--summary', `h${k}`, '--reply-to', '1');
    if (r.code !== 0) throw new Error(r.stderr);
    const t0 = Date.now();
    const target = k + 2;
    await new Promise<void>((resolve) => {
      wake = () => void (seen >= target && resolve());
      wake();
    });
    times.push(Date.now() - t0);
  }
  stop();
  await registry.cleanup();
  console.log(`handoff (defaults: interval 1 s, max 2 s), ${rounds} rounds: median ${(quantile(times, 0.5) / 1000).toFixed(2)} s, p90 ${(quantile(times, 0.9) / 1000).toFixed(2)} s, max ${(Math.max(...times) / 1000).toFixed(2)} s; load ${loadavg()[0]!.toFixed(1)}`);
}

/** CPU (user + system, the process and its git children) of an idle `acp wait --git` (defaults), per minute. */
async function idle(root: string, seconds: number): Promise<void> {
  const { clones } = await setup(join(root, 'idle'), ['a', 'b']);
  const args = [join(REPO, 'node_modules', '.bin', 'bun'), join(REPO, 'acp.ts'), 'wait', '--no-config', '--git', '--folder', join(clones[1]!, 'collab'), '--participant', 'b', '--timeout', String(seconds)];
  const out = await new Promise<string>((resolve) => {
    const child = spawn('/usr/bin/time', ['-f', '%U %S', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => void (err += c.toString()));
    child.on('close', () => resolve(err));
  });
  const [user, sys] = out.trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number];
  console.log(`idle wait --git (defaults, ${seconds} s, bun): CPU ${(user + sys).toFixed(2)} s = ${(((user + sys) / seconds) * 60).toFixed(2)} s per minute (user ${user} s, system ${sys} s); load ${loadavg()[0]!.toFixed(1)}`);
}

const root = mkdtempSync(join(tmpdir(), 'acp-git-race-'));
const only = process.env.GIT_RACE_ONLY;
const kind = process.env.GIT_RACE_SERVER;
if (kind && kind !== 'http' && kind !== 'ssh') throw new Error(`GIT_RACE_SERVER must be http or ssh, not ${kind}`);
if (kind && serverTools()) throw new Error(serverTools());
const server: GitServer | undefined = kind === 'http' ? await startHttpServer(join(root, 'server')) : kind === 'ssh' ? await startSshServer(join(root, 'server'), { multiplex: process.env.GIT_RACE_SSH_MULTIPLEX === '1' }) : undefined;
console.log(`git race figures: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, git ${git(root, '--version').trim().replace('git version ', '')}, remote: ${server ? `${server.kind} server on 127.0.0.1${process.env.GIT_RACE_SSH_MULTIPLEX === '1' ? ' (multiplexed)' : ''}` : 'a bare directory'}`);
try {
  if (!only || only === 'race') {
    const sizes = (process.env.GIT_RACE_CLONES ?? '4,8,20').split(',').map(Number);
    for (const n of sizes) await race(root, n, Number(process.env.GIT_RACE_APPENDS ?? (n >= 20 ? 5 : n >= 8 ? 10 : 20)));
  }
  if (!only || only === 'handoff') await handoff(root, Number(process.env.GIT_RACE_HANDOFFS ?? 20));
  if (!only || only === 'idle') await idle(root, Number(process.env.GIT_RACE_IDLE_SECONDS ?? 60));
} finally {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
}
