/**
 * Fair turns for racing clones, without reading any other machine's clock:
 * a queue of tickets on the remote. A writer that finds other writers
 * queued, or whose push was rejected, takes a ticket — a ref
 * `refs/acp/queue/<branch>/<participant in hex>.<random>` pushed to the
 * remote, pointing at the branch's commit (no new objects) — and pushes its
 * event only when it is first in line. The line is ordered by the log every
 * clone reads alike: the writer whose participant appended least recently
 * (lowest last seq) goes first, ties by ticket name; so the writer that has
 * just landed is last, and one that lost rounds is first. One `git
 * ls-remote` lists the branch and the queue; a waiting writer polls it, more
 * often the nearer it is to the front. A ticket whose writer died is not
 * waited for: when the line has not moved for a while (this machine's clock
 * measures the while: a duration, never compared with another machine's),
 * its head is deleted and the next goes; a live writer that finds its ticket
 * gone takes a new one and keeps its place (the place is by seq, not by
 * ticket age). Without contention no ticket is taken: the cost is the one
 * ls-remote. A remote that refuses the queue's refs leaves the writers to
 * "full jitter" back-off alone. The line's refs are acp's own: their pushes
 * never run the user's pre-push hook (`--no-verify`).
 * @module
 */
import type { Repo } from './repo.ts';
import { fetch, resolveRef, RETRY_BUDGET_MS } from './repo.ts';

/** The slot before this clone has measured a transaction, and its bounds (ms): how long one writer's turn takes. */
const DEFAULT_SLOT_MS = 1000;
const MIN_SLOT_MS = 100;
const MAX_SLOT_MS = 10_000;
/** A head of the line that has not moved for this long (and six of this clone's turns) is a writer that died. */
const STALE_MS = 30_000;
/** In the `.git` directory: this clone's last transaction time (ms). */
const SLOT_FILE = 'acp-slot';
/**
 * In the `.git` directory: when (ms) and for which remote a ticket's
 * deletion was refused. A clone whose tickets cannot be deleted stays off
 * the line for {@link LINE_OFF_MS}: each ticket it left would otherwise
 * hold its next contended append for the dead-writer wait.
 */
const LINE_OFF_FILE = 'acp-line-off';
const LINE_OFF_MS = 86_400_000;

interface LoggedEvent {
  seq: unknown;
  from: unknown;
}

/** A writer in line: its ticket's ref and participant. */
export interface Ticket {
  ref: string;
  participant: string;
}

