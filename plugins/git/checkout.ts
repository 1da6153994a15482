/**
 * What the user has checked out in the folder's work tree, against the
 * remote commit the folder is about to be brought to — decided before
 * anything is written. acp moves the user's checkout in one way only: when
 * HEAD's commit holds the folder, HEAD (its branch, or a detached HEAD),
 * the index's folder entries and the folder's files move together as a
 * fast-forward, so that `git status`, `git pull`, `git commit`, `git push`
 * and `git checkout` behave as if acp had not run. Where that cannot be
 * done without the folder's files differing from HEAD — the user's own
 * commits not pushed, other people's commits outside the folder not pulled
 * yet, another branch that holds an older folder, a rebase or a merge in
 * progress — the command is refused before it writes, with the git command
 * that gets the user out. A HEAD whose commit does not hold the folder (the
 * collaboration on a branch of its own, `git.branch`) is left alone: the
 * folder is an untracked directory of that checkout. A path a sparse
 * checkout leaves out stays out: it is never written, and its absence is no
 * deletion.
 * @module
 */
import type { Refs, Repo } from './repo.ts';
import { ACP_SUBJECT_RE, isAncestor } from './repo.ts';

/** Operations git records in a work tree's git directory, and the commands that finish or abandon each. */
const OPERATIONS: { file: string; name: string; out: string }[] = [
  { file: 'rebase-merge', name: 'a rebase', out: 'git rebase --continue, or git rebase --abort' },
  { file: 'rebase-apply', name: 'a rebase', out: 'git rebase --continue, or git rebase --abort' },
  { file: 'MERGE_HEAD', name: 'a merge', out: 'git merge --continue, or git merge --abort' },
  { file: 'CHERRY_PICK_HEAD', name: 'a cherry-pick', out: 'git cherry-pick --continue, or git cherry-pick --abort' },
  { file: 'REVERT_HEAD', name: 'a revert', out: 'git revert --continue, or git revert --abort' },
  { file: 'BISECT_LOG', name: 'a bisect', out: 'git bisect reset' },
];

/**
 * Check that the folder can be brought to `refs.remote` in this checkout
 * (refusing with the way out when it cannot) and record in
 * `repo.checkout` whether HEAD holds the folder: then HEAD's commit is what
 * the folder's files stand on, and HEAD fast-forwards with them.
 */
export async function checkCheckout(repo: Repo, refs: Refs & { remote: string }): Promise<void> {
  const { head, headRef, remote } = refs;
  repo.checkout = { decided: true, tracks: false, headRef, skipped: new Set() };
  // A HEAD without the folder is left alone, unless it is the collaboration branch from before the folder (init --git on it).
  if (!head || (!(await holdsFolder(repo, head)) && (headRef !== `refs/heads/${repo.branch}` || !(await isAncestor(repo, head, remote))))) return;
  const where = `${repo.settings.remote}/${repo.branch}`;
  const fail = (why: string, out: string): never => {
    throw new repo.ctx.api.AcpError(`git: ${why}; nothing was done: ${out}, then run the command again (see "Your work is never touched" in docs/git.md)`, 2, 'git_checkout');
  };
  for (const op of OPERATIONS) {
    if (await repo.ctx.host.fs.stat(`${repo.worktreeDir}/${op.file}`)) fail(`${op.name} is in progress in this work tree, and acp does not change the folder under it`, `finish it (${op.out})`);
  }
  const here = headRef ? `your branch ${headRef.slice('refs/heads/'.length)}` : `HEAD (detached at ${head.slice(0, 12)})`;
  if (head !== remote && !(await isAncestor(repo, head, remote))) {
    const own = (await repo.git(['log', '--format=%s', head, '--not', remote, '--'])).stdout.split('\n').filter(Boolean);
    if (own.every((subject) => ACP_SUBJECT_RE.test(subject))) {
      const events = own.map((subject) => subject.slice(5)).join(', ');
      throw new repo.ctx.api.AcpError(`git: ${here} has ${own.length} acp commit(s) that are not on ${where} (${events}): they were never appended (an append made without --git and committed, or one a force-push dropped), and acp never pushes them; nothing was done: acp doctor --git --fix --folder ${repo.folder} takes them off (kept under refs/acp/backup/), then run the command again`, 2, 'git_unappended');
    }
    if (headRef === `refs/heads/${repo.branch}`) {
      fail(`${here} has ${own.length} commit(s) that are not on ${where} (${summary(own)}); acp moves it only forward to what the remote has, and the folder's files cannot arrive beside them without entering your next commit`, `push them (git pull --rebase, then git push), or move them to a branch of their own (git branch <name>, then git reset --keep ${where})`);
    }
    fail(`${here} holds the folder as an older commit had it, with ${own.length} commit(s) that are not on ${where}; the folder's files cannot arrive there without differing from what you checked out`, `run acp in a work tree on ${repo.branch} (git switch ${repo.branch}, or git worktree add <dir> ${repo.branch})`);
  }
  if (head !== remote) {
    const folder = repo.prefix.replace(/\/$/, '');
    const outside = folder ? (await repo.git(['diff', '--name-only', head, remote, '--', ':/', `:(top,exclude,literal)${folder}`])).stdout.split('\n').filter(Boolean) : [];
    if (outside.length) fail(`${where} changed files outside the folder since ${here} (${summary(outside)}), and acp moves your checkout only when nothing but the folder changed`, `bring it up first (${headRef ? 'git pull --ff-only' : `git merge --ff-only ${where}`})`);
  }
  repo.checkout.tracks = true;
  repo.checkout.skipped = await skippedPaths(repo);
}

/** The folder's paths (top-relative) whose index entry has the skip-worktree bit: left out by a sparse checkout. */
async function skippedPaths(repo: Repo): Promise<Set<string>> {
  const folder = repo.prefix.replace(/\/$/, '');
  const listed = await repo.git(['ls-files', '-t', '-z', '--full-name', '--', folder ? `:(top,literal)${folder}` : ':/']);
  return new Set(listed.stdout.split('\0').filter((entry) => entry.startsWith('S ')).map((entry) => entry.slice(2)));
}

/**
 * Decide the checkout once for a run that did not sync first (init --git
 * settling on the commit it pushed): as {@link checkCheckout} against
 * `commit`, except that a checkout acp must not move is left alone rather
 * than refused (the commit is pushed already).
 */
export async function decideCheckout(repo: Repo, refs: Refs, commit: string): Promise<void> {
  if (repo.checkout.decided) return;
  try {
    await checkCheckout(repo, { ...refs, remote: commit });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'git_checkout' && code !== 'git_unappended') throw error;
    repo.checkout = { decided: true, tracks: false, headRef: refs.headRef, skipped: new Set() };
  }
}

/** Whether `commit` holds the folder (a folder at the top of the work tree always is). */
export async function holdsFolder(repo: Repo, commit: string): Promise<boolean> {
  return (await repo.git(['cat-file', '-e', `${commit}:${repo.prefix}`], { allowFail: true })).code === 0;
}

/** The first three of `items`, and how many more. */
function summary(items: string[]): string {
  return items.length > 3 ? `${items.slice(0, 3).join(', ')} and ${items.length - 3} more` : items.join(', ');
}
