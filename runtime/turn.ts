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
 * 4. the cache equals the turn after an earlier event whose `at` is its
 *    `updatedAt`, and the log's last event is of a later second → several
 *    such appends (acp writes the event's `at` as `updatedAt`): the log's
 *    turn, with a note;
 * 5. anything else is a hand edit (or another tool's) → the cache, as the
 *    Python tools read it (they never read the log for the turn).
 *
 * Rule 4 needs a later second so that a hand edit in a folder whose events
 * share one second (its `updatedAt` that of the last event) is never taken
 * for a crash. The state machine lives in acp.ts: it is passed in (the
 * checkpoint modules' pattern), this module imports only types from it.
 * @module
 */
import type { DerivedState } from '../acp.ts';
import { pyStr } from './pytext.ts';
import { type Json, sameList } from './util.ts';

/** A turn: what protocol.json caches and the state machine derives. */
export interface TurnState {
  phase: string | null;
  proposalOwner: string | null;
  waitingFor: string[];
}

/** protocol.json's cached turn as written (raw values), and which of its keys are present. */
export interface CachedTurn {
  phase: unknown;
  proposalOwner: unknown;
  waitingFor: unknown;
  present: { phase: boolean; proposalOwner: boolean; waitingFor: boolean };
}

/**
 * How protocol.json's cache relates to the log: `agrees` (rule 1), `no-log-turn`
 * (rule 2), `behind` (rules 3 and 4: the answer is the log's), `edited` (rule 5:
 * the answer is the cache's).
 */
export type CacheAgreement = 'agrees' | 'no-log-turn' | 'behind' | 'edited';

/** The answer to "whose turn": the same for every door that reads one folder. */
export interface Turn {
  /** The phase answered (the cache's raw value under rules 2 and 5). */
  phase: unknown;
  proposalOwner: unknown;
  waitingFor: string[];
  /** The log's last event, if any. */
  lastEvent: Json | undefined;
  /** Where the answer comes from. */
  source: 'log' | 'cache';
  cache: CacheAgreement;
  /** The turn the log derives (phase null when it derives none). */
  log: TurnState;
  /** Under `behind`: the event after which the cache was written. */
  staleAt?: Json;
}

/** The turn after one event of the log. */
export interface TurnSnapshot extends TurnState {
  event: Json;
}

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

/** Apply one event to a derived state (acp.ts's applyEvent, readiness aside: phases and turns do not depend on it). */
export type ApplyEvent = (state: DerivedState, event: Json) => void;

/**
 * Follows a log event by event (the state machine's turn after each of the
 * last {@link STALE_DEPTH}) and answers whose turn it is against
 * protocol.json as read now. O(1) memory: a waiter feeds it only new lines.
 */
export class TurnFollower {
  readonly state: DerivedState;
  readonly #apply: ApplyEvent;
  #recent: TurnSnapshot[] = [];

  /** `start` is the state before the first event (acp.ts's emptyState()). */
  constructor(start: DerivedState, apply: ApplyEvent) {
    this.state = start;
    this.#apply = apply;
  }

  /** The next event of the log. */
  add(event: Json): void {
    this.#apply(this.state, event);
    if (this.#recent.length === TURN_HISTORY) this.#recent.shift();
    this.#recent.push({ event, ...turnState(this.state) });
  }

  /** The turn, given protocol.json as read now. */
  turn(protocol: Json): Turn {
    return decideTurn(protocol, this.#recent);
  }
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
