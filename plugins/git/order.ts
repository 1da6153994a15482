/**
 * The ordering hint that keeps racing clones fair, without reading any
 * other machine's clock: the participants that appended least recently (by
 * seq, in the log every clone reads alike) go first. Under contention each
 * clone counts the recently active participants whose last event is older
 * than its own participant's and holds back that many "slots" before its
 * transaction — one slot being how long this clone's own last transaction
 * took. The clone that has just won is then last in line, and one that
 * lost several rounds is first. Without contention (no push of this clone
 * rejected in the last {@link CONTENDED_MS}, by its own clock) nobody
 * waits: a participant appending several events in a row pays nothing.
 * @module
 */
import type { Repo } from './repo.ts';

/** A clone counts as contending this long after one of its pushes was rejected (its own clock: a duration, never compared across machines). */
const CONTENDED_MS = 30_000;
/** The slot before this clone has measured a transaction, and its bounds (ms). */
const DEFAULT_SLOT_MS = 300;
const MIN_SLOT_MS = 20;
const MAX_SLOT_MS = 3000;
/** In the `.git` directory: this clone's last transaction time (ms) and the local time of its last rejected push. */
const SLOT_FILE = 'acp-slot';
const REJECTED_FILE = 'acp-rejected';

interface LoggedEvent {
  seq: unknown;
  from: unknown;
}

/**
 * How many participants go before `me`: those other than `me` whose last
 * event is older than `me`'s and among the last `window` events (active;
 * default three per participant seen). A participant with no event yet is
 * first.
 */
export function rankOf(events: readonly LoggedEvent[], me: string, window?: number): number {
  const last = new Map<string, number>();
  let maxSeq = 0;
  for (const e of events) {
    if (typeof e.from !== 'string' || typeof e.seq !== 'number') continue;
    last.set(e.from, e.seq);
    maxSeq = Math.max(maxSeq, e.seq);
  }
  const mine = last.get(me);
  if (mine === undefined) return 0;
  const oldest = maxSeq - (window ?? 3 * last.size);
  let rank = 0;
  for (const [who, seq] of last) if (who !== me && seq < mine && seq > oldest) rank++;
  return rank;
}

/** Hold back for this clone's rank in the remote's log (no wait without contention or at rank 0). Returns whether it waited. */
export async function waitForTurnInLine(repo: Repo, remote: string, participant: string): Promise<boolean> {
  const { ctx } = repo;
  const rejectedAt = await readNumber(repo, REJECTED_FILE);
  if (rejectedAt === undefined || !(Date.now() - rejectedAt < CONTENDED_MS)) return false;
  // An unreadable log is the append's to report, word for word: the hint just steps aside.
  const shown = await repo.git(['cat-file', 'blob', `${remote}:${repo.prefix}events.jsonl`], { allowFail: true });
  const events = shown.code === 0 ? ctx.api.parseEventLog(shown.stdout).events : [];
  const rank = rankOf(events as unknown as LoggedEvent[], participant);
  if (rank === 0) return false;
  const slot = (await readNumber(repo, SLOT_FILE)) ?? DEFAULT_SLOT_MS;
  const ms = Math.min(MAX_SLOT_MS, Math.max(MIN_SLOT_MS, slot));
  // A little jitter: two clones of one participant share a rank.
  await ctx.api.sleep(rank * ms + (Math.random() * ms) / 4);
  return true;
}

async function readNumber(repo: Repo, name: string): Promise<number | undefined> {
  const value = await repo.ctx.host.fs.readFile(`${repo.gitDir}/${name}`).then((b) => Number(new TextDecoder().decode(b)), () => NaN);
  return Number.isFinite(value) ? value : undefined;
}

/** Remember how long a transaction (fetch to push) took in this clone, and when a push was last rejected. */
export async function recordSlot(repo: Repo, ms: number, rejected: boolean): Promise<void> {
  const { fs } = repo.ctx.host;
  await fs.writeFile(`${repo.gitDir}/${SLOT_FILE}`, String(Math.round(ms))).catch(() => undefined);
  if (rejected) await fs.writeFile(`${repo.gitDir}/${REJECTED_FILE}`, String(Date.now())).catch(() => undefined);
}
