/**
 * The collaboration folder against the remote, without touching anything
 * else in the user's clone. The folder's files were last brought to one
 * remote commit (the *synced* commit, kept in `refs/acp/synced/<folder>`);
 * what differs from it in the folder are the clone's own edits. Trees are
 * built in a temporary index (`GIT_INDEX_FILE`), so the user's index, HEAD
 * and every file outside the folder are never read, staged, reset or
 * checked out. Only when HEAD's commit holds the folder are the folder's
 * own index entries kept in step, and HEAD fast-forwarded with them (see
 * plugins/git/checkout.ts for when that is refused instead).
 * @module
 */
import type { GitRun, Refs, Repo } from './repo.ts';
import { isAncestor, LOCAL_FILES, readRefs, updateRefs } from './repo.ts';
import { decideCheckout } from './checkout.ts';

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
 * The commit the folder's files stand on: HEAD's, when it holds the folder
 * (checked by {@link checkCheckout} first: the files and HEAD move
 * together), else this work tree's synced commit for the branch, else the
 * remote's.
 */
export function folderBase(repo: Repo, refs: Refs): string | undefined {
  if (repo.checkout.tracks && refs.head) return refs.head;
  return refs.synced ?? refs.remote;
}

/** The folder as it is in the work tree, over `base`: its tree and the paths that differ (the clone's edits). */
export async function worktreeState(repo: Repo, base: string | undefined): Promise<{ tree: string; edits: string[] }> {
  const tree = await withTempIndex(repo, async (git) => {
    await git(base ? ['read-tree', base] : ['read-tree', '--empty']);
    // A path a sparse checkout leaves out is absent from the work tree, not deleted: it keeps the base's entry.
    await git(['add', '-A', '--', ...folderSpecs(repo), ...[...repo.checkout.skipped].map((p) => `:(top,exclude,literal)${p}`)]);
    return (await git(['write-tree'])).stdout.trim();
  });
  const edits = (await folderDiff(repo, base, tree)).map((d) => d.path);
  return { tree, edits };
}

/**
 * Bring the folder's files from `from` to the remote commit `to`, keeping
 * the clone's edits (`edits`: files that differ from both); the caller then
 * records `to` ({@link recordSynced}). An edit of a file the remote changed
 * too is a conflict: nothing is changed and the error says what to do.
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
  const take = remoteChanged.filter((d) => !edited.has(d.path) && !repo.checkout.skipped.has(d.path));
  // Deletions first: a file the remote turned into a directory (x, then x/y) leaves room for it.
  for (const d of take.filter((d) => d.status === 'D')) await repo.ctx.host.fs.remove(`${repo.top}/${d.path}`).catch(() => undefined);
  await writeFromCommit(repo, to, take.filter((d) => d.status !== 'D').map((d) => d.path));
  await followInIndex(repo, to, remoteChanged.map((d) => d.path));
  return remoteChanged.length > 0;
}

/**
 * Write `paths` (top-relative, in the folder) as `commit` has them, each
 * put in place by a rename: git writes them (its modes, symlinks and
 * filters) into a private directory of this work tree's git directory,
 * and each is renamed over its place in the folder, so a reader anywhere
 * (another process's `wait`, the dashboard, the Python tools) sees the old
 * file or the new one, never a missing or half-written one. Without
 * {@link Repo.placeByRename} git writes them in place.
 */
