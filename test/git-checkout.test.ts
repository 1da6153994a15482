// The user's repository around acp (issue 37): linked work trees, branch
// switches, unpushed commits, a rebase in progress, a detached HEAD. Each
// scenario appends in a state a user gets into, then runs the user's next
// ordinary git commands: they behave as if acp had not run (except that
// the folder's published files arrived), or acp refused before writing and
// named the way out. The collaboration branch is named (git.branch: main)
// so that a HEAD on another branch, or detached, still appends. Every git
// spawn costs (test/scale.ts): quick runs the linked work tree, the unpushed
// commit and the rebase; full adds the concurrent work trees, the branch
// switch, the detached HEAD and the sparse checkout.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acp, git, gitSandbox } from './git-harness.ts';
import { initArgs, OWNER, REVIEWER } from './happy-path.ts';
import { atLeast, byScale } from './scale.ts';

const sandbox = gitSandbox('git:\n  remote: origin\n  branch: main\n  interval: 0.3\n  max-interval: 1\n');

/** Append a `blocked` event naming notes.md (the notes file people add lines to). */
const note = (folder: string, participant: string, summary: string) => acp('append', '--git', '--folder', folder, '--participant', participant, '--event', 'blocked', '--summary', summary, '--reply-to', '1', '--doc', 'notes.md');

