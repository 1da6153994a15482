// The git transport (plugin git, docs/git.md): a bare repository and clones
// on this machine, driven in-process through the CLI entry (runCli).
// Every git spawn costs (~50 ms of CPU from a test worker; one append is ~20),
// so the run size (test/scale.ts) sets the counts:
//   quick  the push race with 3 writers × 2 appends; the two-clone handoff
//          through the first three steps (a hand-over each way); a reader
//          in another process while 3 appends are pulled in; a directory
//          the remote turned into a file.
//   full   the race with 4 writers × 3; the handoff through the whole
//          collaboration to completed; the reader over 10 appends; three
//          appends at once in one process behind a ticket the remote will
//          not delete (the 30 s dead-writer wait makes it slow).
//   long   the issue's full race, 4 writers × 25.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { acp, git, GIT_ENV, gitSandbox } from './git-harness.ts';
import { RpcClient, type SubscriptionNotification } from '../plugins/rpc/client.ts';
import { lineOrder } from '../plugins/git/order.ts';
import { appendArgs, initArgs, OWNER, REVIEWER, STEPS } from './happy-path.ts';
import { atLeast, byScale } from './scale.ts';
import { append, createNodeHost, createRegistry, openStore } from '../acp.ts';
import { createProcessRuntime } from '../runtime/process.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const sandbox = gitSandbox();
const root = (): string => sandbox.root();
const setup = sandbox.setup;

describe('append --git races through push', () => {
  it('every successful append reaches the remote exactly once, seqs continuous, every clone validates', async () => {
    const { writers, perWriter } = byScale({ quick: { writers: 3, perWriter: 2 }, full: { writers: 4, perWriter: 3 }, long: { writers: 4, perWriter: 25 } });
    const ids = Array.from({ length: writers }, (_, i) => `p${i}`);
    const initArgv = (folder: string) => ['init', '--folder', folder, ...ids.flatMap((id) => ['--participant', id]), '--objective', 'race', '--completion', 'done', '--primary-deliverable-type', 'design-spec'];
    const { remote, clones } = await setup('race', initArgv, writers);
    // The user's own work outside the folder: a tracked file edited, a new file staged. acp must never touch them.
    const userWork = clones.map((clone, i) => {
      writeFileSync(join(clone, 'project.txt'), `clone ${i}: edited, not committed\n`);
      writeFileSync(join(clone, 'staged.txt'), `clone ${i}: staged\n`);
      git(clone, 'add', 'staged.txt');
      return [readFileSync(join(clone, 'project.txt')), readFileSync(join(clone, 'staged.txt')), git(clone, 'status', '--porcelain', '--', ':!collab')];
    });
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
    for (const [i, clone] of clones.entries()) {
      // The user's own pull still fast-forwards: the folder's index entries already are the remote's.
      git(clone, 'pull', '--quiet', '--ff-only');
      // Byte for byte: the edited file, the staged file, and git's view of everything outside the folder.
      expect([readFileSync(join(clone, 'project.txt')), readFileSync(join(clone, 'staged.txt')), git(clone, 'status', '--porcelain', '--', ':!collab')]).toEqual(userWork[i]);
      expect(git(clone, 'show', ':staged.txt')).toBe(`clone ${i}: staged\n`);
      // The folder is the remote's, and HEAD followed it (only the folder changed on the remote).
      expect(git(clone, 'rev-parse', 'HEAD')).toBe(git(remote, 'rev-parse', 'main'));
      expect(git(clone, 'status', '--porcelain', '--', 'collab')).toBe('');
      const v = await acp('validate', '--folder', join(clone, 'collab'));
      expect(v.stdout).toContain('ACP validation passed');
    }
  });
});

describe('the line of waiting writers', () => {
  it('puts the writers whose participant appended least recently (by seq) first, newcomers before all; no clock is read', () => {
    const events = [{ seq: 1, from: 'p3' }, { seq: 2, from: 'p0' }, { seq: 3, from: 'p1' }, { seq: 4, from: 'p2' }, { seq: 5, from: 'p3' }];
    const ticket = (participant: string, id = 'x') => ({ ref: `refs/acp/queue/main/${participant}.${id}`, participant });
    const line = lineOrder([ticket('p3'), ticket('p2'), ticket('new'), ticket('p0', 'b'), ticket('p0', 'a'), ticket('p1')], events);
    expect(line.map((t) => t.ref.slice('refs/acp/queue/main/'.length))).toEqual(['new.x', 'p0.a', 'p0.b', 'p1.x', 'p2.x', 'p3.x']);
  });
});

