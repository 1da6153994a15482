/**
 * The git CLI as the folder's transport: one runner (argv arrays through
 * `runtime.run`, no shell) and the steps shared by append, wait and doctor —
 * locate the repository, fetch, fast-forward, check the working tree.
 * @module
 */
import type { CommandContext } from '../../acp.ts';

/** What the git transport uses of a plugin's or a command's context. */
export type GitEnv = Pick<CommandContext, 'api' | 'host' | 'runtime'>;
import type { GitSettings } from './config.ts';

/** Commit subjects written by this plugin: `acp: seq N event by P`. */
export const ACP_SUBJECT_RE = /^acp: seq \d+ \S+ by .+$/;

/** Files acp keeps next to the log that are local to a clone (never committed, ignored by the dirty check). */
export const LOCAL_FILES = new Set(['.acp.lock', '.acp.lock.break', '.acp.checkpoint.json']);

/** A git repository holding a collaboration folder. */
export interface Repo {
  ctx: GitEnv;
  settings: GitSettings;
  folder: string;
  /** The folder relative to the top of the work tree (`''` or ending in `/`). */
  prefix: string;
  /** The top of the work tree (absolute). */
  top: string;
  /** The `.git` directory (absolute): the clone's git transactions lock there. */
  gitDir: string;
  branch: string;
  /** `refs/remotes/{remote}/{branch}`. */
  remoteRef: string;
  git(args: string[], allowFail?: boolean): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Where git talks: no prompts (an agent cannot answer one), stable English messages. */
const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_ASKPASS: '', SSH_ASKPASS: '' };

/** Open the repository holding `folder`; a clear error when it is not one, is detached, or lacks the remote. */
export async function openRepo(ctx: GitEnv, settings: GitSettings, folder: string): Promise<Repo> {
  const run = ctx.runtime.run;
  const fail = (message: string): never => {
    throw new ctx.api.AcpError(message);
  };
  if (!run) return fail('git: this runtime cannot run commands (Deno needs --allow-run=git)');
  const git: Repo['git'] = async (args, allowFail = false) => {
    let result;
    try {
      result = await run(['git', ...args], { cwd: folder, env: GIT_ENV, timeoutMs: 120_000 });
    } catch (error) {
      return fail(`git: ${(error as Error).message}`);
    }
    if (result.code !== 0 && !allowFail) fail(`git ${args[0]} failed: ${gitMessage(result.stderr || result.stdout)}`);
    return result;
  };
  const where = await git(['rev-parse', '--show-toplevel', '--show-prefix', '--absolute-git-dir'], true);
  if (where.code !== 0) fail(`git: ${folder} is not inside a git work tree (${gitMessage(where.stderr)})`);
  const [top = '', prefix = '', gitDir = ''] = where.stdout.split('\n');
  const head = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], true);
  if (head.code !== 0) fail('git: HEAD is detached; check out the collaboration branch first');
  const branch = head.stdout.trim();
  if (settings.branch !== undefined && settings.branch !== branch) fail(`git: the folder is on branch '${branch}', but the config says '${settings.branch}'`);
  const remotes = (await git(['remote'])).stdout.split('\n').filter(Boolean);
  if (!remotes.includes(settings.remote)) fail(`git: no remote '${settings.remote}' in this repository (remotes: ${remotes.join(', ') || 'none'})`);
  return { ctx, settings, folder, top, prefix, gitDir, branch, remoteRef: `refs/remotes/${settings.remote}/${branch}`, git };
}

/** git's own message, trimmed to its meaningful lines (an authentication failure is passed on as git says it). */
export function gitMessage(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('hint:'));
  return lines.join('; ') || 'no message';
}