/** Add `line` to the folder's notes.md and append an event naming it. */
async function addNote(folder: string, participant: string, line: string): Promise<void> {
  writeFileSync(join(folder, 'notes.md'), `${readFileSync(join(folder, 'notes.md'), 'utf8')}${line}\n`);
  const r = await note(folder, participant, line);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

/** A set-up whose folder has a notes.md on the remote. */
async function withNotes(name: string, n: number): Promise<{ remote: string; clones: string[]; base: string }> {
  const made = await sandbox.setup(name, initArgs, n);
  const folder = join(made.clones[0]!, 'collab');
  writeFileSync(join(folder, 'notes.md'), '# Notes\n');
  expect((await note(folder, OWNER, 'notes')).code).toBe(0);
  for (const clone of made.clones.slice(1)) git(clone, 'pull', '--quiet', '--ff-only');
  return made;
}

const remoteNotes = (remote: string): string => git(remote, 'show', 'main:collab/notes.md');
const remoteSummaries = (remote: string): string[] => git(remote, 'show', 'main:collab/events.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l).summary as string);

/** The user's next commands after an append, in this order: status clean, a commit holds only its own file, pull --rebase, push, pull, a switch away and back. */
function nextCommandsWork(clone: string, branch = 'main'): void {
  expect(git(clone, 'status', '--porcelain')).toBe('');
  writeFileSync(join(clone, 'mine.txt'), `${clone}\n`);
  git(clone, 'add', 'mine.txt');
  git(clone, 'commit', '--quiet', '-m', 'mine');
  expect(git(clone, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('mine.txt');
  git(clone, 'pull', '--quiet', '--rebase', 'origin', 'main');
  git(clone, 'push', '--quiet', 'origin', `HEAD:main`);
  git(clone, 'pull', '--quiet', '--no-rebase', 'origin', 'main');
  git(clone, 'checkout', '--quiet', '-b', `elsewhere-${branch}`);
  git(clone, 'checkout', '--quiet', branch);
  expect(git(clone, 'status', '--porcelain')).toBe('');
}

describe('a linked work tree', () => {
  it("appends beside the main work tree without reverting what it published", async () => {
    const { remote, clones, base } = await withNotes('worktree', 1);
    const main = clones[0]!;
    const linked = join(base, 'linked');
    git(main, 'worktree', 'add', '--quiet', '-b', 'side', linked, 'origin/main');
    await addNote(join(main, 'collab'), OWNER, 'm1');
    await addNote(join(main, 'collab'), OWNER, 'm2');
    // The linked work tree's folder is as origin/main was when it was made: that is no edit of notes.md.
    const r = await note(join(linked, 'collab'), REVIEWER, 'from the linked work tree');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(remoteNotes(remote)).toBe('# Notes\nm1\nm2\n');
    expect(readFileSync(join(linked, 'collab', 'notes.md'), 'utf8')).toBe('# Notes\nm1\nm2\n');
    // side was an ancestor with only the folder between: it moved forward with the folder's files.
    expect(git(linked, 'rev-parse', 'HEAD')).toBe(git(remote, 'rev-parse', 'main'));
    expect(git(linked, 'status', '--porcelain')).toBe('');
    await addNote(join(main, 'collab'), OWNER, 'm3');
    expect(remoteNotes(remote)).toBe('# Notes\nm1\nm2\nm3\n');
    nextCommandsWork(linked, 'side');
  });

  it.runIf(atLeast('full'))('two work trees appending at once behave like two clones: none refused, none lost', async () => {
    const each = byScale({ quick: 2, full: 5 });
    const { remote, clones, base } = await withNotes('worktrees-race', 1);
    const linked = join(base, 'linked');
    git(clones[0]!, 'worktree', 'add', '--quiet', '--detach', linked, 'origin/main');
    const writers: [string, string][] = [[join(clones[0]!, 'collab'), OWNER], [join(linked, 'collab'), REVIEWER]];
    const failures: string[] = [];
    await Promise.all(writers.map(async ([folder, who]) => {
      for (let k = 0; k < each; k++) {
        const r = await acp('append', '--git', '--folder', folder, '--participant', who, '--event', 'blocked', '--summary', `${who}-${k}`, '--reply-to', '1');
        if (r.code !== 0) failures.push(r.stderr);
      }
    }));
    expect(failures).toEqual([]);
    const summaries = remoteSummaries(remote);
    expect(summaries.slice(2).sort()).toEqual(writers.flatMap(([, who]) => Array.from({ length: each }, (_, k) => `${who}-${k}`)).sort());
    for (const tree of [clones[0]!, linked]) expect(git(tree, 'status', '--porcelain')).toBe('');
  });
});

describe('a branch switch', () => {
  it.runIf(atLeast('full'))('to a branch with an older folder: the next append brings it forward and reverts nothing', async () => {
    const { remote, clones } = await withNotes('switch', 1);
    const a = clones[0]!;
    await addNote(join(a, 'collab'), OWNER, 'm1');
    await addNote(join(a, 'collab'), OWNER, 'm2');
    git(a, 'checkout', '--quiet', '-b', 'older', 'HEAD~2');
    const r = await note(join(a, 'collab'), REVIEWER, 'after the switch');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(remoteNotes(remote)).toBe('# Notes\nm1\nm2\n');
    nextCommandsWork(a, 'older');
    git(a, 'checkout', '--quiet', 'main');
    expect(git(a, 'status', '--porcelain')).toBe('');
  });
});

describe('an unpushed commit of the user on the branch', () => {
  it('is refused before anything is written, with the way out; after it, the next commands work', async () => {
    const { remote, clones } = await withNotes('unpushed', 2);
    const [a, b] = clones as [string, string];
    writeFileSync(join(a, 'NOTES.md'), 'my own notes\n');
    git(a, 'add', 'NOTES.md');
    git(a, 'commit', '--quiet', '-m', 'wip');
    await addNote(join(b, 'collab'), REVIEWER, 'b1');
    const before = [git(a, 'rev-parse', 'HEAD'), git(a, 'status', '--porcelain'), readFileSync(join(a, 'collab', 'events.jsonl'), 'utf8')];
    const r = await acp('append', '--git', '--folder', join(a, 'collab'), '--participant', OWNER, '--event', 'blocked', '--summary', 'mine', '--reply-to', '1');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: git: your branch main has 1 commit(s) that are not on origin/main (wip); acp moves it only forward to what the remote has, and the folder\'s files cannot arrive beside them without entering your next commit; nothing was done: push them (git pull --rebase, then git push), or move them to a branch of their own (git branch <name>, then git reset --keep origin/main), then run the command again (see "Your work is never touched" in docs/git.md)\n');
    expect([git(a, 'rev-parse', 'HEAD'), git(a, 'status', '--porcelain'), readFileSync(join(a, 'collab', 'events.jsonl'), 'utf8')]).toEqual(before);
    // The way out, as printed; then the append lands and the user's commands work.
    git(a, 'pull', '--quiet', '--rebase');
    git(a, 'push', '--quiet');
    expect((await acp('append', '--git', '--folder', join(a, 'collab'), '--participant', OWNER, '--event', 'blocked', '--summary', 'mine', '--reply-to', '1')).code).toBe(0);
    expect(remoteSummaries(remote).slice(-1)).toEqual(['mine']);
    nextCommandsWork(a);
  });
});

describe('a rebase in progress', () => {
  it('is refused before anything is written; git rebase --continue then works', async () => {
    const { remote, clones } = await withNotes('rebase', 2);
    const [a, b] = clones as [string, string];
    git(a, 'checkout', '--quiet', '-b', 'feature');
    writeFileSync(join(a, 'project.txt'), 'feature\n');
    git(a, 'commit', '--quiet', '-am', 'feature');
    git(a, 'checkout', '--quiet', 'main');
    writeFileSync(join(a, 'project.txt'), 'main\n');
    git(a, 'commit', '--quiet', '-am', 'main');
    git(a, 'checkout', '--quiet', 'feature');
    expect(() => git(a, 'rebase', '--quiet', 'main')).toThrow();
    await addNote(join(b, 'collab'), REVIEWER, 'b1');
    const r = await note(join(a, 'collab'), OWNER, 'during the rebase');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: git: a rebase is in progress in this work tree, and acp does not change the folder under it; nothing was done: finish it (git rebase --continue, or git rebase --abort), then run the command again (see "Your work is never touched" in docs/git.md)\n');
    expect(git(a, 'status', '--porcelain', '--', 'collab')).toBe('');
    writeFileSync(join(a, 'project.txt'), 'both\n');
    git(a, 'add', 'project.txt');
    git(a, '-c', 'core.editor=true', 'rebase', '--continue');
    git(a, 'checkout', '--quiet', 'main');
    expect(remoteSummaries(remote).slice(-1)).toEqual(['b1']);
  });
});

describe('a detached HEAD', () => {
  it.runIf(atLeast('full'))('on an older commit: it moves forward with the folder; git checkout <branch> then works', async () => {
    const { remote, clones } = await withNotes('detached', 2);
    const [a, b] = clones as [string, string];
    git(a, 'checkout', '--quiet', '--detach', 'HEAD~1');
    await addNote(join(b, 'collab'), REVIEWER, 'b1');
    const r = await note(join(a, 'collab'), OWNER, 'detached');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(git(a, 'rev-parse', 'HEAD')).toBe(git(remote, 'rev-parse', 'main'));
    expect(git(a, 'status', '--porcelain')).toBe('');
    git(a, 'checkout', '--quiet', 'main');
    git(a, 'pull', '--quiet', '--ff-only');
    expect(remoteNotes(remote)).toBe('# Notes\nb1\n');
    nextCommandsWork(a);
  });
});

describe('a sparse checkout', () => {
  it.runIf(atLeast('full'))('keeps a path it leaves out out of the work tree, skip-worktree bit and all, while the remote changes it', async () => {
    const { remote, clones } = await withNotes('sparse', 2);
    const [a, b] = clones as [string, string];
    git(a, 'sparse-checkout', 'set', '--no-cone', '/*', '!/collab/notes.md');
    expect(existsSync(join(a, 'collab', 'notes.md'))).toBe(false);
    await addNote(join(b, 'collab'), REVIEWER, 'b1');
    const r = await acp('append', '--git', '--folder', join(a, 'collab'), '--participant', OWNER, '--event', 'blocked', '--summary', 'sparse', '--reply-to', '1');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(remoteNotes(remote)).toBe('# Notes\nb1\n');
    expect(existsSync(join(a, 'collab', 'notes.md'))).toBe(false);
    expect(git(a, 'ls-files', '-t', 'collab/notes.md')).toBe('S collab/notes.md\n');
    expect(git(a, 'rev-parse', 'HEAD')).toBe(git(remote, 'rev-parse', 'main'));
    nextCommandsWork(a);
    expect(existsSync(join(a, 'collab', 'notes.md'))).toBe(false);
  });
});
