/**
 * The git CLI as the folder's transport: one runner (argv arrays through
 * `runtime.run`, no shell) and the steps shared by the store, init and
 * doctor — locate the repository, check the remote cheaply, fetch, push a
 * commit by hash. Nothing here reads, stages or checks out anything in the
 * user's work tree: that is plugins/git/folder.ts's, and only in the folder.
 * @module
 */
import { resolve } from 'node:path';
import type { GitEnv, GitSettings } from './config.ts';
import { sharedSshArgs } from './ssh.ts';

/** Commit subjects written by this plugin: `acp: seq N event by P`. */
export const ACP_SUBJECT_RE = /^acp: seq \d+ \S+ by .+$/;

/**
 * Files acp keeps next to the log that are local to a clone (never
 * committed, ignored by the change check), as git glob patterns: the lock's
 * waiting-line tickets (`.acp.lock.wait.N`) are local like the lock.
 */
export const LOCAL_FILES = new Set(['.acp.lock', '.acp.lock.break', '.acp.lock.wait.*', '.acp.checkpoint.json']);

/** Options of one git run. */
export interface GitRun {
  /** A non-zero exit is returned, not thrown. */
  allowFail?: boolean;
  /** Extra environment (a temporary index, a fallback identity). */
  env?: Record<string, string>;
  /** Standard input (`update-ref --stdin`). */
  input?: string;
}

/** A git repository holding a collaboration folder. */
export interface Repo {
  ctx: GitEnv;
  settings: GitSettings;
  folder: string;
  /** The folder relative to the top of the work tree (`''` or ending in `/`). */
  prefix: string;
  /** The top of the work tree (absolute). */
  top: string;
  /** The repository's common `.git` directory (absolute), shared by its linked work trees: the clone's git transactions lock there, backups go there. */
  gitDir: string;
  /** This work tree's own git directory (absolute; `gitDir` for the main work tree): where an operation in progress (a rebase, a merge) is recorded. */
  worktreeDir: string;
  /** The branch the collaboration lives on (`git.branch`, else the checked-out one). */
  branch: string;
  /** HEAD is on {@link branch}: the folder's index entries follow the remote, and HEAD fast-forwards when only the folder changed. */
  attached: boolean;
  /** `refs/remotes/{remote}/{branch}`. */
  remoteRef: string;
  /**
   * The remote commit the folder's files in this work tree were last brought to, for this branch:
   * a per-work-tree ref (`refs/worktree/…`), so that no other work tree or branch can move it.
   */
  syncedRef: string;
  /** A commit pushed (or about to be) from this work tree whose landing is not known yet: a run was interrupted or lost the answer. */
  pendingRef: string;
  /** Where doctor --fix keeps history it takes the folder off (a force-pushed remote's old commits): `refs/acp/backup/<folder>`. */
  backupRef: string;
  /** The refs an older acp kept for the folder, shared by every work tree and branch: read (main work tree only) until the new ones exist. */
  legacyRefs: { synced: string; pending: string } | undefined;
  /**
   * What HEAD is, as the last sync found it (`decided`: a sync looked): whether its commit holds the folder (then HEAD, the index's folder
   * entries and the files move together), its branch ref (undefined: detached), and the folder's paths a sparse
   * checkout leaves out of the work tree (skip-worktree: never written, never taken for deleted).
   */
  checkout: { decided: boolean; tracks: boolean; headRef: string | undefined; skipped: Set<string> };
  /**
   * Files taken from a commit are put in place by rename through `ctx.host`
   * (the store's, which may write the folder's own files: see
   * plugins/git/folder.ts's writeFromCommit). False for doctor's repair,
   * whose host is the guarded one: there git writes them in place, as it
   * always did.
   */
  placeByRename: boolean;
  git(args: string[], options?: GitRun): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** The git commands acp runs that connect to the remote. */
const REMOTE_COMMANDS = new Set(['fetch', 'ls-remote', 'push']);

/** Where git talks: no prompts (an agent cannot answer one), stable English messages. */
const GIT_ENV = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_ASKPASS: '', SSH_ASKPASS: '' };