/** The line as every clone sees it: tickets first by their participant's last seq in `events` (none yet: first), then by ref. */
export function lineOrder(tickets: readonly Ticket[], events: readonly LoggedEvent[]): Ticket[] {
  const last = new Map<string, number>();
  for (const e of events) if (typeof e.from === 'string' && typeof e.seq === 'number') last.set(e.from, e.seq);
  return [...tickets].sort((a, b) => (last.get(a.participant) ?? 0) - (last.get(b.participant) ?? 0) || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

const hex = (text: string): string => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text: string): string => new TextDecoder().decode(new Uint8Array((text.match(/../g) ?? []).map((h) => parseInt(h, 16))));

/** One writer's place in the line, for one transaction. */
export class Turn {
  readonly #repo: Repo;
  readonly #participant: string;
  readonly #queue: string;
  #ref: string | undefined;
  /** The remote refused the queue's refs: back-off alone. */
  #off = false;
  /** The branch's commit as last seen, and when (this machine's clock) it or the head of the line last changed. */
  #tip: string | undefined;
  #head: string | undefined;
  #since = Date.now();
  /** When the branch last moved, as this writer saw it: progress, for the bound on a contended append. */
  movedAt = Date.now();

  constructor(repo: Repo, participant: string) {
    this.#repo = repo;
    this.#participant = participant;
    this.#queue = `refs/acp/queue/${repo.branch}`;
  }

  /**
   * Wait until this writer may push: at once when nobody is queued and it
   * was not rejected; else when it is first in line. Returns whether it
   * waited (then the caller fetches again).
   */
  async wait(rejected: boolean): Promise<boolean> {
    if (this.#off || (await lineRefused(this.#repo))) return false;
    const slot = await slotMs(this.#repo);
    let waited = false;
    for (;;) {
      const listed = await this.#list();
      // Unreachable: the fetch that follows says so in its own words.
      if (!listed) return waited;
      const { tip, tickets } = listed;
      if (tip !== this.#tip) [this.#tip, this.movedAt, this.#since] = [tip, Date.now(), Date.now()];
      const mine = this.#ref !== undefined && tickets.some((t) => t.ref === this.#ref);
      if (!mine && !rejected && !tickets.length) return waited;
      if (!mine && !(await this.#take(tip))) return waited;
      const line = lineOrder(mine ? tickets : [...tickets, { ref: this.#ref!, participant: this.#participant }], await this.#events(tip));
      const place = line.findIndex((t) => t.ref === this.#ref);
      if (place <= 0) return waited;
      if (line[0]!.ref !== this.#head) [this.#head, this.#since] = [line[0]!.ref, Date.now()];
      // A head that holds the line longer than a few turns is a writer that died: its ticket goes.
      if (Date.now() - this.#since > Math.max(STALE_MS, 6 * slot)) {
        if (!(await this.#deleteTicket(line[0]!.ref))) return this.#leaveLine(waited);
        this.#since = Date.now();
        continue;
      }
      // Bounded: a line that has not moved for the append's retry budget is left (the append then gives up, in its words).
      if (Date.now() - this.movedAt > RETRY_BUDGET_MS) return this.#leaveLine(waited);
      waited = true;
      // The next in line polls briskly (its turn comes when the head lands); those further back, less.
      await this.#repo.ctx.api.sleep(Math.min(2000, 150 + ((place - 1) * slot) / 4) * (0.75 + Math.random() / 2));
    }
  }

  /**
   * Delete a dead writer's ticket; false when the remote refuses to (a
   * ticket it let this clone create but lets nobody here delete, as
   * gitolite's `RW` without `+`): waiting for it would never end.
   */
  async #deleteTicket(ref: string): Promise<boolean> {
    return (await this.#pushDeletion(ref)) !== 'refused';
  }

  /**
   * Push the deletion of `ref`: gone (or never there), collided with another
   * update of the remote's refs, failed without a verdict (the network), or
   * refused by the remote (then this clone stays off the line for a while).
   */
  async #pushDeletion(ref: string): Promise<'gone' | 'collided' | 'failed' | 'refused'> {
    const repo = this.#repo;
    const deleted = await repo.git(['push', '--quiet', '--no-verify', '--porcelain', repo.settings.remote, `:${ref}`], { allowFail: true });
    const text = `${deleted.stdout}\n${deleted.stderr}`;
    if (deleted.code === 0 || /remote ref does not exist/i.test(text)) return 'gone';
    if (/cannot lock ref|failed to update ref|unable to create .*\.lock|incorrect old value/i.test(text)) return 'collided';
    if (!/\[remote rejected\]|\[rejected\]/.test(text)) return 'failed';
    await repo.ctx.host.fs.writeFile(`${repo.gitDir}/${LINE_OFF_FILE}`, `${Date.now()} ${repo.settings.remote}`).catch(() => undefined);
    return 'refused';
  }

  /** Stop using the line for this transaction (its own ticket deleted if it can be): back-off alone from here on. */
  async #leaveLine(waited: boolean): Promise<boolean> {
    await this.leave();
    this.#off = true;
    return waited;
  }

  /** Leave the line (the event landed, or the append gave up). */
  async leave(): Promise<void> {
    if (this.#ref === undefined) return;
    // A ticket left behind would hold the line once its participant's turn comes again: a few tries (the remote's ref locks can collide).
    for (let tries = 1; tries <= 3 && ['collided', 'failed'].includes(await this.#pushDeletion(this.#ref)); tries++) await this.#repo.ctx.api.sleep(50 + Math.random() * 200);
    this.#ref = undefined;
  }

  /** The branch's commit and the queued tickets, in one `git ls-remote`. */
  async #list(): Promise<{ tip: string | undefined; tickets: Ticket[] } | undefined> {
    const repo = this.#repo;
    const branch = `refs/heads/${repo.branch}`;
    const result = await repo.git(['ls-remote', repo.settings.remote, branch, `${this.#queue}/*`], { allowFail: true });
    if (result.code !== 0) return undefined;
    let tip: string | undefined;
    const tickets: Ticket[] = [];
    for (const line of result.stdout.split('\n')) {
      const [hash, ref] = line.split('\t');
      if (!hash || !ref) continue;
      if (ref === branch) tip = hash;
      else if (ref.startsWith(`${this.#queue}/`)) tickets.push({ ref, participant: unhex(ref.slice(this.#queue.length + 1).split('.')[0]!) });
    }
    return { tip, tickets };
  }

  /** Take a ticket (a ref at the branch's commit); false when the remote refuses the queue's refs. */
  async #take(tip: string | undefined): Promise<boolean> {
    const repo = this.#repo;
    // Any commit the remote has will do, and the push must not send objects: the last one this clone fetched.
    const at = (await resolveRef(repo, repo.remoteRef)) ?? tip;
    if (!at) return false;
    this.#ref = `${this.#queue}/${hex(this.#participant)}.${Math.random().toString(36).slice(2, 10)}`;
    // Ref updates on one remote can collide on its locks (tried again); a refusal (a hook, a host that keeps refs/ to itself) turns the line off.
    for (let tries = 1; tries <= 5; tries++) {
      const pushed = await repo.git(['push', '--quiet', '--no-verify', '--porcelain', repo.settings.remote, `${at}:${this.#ref}`], { allowFail: true });
      if (pushed.code === 0) return true;
      if (!/cannot lock ref|failed to update ref|unable to create .*\.lock|incorrect old value/i.test(`${pushed.stdout}\n${pushed.stderr}`)) break;
      await repo.ctx.api.sleep(50 + Math.random() * 200);
    }
    this.#off = true;
    this.#ref = undefined;
    return false;
  }

  /** The log at the branch's commit (fetched when this clone does not have it yet). */
  async #events(tip: string | undefined): Promise<LoggedEvent[]> {
    const repo = this.#repo;
    if (!tip) return [];
    let shown = await repo.git(['cat-file', 'blob', `${tip}:${repo.prefix}events.jsonl`], { allowFail: true });
    if (shown.code !== 0) {
      await fetch(repo);
      shown = await repo.git(['cat-file', 'blob', `${tip}:${repo.prefix}events.jsonl`], { allowFail: true });
    }
    // An unreadable log is the append's to report, word for word: the line just uses what it can read.
    return shown.code === 0 ? (repo.ctx.api.parseEventLog(shown.stdout).events as unknown as LoggedEvent[]) : [];
  }
}

/** Whether this clone saw the remote refuse a ticket's deletion within {@link LINE_OFF_MS}. */
async function lineRefused(repo: Repo): Promise<boolean> {
  const text = await repo.ctx.host.fs.readFile(`${repo.gitDir}/${LINE_OFF_FILE}`).then((b) => new TextDecoder().decode(b), () => '');
  const [since, remote] = text.split(' ');
  return remote === repo.settings.remote && Date.now() - Number(since) < LINE_OFF_MS;
}

async function slotMs(repo: Repo): Promise<number> {
  const value = await repo.ctx.host.fs.readFile(`${repo.gitDir}/${SLOT_FILE}`).then((b) => Number(new TextDecoder().decode(b)), () => NaN);
  return Number.isFinite(value) ? Math.min(MAX_SLOT_MS, Math.max(MIN_SLOT_MS, value)) : DEFAULT_SLOT_MS;
}

/** Remember how long a transaction (fetch to push) took in this clone: the next slot. */
export async function recordSlot(repo: Repo, ms: number): Promise<void> {
  await repo.ctx.host.fs.writeFile(`${repo.gitDir}/${SLOT_FILE}`, String(Math.round(ms))).catch(() => undefined);
}
