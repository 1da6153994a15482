/**
 * The git store: a collaboration folder committed in a git repository and
 * driven from many clones. Every write of the one transaction (an append
 * from any door, a freeze, a document written through a server) is an
 * optimistic git transaction built outside the user's work: fetch the
 * branch, bring the folder (only the folder) to the remote commit, run the
 * body (every check, under the folder lock), build the commit in a
 * temporary index from the remote commit plus what the body wrote and the
 * documents its event speaks for, and push that commit by hash. Nothing
 * outside the folder is read, staged, reset or checked out; the user's own
 * commits and edits are left alone. A rejected push (another clone pushed
 * first) puts the body's writes back and runs it again against the new
 * log; a push that failed without a verdict is settled by asking the remote
 * whether it has the commit. Never a force-push. Waiters follow the remote:
 * a cheap `ls-remote` of one ref per round, a fetch only when it moved.
 * @module
 */
import { relative as relativePath } from 'node:path';
import type { AcpError, FollowOptions, Store, StoreSession, WriteIntent } from '../../runtime/types.ts';
import type { GitEnv, GitSettings } from './config.ts';
import { bringFolderTo, folderBase, folderDiff, recordSynced, settleOn, top, withTempIndex, worktreeState, writeFromCommit } from './folder.ts';
import { ACP_SUBJECT_RE, backOff, commitIdentity, fetch, gitMessage, isAncestor, lsRemote, openRepo, push, readRefs, type Refs, type Repo, RETRY_BUDGET_MS } from './repo.ts';
import { recordSlot, Turn } from './order.ts';
import { checkCheckout } from './checkout.ts';

/** The git store for `settings` (one per provider: its remote polls are shared by every folder it follows). */
export function gitStore(env: GitEnv, settings: GitSettings, polls: RemotePolls): Store {
  return {
    name: 'git',
    async transact(folder, intent, body, options = {}) {
      const repo = await openRepo(env, settings, folder);
      const named = new Set(intent.documents.map((path) => topRelative(repo, path)));
      const underLock: UnderLock = (fn) => env.api.withFolderLock(env.host, folder, fn, { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs, signal: options.lockSignal });
      const note = options.onNote ?? (() => undefined);
      // One git transaction at a time per clone: the refs acp keeps are the clone's.
      return env.api.withFolderLock(env.host, repo.gitDir, () => transaction(repo, intent, named, body, underLock, note), { timeoutMs: 300_000 });
    },
    async create(folder, _intent, body, options = {}) {
      const { createFolder } = await import('./init.ts');
      return createFolder(env, settings, folder, body, options);
    },
    async follow(folder, options) {
      const repo = await openRepo(env, settings, folder);
      return polls.follow(repo, options);
    },
  };
}

type UnderLock = <T>(fn: (lock: StoreSession['lock']) => Promise<T>) => Promise<T>;

/** A path relative to the work tree's top (a deliverable outside the folder, in external mode, too). */
function topRelative(repo: Repo, absolute: string): string {
  if (absolute.startsWith(`${repo.folder}/`)) return repo.prefix + absolute.slice(repo.folder.length + 1);
  return relativePath(repo.top, absolute);
}

const where = (repo: Repo): string => `${repo.settings.remote}/${repo.branch}`;

/** What one attempt came to. */
type Attempt<T> = { kind: 'landed'; value: T } | { kind: 'rejected' };

async function transaction<T>(repo: Repo, intent: WriteIntent, named: Set<string>, body: (s: StoreSession) => Promise<T>, underLock: UnderLock, note: (line: string) => void): Promise<T> {
  const { ctx, settings } = repo;
  const begun = Date.now();
  const turn = new Turn(repo, intent.participant);
  let lost = 0;
  let seen: string | undefined;
  try {
    for (let attempt = 1; ; attempt++) {
      // The line of waiting writers (order.ts): at once when nobody waits.
      await turn.wait(attempt > 1);
      const started = Date.now();
      const refs = await fetchForWrite(repo, underLock, note);
      // A rejection with the remote unmoved was a lock collision on the remote, not a lost race: it does not count.
      if (attempt > 1 && refs.remote !== seen) lost++;
      if (refs.remote !== seen) [seen, turn.movedAt] = [refs.remote, Date.now()];
      if (lost >= settings.attempts || Date.now() - turn.movedAt > RETRY_BUDGET_MS || Date.now() - begun > MAX_APPEND_MS) {
        const seconds = Math.round((Date.now() - begun) / 1000);
        throw new ctx.api.AcpError(
          `git: the push was rejected ${attempt - 1} times in ${seconds} s (other clones kept pushing first; see "Scaling" in docs/git.md for the tested ceiling); nothing was appended, your document edits are kept; try again`,
          2,
          'git_contended',
        );
      }
      const outcome: Attempt<T> = await underLock((lock) => attemptOnce(repo, refs, intent, named, (session) => body({ ...session, lock }), attempt, note));
      await recordSlot(repo, Date.now() - started);
      if (outcome.kind === 'landed') return outcome.value;
      await backOff(ctx.api, Math.min(attempt, lost + 1));
    }
  } finally {
    await turn.leave();
  }
}