/** `git fetch` the branch; the remote's branch may not exist yet (a first push). */
export async function fetch(repo: Repo): Promise<void> {
  const { remote } = repo.settings;
  const result = await repo.git(['fetch', '--quiet', '--no-tags', remote, `+refs/heads/${repo.branch}:${repo.remoteRef}`], true);
  if (result.code === 0) return;
  const message = gitMessage(result.stderr);
  if (/couldn't find remote ref/i.test(message)) return;
  // Transient (the network, the remote's host): a waiter retries it.
  throw new repo.ctx.api.AcpError(`git fetch from '${remote}' failed: ${message}`, 2, 'git_unreachable');
}

/** Commits on one side only: local (unpushed) and remote (not yet merged). */
export async function divergence(repo: Repo): Promise<{ ahead: { hash: string; subject: string }[]; behind: number; remoteExists: boolean }> {
  const exists = (await repo.git(['rev-parse', '--verify', '--quiet', repo.remoteRef], true)).code === 0;
  if (!exists) return { ahead: [], behind: 0, remoteExists: false };
  const log = await repo.git(['log', '--format=%H %s', `${repo.remoteRef}..HEAD`]);
  const ahead = log.stdout.split('\n').filter(Boolean).map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
  const behind = Number((await repo.git(['rev-list', '--count', `HEAD..${repo.remoteRef}`])).stdout.trim());
  return { ahead, behind, remoteExists: true };
}

/**
 * Fetch and fast-forward the branch. Unpushed commits that are not acp
 * events, or a local branch that diverged from the remote, are an error that
 * changes nothing. Returns whether HEAD moved and the unpushed acp commits.
 */
export async function syncToRemote(repo: Repo): Promise<{ moved: boolean; unpushed: number }> {
  await fetch(repo);
  const { ahead, behind, remoteExists } = await divergence(repo);
  const foreign = ahead.filter((c) => !ACP_SUBJECT_RE.test(c.subject));
  // Nothing a retry fixes: a person decides what to do with these commits.
  const fail = (message: string): never => {
    throw new repo.ctx.api.AcpError(message, 2, 'git_diverged');
  };
  if (foreign.length) {
    const list = foreign.map((c) => `${c.hash.slice(0, 8)} ${c.subject}`).join(', ');
    // acp never merges or rebases: what to do with someone's own commits is theirs to decide.
    if (behind) fail(`git: the local branch '${repo.branch}' has diverged from ${repo.settings.remote}/${repo.branch}: ${foreign.length} unpushed commit(s) that are not acp events (${list}) and ${behind} remote commit(s); merge or rebase them yourself, then run the command again`);
    fail(`git: the local branch '${repo.branch}' has ${foreign.length} unpushed commit(s) that are not acp events (${list}); push or remove them first`);
  }
  if (ahead.length && behind) {
    fail(`git: the local branch '${repo.branch}' has diverged from ${repo.settings.remote}: ${ahead.length} unpushed acp event commit(s) and ${behind} remote commit(s); run acp doctor --git`);
  }
  if (!remoteExists || !behind) return { moved: false, unpushed: ahead.length };
  const merge = await repo.git(['merge', '--ff-only', '--quiet', repo.remoteRef], true);
  if (merge.code !== 0) fail(`git: cannot fast-forward to ${repo.settings.remote}/${repo.branch}: ${gitMessage(merge.stderr || merge.stdout)}`);
  return { moved: true, unpushed: 0 };
}

/** Paths (relative to the work tree's top) changed, staged or untracked in the folder, without acp's local files. */
export async function folderChanges(repo: Repo): Promise<string[]> {
  const status = await repo.git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.']);
  const paths: string[] = [];
  const fields = status.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    paths.push(field.slice(3));
    // A rename or copy is followed by its source path.
    if (field[0] === 'R' || field[0] === 'C') paths.push(fields[++i]!);
  }
  // A lock's waiting-line tickets (.acp.lock.wait.N) are local like the lock.
  return paths.filter((p) => !LOCAL_FILES.has(p.slice(p.lastIndexOf('/') + 1)) && !p.slice(p.lastIndexOf('/') + 1).startsWith('.acp.lock.wait.'));
}

/** Push the branch; `rejected` when another clone pushed first (any other failure is an error naming git's message). */
export async function push(repo: Repo): Promise<'ok' | 'rejected'> {
  const result = await repo.git(['push', '--quiet', '--porcelain', repo.settings.remote, `HEAD:refs/heads/${repo.branch}`], true);
  if (result.code === 0) return 'ok';
  const text = `${result.stdout}\n${result.stderr}`;
  if (/\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(cannot lock ref|failed to update ref)|incorrect old value/i.test(text)) return 'rejected';
  throw new repo.ctx.api.AcpError(`git push to '${repo.settings.remote}' failed (nothing was appended): ${gitMessage(result.stderr || result.stdout)}`);
}

/** Back-off ceiling and first step (ms) between attempts on a contended push. */
const BACKOFF_CAP_MS = 1000;
const BACKOFF_BASE_MS = 50;

/**
 * Wait before attempt `attempt + 1` after a rejected push: "full jitter"
 * exponential back-off, uniform in [0, min(cap, base·2^attempt)]. It
 * spreads clones that contend at the same rank of the ordering hint (see
 * plugins/git/order.ts), such as one participant appending from two clones.
 */
export function backOff(api: GitEnv['api'], attempt: number): Promise<void> {
  return api.sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
}

/** How long a contended transaction keeps retrying, whatever `attempts` says: the bound on an append's time. */
export const RETRY_BUDGET_MS = 120_000;