export async function writeFromCommit(repo: Repo, commit: string, wanted: string[]): Promise<void> {
  // A path a sparse checkout leaves out stays out of the work tree.
  const paths = wanted.filter((p) => !repo.checkout.skipped.has(p));
  if (!paths.length) return;
  const stray = paths.find((p) => !p.startsWith(repo.prefix) || p.split('/').includes('..'));
  if (stray !== undefined) throw new repo.ctx.api.AcpError(`git: ${stray} is not in the folder: not written`, 70);
  const { mkdtemp, rm } = await import('node:fs/promises');
  const staging = repo.placeByRename ? await mkdtemp(`${repo.worktreeDir}/acp-checkout-`) : undefined;
  try {
    await withTempIndex(repo, async (git) => {
      await git(['read-tree', commit]);
      if (staging === undefined) return checkoutInPlace(repo, git, paths);
      // checkout-index takes paths relative to git's working directory (the folder) and writes each at the prefix plus its top-relative path.
      await git(['checkout-index', '-q', `--prefix=${staging}/`, '--', ...paths.map((p) => p.slice(repo.prefix.length))]);
      await placeFiles(repo, staging, paths, git);
    });
  } finally {
    if (staging !== undefined) await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** git's own write of `paths` from the temporary index `git` runs on: each file replaced by unlinking it and creating a new one. */
async function checkoutInPlace(repo: Repo, git: GitWithIndex, paths: string[]): Promise<void> {
  await git(['checkout-index', '-f', '-q', '--', ...paths.map((p) => p.slice(repo.prefix.length))]);
}

/**
 * Rename each of `paths` from `staging` over its place in the folder,
 * beneath the folder without following a symlink on the way (a directory
 * swapped for a link is refused, not written through); the entry at the
 * place is replaced, never followed. A work tree on another file system
 * than its git directory (no rename across them) gets git's in-place write
 * for what is left (`git`: the temporary index the commit was read into).
 */
async function placeFiles(repo: Repo, staging: string, paths: string[], git: GitWithIndex): Promise<void> {
  const { api, host } = repo.ctx;
  const folder = `${repo.top}/${repo.prefix}`.replace(/\/$/, '');
  const confined = api.confineHost(host, [staging, folder]).fs;
  for (const [index, path] of paths.entries()) {
    const staged = `${staging}/${path}`;
    const place = `${repo.top}/${path}`;
    // A submodule's entry is a directory git leaves empty: nothing to rename.
    const kind = await confined.stat(staged);
    if (!kind || (kind.isDirectory && !kind.isSymlink)) continue;
    try {
      await confined.mkdir(place.slice(0, place.lastIndexOf('/')));
      await confined.rename(staged, place);
    } catch (error) {
      if (api.errorCode(error) === 'EXDEV') return checkoutInPlace(repo, git, paths.slice(index));
      // A directory the remote turned into a file: its files were deleted before, the directory is left empty in the
      // way, and git's own write clears it. One that still holds anything (a file of this clone's own) is refused.
      if (api.errorCode(error) === 'EISDIR' && (await confined.readDir(place).catch(() => undefined))?.length === 0) {
        await checkoutInPlace(repo, git, [path]);
        continue;
      }
      throw new api.AcpError(`git: cannot put ${path} in place: ${(error as Error).message}`);
    }
  }
}

/** With HEAD holding the folder, the folder's index entries follow `commit` (the user's other entries are untouched). */
export async function followInIndex(repo: Repo, commit: string, paths: string[]): Promise<void> {
  if (!repo.checkout.tracks || !paths.length) return;
  await repo.git(['reset', '--quiet', commit, '--', ...paths.map(top)]);
  // reset clears the skip-worktree bit of the entries it rewrites: a sparse checkout's exclusions are put back.
  const skipped = paths.filter((p) => repo.checkout.skipped.has(p));
  if (skipped.length) await repo.git(['update-index', '--skip-worktree', '--', ...skipped.map((p) => p.slice(repo.prefix.length))]);
}

/**
 * The remote commit `commit` is now the folder's synced commit (its files
 * are already in the folder; `changed` are the paths that differ from the
 * previous one): the index follows, then {@link recordSynced}.
 */
export async function settleOn(repo: Repo, commit: string, changed: string[], head: string | undefined, knownBase?: string, extra: string[] = []): Promise<string | undefined> {
  if (!repo.checkout.decided) await decideCheckout(repo, await readRefs(repo), commit);
  await followInIndex(repo, commit, changed);
  return recordSynced(repo, commit, head, knownBase, extra);
}

/**
 * Record `commit` as the folder's synced commit, with `extra` ref updates,
 * in one ref transaction; with HEAD on the branch and nothing but the
 * folder between HEAD and `commit`, HEAD fast-forwards in the same
 * transaction (a branch with the user's own commits, or other files changed
 * remotely, is left as it is: `git pull` brings it along). Returns HEAD's
 * branch commit afterwards.
 */
export async function recordSynced(repo: Repo, commit: string, head: string | undefined, knownBase?: string, extra: string[] = []): Promise<string | undefined> {
  const lines = [`update ${repo.syncedRef} ${commit}`, ...extra];
  if (repo.legacyRefs) lines.push(`delete ${repo.legacyRefs.synced}`);
  if (await mayAdvanceHead(repo, commit, head, knownBase)) {
    // HEAD may have moved meanwhile (the user committed, or switched): then only the rest applies.
    const { headRef } = repo.checkout;
    const moveHead = headRef ? [`update ${headRef} ${commit} ${head}`] : ['option no-deref', `update HEAD ${commit} ${head}`];
    if (await updateRefs(repo, [...lines, ...moveHead])) return commit;
  }
  if (!(await updateRefs(repo, lines))) throw new repo.ctx.api.AcpError(`git: cannot update ${repo.syncedRef}`);
  return head;
}

/**
 * Whether HEAD's branch (at `head`) may fast-forward to `commit`: only the
 * folder lies between them and the index's folder entries already are
 * `commit`'s. `knownBase`: HEAD's commit when it is known to be an ancestor
 * of `commit` whose folder entries were followed in the index (the folder's
 * synced commit, or the parent of a commit acp just built): one diff decides.
 */
async function mayAdvanceHead(repo: Repo, commit: string, head: string | undefined, knownBase?: string): Promise<boolean> {
  if (!repo.checkout.tracks || !head || head === commit) return false;
  const folder = repo.prefix.replace(/\/$/, '');
  if (head === knownBase) {
    if (folder === '') return true;
    const changed = await repo.git(['diff', '--name-only', '-z', '--no-renames', head, commit]);
    return !changed.stdout.split('\0').some((p) => p !== '' && !p.startsWith(repo.prefix));
  }
  if (!(await isAncestor(repo, head, commit))) return false;
  if (folder !== '') {
    // Files outside the folder changed too (someone's own commit): the user's tree would not match the moved HEAD.
    const outside = await repo.git(['diff', '--name-only', '-z', head, commit, '--', ':/', `:(top,exclude,literal)${folder}`]);
    if (outside.stdout !== '') return false;
  }
  const stale = await repo.git(['diff', '--cached', '--name-only', '-z', commit, '--', ...folderSpecs(repo)]);
  return stale.stdout === '';
}