/** The longest a contended append keeps trying while the line moves. */
const MAX_APPEND_MS = 600_000;

/** Fetch, for a write: the refs, a pending push settled first; a missing branch is refused. */
async function fetchForWrite(repo: Repo, underLock: UnderLock, note: (line: string) => void): Promise<Refs & { remote: string }> {
  await fetch(repo);
  let refs = await readRefs(repo);
  if (refs.pending) {
    await underLock(() => settlePending(repo, note, refs));
    refs = await readRefs(repo);
  }
  const { remote } = refs;
  if (!remote) throw new repo.ctx.api.AcpError(`git: ${where(repo)} does not exist yet (run acp init --git, or push the branch, first)`);
  return { ...refs, remote };
}

/**
 * One optimistic attempt, under the folder lock: the folder brought to
 * the remote, the body, the commit, the push. The folder is left as the
 * remote has it plus the clone's edits whatever happens, except when the
 * push's outcome cannot be told (then the event stays, recorded as pending).
 */
async function attemptOnce<T>(repo: Repo, refs: Refs & { remote: string }, intent: WriteIntent, named: Set<string>, body: (s: Omit<StoreSession, 'lock'>) => Promise<T>, attempt: number, note: (line: string) => void): Promise<Attempt<T>> {
  const { remote } = refs;
  const state = await syncFolder(repo, refs, named);
  const saved = await saveFiles(repo, state.edits);
  const session = { synced: true, written: new Set<string>(), done: [] as string[], attempt };
  const undo = (): Promise<void> => restore(repo, remote, saved, session.written);
  let value: T;
  let built: Awaited<ReturnType<typeof buildCommit>>;
  try {
    value = await body(session);
    built = await buildCommit(repo, remote, session, [...state.edits, ...outsideFolder(repo, named)], intent, note);
  } catch (error) {
    // Refused (a refusal writes nothing) or the commit could not be made: nothing stays.
    await undo();
    throw error;
  }
  if (!built) return { kind: 'landed', value };
  const { commit, paths } = built;
  await repo.git(['update-ref', repo.pendingRef, commit]);
  // The user's pre-push hook judges the append once, on its first push; a retry after a lost race carries the same event.
  const pushed = await pushSettled(repo, commit, attempt === 1);
  if (pushed === 'ok') {
    const inFolder = paths.filter((p) => p.startsWith(repo.prefix));
    await settleOn(repo, commit, inFolder, state.head, inFolder.length === paths.length ? remote : undefined, [`delete ${repo.pendingRef}`]);
    return { kind: 'landed', value };
  }
  await undo();
  await repo.git(['update-ref', '-d', repo.pendingRef]);
  if (pushed === 'rejected') return { kind: 'rejected' };
  throw new repo.ctx.api.AcpError(`git push to '${repo.settings.remote}' failed (nothing was appended): ${pushed.failed}`, 2, 'git_push_failed');
}

/**
 * Bring the folder to the remote commit, keeping the clone's edits; refuses
 * log lines that are on no remote, changes the write does not name and a
 * remote that was rewritten under the folder. Returns the folder's state,
 * whether files changed, and where HEAD's branch is now.
 */