describe('wait --git across clones', () => {
  it('runs a full two-participant collaboration, each participant in its own clone', async () => {
    const { clones } = await setup('pair', initArgs, 2);
    const cloneOf: Record<string, string> = { [OWNER]: join(clones[0]!, 'collab'), [REVIEWER]: join(clones[1]!, 'collab') };
    const handoffs: number[] = [];
    // quick: draft, proposal (alice hands over to bob), review (bob hands back to alice); full: to completed.
    const steps = STEPS.slice(0, byScale({ quick: 3, full: STEPS.length }));
    const last = steps.at(-1)!;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      // Whose step comes next in the collaboration (in quick, after the review, alice's: she waits for it).
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
        expect(w.code, w.stderr).toBe(0);
        expect(JSON.parse(w.stdout).waitingFor).toContain(following);
      }
    }
    for (const folder of Object.values(cloneOf)) {
      // Whom the last step waits for (none once completed: then the wait returns at once, the collaboration over).
      expect((await acp('wait', '--git', '--folder', folder, '--participant', last.waitingFor[0] ?? REVIEWER, '--timeout', '60')).code).toBe(0);
      const v = await acp('validate', '--folder', folder);
      expect(v.stdout).toContain('ACP validation passed');
      expect(JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8')).currentPhase).toBe(last.phase);
      expect(readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n')).toHaveLength(steps.length + 1);
    }
    console.log(`git handoff (poll interval 0.3 s, max 1 s): ${handoffs.map((h) => `${h} ms`).join(', ')}`);
  });
});

// git's commands run through runtime.run, which waited for the output pipes to close: a daemon a command
// leaves behind (git's credential-cache) holds them long after the command exited, and the append slept on.
describe('a command that leaves a process holding its output', () => {
  it('is done once it exited (its output then gets a bound), not when the last holder lets go', async () => {
    const runtime = await createProcessRuntime();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<never>((_, reject) => void (timer = setTimeout(() => reject(new Error('run waited for the process left behind')), 20_000)));
    const ran = runtime.run!(['sh', '-c', 'sleep 60 & echo $!; echo left >&2']);
    try {
      const result = await Promise.race([ran, hung]);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('left\n');
    } finally {
      clearTimeout(timer);
      // The sleep left behind goes (at once, or when the old run finally returned).
      void ran.then((r) => process.kill(Number(r.stdout.trim()))).catch(() => undefined);
    }
  }, 30_000);
});

