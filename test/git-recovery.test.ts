// The git store never touches the user's work, never appends twice, and
// recovers from every half-written state (issue 31, items 1-8): each case
// is driven through the CLI, faults are injected by a wrapper `git` on
// PATH (a push that lands someone else's commit first, a lost
// acknowledgement, a fetch outage, a process killed mid-transaction).
// The same in every run size (test/scale.ts): each case is one scenario;
// the set-ups are copies of one built per file (test/git-harness.ts), and
// the outage lasts until the waiter has met it, not a fixed time.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { acp, git, gitSandbox } from './git-harness.ts';
import { initArgs, OWNER, REVIEWER } from './happy-path.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const sandbox = gitSandbox();

const blocked = (folder: string, participant = OWNER, summary = 'stop', ...more: string[]): string[] => ['append', '--git', '--folder', folder, '--participant', participant, '--event', 'blocked', '--summary', summary, '--reply-to', '1', ...more];

/** The remote's log. */
function remoteLog(remote: string): { seq: number; from: string; summary: string; at: string }[] {
  return git(remote, 'show', 'main:collab/events.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** An event appended in `clone` without git and committed there, not pushed: what another clone is about to push. */
async function prepareCommit(clone: string, participant: string, summary: string): Promise<void> {
  expect((await acp('append', '--no-config', '--folder', join(clone, 'collab'), '--participant', participant, '--event', 'blocked', '--summary', summary, '--reply-to', '1')).code).toBe(0);
  git(clone, 'commit', '--quiet', '-am', `acp: seq 2 blocked by ${participant}`);
}

/** A wrapper fragment: the first push lands `other`'s prepared commit first, so this push is really rejected. */
function landsFirst(other: string, mark: string): string {
  writeFileSync(mark, '');
  return `if [ "$1" = push ] && [ -e '${mark}' ]; then rm -f '${mark}'; "$REAL_GIT" -C '${other}' push --quiet origin HEAD:main || exit 99; fi`;
}

/** The user's own work outside the folder, as bytes and as git sees it. */
function userWork(clone: string): unknown[] {
  return [readFileSync(join(clone, 'project.txt')), readFileSync(join(clone, 'staged.txt')), git(clone, 'status', '--porcelain', '--', ':!collab'), git(clone, 'show', ':staged.txt')];
}

/** Run the CLI in a separate process (so a wrapper can kill it), from the sandbox root (git on). */
function acpProcess(...argv: string[]): { code: number | null; signal: string | null; stderr: string } {
  const r = spawnSync(join(REPO, 'node_modules', '.bin', 'bun'), [join(REPO, 'acp.ts'), ...argv], { cwd: sandbox.root(), env: process.env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, signal: r.signal, stderr: r.stderr };
}

describe('1. a rejected push never touches the user\'s work', () => {
  it('keeps an edited tracked file and a staged new file outside the folder byte for byte, and lands the event on retry', async () => {
    const { remote, clones, base } = await sandbox.setup('user-work', initArgs, 2);
    const [a, b] = clones as [string, string];
    writeFileSync(join(a, 'project.txt'), 'my edit, not committed\n');
    writeFileSync(join(a, 'staged.txt'), 'a new file, staged\n');
    git(a, 'add', 'staged.txt');
    const before = userWork(a);
    await prepareCommit(b, REVIEWER, 'first');
    const r = await sandbox.withGitWrapper(landsFirst(b, join(base, 'mark')), () => acp(...blocked(join(a, 'collab'), OWNER, 'second', '--json')));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).git.attempts).toBe(2);
    expect(userWork(a)).toEqual(before);
    expect(remoteLog(remote).slice(1).map((e) => `${e.seq} ${e.from} ${e.summary}`)).toEqual([`2 ${REVIEWER} first`, `3 ${OWNER} second`]);
    expect(git(a, 'status', '--porcelain', '--', 'collab')).toBe('');
  });
});

describe('2. time never runs backwards in the log', () => {
  it('an append after an event stamped by a clock ahead of this one takes that time; validate passes everywhere', async () => {
    const { remote, clones } = await sandbox.setup('skew', initArgs, 2);
    const [a, b] = clones as [string, string];
    // b's clock is a minute ahead of a's.
    await prepareCommit(b, REVIEWER, 'from the future');
    const ahead = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const log = join(b, 'collab', 'events.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replace(/"at":"[^"]+","summary":"from the future"/, `"at":"${ahead}","summary":"from the future"`));
    git(b, 'commit', '--quiet', '--amend', '-am', `acp: seq 2 blocked by ${REVIEWER}`);
    git(b, 'push', '--quiet', 'origin', 'main');
    expect((await acp(...blocked(join(a, 'collab')))).code).toBe(0);
    const events = remoteLog(remote);
    expect(events[2]!.at).toBe(ahead);
    expect((await acp('validate', '--folder', join(a, 'collab'))).stdout).toContain('ACP validation passed');
  });

  it('doctor reports an existing backwards at, and --fix makes it what validate accepts (a copy of the log kept)', async () => {
    const folder = join(sandbox.root(), 'backwards');
    expect((await acp(...initArgs(folder), '--no-config')).code).toBe(0);
    for (const s of ['one', 'two']) expect((await acp('append', '--no-config', '--folder', folder, '--participant', OWNER, '--event', 'blocked', '--summary', s, '--reply-to', '1')).code).toBe(0);
    const log = join(folder, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n');
    lines[1] = lines[1]!.replace(/"at":"[^"]+"/, '"at":"2099-01-01T00:00:00Z"');
    writeFileSync(log, lines.join('\n'));
    const original = readFileSync(log, 'utf8');
    expect((await acp('validate', '--folder', folder)).stdout).toContain('seq 3: at must not be earlier than the previous event');
    const report = await acp('doctor', '--no-config', '--folder', folder);
    expect(report.code).toBe(1);
    expect(report.stdout).toMatch(/PROBLEM: events\.jsonl: seq 3: at \S+ is earlier than seq 2's 2099-01-01T00:00:00Z .*\[--fix repairs this\]/);
    const fixed = await acp('doctor', '--no-config', '--fix', '--folder', folder);
    expect(fixed.stdout).toMatch(/fixed: kept a copy of events\.jsonl \(\d+ bytes\) as (events\.jsonl\.at-\S+\.bak)/);
    expect(fixed.stdout).toContain("fixed: set seq 3's at to 2099-01-01T00:00:00Z (was ");
    const backup = /as (events\.jsonl\.at-\S+\.bak)/.exec(fixed.stdout)![1]!;
    expect(readFileSync(join(folder, backup), 'utf8')).toBe(original);
    rmSync(join(folder, backup));
    expect((await acp('validate', '--folder', folder)).stdout).toContain('ACP validation passed');
  });
});

describe('3. a lost push acknowledgement', () => {
  it('is settled by asking the remote for the commit: reported appended, once', async () => {
    const { remote, clones } = await sandbox.setup('lost-ack', initArgs, 1);
    const folder = join(clones[0]!, 'collab');
    writeFileSync(join(folder, 'conclusion.md'), '# Conclusion\n\nblocked\n');
    const dropAfterPush = 'if [ "$1" = push ]; then "$REAL_GIT" "$@"; echo "fatal: the remote end hung up unexpectedly" >&2; exit 128; fi';
    const r = await sandbox.withGitWrapper(dropAfterPush, () => acp(...blocked(folder)));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('appended seq 2: blocked\n');
    expect(r.code).toBe(0);
    expect(remoteLog(remote).map((e) => e.seq)).toEqual([1, 2]);
    expect(git(remote, 'show', 'main:collab/conclusion.md')).toBe('# Conclusion\n\nblocked\n');
    expect(git(clones[0]!, 'status', '--porcelain')).toBe('');
  });

  it('when even the check fails, says so; the next run tells the truth and never appends it twice', async () => {
    const { remote, clones } = await sandbox.setup('lost-ack-2', initArgs, 1);
    const folder = join(clones[0]!, 'collab');
    const mark = join(sandbox.root(), 'lost-ack-2', 'pushed');
    const late = `if [ "$1" = push ]; then "$REAL_GIT" "$@"; touch '${mark}'; echo "fatal: the remote end hung up unexpectedly" >&2; exit 128; fi\nif [ "$1" = fetch ] && [ -e '${mark}' ]; then echo "fatal: unable to access the remote" >&2; exit 128; fi`;
    const undecided = await sandbox.withGitWrapper(late, () => acp(...blocked(folder)));
    expect(undecided.code).toBe(2);
    expect(undecided.stderr).toContain('seq 2 blocked by alice may or may not be on origin/main. Do not append it again');
    const doctor = await acp('doctor', '--git', '--folder', folder);
    expect(doctor.stdout).toContain('PROBLEM: git: the push of seq 2 blocked by alice was never confirmed (an interrupted run, or the network failed twice): it is on origin/main, so it was appended');
    const next = await acp(...blocked(folder, OWNER, 'next one'));
    expect(next.code).toBe(0);
    expect(next.stderr).toBe('note: git: seq 2 blocked by alice, whose push an earlier run could not confirm, is on origin/main: it was appended\n');
    expect(next.stdout).toBe('appended seq 3: blocked\n');
    expect(remoteLog(remote).map((e) => `${e.seq} ${e.summary}`).slice(1)).toEqual(['2 stop', '3 next one']);
    expect(git(clones[0]!, 'status', '--porcelain')).toBe('');
  });
});

describe('4. hooks run once, after the push landed', () => {
  it('append:after sees only the seq that landed, not the rejected attempt', async () => {
    const { clones, base } = await sandbox.setup('hooks', initArgs, 2);
    const [a, b] = clones as [string, string];
    const record = join(base, 'hooks.log');
    writeFileSync(join(a, 'rec.mjs'), `import { appendFileSync } from 'node:fs';\nexport default ({ definePlugin, options }) => definePlugin({ name: 'rec', hooks: { 'append:before': ({ event }) => appendFileSync(options.log, 'before ' + event.seq + '\\n'), 'append:after': ({ event }) => appendFileSync(options.log, 'after ' + event.seq + '\\n') } });\n`);
    writeFileSync(join(a, 'acp.config.yaml'), `git:\n  remote: origin\nplugins:\n  - path: ./rec.mjs\n    options:\n      log: ${record}\n`);
    await prepareCommit(b, REVIEWER, 'first');
    const cwd = process.cwd();
    process.chdir(a);
    try {
      const r = await sandbox.withGitWrapper(landsFirst(b, join(base, 'mark')), () => acp(...blocked(join(a, 'collab'))));
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('appended seq 3: blocked\n');
    } finally {
      process.chdir(cwd);
    }
    expect(readFileSync(record, 'utf8')).toBe('before 2\nbefore 3\nafter 3\n');
  });
});

describe("4b. the user's pre-push hook", () => {
  it('runs once for an append that lost a race and took a ticket in line, never for the line\'s own refs', async () => {
    const { remote, clones, base } = await sandbox.setup('pre-push', initArgs, 2);
    const [a, b] = clones as [string, string];
    const count = join(base, 'pre-push.log');
    writeFileSync(join(a, '.git', 'hooks', 'pre-push'), `#!/bin/sh\nwhile read local sha remote_ref rest; do echo "$remote_ref" >> '${count}'; done\nexit 0\n`, { mode: 0o755 });
    await prepareCommit(b, REVIEWER, 'first');
    const r = await sandbox.withGitWrapper(landsFirst(b, join(base, 'mark')), () => acp('append', '--git', '--json', '--folder', join(a, 'collab'), '--participant', OWNER, '--event', 'blocked', '--summary', 'second', '--reply-to', '1'));
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).git.attempts).toBe(2);
    expect(remoteLog(remote).map((e) => e.summary).slice(1)).toEqual(['first', 'second']);
    expect(readFileSync(count, 'utf8')).toBe('refs/heads/main\n');
  });
});

describe('5. half-written states are found by doctor --git and repaired', () => {
  it('no git identity: the participant signs the commit', async () => {
    const { remote, clones } = await sandbox.setup('identity', initArgs, 1);
    git(clones[0]!, 'config', 'user.useConfigOnly', 'true');
    const saved = Object.fromEntries(['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'EMAIL'].map((k) => [k, process.env[k]]));
    for (const k of Object.keys(saved)) delete process.env[k];
    let r;
    try {
      r = await acp(...blocked(join(clones[0]!, 'collab')));
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(git(remote, 'log', '-1', '--format=%an <%ae>', 'main').trim()).toBe(`${OWNER} <${OWNER}@acp.invalid>`);
    expect(git(clones[0]!, 'status', '--porcelain')).toBe('');
  });

  it("commit.gpgsign with no way to sign: the event is committed unsigned, with a note; the user's commit hooks do not run", async () => {
    const { remote, clones } = await sandbox.setup('gpgsign', initArgs, 1);
    const a = clones[0]!;
    git(a, 'config', 'commit.gpgsign', 'true');
    git(a, 'config', 'gpg.program', 'false');
    writeFileSync(join(a, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho "pre-commit ran" >&2\nexit 1\n', { mode: 0o755 });
    const r = await acp(...blocked(join(a, 'collab')));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^note: git: acp: seq 2 blocked by alice was committed unsigned: commit\.gpgsign is set, but signing failed \(.*gpg failed to sign the data.*\)\n$/);
    expect(git(remote, 'log', '-1', '--format=%s %G?', 'main').trim()).toBe('acp: seq 2 blocked by alice N');
  });

  it('a torn last line: the append names it, doctor --git --fix cuts it with its copy under .git/acp-backup/, and appends go on', async () => {
    const { remote, clones } = await sandbox.setup('torn', initArgs, 1);
    const folder = join(clones[0]!, 'collab');
    writeFileSync(join(folder, 'events.jsonl'), `${readFileSync(join(folder, 'events.jsonl'), 'utf8')}{"seq":2,"from":"alice","ev`);
    const refused = await acp(...blocked(folder, OWNER, 'after the tear'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('holds changes that are on no remote and no push is pending (events.jsonl ends in a torn line: a writer was interrupted in the middle of an append)');
    const fixed = await acp('doctor', '--git', '--fix', '--folder', folder);
    expect(fixed.stdout).toMatch(/fixed: git: moved events\.jsonl\.torn-\w+\.bak out of the folder to \S+\/\.git\/acp-backup\/\w+ /);
    expect(fixed.stdout).toContain('ok: git: the folder is in step with origin/main');
    expect(readdirSync(folder).filter((name) => name.endsWith('.bak'))).toEqual([]);
    expect((await acp(...blocked(folder, OWNER, 'after the tear'))).code).toBe(0);
    expect(remoteLog(remote).slice(1).map((e) => `${e.seq} ${e.summary}`)).toEqual(['2 after the tear']);
    expect(git(clones[0]!, 'status', '--porcelain')).toBe('');
  });

  it('killed before the push: the next append names the repair, doctor --git --fix makes it, nothing reaches the remote', async () => {
    const { remote, clones } = await sandbox.setup('killed-early', initArgs, 1);
    const folder = join(clones[0]!, 'collab');
    const killed = await sandbox.withGitWrapper('if [ "$1" = commit-tree ]; then kill -9 $PPID; exit 1; fi', async () => acpProcess(...blocked(folder, OWNER, 'killed')));
    expect(killed.signal).toBe('SIGKILL');
    expect(readFileSync(join(folder, 'events.jsonl'), 'utf8')).toContain('"summary":"killed"');
    const refused = await acp(...blocked(folder, OWNER, 'again'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`and --fix puts the folder back as origin/main has it`);
    const doctor = await acp('doctor', '--git', '--folder', folder);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('PROBLEM: git: collab/events.jsonl and collab/protocol.json hold changes on no remote, with no push pending');
    expect((await acp('doctor', '--git', '--fix', '--folder', folder)).stdout).toContain('ok: git: the folder is in step with origin/main');
    expect((await acp(...blocked(folder, OWNER, 'again'))).code).toBe(0);
    expect(remoteLog(remote).slice(1).map((e) => `${e.seq} ${e.summary}`)).toEqual(['2 again']);
  });

  it('killed between the commit and the push while another clone pushes: doctor says so, the next append settles it', async () => {
    const { remote, clones } = await sandbox.setup('killed-late', initArgs, 2);
    const [a, b] = clones as [string, string];
    const folder = join(a, 'collab');
    const killed = await sandbox.withGitWrapper('if [ "$1" = push ]; then kill -9 $PPID; exit 1; fi', async () => acpProcess(...blocked(folder, OWNER, 'killed')));
    expect(killed.signal).toBe('SIGKILL');
    expect((await acp(...blocked(join(b, 'collab'), REVIEWER, 'meanwhile'))).code).toBe(0);
    const doctor = await acp('doctor', '--git', '--folder', folder);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('PROBLEM: git: the push of seq 2 blocked by alice was never confirmed (an interrupted run, or the network failed twice): it is not on origin/main, so it was not appended; the next append or wait settles it, acp doctor --git --fix does it now [--fix repairs this]');
    const next = await acp(...blocked(folder, OWNER, 'again'));
    expect(next.stderr).toBe('note: git: seq 2 blocked by alice, from a run that was interrupted before its push was confirmed, is not on origin/main: it was not appended (append it again if it is still meant)\n');
    expect(next.stdout).toBe('appended seq 3: blocked\n');
    expect(remoteLog(remote).slice(1).map((e) => `${e.seq} ${e.summary}`)).toEqual(['2 meanwhile', '3 again']);
    expect((await acp('doctor', '--git', '--folder', folder)).code).toBe(0);
  });
});

describe('6. wait --git rides out a fetch outage', () => {
  it('an outage from the start is noted and retried; the wait returns when the event arrives', async () => {
    const { clones, base } = await sandbox.setup('outage', initArgs, 2);
    const [a, b] = clones as [string, string];
    expect((await acp(...blocked(join(b, 'collab'), OWNER))).code).toBe(0);
    const mark = join(base, 'offline');
    const met = join(base, 'refused');
    writeFileSync(mark, '');
    const offline = `if [ -e '${mark}' ] && { [ "$1" = fetch ] || [ "$1" = ls-remote ]; }; then touch '${met}'; echo "fatal: unable to access 'https://git.example.invalid/': Could not resolve host" >&2; exit 128; fi`;
    const w = await sandbox.withGitWrapper(offline, async () => {
      const waiting = acp('wait', '--git', '--folder', join(a, 'collab'), '--participant', REVIEWER, '--timeout', '60');
      // The network comes back once the waiter has met the outage: what follows is its retry.
      await expect.poll(() => existsSync(met)).toBe(true);
      rmSync(mark);
      return waiting;
    });
    // No network is named as such (a sandbox's rule, issue 41), and the waiter keeps following the remote.
    expect(w.stdout).toContain("Could not resolve host; no network reaches the remote from here");
    expect(w.stdout).toContain('(waiting offline: local changes are seen meanwhile, the remote once the network is back)');
    expect(w.stdout).toContain('ready: phase is blocked');
    expect(w.code).toBe(0);
  });
});

describe('7. a force-push that dropped events', () => {
  it('is reported, never re-pushed; doctor --git --fix follows the remote and keeps the old history', async () => {
    const { remote, clones } = await sandbox.setup('forced', initArgs, 2);
    const [a, b] = clones as [string, string];
    const init = git(remote, 'rev-parse', 'main').trim();
    expect((await acp(...blocked(join(a, 'collab'), OWNER, 'dropped'))).code).toBe(0);
    const dropped = git(remote, 'rev-parse', 'main').trim();
    git(b, 'push', '--quiet', '--force', 'origin', `${init}:main`);
    const r = await acp(...blocked(join(a, 'collab'), OWNER, 'next'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: git: origin/main was rewritten (force-pushed): it no longer has 1 commit(s) this folder had, with the events seq 2 blocked by ${OWNER}; acp neither re-pushes nor drops them (run acp doctor --git --folder ${join(a, 'collab')})\n`);
    expect(git(remote, 'rev-parse', 'main').trim()).toBe(init);
    const doctor = await acp('doctor', '--git', '--folder', join(a, 'collab'));
    expect(doctor.stdout).toContain(`if not, push it back with git push --force-with-lease origin ${dropped}:refs/heads/main`);
    const fixed = await acp('doctor', '--git', '--fix', '--folder', join(a, 'collab'));
    expect(fixed.stdout).toContain(`fixed: git: took 1 acp commit(s) off HEAD (seq 2 blocked by ${OWNER}): origin/main lost them to a force-push; HEAD is origin/main again, the old history is kept as refs/acp/backup/collab`);
    expect(git(a, 'rev-parse', 'refs/acp/backup/collab').trim()).toBe(dropped);
    expect((await acp(...blocked(join(a, 'collab'), OWNER, 'next'))).code).toBe(0);
    expect(remoteLog(remote).slice(1).map((e) => `${e.seq} ${e.summary}`)).toEqual(['2 next']);
  });
});

describe('7b. a force-push seen by a clone that only followed', () => {
  it('is named as a force-push by the append, doctor and --fix; nothing is called an edit of this clone', async () => {
    const { remote, clones } = await sandbox.setup('forced-follower', initArgs, 3);
    const [a, b, c] = clones as [string, string, string];
    const init = git(remote, 'rev-parse', 'main').trim();
    expect((await acp(...blocked(join(a, 'collab'), OWNER, 'dropped'))).code).toBe(0);
    expect((await acp('wait', '--git', '--folder', join(c, 'collab'), '--participant', REVIEWER, '--timeout', '60')).code).toBe(0);
    git(b, 'push', '--quiet', '--force', 'origin', `${init}:main`);
    const r = await acp(...blocked(join(c, 'collab'), REVIEWER, 'next'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('git: origin/main was rewritten (force-pushed): it no longer has 1 commit(s) this folder had, with the events seq 2 blocked by alice');
    const doctor = await acp('doctor', '--git', '--folder', join(c, 'collab'));
    expect(doctor.stdout).toContain('was rewritten (force-pushed)');
    expect(doctor.stdout).not.toMatch(/edited|cut short|never appended/);
    const fixed = await acp('doctor', '--git', '--fix', '--folder', join(c, 'collab'));
    expect(fixed.stdout).toContain('fixed: git: took 1 acp commit(s) off HEAD (seq 2 blocked by alice): origin/main lost them to a force-push;');
    expect((await acp(...blocked(join(c, 'collab'), REVIEWER, 'next'))).code).toBe(0);
    expect(remoteLog(remote).slice(1).map((e) => `${e.seq} ${e.summary}`)).toEqual(['2 next']);
    expect(git(c, 'status', '--porcelain')).toBe('');
  });
});

describe('7c. a stale copy of a document', () => {
  it('is named by doctor as what an older commit had, not as an edit, and --fix brings it to the remote', async () => {
    const { remote, clones } = await sandbox.setup('stale', initArgs, 1);
    const a = clones[0]!;
    const notes = join(a, 'collab', 'notes.md');
    for (const line of ['n1', 'n2']) {
      writeFileSync(notes, `${existsSync(notes) ? readFileSync(notes, 'utf8') : ''}${line}\n`);
      expect((await acp(...blocked(join(a, 'collab'), OWNER, line, '--doc', 'notes.md'))).code).toBe(0);
    }
    // An editor's old buffer saved over the file.
    writeFileSync(notes, 'n1\n');
    const doctor = await acp('doctor', '--git', '--folder', join(a, 'collab'));
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('PROBLEM: git: collab/notes.md is as an older commit of origin/main had it, not as it is now: a stale copy');
    expect(doctor.stdout).not.toContain('not published yet');
    const fixed = await acp('doctor', '--git', '--fix', '--folder', join(a, 'collab'));
    expect(fixed.stdout).toMatch(/fixed: git: brought collab\/notes\.md \(a stale copy of an older commit\) to origin\/main \(the stale copy is kept in \S+acp-backup/);
    expect(readFileSync(notes, 'utf8')).toBe('n1\nn2\n');
    expect(git(remote, 'show', 'main:collab/notes.md')).toBe('n1\nn2\n');
    expect(git(a, 'status', '--porcelain')).toBe('');
  });
});

describe('8. the folder lives in a repository people work in', () => {
  // The user's own unpushed commit on the branch: refused before writing, with the way out (test/git-checkout.test.ts).
  it('the collaboration can live on its own branch beside a protected main', async () => {
    const { remote, clones, base } = await sandbox.setup('branch', initArgs, 1);
    const a = clones[0]!;
    // main is protected: the remote refuses pushes to it.
    writeFileSync(join(remote, 'hooks', 'pre-receive'), '#!/bin/sh\nwhile read old new ref; do [ "$ref" = refs/heads/main ] && { echo "main is protected" >&2; exit 1; }; done\nexit 0\n', { mode: 0o755 });
    const dir = join(base, 'on-branch');
    mkdirSync(dir);
    writeFileSync(join(dir, 'acp.config.yaml'), 'git:\n  remote: origin\n  branch: acp\n');
    const cwd = process.cwd();
    process.chdir(dir);
    const head = git(a, 'rev-parse', 'HEAD');
    try {
      const folder = join(a, 'team');
      const init = await acp('init', '--folder', folder, '--participant', OWNER, '--participant', REVIEWER, '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'design-spec', '--git');
      expect(init.stderr).toBe('');
      expect(init.stdout).toContain('committed and pushed to origin/acp');
      expect((await acp(...blocked(folder))).code).toBe(0);
      expect(git(remote, 'show', 'acp:team/events.jsonl').split('\n').filter(Boolean)).toHaveLength(2);
    } finally {
      process.chdir(cwd);
    }
    expect(git(a, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(a, 'symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
    expect(git(a, 'diff', '--cached', '--name-only')).toBe('');
    expect(existsSync(join(a, 'team', 'events.jsonl'))).toBe(true);
  });
});
