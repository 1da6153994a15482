/**
 * What the humans' views need from events.jsonl, kept incrementally: the
 * state after the log (whose turn, through the one turn rule), counts, when
 * phase and turn last changed, each participant's last event, the latest
 * freeze of each deliverable, the phases taken, and only the last `keep`
 * events of the timeline. A later {@link LogModel.update} reads only the
 * bytes appended since (the log is append-only); a log that shrank or whose
 * last known bytes changed is read again from the start. The log is
 * streamed a piece at a time, so the memory follows `keep`, not the log.
 * @module
 */
import type { FileReader, Host } from '../../runtime/host.ts';
import type { FolderRead, Json, ResumePoint, Turn, TurnTracker } from '../../runtime/types.ts';
import type { HumansApi } from './context.ts';

/** One event with the state right after it. */
export interface TimelineEntry {
  event: Json;
  /** Phase after the event (`null` before any `initialized`). */
  phase: string | null;
  waitingFor: string[];
}

/** What a view shows of the log, as of the last update. */
export interface LogFacts {
  /** Events read (bad lines are not events). */
  count: number;
  /** The last events (at most `keep`), each with the state after it. */
  tail: TimelineEntry[];
  /** events.jsonl read errors (bad lines). */
  errors: string[];
  tornTail: boolean;
  /** `at` of the first event. */
  firstAt: unknown;
  phaseSince?: string;
  turnSince?: string;
  /** Each participant's last event. */
  last: Map<string, { seq: unknown; event: unknown; at: unknown }>;
  /** The latest `deliverable_frozen` of each role and doc (key `role\0doc`). */
  freezes: Map<string, Json>;
  /** The latest `blocked` event. */
  lastBlocked?: Json;
  /** The log's last event. */
  lastEvent?: Json;
  /** The phases after each event, repeats in a row dropped (what the phase diagram reads). */
  phases: string[];
}

/** How many bytes before the read offset are compared to tell an appended log from a rewritten one. */
const TAIL_CHECK_BYTES = 64 * 1024;

/** The key of a freeze in {@link LogFacts.freezes}. */
export function freezeKey(role: unknown, doc: unknown): string {
  return `${String(role)}\u0000${String(doc)}`;
}

/** A folder's log as the views see it, updated by reading only what was appended. */
export class LogModel {
  private readonly api: HumansApi;
  private readonly keep: number;
  private facts!: LogFacts;
  private tracker!: TurnTracker;
  private participantsKey = '';
  /** Bytes read so far (just after a `\n`), the lines they hold and their last bytes. */
  private offset = 0;
  private lines = 0;
  private tailBytes: Uint8Array = new Uint8Array(0);
  /** Full re-reads so far (tests and the load script read it). */
  fullReads = 0;

  /** Events after the first `until` are not kept in the timeline (an older page). */
  private readonly until: number;

  /** `keep`: how many of the last events (of the first `until`) the timeline holds. */
  constructor(api: HumansApi, keep: number, until = Infinity) {
    this.api = api;
    this.keep = keep;
    this.until = until;
  }

  /** The events the model holds as objects (the timeline's tail and the few it names). */
  heldEvents(): number {
    return this.facts ? this.facts.tail.length + this.facts.freezes.size + (this.facts.lastBlocked ? 1 : 0) + (this.facts.lastEvent ? 1 : 0) : 0;
  }

  /** Bring the model up to the log as it is now and return its facts and the turn given `protocol`. Throws what scanEventLog throws (the model then starts afresh). */
  async update(host: Host, folder: string, protocol: Json): Promise<{ facts: LogFacts; turn: Turn }> {
    const participants = this.api.participantIds(protocol);
    if (participants.join('\u0000') !== this.participantsKey || !this.facts) this.reset(participants);
    const seen = new TailKeeper();
    let read: Awaited<ReturnType<HumansApi['scanEventLog']>>;
    try {
      read = await this.api.scanEventLog(host, folder, (event) => this.add(event), (file) => this.resume(file, participants, seen), undefined);
    } catch (error) {
      this.participantsKey = '';
      throw error;
    }
    const outcome = this.outcome(read, protocol);
    if (read.tornTail) this.participantsKey = ''; // a line being written: read from the start next time, as the whole log would be.
    else {
      this.offset = read.size;
      this.lines = read.lines;
      this.facts.errors = read.errors;
      this.tailBytes = seen.bytes(read.size);
    }
    return outcome;
  }