// git replaces a file by unlinking it and creating a new one: a reader between the two saw protocol.json
// missing or a file half-written. The folder's files now come in by rename. A separate process reads the
// three files in a tight loop while the other clone's appends (a large review.md each) are pulled in.
describe('wait --git brings the other clone\'s files in by rename', () => {
  it('a reader in another process never sees protocol.json, events.jsonl or review.md missing or cut short', async () => {
    const { clones } = await setup('atomic', initArgs, 2);
    const [writer, reader] = clones.map((clone) => join(clone, 'collab')) as [string, string];
    const stop = join(root(), 'atomic-stop');
    // Each version of review.md is 1 MB with its own last line: a cut one is short, or lacks that line.
    const review = (k: number): string => `# Review\n\n${'The review goes on at length.\n'.repeat(35_000)}end of version ${k}\n`;
    writeFileSync(join(writer, 'review.md'), review(0));
    const script = [
      "const fs = require('node:fs');",
      'const [folder, stop] = process.argv.slice(1);',
      'const bad = []; let reads = 0;',
      'const check = (name, ok) => { let text; try { text = fs.readFileSync(`${folder}/${name}`, "utf8"); } catch (e) { bad.push(`${name}: ${e.code}`); return; } reads++; if (!ok(text)) bad.push(`${name}: ${text.length} bytes, cut short`); };',
      'while (!fs.existsSync(stop)) {',
      '  check("protocol.json", (t) => { try { return JSON.parse(t) !== null; } catch { return false; } });',
      '  check("events.jsonl", (t) => t.endsWith("\\n") && t.split("\\n").slice(0, -1).every((l) => { try { return JSON.parse(l) !== null; } catch { return false; } }));',
      '  check("review.md", (t) => /end of version \\d+\\n$/.test(t.slice(-40)));',
      '}',
      'console.log(JSON.stringify({ reads, bad: bad.slice(0, 5), badCount: bad.length }));',
    ].join('\n');
    // The first large review.md, pushed as a plain commit and brought to the reader's clone before the reader starts.
    git(clones[0]!, 'add', 'collab/review.md');
    git(clones[0]!, 'commit', '--quiet', '-m', 'review.md');
    git(clones[0]!, 'push', '--quiet', 'origin', 'main');
    const first = await acp('wait', '--git', '--folder', reader, '--participant', OWNER, '--timeout', '30');
    expect(first.code, first.stderr).toBe(0);
    const child = spawn(process.execPath, ['-e', script, reader, stop], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    try {
      for (let k = 1; k <= byScale({ quick: 3, full: 10 }); k++) {
        writeFileSync(join(writer, 'review.md'), review(k));
        const appended = await acp('append', '--git', '--folder', writer, '--participant', OWNER, '--event', 'blocked', '--summary', `version ${k}`, '--reply-to', '1', '--doc', 'review.md');
        expect(appended.stderr).toBe('');
        // The reader's clone follows the remote: the wait brings the new files in, and returns (the phase is blocked).
        const followed = await acp('wait', '--git', '--folder', reader, '--participant', REVIEWER, '--timeout', '30');
        expect(followed.code, followed.stderr).toBe(0);
        expect(readFileSync(join(reader, 'review.md'), 'utf8').endsWith(`end of version ${k}\n`)).toBe(true);
      }
    } finally {
      writeFileSync(stop, '');
      await exited;
    }
    const seen = JSON.parse(out) as { reads: number; bad: string[]; badCount: number };
    expect(seen.bad).toEqual([]);
    expect(seen.reads).toBeGreaterThan(0);
  });
});

describe('wait --git, a directory the remote turned into a file', () => {
  it('the emptied directory makes room for the file; a directory with a file of the clone\'s own in it is refused, not cleared', async () => {
    const { clones } = await setup('dirfile', initArgs, 2);
    const [writer, reader] = clones.map((clone) => join(clone, 'collab')) as [string, string];
    const publish = (message: string): void => {
      git(clones[0]!, 'add', '-A', 'collab');
      git(clones[0]!, 'commit', '--quiet', '-m', message);
      git(clones[0]!, 'push', '--quiet', 'origin', 'main');
    };
    const follow = async (): Promise<{ code: number; stdout: string; stderr: string }> => acp('wait', '--git', '--folder', reader, '--participant', OWNER, '--timeout', '30');
    for (const name of ['notes', 'extra']) {
      mkdirSync(join(writer, 'deliverables', name));
      writeFileSync(join(writer, 'deliverables', name, 'a.md'), `# ${name}, a directory\n`);
    }
    publish('two directories');
    expect((await follow()).code).toBe(0);
    expect(readFileSync(join(reader, 'deliverables', 'notes', 'a.md'), 'utf8')).toBe('# notes, a directory\n');
    rmSync(join(writer, 'deliverables', 'notes'), { recursive: true });
    writeFileSync(join(writer, 'deliverables', 'notes'), '# notes, now a file\n');
    publish('notes becomes a file');
    const followed = await follow();
    expect(followed.code, followed.stderr).toBe(0);
    expect(readFileSync(join(reader, 'deliverables', 'notes'), 'utf8')).toBe('# notes, now a file\n');
    // A file of the reader's own (untracked) in the directory the remote replaces: refused, the file kept.
    writeFileSync(join(reader, 'deliverables', 'extra', 'mine.md'), 'my own notes\n');
    rmSync(join(writer, 'deliverables', 'extra'), { recursive: true });
    writeFileSync(join(writer, 'deliverables', 'extra'), '# extra, now a file\n');
    publish('extra becomes a file');
    // wait notes the refusal (it retries; the turn is still read) and names the path.
    const refused = await follow();
    expect(refused.stdout).toContain('git: cannot put collab/deliverables/extra in place');
    expect(readFileSync(join(reader, 'deliverables', 'extra', 'mine.md'), 'utf8')).toBe('my own notes\n');
  });
});

// Three appends at once in one process (the library API, as a server or an embedder runs them): last
// session they hung in 2 of 5 runs against gitolite, whose `RW` lets a writer create its line's ticket
// but not delete it. A ticket nobody may delete heads the line: the writers behind it waited for it forever.
describe.runIf(atLeast('full'))('append --git, concurrent in one process, behind a ticket the remote will not delete', () => {
  it('leaves the line after the dead-writer wait and lands every append; nothing hangs; the clone then stays off the line', async () => {
    const ids = ['p0', 'p1', 'p2'];
    const initArgv = (folder: string) => ['init', '--folder', folder, ...ids.flatMap((id) => ['--participant', id]), '--objective', 'stall', '--completion', 'done', '--primary-deliverable-type', 'design-spec'];
    const { remote, clones } = await setup('undeletable', initArgv, ids.length);
    // gitolite's RW without +: refs/acp/* may be created, never deleted.
    writeFileSync(join(remote, 'hooks', 'pre-receive'), '#!/bin/sh\nwhile read old new ref; do case "$ref" in refs/acp/*) [ "$new" = 0000000000000000000000000000000000000000 ] && { echo "DENIED: no deleting $ref" >&2; exit 1; };; esac; done\nexit 0\n', { mode: 0o755 });
    // A ticket whose writer is gone, of a participant that never appended: first in every line.
    const ghost = `refs/acp/queue/main/${Buffer.from('ghost').toString('hex')}.dead`;
    git(clones[0]!, 'push', '--quiet', 'origin', `HEAD:${ghost}`);
    const host = await createNodeHost();
    const registry = await createRegistry({ builtIns: true, cwd: root(), host, runtime: await createProcessRuntime() });
    const appendOne = async (w: number): Promise<string> => {
      const folder = join(clones[w]!, 'collab');
      const store = await openStore(host, folder, registry, { git: true });
      await append(host, folder, { participant: ids[w]!, event: 'blocked', summary: `${ids[w]}-stall`, replyTo: 1 }, registry, { store });
      return `${ids[w]}-stall`;
    };
    // Bounded: a hang fails here rather than at the test's timeout. The dead-writer wait is 30 s, and starts
    // again for the writers still in line each time one that left it lands: at most three of them here.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => void (timer = setTimeout(() => reject(new Error('the appends stalled: not all returned within 200 s')), 200_000)));
    try {
      const landed = await Promise.race([Promise.all(ids.map((_, w) => appendOne(w))), stalled]);
      const log = git(remote, 'show', 'main:collab/events.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(log.slice(1).map((e) => e.summary).sort()).toEqual(landed.sort());
      // A clone that met the refusal stays off the line: its next append, with tickets still queued, takes none (and waits for none).
      const off = clones.findIndex((clone) => existsSync(join(clone, '.git', 'acp-line-off')));
      expect(off).toBeGreaterThanOrEqual(0);
      const tickets = git(remote, 'for-each-ref', '--format=%(refname)', 'refs/acp/');
      expect(tickets).toContain(ghost);
      await append(host, join(clones[off]!, 'collab'), { participant: ids[off]!, event: 'blocked', summary: 'off the line', replyTo: 1 }, registry, { store: await openStore(host, join(clones[off]!, 'collab'), registry, { git: true }) });
      expect(git(remote, 'for-each-ref', '--format=%(refname)', 'refs/acp/')).toBe(tickets);
    } finally {
      clearTimeout(timer);
    }
  }, 260_000);
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
    const helper = join(root(), 'auth', 'refuse.sh');
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
  it('names log lines on no remote (and --fix puts them aside), a force-pushed remote, and a line changed in the remote', async () => {
    const { remote, clones } = await setup('doctor', initArgs, 3);
    const [a, b, c] = clones as [string, string, string];
    const doctor = (clone: string, ...more: string[]) => acp('doctor', '--git', '--folder', join(clone, 'collab'), ...more);
    const clean = await doctor(a);
    expect(clean.stdout).toContain('ok: git: the folder is in step with origin/main');
    expect(clean.stdout).toContain('ok: git: events.jsonl history is append-only');
    // An event appended without git and committed by hand, not pushed: never appended for the others.
    expect((await acp('append', '--no-config', '--folder', join(a, 'collab'), '--participant', OWNER, '--event', 'blocked', '--summary', 'local', '--reply-to', '1')).code).toBe(0);
    git(a, 'commit', '--quiet', '-am', `acp: seq 2 blocked by ${OWNER}`);
    expect((await acp(...blocked(join(b, 'collab'), REVIEWER))).code).toBe(0);
    const refused = await acp(...blocked(join(a, 'collab')));
    expect(refused.code).toBe(2);
    // The commit holds the event that was never appended: acp neither pushes it nor builds beside it.
    expect(refused.stderr).toBe(`error: git: your branch main has 1 acp commit(s) that are not on origin/main (seq 2 blocked by ${OWNER}): they were never appended (an append made without --git and committed, or one a force-push dropped), and acp never pushes them; nothing was done: acp doctor --git --fix --folder ${join(a, 'collab')} takes them off (kept under refs/acp/backup/), then run the command again\n`);
    const unpublished = await doctor(a);
    expect(unpublished.code).toBe(1);
    expect(unpublished.stdout).toContain(`PROBLEM: git: your branch main has 1 acp commit(s) that are not on origin/main (seq 2 blocked by ${OWNER}): they were never appended`);
    expect(unpublished.stdout).toContain(`note: git: 1 acp commit(s) on main are not on the remote (seq 2 blocked by ${OWNER}): they were never appended and acp will not push them; to drop them: git reset --keep origin/main`);
    expect(unpublished.stdout).toContain('acp doctor --git --fix repairs 1 of them');
    const local = readFileSync(join(a, 'collab', 'events.jsonl'), 'utf8');
    const fixed = await doctor(a, '--fix');
    expect(fixed.stdout).toContain(`fixed: git: took 1 acp commit(s) off HEAD (seq 2 blocked by ${OWNER}): they were never appended; HEAD is origin/main again, the old history is kept as refs/acp/backup/collab`);
    expect(fixed.stdout).toContain('ok: git: the folder is in step with origin/main');
    expect(git(a, 'show', 'refs/acp/backup/collab:collab/events.jsonl')).toBe(local);
    expect(readFileSync(join(a, 'collab', 'events.jsonl'), 'utf8')).toBe(git(remote, 'show', 'main:collab/events.jsonl'));
    expect(git(a, 'status', '--porcelain')).toBe('');
    // c has seen seq 2 by bob; then b rewrites that line and force-pushes.
    expect((await acp('wait', '--git', '--folder', join(c, 'collab'), '--participant', OWNER, '--timeout', '60')).code).toBe(0);
    expect((await doctor(c)).stdout).toContain('ok: git: events.jsonl history is append-only');
    const log = join(b, 'collab', 'events.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replace('"summary":"stop"', '"summary":"never mind"'));
    git(b, 'commit', '--quiet', '--amend', '-am', `acp: seq 2 blocked by ${REVIEWER}`);
    git(b, 'push', '--quiet', '--force', 'origin', 'main');
    const forced = await doctor(c);
    expect(forced.code).toBe(1);
    expect(forced.stdout).toContain(`PROBLEM: git: origin/main was rewritten (force-pushed) under the folder: 1 commit(s) the folder had are gone from it (seq 2 blocked by ${REVIEWER}); acp neither re-pushes nor drops them.`);
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
    expect(git(remote, 'log', '--format=%s', 'main').trim()).toBe(`acp: seq 1 initialized by ${OWNER}\nthe project`);
    expect(git(remote, 'ls-tree', '-r', '--name-only', 'main', 'collab').split('\n')).toEqual(expect.arrayContaining(['collab/.gitignore', 'collab/events.jsonl', 'collab/protocol.json']));
    expect(git(clones[0]!, 'status', '--porcelain')).toBe('');
    // A waiter's ticket of the fair lock is clone-local like the lock: the written .gitignore covers it.
    writeFileSync(join(clones[0]!, 'collab', '.acp.lock.wait.1'), '{}');
    expect(git(clones[0]!, 'status', '--porcelain')).toBe('');
    rmSync(join(clones[0]!, 'collab', '.acp.lock.wait.1'));
    const lonely = join(root(), 'init', 'lonely');
    git(join(root(), 'init'), 'init', '--quiet', '-b', 'main', lonely);
    const r = await acp(...initArgs(join(lonely, 'collab')), '--git');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: git: no remote 'origin' in this repository (remotes: none)\n");
    expect(existsSync(join(lonely, 'collab'))).toBe(false);
  });
});

describe('serve --git', () => {
  it("tells a subscriber about an event pushed from another clone", async () => {
    const { clones } = await setup('serve', initArgs, 2);
    const socket = join(root(), 'serve', 'acp.sock');
    // A separate process (serve runs until a signal); cwd = root, whose acp.config.yaml enables git (interval 0.3 s).
    const server = spawn(join(REPO, 'node_modules', '.bin', 'bun'), [join(REPO, 'acp.ts'), 'serve', '--unix', socket, '--root', clones[0]!], { cwd: root(), env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'ignore', 'pipe'] });
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
