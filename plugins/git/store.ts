/**
 * The git store: a collaboration folder committed in a git repository and
 * driven from many clones. Every write of the one transaction (an append
 * from any door, a freeze, a document written through a server) is an
 * optimistic git transaction: fetch and fast-forward, run the body (every
 * check, under the folder lock), commit exactly what it wrote and the
 * documents its event speaks for, push. A rejected push (another clone
 * pushed first) drops the unpushed commit, keeps the document edits, and
 * runs the body again against the new log, so a turn that moved is refused
 * exactly as a local append would refuse it. Never a force-push. Waiters
 * follow the remote: one poll per repository, however many of its folders
 * are watched, growing while nothing arrives.
 * @module
 */
import { relative as relativePath } from 'node:path';
import type { AcpError, FollowOptions, Store, StoreSession, WriteIntent } from '../../acp.ts';
import type { GitSettings } from './config.ts';
import { backOff, folderChanges, type GitEnv, openRepo, push, type Repo, RETRY_BUDGET_MS, syncToRemote } from './repo.ts';
import { recordSlot, waitForTurnInLine } from './order.ts';

/** The git store for `settings` (one per provider: its remote polls are shared by every folder it follows). */
export function gitStore(env: GitEnv, settings: GitSettings, polls: RemotePolls): Store {
  return {
    name: 'git',
    async transact(folder, intent, body, options = {}) {
      const repo = await openRepo(env, settings, folder);
      const named = new Set(intent.documents.map((path) => topRelative(repo, path)));
      // One git transaction at a time per clone: git's index is not shared safely.
      return env.api.withFolderLock(env.host, repo.gitDir, () => transaction(repo, intent, named, (session) => env.api.withFolderLock(env.host, folder, (lock) => body({ ...session, lock }), { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs })), {
        timeoutMs: 300_000,
      });
    },
    async follow(folder, options) {
      const repo = await openRepo(env, settings, folder);
      return polls.follow(repo, options);
    },
  };
}

/** A path relative to the work tree's top (a deliverable outside the folder, in external mode, too). */
function topRelative(repo: Repo, absolute: string): string {
  if (absolute.startsWith(`${repo.folder}/`)) return repo.prefix + absolute.slice(repo.folder.length + 1);
  return relativePath(repo.top, absolute);
}

/** A top-relative pathspec, so git reads it the same whatever the working directory. */
const top = (path: string): string => `:(top,literal)${path}`;

type Body<T> = (session: Omit<StoreSession, 'lock'>) => Promise<T>;

async function transaction<T>(repo: Repo, intent: WriteIntent, named: Set<string>, body: Body<T>): Promise<T> {
  const { ctx, settings } = repo;
  const begun = Date.now();
  let waitedAt: string | undefined;
  for (let attempt = 1; ; ) {
    const started = Date.now();
    const { unpushed } = await syncToRemote(repo);
    // acp commits left unpushed by an interrupted run go out first: they are events others have not seen.
    if (unpushed && (await push(repo)) === 'rejected') continue;
    const base = (await repo.git(['rev-parse', 'HEAD'])).stdout.trim();
    // The ordering hint (order.ts), once per remote state: then fetch again, fresh.
    if (base !== waitedAt && Date.now() - begun < RETRY_BUDGET_MS) {
      waitedAt = base;
      if (await waitForTurnInLine(repo, intent.participant)) continue;
    }
    const changes = await folderChanges(repo);
    const stray = changes.filter((p) => !named.has(p));
    if (stray.length) throw new ctx.api.AcpError(`git: the folder has changes this event does not name: ${stray.join(', ')} (commit, stash or discard them first)`);
    const edits = await saveEdits(repo, changes);
    const session = { synced: true, written: new Set<string>(), done: [] as string[], attempt };
    const value = await body(session).catch(async (error: unknown) => {
      // Refused: the body wrote nothing that stays (a refusal writes nothing; a failed write is undone).
      await undo(repo, base, edits);
      throw error;
    });
    await commit(repo, session, changes, intent);
    const pushed = await push(repo).catch(async (error: unknown) => {
      await undo(repo, base, edits);
      throw error;
    });
    await recordSlot(repo, Date.now() - started);
    if (pushed === 'ok') return value;
    await undo(repo, base, edits);
    if (attempt >= settings.attempts || Date.now() - begun > RETRY_BUDGET_MS) {
      const seconds = Math.round((Date.now() - begun) / 1000);
      throw new ctx.api.AcpError(`git: the push was rejected ${attempt} times in ${seconds} s (other clones kept pushing first); nothing was appended, your document edits are kept; try again`);
    }
    attempt++;
    await backOff(ctx.api, attempt);
  }
}