async function syncFolder(repo: Repo, refs: Refs & { remote: string }, named?: Set<string>): Promise<{ tree: string; edits: string[]; moved: boolean; head: string | undefined }> {
  const { remote } = refs;
  if (refs.synced && refs.synced !== remote) await checkNotRewritten(repo, refs.synced, remote);
  await checkCheckout(repo, refs);
  const base = folderBase(repo, refs);
  const state = await worktreeState(repo, base);
  // A file that already is as the remote has it (a sync or a git pull cut short) is no edit.
  const differs = state.edits.length && base !== remote ? new Set((await folderDiff(repo, state.tree, remote)).map((d) => d.path)) : new Set(state.edits);
  const edits = state.edits.filter((p) => differs.has(p));
  await checkEdits(repo, edits, named);
  let moved = false;
  if (base !== remote) moved = await bringFolderTo(repo, base, remote, { tree: state.tree, edits });
  let head = refs.head;
  if (base !== remote || !refs.synced || (head !== undefined && head !== remote)) {
    head = await recordSynced(repo, remote, head, base === head && refs.synced === base ? base : undefined);
  }
  return { tree: state.tree, edits, moved, head };
}

/** The files an append writes, changed with no push pending: an append cut short before its push, or one made without git. */
export const logFiles = (repo: Repo): string[] => [`${repo.prefix}events.jsonl`, `${repo.prefix}protocol.json`];

async function checkEdits(repo: Repo, edits: string[], named: Set<string> | undefined): Promise<void> {
  const log = logFiles(repo).filter((p) => edits.includes(p));
  if (log.length) {
    const cause = (await tornTail(repo)) ? 'events.jsonl ends in a torn line: a writer was interrupted in the middle of an append' : 'an append cut short before its push, or one made without --git';
    throw new repo.ctx.api.AcpError(
      `git: ${log.join(' and ')} ${log.length > 1 ? 'hold' : 'holds'} changes that are on no remote and no push is pending (${cause}); nothing was done: acp doctor --git --folder ${repo.folder} shows them, and --fix puts the folder back as ${where(repo)} has it (keeping a copy in .git/acp-backup/)`,
      2,
      'git_unpublished',
    );
  }
  const stray = named ? edits.filter((p) => !named.has(p)) : [];
  if (stray.length) throw new repo.ctx.api.AcpError(`git: the folder has changes this event does not name: ${stray.join(', ')} (commit, stash or discard them first)`);
}

/** Whether the folder's events.jsonl ends in a line without its newline: a writer interrupted mid-append. */
export async function tornTail(repo: Repo): Promise<boolean> {
  const bytes = await repo.ctx.host.fs.readFile(`${repo.folder}/events.jsonl`).catch(() => undefined);
  return bytes !== undefined && bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
}

/** A remote whose history no longer holds the folder's synced commit was force-pushed: reported, never silently undone or re-pushed. */
async function checkNotRewritten(repo: Repo, synced: string, remote: string): Promise<void> {
  if (await isAncestor(repo, synced, remote)) return;
  const gone = (await repo.git(['log', '--format=%s', synced, '--not', remote, '--'])).stdout.split('\n').filter(Boolean);
  const events = gone.filter((s) => ACP_SUBJECT_RE.test(s)).map((s) => s.slice(5));
  throw new repo.ctx.api.AcpError(
    `git: ${where(repo)} was rewritten (force-pushed): it no longer has ${gone.length} commit(s) this folder had${events.length ? `, with the events ${events.join(', ')}` : ''}; acp neither re-pushes nor drops them (run acp doctor --git --folder ${repo.folder})`,
    2,
    'git_rewritten',
  );
}

/** Named documents outside the folder (an external deliverable): published with the event when they exist. */
function outsideFolder(repo: Repo, named: Set<string>): string[] {
  return [...named].filter((p) => repo.prefix !== '' && !p.startsWith(repo.prefix) && !p.startsWith('../'));
}

