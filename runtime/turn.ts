/**
 * Whose turn it is: the one rule every door uses (next, wait, status, the
 * humans views, MCP, JSON-RPC). The log is the truth and protocol.json's
 * `currentPhase` / `proposalOwner` / `waitingFor` are a cache of it; this
 * module is the only reader of those keys (test/turn.test.ts greps for
 * others). The rule, decided from the files alone (docs/spec-notes.md):
 *
 * 1. the cache equals the turn after the whole log → it agrees, no note;
 * 2. the log derives no phase (no `initialized` line) → the cache, as the
 *    Python tools write no turn then;
 * 3. the cache equals the turn after the log minus its last line → an
 *    append died between its line and its rename: the log's turn, with a
 *    note;
 * 4. the cache equals the turn after one of the last 8 events whose `at` is
 *    its `updatedAt`, and the log's last event has another `at` → several
 *    such appends (acp writes the event's `at` as `updatedAt`): the log's
 *    turn, with a note;
 * 5. anything else is a hand edit (or another tool's) → the cache, as the
 *    Python tools read it (they never read the log for the turn).
 *
 * Rule 4 needs another second than the last event's so that a hand edit in
 * a folder whose events share one second (its `updatedAt` that of the last
 * event) is never taken for a crash.
 * @module
 */
import * as nodePath from 'node:path';
import { CHECKPOINT_NAME, loadCheckpoint } from './checkpoint.ts';
import { readEventLog } from './event-log.ts';
import { inspectFolderLock } from './files.ts';
import { participantIds, readProtocol } from './folder.ts';
import type { Host } from './host.ts';
import { pyStr } from './pytext.ts';
import { applyEvent, emptyState, stateKeys } from './state-machine.ts';
import type { CacheAgreement, CachedTurn, DerivedState, Json, ReadinessFacts, Turn, TurnSnapshot, TurnState } from './types.ts';
import { sameList } from './util.ts';

/** How many of the log's last events rule 4 looks back (one per append that could not rename; every append repairs it). */
const STALE_DEPTH = 8;
/** How many of the log's last turns {@link decideTurn} reads: the last, and {@link STALE_DEPTH} before it. */
export const TURN_HISTORY = STALE_DEPTH + 1;

/** protocol.json's cached turn: the one place that reads its keys. */
export function readCachedTurn(protocol: Json): CachedTurn {
  return {
    phase: protocol.currentPhase,
    proposalOwner: protocol.proposalOwner,
    waitingFor: protocol.waitingFor,
    present: { phase: 'currentPhase' in protocol, proposalOwner: 'proposalOwner' in protocol, waitingFor: 'waitingFor' in protocol },
  };
}

/** protocol.json caching `turn` (its other keys kept: a person's or another tool's edits stay), written at `updatedAt`. */
export function withCachedTurn(protocol: Json, turn: TurnState, updatedAt: unknown): Json {
  return { ...protocol, currentPhase: turn.phase, proposalOwner: turn.proposalOwner, waitingFor: turn.waitingFor, updatedAt };
}

/** The cache's waitingFor as the Python tools read it (a non-list is nobody). */
function cachedWaiting(cache: CachedTurn): string[] {
  return Array.isArray(cache.waitingFor) ? cache.waitingFor.map((v) => pyStr(v)) : [];
}

/** Whether protocol.json caches exactly `turn` (phase, owner and waitingFor; `updatedAt` is the writer's clock, not the log's). */
export function cacheEquals(protocol: Json, turn: TurnState): boolean {
  const cache = readCachedTurn(protocol);
  return cache.phase === turn.phase && cache.proposalOwner === turn.proposalOwner && sameList(cache.waitingFor, turn.waitingFor);
}

/** A copy of a state's turn (the state machine replaces waitingFor on every change, so the list is shared, not copied). */
function turnState(state: TurnState): TurnState {
  return { phase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor };
}

/** Phases and turns do not depend on readiness.md (only decision_accepted's errors do). */
const NO_READINESS: ReadinessFacts = { blocking: [], unresolved: [], deferredWithoutReason: [], readyToImplement: true, isGateChecked: () => true };

/**
 * Follows a log event by event (the state machine's turn after each of the
 * last {@link TURN_HISTORY}) and answers whose turn it is against
 * protocol.json as read now. O(1) memory: a waiter feeds it only new lines.
 */
export class TurnTracker {
  readonly state: DerivedState = emptyState();
  readonly #participants: string[];
  #recent: TurnSnapshot[] = [];

  constructor(participants: string[]) {
    this.#participants = participants;
  }

