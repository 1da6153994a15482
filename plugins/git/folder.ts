/**
 * The collaboration folder against the remote, without touching anything
 * else in the user's clone. The folder's files were last brought to one
 * remote commit (the *synced* commit, kept in `refs/acp/synced/<folder>`);
 * what differs from it in the folder are the clone's own edits. Trees are
 * built in a temporary index (`GIT_INDEX_FILE`), so the user's index, HEAD
 * and every file outside the folder are never read, staged, reset or
 * checked out. Only when HEAD is on the collaboration branch are the
 * folder's own index entries kept in step, and HEAD fast-forwarded when
 * nothing but the folder changed.
 * @module
 */
import type { GitRun, Refs, Repo } from './repo.ts';
import { isAncestor, LOCAL_FILES, resolveRef } from './repo.ts';

/** A top-relative literal pathspec, so git reads it the same whatever the working directory. */
export const top = (path: string): string => `:(top,literal)${path}`;

/** The folder as pathspecs: itself, without acp's clone-local files. */
export function folderSpecs(repo: Repo): string[] {
  const dir = repo.prefix.replace(/\/$/, '');
  return [dir ? top(dir) : ':/', ...[...LOCAL_FILES].map((name) => `:(top,exclude,glob)${repo.prefix}**/${name}`)];
}

type GitWithIndex = (args: string[], options?: GitRun) => ReturnType<Repo['git']>;