/** The commit of this write: the remote's tree plus what the body wrote and the named documents changed (undefined: nothing written), and those paths. */
async function buildCommit(repo: Repo, remote: string, session: Omit<StoreSession, 'lock'>, edits: string[], intent: WriteIntent, note: (line: string) => void): Promise<{ commit: string; paths: string[] } | undefined> {
  const paths = [...new Set([...[...session.written].map((p) => topRelative(repo, p)), ...edits])];
  const present: string[] = [];
  for (const p of paths) if (p.startsWith(repo.prefix) || (await repo.ctx.host.fs.stat(`${repo.top}/${p}`))) present.push(p);
  if (!session.written.size || !present.length) return undefined;
  const tree = await withTempIndex(repo, async (git) => {
    await git(['read-tree', remote]);
    await git(['add', '-A', '--', ...present.map(top)]);
    return (await git(['write-tree'])).stdout.trim();
  });
  const what = session.done.length ? session.done.join(', ') : `${intent.kind} by ${intent.participant}`;
  const identity = await commitIdentity(repo, intent.participant);
  const args = ['commit-tree', tree, '-p', remote, '-m', `acp: ${what}`];
  // Signed as the user's commit.gpgsign says (commit-tree itself ignores it); acp runs no commit hooks (it never runs git commit).
  const sign = (await repo.git(['config', '--type=bool', '--get', 'commit.gpgsign'], { allowFail: true })).stdout.trim() === 'true';
  let made = await repo.git(sign ? [...args, '-S'] : args, { env: identity, allowFail: true });
  if (made.code !== 0 && sign) {
    // A sandbox without the user's key or agent: an unsigned commit, said, rather than no append.
    const why = gitMessage(made.stderr);
    made = await repo.git(args, { env: identity, allowFail: true });
    if (made.code === 0) note(`git: acp: ${what} was committed unsigned: commit.gpgsign is set, but signing failed (${why})`);
  }
  if (made.code !== 0) throw new repo.ctx.api.AcpError(`git: cannot make the commit (nothing was appended): ${made.stderr.trim().split('\n').at(-1)}`);
  return { commit: made.stdout.trim(), paths: present };
}

/**
 * Push, and settle a failure without a verdict: fetch and look for the
 * commit by its hash on the remote. `failed` when it is certainly not there;
 * an error (the commit kept as pending) when even that cannot be told.
 */
async function pushSettled(repo: Repo, commit: string, runHooks: boolean): Promise<'ok' | 'rejected' | { failed: string }> {
  try {
    return await push(repo, commit, runHooks);
  } catch (error) {
    if ((error as AcpError).code === 'git_push_refused') return { failed: (error as Error).message };
    if ((error as AcpError).code !== 'git_push_failed') throw error;
    const message = (error as Error).message;
    let landed: boolean;
    try {
      await fetch(repo);
      const { remote } = await readRefs(repo);
      landed = remote !== undefined && (await isAncestor(repo, commit, remote));
    } catch (checkError) {
      const subject = (await repo.git(['log', '-1', '--format=%s', commit])).stdout.trim().slice(5);
      throw new repo.ctx.api.AcpError(
        `git push to '${repo.settings.remote}' failed (${message}), and asking whether it landed failed too (${(checkError as Error).message}): ${subject} may or may not be on ${where(repo)}. Do not append it again: once the remote answers, acp doctor --git --folder ${repo.folder} tells, and the next append or --fix settles it`,
        2,
        'git_undecided',
      );
    }
    return landed ? 'ok' : { failed: message };
  }
}

/** The named documents' current contents (null: deleted), to put back after the body's writes are undone. */
async function saveFiles(repo: Repo, paths: string[]): Promise<Map<string, Uint8Array | null>> {
  const saved = new Map<string, Uint8Array | null>();
  for (const path of paths) saved.set(path, await repo.ctx.host.fs.readFile(`${repo.top}/${path}`).catch(() => null));
  return saved;
}

/** Undo the body's writes: the folder as `remote` has it, the clone's saved edits put back. */
async function restore(repo: Repo, remote: string, saved: Map<string, Uint8Array | null>, written: Set<string>): Promise<void> {
  const { fs } = repo.ctx.host;
  const fromRemote: string[] = [];
  for (const absolute of written) {
    const path = topRelative(repo, absolute);
    if (saved.has(path)) continue;
    const inRemote = (await repo.git(['cat-file', '-e', `${remote}:${path}`], { allowFail: true })).code === 0;
    if (inRemote && path.startsWith(repo.prefix)) fromRemote.push(path);
    else if (!inRemote) await fs.remove(absolute).catch(() => undefined);
  }
  await writeFromCommit(repo, remote, fromRemote);
  for (const [path, bytes] of saved) {
    if (bytes === null) await fs.remove(`${repo.top}/${path}`).catch(() => undefined);
    else await fs.writeFile(`${repo.top}/${path}`, bytes);
  }
}

