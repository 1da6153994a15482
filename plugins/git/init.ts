/**
 * The git store's `create` (`init --git`): the folder made by init's body,
 * then committed (message `acp: seq 1 initialized by P`) on top of the
 * remote's branch in a temporary index, and that commit pushed; the user's
 * index and other files are untouched. Everything that can be refused is
 * checked before init writes a file: not a git work tree, no branch to
 * follow, no remote, a fetch that fails (authentication …), changes
 * already in an existing folder.
 * @module
 */
import type { Published, Store } from '../../runtime/types.ts';
import type { GitEnv, GitSettings } from './config.ts';
import { folderDiff, settleOn, top, withTempIndex, worktreeState } from './folder.ts';
import { backOff, commitIdentity, fetch, LOCAL_FILES, openRepo, push, readRefs, type Repo, resolveRef, RETRY_BUDGET_MS } from './repo.ts';

/** {@link Store.create} for git: check, let init's body make the folder, then commit and push it (see the module comment and docs/git.md). */
export async function createFolder<T>(env: GitEnv, settings: GitSettings, folder: string, body: (underLock: <U>(fn: () => Promise<U>) => Promise<U>) => Promise<T>, options: { onLockWait?(line: string): void; lockTimeoutMs?: number } = {}): Promise<Published<T>> {
  // The folder may not exist yet: git runs in its nearest existing ancestor until init made it.
  const before = await openRepo(env, settings, await existingAncestor(env, folder));
  await env.api.withFolderLock(env.host, before.gitDir, () => precheck(before, folder), { timeoutMs: 300_000 });
  const value = await body((fn) => env.api.withFolderLock(env.host, folder, fn, { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs }));
  const repo = await openRepo(env, settings, folder);
  await ignoreLocalFiles(repo);
  const attempts = await env.api.withFolderLock(env.host, repo.gitDir, () => commitAndPush(repo), { timeoutMs: 300_000 });
  return { value, record: { attempts, remote: settings.remote, branch: repo.branch }, note: `committed and pushed to ${settings.remote}/${repo.branch}` };
}

async function existingAncestor(ctx: GitEnv, folder: string): Promise<string> {
  const { dirname } = await import('node:path');
  let dir = folder;
  while (!(await ctx.host.fs.stat(dir).catch(() => undefined))?.isDirectory && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** The remote answers, and nothing in the folder that init would commit without having made it. */
async function precheck(repo: Repo, folder: string): Promise<void> {
  await fetch(repo);
  if (repo.folder !== folder) return;
  const { remote } = await readRefs(repo);
  const { edits } = await worktreeState(repo, remote);
  if (edits.length) throw new repo.ctx.api.AcpError(`git: the folder already has changes that are not on ${repo.settings.remote}/${repo.branch}: ${edits.join(', ')} (commit, stash or discard them first)`);
}

/** A `.gitignore` in the folder for acp's clone-local files, unless the repository already ignores them. */
async function ignoreLocalFiles(repo: Repo): Promise<void> {
  const names = [...LOCAL_FILES];
  const check = await repo.git(['check-ignore', '--quiet', '--no-index', '--', ...names], { allowFail: true });
  const ignored = check.code === 0 ? (await repo.git(['check-ignore', '--no-index', '--', ...names], { allowFail: true })).stdout.split('\n').filter(Boolean) : [];
  const missing = names.filter((n) => !ignored.includes(n));
  if (!missing.length) return;
  const path = `${repo.folder}/.gitignore`;
  const old = await repo.ctx.host.fs.readFile(path).then((b) => new TextDecoder().decode(b), () => '');
  const text = `${old}${old && !old.endsWith('\n') ? '\n' : ''}# clone-local files of acp (the git plugin never commits them)\n${missing.join('\n')}\n`;
  await repo.ctx.host.fs.writeFile(path, text);
}

/**
 * Commit the folder on top of the remote's branch and push, retrying a
 * rejected push against the new remote. A push that fails otherwise keeps
 * the commit under `refs/acp/init/…` and says how to push it.
 */
async function commitAndPush(repo: Repo): Promise<number> {
  const { ctx, settings } = repo;
  const first = (await ctx.api.readEventLog(ctx.host, repo.folder)).events[0];
  const participant = typeof first?.from === 'string' ? first.from : 'acp';
  const subject = `acp: seq 1 ${first?.event ?? 'initialized'} by ${participant}`;
  const identity = await commitIdentity(repo, participant);
  const begun = Date.now();
  for (let attempt = 1; ; attempt++) {
    await fetch(repo);
    const { remote } = await readRefs(repo);
    const tree = await withTempIndex(repo, async (git) => {
      await git(remote ? ['read-tree', remote] : ['read-tree', '--empty']);
      await git(['add', '-A', '--', top(repo.prefix.replace(/\/$/, '') || '.'), ...[...LOCAL_FILES].map((n) => `:(top,exclude,glob)${repo.prefix}**/${n}`)]);
      return (await git(['write-tree'])).stdout.trim();
    });
    const commit = (await repo.git(['commit-tree', tree, ...(remote ? ['-p', remote] : []), '-m', subject], { env: identity })).stdout.trim();
    let pushed: 'ok' | 'rejected';
    try {
      pushed = await push(repo, commit);
    } catch (error) {
      if (!(error instanceof ctx.api.AcpError)) throw error;
      const keep = repo.pendingRef.replace('/pending/', '/init/');
      await repo.git(['update-ref', keep, commit]);
      throw new ctx.api.AcpError(`git push to '${settings.remote}' failed: ${error.message}; the folder is initialized and committed here (${keep}), not pushed: once the remote answers, run git push ${settings.remote} ${keep}:refs/heads/${repo.branch}`);
    }
    if (pushed === 'ok') {
      await adoptInit(repo, remote, commit);
      return attempt;
    }
    if (attempt >= settings.attempts || Date.now() - begun > RETRY_BUDGET_MS) {
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times (other clones kept pushing first); the folder is initialized here but not committed; run the command again in a while`);
    }
    await backOff(ctx.api, attempt);
  }
}

/** The pushed folder is the clone's synced state; a HEAD with no commit yet (a fresh clone of an empty remote) starts at it. */
async function adoptInit(repo: Repo, remote: string | undefined, commit: string): Promise<void> {
  const changed = (await folderDiff(repo, remote, commit)).map((d) => d.path);
  if (repo.attached && !(await resolveRef(repo, 'HEAD'))) await repo.git(['update-ref', `refs/heads/${repo.branch}`, commit, '0'.repeat(40)]);
  await settleOn(repo, commit, changed, (await readRefs(repo)).head, remote);
}