/** A ref-name part for the folder: its path where git accepts it (`collab`, `docs/acp`), else a stable hash. */
async function folderKey(ctx: GitEnv, prefix: string): Promise<string> {
  const path = prefix.replace(/\/$/, '');
  if (path === '') return '_top';
  if (/^[A-Za-z0-9_][A-Za-z0-9_-]*(\/[A-Za-z0-9_][A-Za-z0-9_-]*)*$/.test(path)) return path;
  return `_${(await ctx.api.sha256Hex(new TextEncoder().encode(path))).slice(0, 16)}`;
}

/**
 * Open the repository holding `folder`; a clear error when it is not one,
 * has no branch to follow, or lacks the remote. `placeByRename`: see
 * {@link Repo.placeByRename} (false where `ctx.host` is the guarded host).
 */
export async function openRepo(ctx: GitEnv, settings: GitSettings, folder: string, placeByRename = true): Promise<Repo> {
  const run = ctx.runtime.run;
  const fail = (message: string): never => {
    throw new ctx.api.AcpError(message);
  };
  if (!run) return fail('git: this runtime cannot run commands (Deno needs --allow-run=git)');
  let sharing: Promise<string[]> | undefined;
  const git: Repo['git'] = async (args, options = {}) => {
    // Only the commands that reach the remote get the connection-sharing ssh command (decided once, by local reads).
    const shared = REMOTE_COMMANDS.has(args[0]!) ? await (sharing ??= sharedSshArgs(ctx, settings.remote, async (pattern) => (await git(['config', '--get-regexp', pattern], { allowFail: true })).stdout)) : [];
    let result;
    try {
      result = await run(['git', ...shared, ...args], { cwd: folder, env: { ...GIT_ENV, ...options.env }, timeoutMs: 120_000, ...(options.input === undefined ? {} : { input: options.input }) });
    } catch (error) {
      return fail(`git: ${(error as Error).message}`);
    }
    if (result.code !== 0 && !options.allowFail) fail(`git ${args[0]} failed: ${gitMessage(result.stderr || result.stdout)}`);
    return result;
  };
  // One run for where we are and which branch HEAD is on; a HEAD with no commit yet needs a second.
  const located = ['rev-parse', '--show-toplevel', '--show-prefix', '--absolute-git-dir', '--git-common-dir'];
  let where = await git([...located, '--symbolic-full-name', 'HEAD'], { allowFail: true });
  let symbolic: string | undefined;
  if (where.code === 0) symbolic = where.stdout.split('\n')[4];
  else {
    where = await git(located, { allowFail: true });
    if (where.code !== 0) fail(`git: ${folder} is not inside a git work tree (${gitMessage(where.stderr)})`);
    symbolic = (await git(['symbolic-ref', '--quiet', 'HEAD'], { allowFail: true })).stdout.trim();
  }
  const [top = '', prefix = '', worktreeDir = '', commonDir = ''] = where.stdout.split('\n');
  // --git-common-dir is relative to the working directory unless git prints it absolute (--path-format needs git 2.31).
  const gitDir = resolve(folder, commonDir);
  const headBranch = symbolic?.startsWith('refs/heads/') ? symbolic.slice('refs/heads/'.length) : undefined;
  const branch = settings.branch ?? headBranch ?? fail('git: HEAD is detached; check out the collaboration branch, or name it (git: branch: … in acp.config.yaml)');
  const remotes = (await git(['remote'])).stdout.split('\n').filter(Boolean);
  if (!remotes.includes(settings.remote)) fail(`git: no remote '${settings.remote}' in this repository (remotes: ${remotes.join(', ') || 'none'})`);
  const key = await folderKey(ctx, prefix);
  const legacyRefs = worktreeDir === gitDir ? { synced: `refs/acp/synced/${key}`, pending: `refs/acp/pending/${key}` } : undefined;
  return {
    ctx, settings, folder, top, prefix, gitDir, worktreeDir, branch, attached: headBranch === branch,
    remoteRef: `refs/remotes/${settings.remote}/${branch}`, syncedRef: `refs/worktree/acp/synced/${key}/@${branch}`, pendingRef: `refs/worktree/acp/pending/${key}/@${branch}`,
    backupRef: `refs/acp/backup/${key}`, legacyRefs, checkout: { decided: false, tracks: false, headRef: symbolic?.startsWith('refs/heads/') ? symbolic : undefined, skipped: new Set() }, placeByRename, git,
  };
}

/** git's own message, trimmed to its meaningful lines (an authentication failure is passed on as git says it). */
export function gitMessage(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('hint:'));
  return lines.join('; ') || 'no message';
}