/**
 * A commit left pending by a run that was interrupted between building it
 * and hearing the push's answer (killed, or the network failed twice):
 * asked of the remote by hash. On the remote, it landed: the folder, which
 * holds its files, stands on it. Not there: it never was appended, and its
 * log lines are taken back out of the folder (the clone's document edits
 * stay). Either way it is said in `note`, and it is never pushed later: a
 * retry of the same command would append the event twice.
 */
export async function settlePending(repo: Repo, note: (line: string) => void, known?: Refs): Promise<void> {
  const refs = known ?? (await readRefs(repo));
  const { pending, pendingRef, remote } = refs;
  if (!pending || !pendingRef) return;
  const subject = (await repo.git(['log', '-1', '--format=%s', pending])).stdout.trim().slice(5);
  const parent = (await repo.git(['rev-parse', `${pending}^`])).stdout.trim();
  if (remote && (await isAncestor(repo, pending, remote))) {
    if (refs.synced === parent || refs.head === parent) {
      // The folder holds the commit's files: it (and HEAD with it, when HEAD holds the folder) stands on the commit now.
      await checkCheckout(repo, { ...refs, remote });
      await settleOn(repo, pending, (await folderDiff(repo, parent, pending)).map((d) => d.path), refs.head, parent);
    }
    note(`git: ${subject}, whose push an earlier run could not confirm, is on ${where(repo)}: it was appended`);
  } else {
    await writeFromCommit(repo, parent, logFiles(repo));
    note(`git: ${subject}, from a run that was interrupted before its push was confirmed, is not on ${where(repo)}: it was not appended (append it again if it is still meant)`);
  }
  await repo.git(['update-ref', '-d', pendingRef]);
}

/** How long after the remote last moved the poll stays at its first interval. */
const BRISK_MS = 30_000;

/** One folder followed in a polled repository. */
interface FolderWatch {
  repo: Repo;
  followers: Set<FollowOptions>;
  /** Bring it to the remote-tracking commit in the next round even if the remote did not move (a failed round, a first sync that failed). */
  due: boolean;
}

/** One repository (and branch) polled for the folders followed in it. */
interface RepoPoll {
  key: string;
  folders: Map<string, FolderWatch>;
  intervalSeconds: number;
  /** When the remote last moved (this process's clock): the poll stays at the first interval for {@link BRISK_MS} after it. */
  movedAt: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** The remote's commit as last seen (by ls-remote or fetch). */
  seen: string | undefined;
  /** The last failure reported (reported again only when it changes). */
  failure: string | undefined;
}

/**
 * The remote polls of the folders being followed (a waiter's, a server's),
 * one per repository and branch: each round asks the remote for its one
 * ref (`git ls-remote`, no objects) and fetches only when it moved, then
 * brings each followed folder to it. The interval starts at the configured
 * one, grows while nothing arrives and falls back when something does. A
 * transient failure (the network) is noted and retried with back-off, the
 * first sync included; one no retry can fix (an edit that conflicts with
 * the remote, a rewritten remote) ends each follower's wait.
 */
export class RemotePolls {
  readonly #polls = new Map<string, RepoPoll>();

  /** Follow `repo`'s folder for one waiter: brought up to date now (or noted and retried), then polled; returns the function that stops. */
  async follow(repo: Repo, options: FollowOptions): Promise<() => void> {
    const key = `${repo.gitDir}\0${repo.settings.remote}\0${repo.branch}`;
    let poll = this.#polls.get(key);
    const fresh = !poll;
    poll ??= { key, folders: new Map(), intervalSeconds: repo.settings.intervalSeconds, movedAt: Date.now(), timer: undefined, seen: undefined, failure: undefined };
    let watch = poll.folders.get(repo.folder);
    if (!watch) poll.folders.set(repo.folder, (watch = { repo, followers: new Set(), due: true }));
    watch.followers.add(options);
    if (fresh) this.#polls.set(key, poll);
    try {
      await this.#bringUp(poll, watch, true);
    } catch (error) {
      if (isPermanent(error)) {
        this.#stop(poll, watch, options);
        throw error;
      }
      this.#failed(poll, error as Error);
    }
    if (fresh) this.#schedule(poll);
    return () => this.#stop(poll, watch, options);
  }