  /** The next event of the log. */
  add(event: Json): void {
    applyEvent(this.state, event, this.#participants, NO_READINESS);
    if (this.#recent.length === TURN_HISTORY) this.#recent.shift();
    this.#recent.push({ event, ...turnState(this.state) });
  }

  /** The turn, given protocol.json as read now. */
  turn(protocol: Json): Turn {
    return decideTurn(protocol, this.#recent);
  }
}

/** The turn of a folder whose log is read whole: the one answer of every door. */
export function turnOf(protocol: Json, events: Json[]): Turn {
  const tracker = new TurnTracker(participantIds(protocol));
  for (const event of events) tracker.add(event);
  return tracker.turn(protocol);
}

/**
 * Below this many events, replaying the log is cheaper than reading its
 * append checkpoint: that file, the host's key and the HMAC cost a fresh
 * Node process ~5 ms of CPU, a replay of 1,000 events ~4 ms, of 2,000 ~9 ms
 * (measured for issue 42; the code is cold in a fresh process either way).
 */
const REPLAY_BELOW_EVENTS = 1000;

/**
 * {@link turnOf} for a log just read whole, without its replay where the
 * append checkpoint provably describes this very log (its count and last
 * line) and protocol.json agrees with it: the common case stays O(tail).
 * A short log is replayed: the same answer, sooner.
 */
export async function readTurn(host: Host, folder: string, protocol: Json, log: { events: Json[]; lastLine?: string }): Promise<Turn> {
  if (log.events.length < REPLAY_BELOW_EVENTS) return turnOf(protocol, log.events);
  const last = log.events.at(-1);
  // Without a checkpoint file there is no key to load: a read never creates the host's checkpoint key.
  const present = last !== undefined && (await host.fs.stat(nodePath.join(folder, CHECKPOINT_NAME)).catch(() => null));
  const checkpoint = present ? await loadCheckpoint(host, folder, participantIds(protocol), stateKeys()).catch(() => undefined) : undefined;
  const same = checkpoint !== undefined && checkpoint.count === log.events.length && checkpoint.log.tail === `${log.lastLine}\n`;
  return (same && turnIfAgreed(protocol, checkpoint.state, last)) || turnOf(protocol, log.events);
}

/**
 * Whose turn it is in `folder` (protocol.json as read, or `protocol`): the
 * one answer of every door. Lines of the log that do not parse are left
 * out (`next` and `wait` refuse such a log; the views show it).
 */
export async function folderTurn(host: Host, folder: string, protocol?: Json): Promise<Turn> {
  const cache = protocol ?? (await readProtocol(host, folder));
  return readTurn(host, folder, cache, await readEventLog(host, folder));
}

/**
 * Whether a cache left behind is an append caught between its line and
 * its rename (the folder lock held, or protocol.json caught up since): the
 * answer from the log is right either way, but only a cache left behind is
 * worth a note.
 */
export async function appendInFlight(host: Host, folder: string, turn: Turn): Promise<boolean> {
  if ((await inspectFolderLock(host, folder).catch(() => undefined))?.status === 'held') return true;
  const now = await readProtocol(host, folder).catch(() => undefined);
  return now !== undefined && cacheEquals(now, turn.log);
}

/** The answer of rules 2 and 5: protocol.json's turn as written. */
function fromCache(protocol: Json, log: TurnState, last: Json | undefined, cache: CacheAgreement): Turn {
  const cached = readCachedTurn(protocol);
  return { phase: cached.phase, proposalOwner: cached.proposalOwner, waitingFor: cachedWaiting(cached), lastEvent: last, source: 'cache', cache, log };
}

/** The answer of rules 1, 3 and 4: the log's turn. */
function fromLog(log: TurnState, last: Json | undefined, cache: CacheAgreement, staleAt?: Json): Turn {
  return { ...log, waitingFor: [...log.waitingFor], lastEvent: last, source: 'log', cache, log, ...(staleAt ? { staleAt } : {}) };
}

/**
 * The rule (see the module's comment), given the turn after each of the
 * log's last events, oldest first ({@link TURN_HISTORY} of them suffice: a
 * follower that keeps its own snapshots, such as the JSON-RPC server's,
 * passes those).
 */
export function decideTurn(protocol: Json, recent: readonly TurnSnapshot[]): Turn {
  const last = recent.at(-1);
  const log: TurnState = last ? turnState(last) : { phase: null, proposalOwner: null, waitingFor: [] };
  if (!last || last.phase === null) return fromCache(protocol, log, last?.event, 'no-log-turn');
  if (cacheEquals(protocol, last)) return fromLog(log, last.event, 'agrees');
  const previous = recent.at(-2);
  if (previous && previous.phase !== null && cacheEquals(protocol, previous)) return fromLog(log, last.event, 'behind', previous.event);
  const updatedAt = protocol.updatedAt;
  if (typeof updatedAt === 'string' && last.event.at !== updatedAt) {
    for (let i = recent.length - 3; i >= Math.max(0, recent.length - TURN_HISTORY); i--) {
      const r = recent[i]!;
      if (r.event.at === updatedAt && r.phase !== null && cacheEquals(protocol, r)) return fromLog(log, last.event, 'behind', r.event);
    }
  }
  return fromCache(protocol, log, last.event, 'edited');
}

/**
 * The turn from the log's final state alone (the append checkpoint's), when
 * the cache agrees with it; `undefined` when the rule needs the turns before
 * the last event (a replay).
 */
export function turnIfAgreed(protocol: Json, final: TurnState, last: Json | undefined): Turn | undefined {
  if (final.phase === null || !cacheEquals(protocol, final)) return undefined;
  return fromLog(turnState(final), last, 'agrees');
}

/** Words for a cache left behind, on stderr of the command that answered from the log. */
export function staleNote(turn: Turn): string | undefined {
  if (turn.cache !== 'behind') return undefined;
  return `protocol.json is stale (it describes seq ${pyStr(turn.staleAt?.seq)}; the log ends at seq ${pyStr(turn.lastEvent?.seq)}): answering from the log; the next append or \`acp doctor --fix\` rewrites it`;
}