/** Run `fn` with git on a fresh temporary index (removed afterwards): the user's index is never used. */
export async function withTempIndex<T>(repo: Repo, fn: (git: GitWithIndex) => Promise<T>): Promise<T> {
  const { tmpdir } = await import('node:os');
  const path = `${tmpdir()}/acp-index-${repo.ctx.host.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    return await fn((args, options = {}) => repo.git(args, { ...options, env: { ...options.env, GIT_INDEX_FILE: path } }));
  } finally {
    await repo.ctx.host.fs.remove(path).catch(() => undefined);
  }
}

/** Paths (top-relative) that differ between two trees or commits within the folder, with git's status letter. */
export async function folderDiff(repo: Repo, from: string | undefined, to: string): Promise<{ status: string; path: string }[]> {
  const left = from ?? (await emptyTree(repo));
  const out = await repo.git(['diff-tree', '-r', '--no-renames', '--name-status', '-z', left, to, '--', ...folderSpecs(repo)]);
  const fields = out.stdout.split('\0');
  const diff: { status: string; path: string }[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]) diff.push({ status: fields[i]!, path: fields[i + 1]! });
  return diff;
}

async function emptyTree(repo: Repo): Promise<string> {
  return withTempIndex(repo, async (git) => {
    await git(['read-tree', '--empty']);
    return (await git(['write-tree'])).stdout.trim();
  });
}

/**
 * The commit the folder's files stand on: the synced ref; for a clone that
 * never synced, HEAD's common ancestor with the remote (when HEAD holds the
 * folder), else the remote's commit.
 */
export async function folderBase(repo: Repo, refs: Refs): Promise<string | undefined> {
  if (refs.synced) return refs.synced;
  const { remote } = refs;
  const head = await resolveRef(repo, 'HEAD');
  const hasFolder = head !== undefined && (await repo.git(['cat-file', '-e', `${head}:${repo.prefix}`], { allowFail: true })).code === 0;
  if (!hasFolder || !head) return remote;
  if (!remote) return head;
  const base = await repo.git(['merge-base', head, remote], { allowFail: true });
  return base.code === 0 ? base.stdout.trim() : remote;
}

/** The folder as it is in the work tree, over `base`: its tree and the paths that differ (the clone's edits). */
export async function worktreeState(repo: Repo, base: string | undefined): Promise<{ tree: string; edits: string[] }> {
  const tree = await withTempIndex(repo, async (git) => {
    await git(base ? ['read-tree', base] : ['read-tree', '--empty']);
    await git(['add', '-A', '--', ...folderSpecs(repo)]);
    return (await git(['write-tree'])).stdout.trim();
  });
  const edits = (await folderDiff(repo, base, tree)).map((d) => d.path);
  return { tree, edits };
}

/**
 * Bring the folder's files from `from` to the remote commit `to`, keeping
 * the clone's edits (`edits`: files that differ from both). An edit of a
 * file the remote changed too is a conflict: nothing is changed and the
 * error says what to do.
 */
export async function bringFolderTo(repo: Repo, from: string | undefined, to: string, state: { tree: string; edits: string[] }): Promise<boolean> {
  const remoteChanged = await folderDiff(repo, from, to);
  const edited = new Set(state.edits);
  const conflicts = remoteChanged.filter((d) => edited.has(d.path)).map((d) => d.path);
  if (conflicts.length) {
    const where = `${repo.settings.remote}/${repo.branch}`;
    throw new repo.ctx.api.AcpError(
      `git: your edit of ${conflicts.join(', ')} conflicts with ${where}, which changed ${conflicts.length > 1 ? 'them' : 'it'} too; nothing was changed (compare with git show ${where}:${conflicts[0]}, merge the two into your file or discard yours, then run the command again)`,
      2,
      'git_conflict',
    );
  }
  const take = remoteChanged.filter((d) => !edited.has(d.path));
  await writeFromCommit(repo, to, take.filter((d) => d.status !== 'D').map((d) => d.path));
  for (const d of take.filter((d) => d.status === 'D')) await repo.ctx.host.fs.remove(`${repo.top}/${d.path}`).catch(() => undefined);
  await followInIndex(repo, to, remoteChanged.map((d) => d.path));
  await repo.git(['update-ref', repo.syncedRef, to]);
  return remoteChanged.length > 0;
}

/** Write `paths` (top-relative, in the folder) as `commit` has them, through a temporary index. */
export async function writeFromCommit(repo: Repo, commit: string, paths: string[]): Promise<void> {
  if (!paths.length) return;
  await withTempIndex(repo, async (git) => {
    await git(['read-tree', commit]);
    // checkout-index takes paths relative to git's working directory: the folder.
    await git(['checkout-index', '-f', '-q', '--', ...paths.map((p) => p.slice(repo.prefix.length))]);
  });
}

/** With HEAD on the collaboration branch, the folder's index entries follow `commit` (the user's other entries are untouched). */
export async function followInIndex(repo: Repo, commit: string, paths: string[]): Promise<void> {
  if (!repo.attached || !paths.length) return;
  await repo.git(['reset', '--quiet', commit, '--', ...paths.map(top)]);
}

/**
 * The remote commit `commit` is now the folder's synced commit (its files
 * are already in the folder; `changed` are the paths that differ from the
 * previous one). With HEAD on the branch and nothing but the folder between
 * HEAD and `commit`, HEAD fast-forwards (a branch with the user's own
 * commits, or other files changed remotely, is left as it is: `git pull`
 * brings it along).
 */
export async function settleOn(repo: Repo, commit: string, changed: string[], head: string | undefined, onlyFolderSince?: string): Promise<void> {
  await followInIndex(repo, commit, changed);
  await repo.git(['update-ref', repo.syncedRef, commit]);
  await advanceHead(repo, commit, head, onlyFolderSince);
}

/**
 * Fast-forward HEAD's branch (at `head`) to `commit` when only the folder
 * lies between them. `onlyFolderSince`: a commit known to differ from
 * `commit` in the folder only, its index entries already `commit`'s (the
 * parent of a commit acp just built): when HEAD is there, nothing needs checking.
 */
export async function advanceHead(repo: Repo, commit: string, head: string | undefined, onlyFolderSince?: string): Promise<void> {
  if (!repo.attached || !head || head === commit) return;
  if (head !== onlyFolderSince) {
    if (!(await isAncestor(repo, head, commit))) return;
    if (repo.prefix !== '') {
      // Files outside the folder changed too (someone's own commit): the user's tree would not match the moved HEAD.
      const outside = await repo.git(['diff', '--name-only', '-z', head, commit, '--', ':/', `:(top,exclude,literal)${repo.prefix.replace(/\/$/, '')}`]);
      if (outside.stdout !== '') return;
    }
    // The index's folder entries must already be the target's (they follow every sync).
    const stale = await repo.git(['diff', '--cached', '--name-only', '-z', commit, '--', ...folderSpecs(repo)]);
    if (stale.stdout !== '') return;
  }
  await repo.git(['update-ref', '-m', 'acp: fast-forward to the collaboration', `refs/heads/${repo.branch}`, commit, head], { allowFail: true });
}
