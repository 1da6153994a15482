/**
 * `init --git`: create the folder, commit it (message `acp: seq 1
 * initialized by P`, so an unpushed one is pushed by the next `append
 * --git`) and push it. Everything that can be refused is checked before
 * init writes a file: not a git work tree, a detached HEAD, no remote, a
 * fetch that fails (authentication …), unpushed commits that are not acp
 * events, a diverged branch, changes already in an existing folder.
 * @module
 */
import type { CommandContext, CommandResult } from '../../acp.ts';
import type { Json } from '../../runtime/util.ts';
import type { GitSettings } from './config.ts';
import { backOff, folderChanges, LOCAL_FILES, openRepo, push, type Repo, RETRY_BUDGET_MS, syncToRemote } from './repo.ts';

/** Run `init`, then commit and push the new folder (see the module comment and docs/git.md). */
export async function gitInit(ctx: CommandContext, settings: GitSettings): Promise<CommandResult> {
  const folder = ctx.folder();
  // The folder may not exist yet: git runs in its nearest existing ancestor until init made it.
  const before = await openRepo(ctx, settings, await existingAncestor(ctx, folder));
  await ctx.api.withFolderLock(ctx.host, before.gitDir, () => precheck(before, folder), { timeoutMs: 300_000 });
  const result = await ctx.next();
  if (result.exitCode !== 0) return result;
  const repo = await openRepo(ctx, settings, folder);
  await ignoreLocalFiles(repo);
  const attempts = await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => commitAndPush(repo), { timeoutMs: 300_000 });
  if (!ctx.json) ctx.out(`committed and pushed to ${settings.remote}/${repo.branch}`);
  const json = (result.json ?? {}) as Record<string, Json>;
  return { exitCode: 0, json: { ...json, git: { attempts, remote: settings.remote, branch: repo.branch } } };
}

async function existingAncestor(ctx: CommandContext, folder: string): Promise<string> {
  const { dirname } = await import('node:path');
  let dir = folder;
  while (!(await ctx.host.fs.stat(dir).catch(() => undefined))?.isDirectory && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Up to date with the remote, and nothing in the folder that init would commit without having made it. */
async function precheck(repo: Repo, folder: string): Promise<void> {
  await syncToRemote(repo);
  if (repo.folder !== folder) return;
  const changes = await folderChanges(repo);
  if (changes.length) throw new repo.ctx.api.AcpError(`git: the folder already has uncommitted changes: ${changes.join(', ')} (commit, stash or discard them first)`);
}

/** A `.gitignore` in the folder for acp's clone-local files, unless the repository already ignores them. */
async function ignoreLocalFiles(repo: Repo): Promise<void> {
  const names = [...LOCAL_FILES];
  const check = await repo.git(['check-ignore', '--quiet', '--no-index', '--', ...names], true);
  const ignored = check.code === 0 ? (await repo.git(['check-ignore', '--no-index', '--', ...names], true)).stdout.split('\n').filter(Boolean) : [];
  const missing = names.filter((n) => !ignored.includes(n));
  if (!missing.length) return;
  const path = `${repo.folder}/.gitignore`;
  const old = await repo.ctx.host.fs.readFile(path).then((b) => new TextDecoder().decode(b), () => '');
  const text = `${old}${old && !old.endsWith('\n') ? '\n' : ''}# clone-local files of acp (the git plugin never commits them)\n${missing.join('\n')}\n`;
  await repo.ctx.host.fs.writeFile(path, text);
}

/**
 * Commit the folder and push, retrying a rejected push against the new
 * remote (the new files stay in the work tree while the commit is redone).
 * A push that fails otherwise keeps the commit: the next `append --git`
 * pushes it.
 */
async function commitAndPush(repo: Repo): Promise<number> {
  const { ctx, settings } = repo;
  const first = (await ctx.api.readEventLog(ctx.host, repo.folder)).events[0];
  const subject = `acp: seq 1 ${first?.event ?? 'initialized'} by ${first?.from ?? 'acp'}`;
  const begun = Date.now();
  for (let attempt = 1; ; attempt++) {
    const head = await repo.git(['rev-parse', '--verify', '--quiet', 'HEAD'], true);
    const base = head.code === 0 ? head.stdout.trim() : undefined;
    await repo.git(['add', '-A', '--', '.']);
    await repo.git(['commit', '--quiet', '--no-verify', '-m', subject, '--', '.']);
    let pushed: 'ok' | 'rejected';
    try {
      pushed = await push(repo);
    } catch (error) {
      if (!(error instanceof ctx.api.AcpError)) throw error;
      throw new ctx.api.AcpError(`${error.message.replace(' (nothing was appended)', '')}; the folder is initialized and committed here, not pushed (the next append --git or git push sends it)`);
    }
    if (pushed === 'ok') return attempt;
    // Drop the commit, keep the files, catch up with the remote and commit again.
    if (base === undefined) await repo.git(['update-ref', '-d', 'HEAD']);
    else await repo.git(['reset', '--soft', '--quiet', base]);
    await repo.git(['reset', '--quiet', '--', '.'], true);
    if (attempt >= settings.attempts || Date.now() - begun > RETRY_BUDGET_MS) {
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times (other clones kept pushing first); the folder is initialized here but not committed; commit and push it by hand`);
    }
    await backOff(ctx.api, attempt);
    await syncToRemote(repo);
  }
}