/** Commit what the body wrote and the changed named documents, named after what it did. */
async function commit(repo: Repo, session: Omit<StoreSession, 'lock'>, changes: string[], intent: WriteIntent): Promise<void> {
  const paths = [...new Set([...[...session.written].map((p) => topRelative(repo, p)), ...changes])];
  if (!paths.length) return;
  const what = session.done.length ? session.done.join(', ') : `${intent.kind} by ${intent.participant}`;
  await repo.git(['add', '-A', '--', ...paths.map(top)]);
  await repo.git(['commit', '--quiet', '--no-verify', '--allow-empty', '-m', `acp: ${what}`, '--', ...paths.map(top)]);
}

/** The named documents' current contents (null: deleted), to restore after dropping an unpushed commit. */
async function saveEdits(repo: Repo, changes: string[]): Promise<Map<string, Uint8Array | null>> {
  const { host } = repo.ctx;
  const edits = new Map<string, Uint8Array | null>();
  for (const path of changes) edits.set(`${repo.top}/${path}`, await host.fs.readFile(`${repo.top}/${path}`).catch(() => null));
  return edits;
}

/** Drop the unpushed commit (back to `base`) and put the document edits back in the working tree. */
async function undo(repo: Repo, base: string, edits: Map<string, Uint8Array | null>): Promise<void> {
  await repo.git(['reset', '--hard', '--quiet', base]);
  for (const [path, bytes] of edits) {
    if (bytes === null) await repo.ctx.host.fs.remove(path).catch(() => undefined);
    else await repo.ctx.host.fs.writeFile(path, bytes);
  }
}

/** One repository polled for the folders followed in it. */
interface RepoPoll {
  repo: Repo;
  followers: Set<FollowOptions>;
  intervalSeconds: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The last failure reported (reported again only when it changes). */
  failure: string | undefined;
}

/**
 * The remote polls of the folders being followed (a waiter's, a server's),
 * one per repository: fetch and fast-forward under the clone's git lock,
 * at the configured interval, growing while nothing arrives and falling
 * back when a fetch brings commits. A transient failure (the network) is
 * noted and retried with back-off; one no retry can fix (a diverged branch,
 * someone's unpushed commits) ends each follower's wait.
 */
export class RemotePolls {
  readonly #polls = new Map<string, RepoPoll>();

  /** Follow `repo` for one waiter: brought up to date now, then polled; returns the function that stops. */
  async follow(repo: Repo, options: FollowOptions): Promise<() => void> {
    const { ctx } = repo;
    await ctx.api.withFolderLock(ctx.host, repo.gitDir, () => syncToRemote(repo), { timeoutMs: 300_000 });
    let poll = this.#polls.get(repo.gitDir);
    if (!poll) {
      poll = { repo, followers: new Set(), intervalSeconds: repo.settings.intervalSeconds, timer: undefined, failure: undefined };
      this.#polls.set(repo.gitDir, poll);
      this.#schedule(poll);
    }
    poll.followers.add(options);
    const owner = poll;
    return () => {
      owner.followers.delete(options);
      if (owner.followers.size) return;
      clearTimeout(owner.timer);
      if (this.#polls.get(owner.repo.gitDir) === owner) this.#polls.delete(owner.repo.gitDir);
    };
  }

  #schedule(poll: RepoPoll): void {
    if (this.#polls.get(poll.repo.gitDir) !== poll) return;
    poll.timer = setTimeout(() => void this.#round(poll), poll.intervalSeconds * 1000);
    // A poll alone does not keep a process alive: its followers' waits do.
    (poll.timer as { unref?: () => void }).unref?.();
  }

  async #round(poll: RepoPoll): Promise<void> {
    const { repo } = poll;
    const { settings } = repo;
    try {
      const { moved } = await repo.ctx.api.withFolderLock(repo.ctx.host, repo.gitDir, () => syncToRemote(repo), { timeoutMs: 300_000 });
      if (poll.failure !== undefined) for (const f of poll.followers) f.note?.(`git: following ${settings.remote}/${repo.branch} again`);
      poll.failure = undefined;
      if (moved) {
        poll.intervalSeconds = settings.intervalSeconds;
        for (const f of poll.followers) f.changed();
      } else poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    } catch (error) {
      const failure = error as AcpError;
      if (isPermanent(failure)) {
        for (const f of poll.followers) f.failed(failure);
        return;
      }
      if (failure.message !== poll.failure) for (const f of poll.followers) f.note?.(`${failure.message} (retrying; local changes are seen meanwhile)`);
      poll.failure = failure.message;
      poll.intervalSeconds = Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    }
    this.#schedule(poll);
  }
}

/** Failures no retry fixes: someone's own commits, a diverged branch (a person must decide). A fetch that failed (the network) is transient. */
function isPermanent(error: AcpError): boolean {
  return error.code === 'git_diverged';
}