/** A ref's commit, or undefined when it does not exist. */
export async function resolveRef(repo: Repo, ref: string): Promise<string | undefined> {
  const result = await repo.git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { allowFail: true });
  return result.code === 0 ? result.stdout.trim() : undefined;
}

/** Update refs in one transaction (`git update-ref --stdin` lines: `update <ref> <new> [<old>]`, `delete <ref>`); all or none. Returns whether it applied. */
export async function updateRefs(repo: Repo, lines: string[]): Promise<boolean> {
  if (!lines.length) return true;
  const result = await repo.git(['update-ref', '-m', 'acp', '--stdin'], { allowFail: true, input: `${lines.join('\n')}\n` });
  return result.code === 0;
}

/** Whether commit `a` is `b` or one of its ancestors. */
export async function isAncestor(repo: Repo, a: string, b: string): Promise<boolean> {
  return (await repo.git(['merge-base', '--is-ancestor', a, b], { allowFail: true })).code === 0;
}

/** Whether git's message says the remote refused this clone's credentials (HTTP 401/403, SSH's key refused): refused before anything was received. */
export function credentialsRefused(text: string): boolean {
  return /Authentication failed|HTTP 40[13]|returned error: 40[13]|Permission denied \(publickey|Invalid username or password/i.test(text);
}

/** git's message, with what to do when the remote refused the credentials (an expired token or password, a revoked key). */
export function failureMessage(text: string): string {
  const message = gitMessage(text);
  return credentialsRefused(text) ? `${message} (the remote refused this clone's credentials: renew them, then run the command again)` : message;
}

/**
 * git's words for a network it cannot reach at all (no name resolution, no
 * route, connections refused or forbidden by a proxy): what an agent's
 * sandbox that denies the network makes of every remote.
 */
const NO_NETWORK = /Could not resolve host|Could not resolve hostname|Temporary failure in name resolution|Network is unreachable|Couldn't connect to server|Failed to connect to|Connection refused|CONNECT tunnel failed|Operation not permitted/i;

/**
 * An unreachable remote (the network, the remote's host): transient, a waiter
 * retries it; an append fails at once. Without any network (`git_offline`)
 * the likely cause is named: a sandbox's network rule, which no retry changes.
 */
function unreachable(repo: Repo, what: string, stderr: string): Error {
  const failed = `git ${what} '${repo.settings.remote}' failed: ${failureMessage(stderr)}`;
  if (!NO_NETWORK.test(stderr)) return new repo.ctx.api.AcpError(failed, 2, 'git_unreachable');
  const hint = "no network reaches the remote from here: an agent's sandbox denies the network unless told (Codex's workspace-write, srt without the remote's host in network.allowedDomains); allow the remote's host in the sandbox's network rule, or use a remote on a path the sandbox may write";
  return new repo.ctx.api.AcpError(`${failed}; ${hint}`, 2, 'git_offline');
}

/** `git fetch` the branch into its remote-tracking ref (the remote's branch may not exist yet: a first push). A failure is transient. */
export async function fetch(repo: Repo): Promise<void> {
  const result = await repo.git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', repo.settings.remote, `+refs/heads/${repo.branch}:${repo.remoteRef}`], { allowFail: true });
  if (result.code !== 0 && !/couldn't find remote ref/i.test(result.stderr)) throw unreachable(repo, 'fetch from', result.stderr);
  // A branch deleted on the remote: the stale tracking ref must not stand for it.
  if (result.code !== 0) await repo.git(['update-ref', '-d', repo.remoteRef], { allowFail: true });
}

/** The refs a transaction reads: the remote-tracking commit, the folder's synced and pending commits, HEAD. */
export interface Refs {
  remote?: string;
  synced?: string;
  pending?: string;
  /** The ref `pending` was read from (this work tree's, or an older acp's). */
  pendingRef?: string;
  /** HEAD's commit (undefined: a branch with no commit yet). */
  head?: string;
  /** HEAD's branch (`refs/heads/…`); undefined when HEAD is detached. */
  headRef?: string;
}

/** Read {@link Refs}: HEAD from this work tree's git directory (it moves under a running waiter when the user switches branches), the rest in one `git for-each-ref`. */
export async function readRefs(repo: Repo): Promise<Refs> {
  const headFile = await repo.ctx.host.fs.readFile(`${repo.worktreeDir}/HEAD`).then((b) => new TextDecoder().decode(b).trim(), () => '');
  const headRef = headFile.startsWith('ref: ') ? headFile.slice(5) : undefined;
  const legacy = repo.legacyRefs ? [repo.legacyRefs.synced, repo.legacyRefs.pending] : [];
  const names = [repo.remoteRef, repo.syncedRef, repo.pendingRef, ...legacy, ...(headRef ? [headRef] : [])];
  const out = await repo.git(['for-each-ref', '--format=%(refname) %(objectname)', ...names]);
  const found = new Map(out.stdout.split('\n').filter(Boolean).map((line) => [line.slice(0, line.lastIndexOf(' ')), line.slice(line.lastIndexOf(' ') + 1)]));
  const pendingRef = found.has(repo.pendingRef) ? repo.pendingRef : repo.legacyRefs && found.has(repo.legacyRefs.pending) ? repo.legacyRefs.pending : undefined;
  const head = headRef ? found.get(headRef) : /^[0-9a-f]{40,64}$/.test(headFile) ? headFile : undefined;
  return {
    remote: found.get(repo.remoteRef),
    synced: found.get(repo.syncedRef) ?? (repo.legacyRefs && found.get(repo.legacyRefs.synced)),
    pending: pendingRef && found.get(pendingRef),
    pendingRef,
    head,
    headRef,
  };
}

/** The remote's commit for the branch by `git ls-remote` of that one ref, no objects (undefined: no such branch); a failure is transient. */
export async function lsRemote(repo: Repo): Promise<string | undefined> {
  const ref = `refs/heads/${repo.branch}`;
  const result = await repo.git(['ls-remote', repo.settings.remote, ref], { allowFail: true });
  if (result.code !== 0) throw unreachable(repo, 'ls-remote of', result.stderr);
  const line = result.stdout.split('\n').find((l) => l.endsWith(`\t${ref}`));
  return line?.slice(0, line.indexOf('\t'));
}

/**
 * Push `commit` as the branch (never forced). `rejected` when another clone
 * pushed first; any other failure is an AcpError with code
 * `git_push_failed` and git's message: the push may or may not have landed
 * (a dropped connection after the remote accepted it), which the caller
 * settles by fetching. `runHooks` false skips the user's pre-push hook
 * (it already ran for this append).
 */
export async function push(repo: Repo, commit: string, runHooks = true): Promise<'ok' | 'rejected'> {
  const result = await repo.git(['push', '--quiet', '--porcelain', ...(runHooks ? [] : ['--no-verify']), repo.settings.remote, `${commit}:refs/heads/${repo.branch}`], { allowFail: true });
  if (result.code === 0) return 'ok';
  const text = `${result.stdout}\n${result.stderr}`;
  if (/\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(cannot lock ref|failed to update ref)|incorrect old value/i.test(text)) return 'rejected';
  // Refused credentials: the remote took nothing (no need to ask whether it landed).
  if (credentialsRefused(text)) throw new repo.ctx.api.AcpError(failureMessage(result.stderr || result.stdout), 2, 'git_push_refused');
  throw new repo.ctx.api.AcpError(gitMessage(result.stderr || result.stdout), 2, 'git_push_failed');
}

/**
 * The identity for acp's commits: the repository's own (user.name,
 * user.email or GIT_* variables) when git has one, else the participant's
 * (`bob <bob@acp.invalid>`), so that a fresh sandbox without a git identity
 * still records who wrote each event.
 */
export async function commitIdentity(repo: Repo, participant: string): Promise<Record<string, string>> {
  let known = hasIdentity.get(repo);
  if (known === undefined) {
    // git var is as strict as commit: it fails exactly when a commit would ask "who are you" (author and committer come from the same settings).
    const committer = await repo.git(['var', 'GIT_COMMITTER_IDENT'], { allowFail: true });
    hasIdentity.set(repo, (known = committer.code === 0));
  }
  if (known) return {};
  const name = participant.replace(/[<>\n]/g, '') || 'acp';
  const email = `${name.replace(/[^A-Za-z0-9._-]/g, '_')}@acp.invalid`;
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}

/** Whether git has an identity of its own, per opened repository (asked once: a retried transaction does not ask again). */
const hasIdentity = new WeakMap<Repo, boolean>();

/** Back-off ceiling and first step (ms) between attempts on a contended push. */
const BACKOFF_CAP_MS = 2000;
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