  #stop(poll: RepoPoll, watch: FolderWatch, options: FollowOptions): void {
    watch.followers.delete(options);
    if (!watch.followers.size) poll.folders.delete(watch.repo.folder);
    if (poll.folders.size) return;
    clearTimeout(poll.timer);
    if (this.#polls.get(poll.key) === poll) this.#polls.delete(poll.key);
  }

  #schedule(poll: RepoPoll): void {
    if (this.#polls.get(poll.key) !== poll) return;
    poll.timer = setTimeout(() => void this.#round(poll), poll.intervalSeconds * 1000);
    // A poll alone does not keep a process alive: its followers' waits do.
    (poll.timer as { unref?: () => void }).unref?.();
  }

  /** Fetch (when `fetchNow`) and bring `watch`'s folder to the remote-tracking commit; tells its followers when files changed. */
  async #bringUp(poll: RepoPoll, watch: FolderWatch, fetchNow: boolean): Promise<void> {
    const { repo } = watch;
    const { api, host } = repo.ctx;
    const notes = (line: string): void => void [...watch.followers].forEach((f) => f.note?.(line));
    const moved = await api.withFolderLock(host, repo.gitDir, async () => {
      if (fetchNow) await fetch(repo);
      let refs = await readRefs(repo);
      poll.seen = refs.remote;
      return api.withFolderLock(host, repo.folder, async () => {
        if (refs.pending) {
          await settlePending(repo, notes, refs);
          refs = await readRefs(repo);
        }
        const { remote } = refs;
        return remote !== undefined && (await syncFolder(repo, { ...refs, remote })).moved;
      }, { timeoutMs: 60_000 });
    }, { timeoutMs: 300_000 });
    watch.due = false;
    if (moved) for (const f of watch.followers) f.changed();
  }

  async #round(poll: RepoPoll): Promise<void> {
    const first = poll.folders.values().next().value;
    if (!first) return;
    const { settings } = first.repo;
    try {
      const remote = await lsRemote(first.repo);
      const moved = remote !== poll.seen;
      let fetched = false;
      for (const watch of poll.folders.values()) {
        if (!moved && !watch.due) continue;
        await this.#bringUp(poll, watch, moved && !fetched);
        fetched = true;
      }
      if (poll.failure !== undefined) for (const w of poll.folders.values()) for (const f of w.followers) f.note?.(`git: following ${settings.remote}/${first.repo.branch} again`);
      poll.failure = undefined;
      if (moved) poll.movedAt = Date.now();
      // Brisk while the collaboration is active (a reply often follows within seconds), then slower while idle.
      poll.intervalSeconds = Date.now() - poll.movedAt < BRISK_MS ? settings.intervalSeconds : Math.min(settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
    } catch (error) {
      if (isPermanent(error)) {
        // This poll ends: a follower that comes later starts a fresh one (and meets the error itself, or finds it repaired).
        if (this.#polls.get(poll.key) === poll) this.#polls.delete(poll.key);
        for (const w of poll.folders.values()) for (const f of w.followers) f.failed(error as AcpError);
        return;
      }
      this.#failed(poll, error as Error);
    }
    this.#schedule(poll);
  }

  /** A transient failure: noted once (until it changes), every folder brought up next round, the interval grown. */
  #failed(poll: RepoPoll, error: Error): void {
    for (const w of poll.folders.values()) w.due = true;
    const first = poll.folders.values().next().value;
    const offline = (error as AcpError).code === 'git_offline';
    const retrying = offline ? 'waiting offline: local changes are seen meanwhile, the remote once the network is back' : 'retrying; local changes are seen meanwhile';
    // Offline is said once, whichever git command met it first.
    const failure = offline ? 'git_offline' : error.message;
    if (failure !== poll.failure) for (const w of poll.folders.values()) for (const f of w.followers) f.note?.(`${error.message} (${retrying})`);
    poll.failure = failure;
    if (first) poll.intervalSeconds = Math.min(first.repo.settings.maxIntervalSeconds, poll.intervalSeconds * 1.5);
  }
}

/** Failures no retry fixes: an edit that conflicts with the remote, a rewritten remote, log lines on no remote, a checkout acp must not move (a person must decide). Anything else (the network) is transient. */
function isPermanent(error: unknown): boolean {
  const code = (error as AcpError).code;
  return code === 'git_conflict' || code === 'git_rewritten' || code === 'git_unpublished' || code === 'git_checkout' || code === 'git_unappended';
}