  /**
   * Fill the model from the events of a log validate has just read whole
   * ({@link FolderRead.log}) instead of reading it again; the same facts
   * and turn as {@link LogModel.update}. Its bytes were not seen here, so
   * the next update reads the log from the start.
   */
  adopt(log: NonNullable<FolderRead['log']>, protocol: Json): { facts: LogFacts; turn: Turn } {
    this.reset(this.api.participantIds(protocol));
    for (const event of log.events) this.add(event);
    this.participantsKey = '';
    return this.outcome(log, protocol);
  }

  /** The facts as of the log read (copies: the model goes on) and the turn given `protocol`. */
  private outcome(read: { errors: string[]; tornTail: boolean }, protocol: Json): { facts: LogFacts; turn: Turn } {
    const facts = { ...this.facts, errors: read.errors, tornTail: read.tornTail };
    const turn = this.tracker.turn(protocol);
    return { facts: { ...facts, tail: [...facts.tail], last: new Map(facts.last), freezes: new Map(facts.freezes), phases: [...facts.phases] }, turn };
  }

  private reset(participants: string[]): void {
    this.participantsKey = participants.join('\u0000');
    this.tracker = new this.api.TurnTracker(participants);
    this.facts = { count: 0, tail: [], errors: [], tornTail: false, firstAt: undefined, last: new Map(), freezes: new Map(), phases: [] };
    this.offset = 0;
    this.lines = 0;
    this.tailBytes = new Uint8Array(0);
    this.fullReads++;
  }

  /** Where the scan starts: after the bytes read, when they are still the log's (else from the start). */
  private async resume(file: FileReader, participants: string[], seen: TailKeeper): Promise<ResumePoint> {
    if (this.offset > 0 && !(await this.stillPrefix(file))) this.reset(participants);
    // The bytes already read stay the ones checked next time when little is appended.
    seen.add(this.tailBytes, this.offset - this.tailBytes.length);
    return { offset: this.offset, lines: this.lines, errors: [...this.facts.errors], seen: (piece, position) => seen.add(piece, position) };
  }

  /** The log still holds, where they were, the last bytes read (a log that shrank or was rewritten does not). */
  private async stillPrefix(file: FileReader): Promise<boolean> {
    if (file.size < this.offset) return false;
    const start = this.offset - this.tailBytes.length;
    const now = await file.read(start, this.tailBytes.length);
    return now.length === this.tailBytes.length && now.every((byte, i) => byte === this.tailBytes[i]);
  }

  /** Fold one event in. */
  private add(event: Json): void {
    const facts = this.facts;
    const state = this.tracker.state;
    const phaseBefore = state.phase;
    const waitingBefore = state.waitingFor;
    this.tracker.add(event);
    const at = typeof event.at === 'string' ? event.at : undefined;
    const index = facts.count++;
    if (index === 0) facts.firstAt = event.at;
    if (state.phase !== phaseBefore) facts.phaseSince = at;
    if (state.waitingFor.join('\u0000') !== waitingBefore.join('\u0000')) facts.turnSince = at;
    if (state.phase !== null && facts.phases.at(-1) !== state.phase) facts.phases.push(state.phase);
    if (typeof event.from === 'string') facts.last.set(event.from, { seq: event.seq, event: event.event, at: event.at });
    if (event.event === 'deliverable_frozen' && typeof event.role === 'string' && typeof event.doc === 'string') facts.freezes.set(freezeKey(event.role, event.doc), event);
    if (event.event === 'blocked') facts.lastBlocked = event;
    facts.lastEvent = event;
    if (this.keep > 0 && index < this.until) {
      if (facts.tail.length >= this.keep) facts.tail.shift();
      facts.tail.push({ event, phase: state.phase, waitingFor: [...state.waitingFor] });
    }
  }
}

/** The last {@link TAIL_CHECK_BYTES} of the pieces a scan reads (copies: the reader reuses its buffer). */
class TailKeeper {
  private pieces: { piece: Uint8Array; position: number }[] = [];

  add(piece: Uint8Array, position: number): void {
    if (piece.length === 0) return;
    this.pieces.push({ piece: piece.slice(Math.max(0, piece.length - TAIL_CHECK_BYTES)), position: position + Math.max(0, piece.length - TAIL_CHECK_BYTES) });
    while (this.pieces.length > 3) this.pieces.shift();
  }

  /** The bytes just before `end`. */
  bytes(end: number): Uint8Array {
    if (!this.pieces.length) return new Uint8Array(0);
    const from = Math.max(this.pieces[0]!.position, end - TAIL_CHECK_BYTES);
    const out = new Uint8Array(end - from);
    for (const { piece, position } of this.pieces) {
      for (let i = 0; i < piece.length; i++) {
        const at = position + i;
        if (at >= from && at < end) out[at - from] = piece[i]!;
      }
    }
    return out;
  }
}
