/**
 * The ordering hint that keeps racing clones fair: the participants that
 * appended least recently go first. Every clone reads the same log, so each
 * can tell, without talking to the others, how many recently active
 * participants have waited longer than it has (their last event is older
 * than its own) and hold back that many "slots" before its transaction —
 * one slot being how long this clone's last transaction took. The clone
 * that just won is then last in line, and one that lost several rounds is
 * first. Without it the winner, starting from a fresh fetch, tends to win
 * again: in the 4 × 25 race one append lost 20 rounds in a row.
 * @module
 */
import type { Repo } from './repo.ts';

/** A participant counts as contending for this long after its last event (a few rounds of a 4-clone race under load; a partner idle longer costs nothing). */
const ACTIVE_MS = 15_000;
/** The slot before this clone has measured a transaction, and its bounds (ms). */
const DEFAULT_SLOT_MS = 300;
const MIN_SLOT_MS = 20;
const MAX_SLOT_MS = 3000;
/** In the `.git` directory: this clone's last transaction time (ms). */
const SLOT_FILE = 'acp-slot';

interface LoggedEvent {
  seq: unknown;
  from: unknown;
  at: unknown;
}

/**
 * How many participants go before `me`: those other than `me` whose last
 * event is older than `me`'s and no older than {@link ACTIVE_MS} before `now`.
 * A participant with no event yet (or none recent) is first.
 */
export function rankOf(events: readonly LoggedEvent[], me: string, now: number): number {
  const last = new Map<string, { seq: number; at: number }>();
  for (const e of events) {
    if (typeof e.from === 'string' && typeof e.seq === 'number') last.set(e.from, { seq: e.seq, at: typeof e.at === 'string' ? Date.parse(e.at) : NaN });
  }
  const mine = last.get(me);
  if (!mine || !(now - mine.at < ACTIVE_MS)) return 0;
  let rank = 0;
  for (const [who, e] of last) if (who !== me && e.seq < mine.seq && now - e.at < ACTIVE_MS) rank++;
  return rank;
}

/** Hold back for this clone's rank in the log as it is now (no wait at rank 0). Returns whether it waited. */
export async function waitForTurnInLine(repo: Repo, participant: string): Promise<boolean> {
  const { ctx } = repo;
  // An unreadable log is the append's to report, word for word: the hint just steps aside.
  const events = await ctx.api.readEventLog(ctx.host, repo.folder).then((log) => log.events, () => []);
  const rank = rankOf(events as unknown as LoggedEvent[], participant, Date.now());
  if (rank === 0) return false;
  const slot = await ctx.host.fs.readFile(`${repo.gitDir}/${SLOT_FILE}`).then((b) => Number(new TextDecoder().decode(b)), () => DEFAULT_SLOT_MS);
  const ms = Number.isFinite(slot) ? Math.min(MAX_SLOT_MS, Math.max(MIN_SLOT_MS, slot)) : DEFAULT_SLOT_MS;
  // A little jitter: two clones of one participant share a rank.
  await ctx.api.sleep(rank * ms + (Math.random() * ms) / 4);
  return true;
}

/** Remember how long a transaction (fetch to push) took in this clone: the next slot. */
export async function recordSlot(repo: Repo, ms: number): Promise<void> {
  await repo.ctx.host.fs.writeFile(`${repo.gitDir}/${SLOT_FILE}`, String(Math.round(ms))).catch(() => undefined);
}
