/**
 * A collaboration at a glance, read once from its folder: what `acp status`
 * prints and `acp report` renders. Everything is read through the library
 * (protocol.json, the log replayed event by event, readiness.md, the
 * deliverables and their hashes, validate's verdict); nothing is written.
 * @module
 */
import { join } from 'node:path';
import type { FolderRead, Registry, ValidationResult } from '../../runtime/types.ts';
import type { Host } from '../../runtime/host.ts';
import type { HumansApi } from './context.ts';
import { formatDuration } from './text.ts';
import { freezeKey, LogModel, type LogFacts, type TimelineEntry } from './log-model.ts';
export type { TimelineEntry } from './log-model.ts';

type Json = Record<string, unknown>;

/** A deliverable's declared place, current file and freeze. */
export interface DeliverableView {
  ref: string;
  type: string;
  role: 'primary' | 'supporting';
  /** The file exists (inside its boundary). */
  exists: boolean;
  /** `Status:` line (Draft, In Review, Frozen), if any. */
  status?: string;
  /** SHA-256 of the current file. */
  sha256?: string;
  /** The latest `deliverable_frozen` event for it. */
  frozen?: { seq: unknown; at: unknown; sha256: unknown; from: unknown };
  /** Whether the current file still has the frozen hash (only when frozen). */
  matches?: boolean;
  /** The file's text (UTF-8), for rendering. */
  text?: string;
  /** Why the file could not be read (outside its boundary, not UTF-8…). */
  problem?: string;
}

/** The collaboration as a person wants to see it. */
export interface Snapshot {
  folder: string;
  /** When this was read (ISO 8601). */
  now: string;
  objective: string;
  participants: { id: string; last?: { seq: unknown; event: unknown; at: unknown } }[];
  /** Phase derived from the log (protocol.json's cache when the log is unreadable). */
  phase: string | null;
  /** When the current phase began (`at` of the event that entered it). */
  phaseSince?: string;
  owner: string | null;
  waitingFor: string[];
  /** When the turn last changed hands. */
  turnSince?: string;
  createdAt?: string;
  updatedAt?: string;
  /** The last events of the log (all of them unless the reader asked for fewer): event `timelineFrom + i` is `timeline[i]`. */
  timeline: TimelineEntry[];
  /** How many events precede the timeline's first. */
  timelineFrom: number;
  /** How many events the log holds. */
  eventCount: number;
  /** `at` of the log's first event. */
  firstAt: unknown;
  /** The phases after each event, repeats in a row dropped. */
  phasePath: string[];
  /** The latest `blocked` event. */
  lastBlocked?: Json;
  /** The log's last event. */
  lastEvent?: Json;
  /** events.jsonl read errors (bad lines). */
  logErrors: string[];
  gates: { text: string; source: string; checked: boolean }[];
  readiness: { blocking: string[]; unresolved: string[]; deferredWithoutReason: string[]; readyToImplement: boolean };
  primary?: DeliverableView;
  supporting: DeliverableView[];
  /** The outcome declared in conclusion.md (`- [proceed] …`), if exactly one. */
  outcome?: { status: string; text: string };
  /** The documents, as text ('' when missing). */
  documents: { decisions: string; readiness: string; conclusion: string; proposal: string };
  /** Why a document is shown as empty although it exists (larger than append's cap, not a regular file…). */
  documentNotes: string[];
  validation: ValidationResult;
}

/** What loading needs: the library, the host and the registry (for validate). */
export interface SnapshotSources {
  api: HumansApi;
  host: Host;
  registry: Registry;
}

/**
 * A document of the folder as text, '' when missing or unreadable
 * (validate's verdict says which). Read with append's cap
 * (`READ_LIMITS.document`, 64 MiB): a larger one, or one that is not a
 * regular file, is not read at all, and `notes` says so.
 */
export async function readText(sources: Pick<SnapshotSources, 'api' | 'host'>, folder: string, name: string, notes?: string[]): Promise<string> {
  const { api } = sources;
  try {
    return api.decodeText(await api.readCapped(sources.host, join(folder, name), api.READ_LIMITS.document, name), name);
  } catch (error) {
    if (error instanceof api.AcpError) notes?.push(`${error.message} (shown as empty)`);
    return '';
  }
}

/**
 * validate's verdict, and what it read (see {@link FolderRead}); a folder
 * validate refuses to read (a document over its cap, a FIFO) is a failed
 * verdict naming why, so that the rest of the view is still shown, read
 * afresh.
 */
async function verdict(sources: SnapshotSources, folder: string): Promise<{ validation: ValidationResult; read?: FolderRead }> {
  try {
    const { result, read } = await sources.api.validateRead(sources.host, folder, sources.registry);
    return { validation: result, read };
  } catch (error) {
    if (!(error instanceof sources.api.AcpError)) throw error;
    return { validation: { ok: false, errors: error.messages, warnings: [] } };
  }
}

/** Outcome items of conclusion.md (spec §7.4): `- [status] text`. */
const OUTCOME_RE = /^\s*-\s*\[(proceed|do_not_proceed|defer|blocked)\]\s+(.+)$/gm;

/** How a snapshot is read: through a model kept between reads (the dashboard), or keeping the last `keep` events of the timeline (default: all). */
export interface SnapshotOptions {
  model?: LogModel;
  keep?: number;
}

/**
 * Read a collaboration folder into a {@link Snapshot}. Raises AcpError when
 * protocol.json is unreadable. validate reads first; the view is made from
 * what it read (each file read once: the view shows the files validate
 * judged), and reads only what validate did not (a log validate resumed
 * from its checkpoint, conclusion.md, proposal.md).
 */
export async function loadSnapshot(sources: SnapshotSources, folder: string, options: SnapshotOptions = {}): Promise<Snapshot> {
  const { api } = sources;
  const { validation, read } = await verdict(sources, folder);
  const host = read ? api.readingHost(sources.host, read.files) : sources.host;
  const reading = { ...sources, host };
  const protocol = await api.readProtocol(host, folder);
  const participants = api.participantIds(protocol);
  const model = options.model ?? new LogModel(api, options.keep ?? Infinity);
  // Whose turn: the one rule of every door (the log, or protocol.json where the Python tools would read it).
  // A model kept between reads (the dashboard) reads only what was appended since.
  const { facts: log, turn } = read?.log && !options.model ? model.adopt(read.log, protocol) : await model.update(host, folder, protocol);
  const documentNotes: string[] = [];
  const documents = {
    decisions: await readText(reading, folder, 'decisions.md', documentNotes),
    readiness: await readText(reading, folder, 'readiness.md', documentNotes),
    conclusion: await readText(reading, folder, 'conclusion.md', documentNotes),
    proposal: await readText(reading, folder, 'proposal.md', documentNotes),
  };
  const readiness = api.readReadiness(documents.readiness);
  const useLog = turn.source === 'log';
  const outcomes = [...documents.conclusion.matchAll(OUTCOME_RE)];
  const gates = (Array.isArray(protocol.completionGates) ? protocol.completionGates : [])
    .filter(api.isObject)
    .map((gate) => ({ text: api.pyStr(gate.text ?? ''), source: api.pyStr(gate.source ?? ''), checked: typeof gate.text === 'string' && readiness.isGateChecked(gate.text) }));
  return {
    folder,
    // To the second, as the log's times (and without toISOString(), which loads the time zone database).
    now: api.formatTimestamp(host.now()),
    objective: typeof protocol.objective === 'string' ? protocol.objective : api.pyStr(protocol.objective ?? ''),
    participants: participants.map((id) => ({ id, ...(log.last.has(id) ? { last: log.last.get(id) } : {}) })),
    phase: typeof turn.phase === 'string' ? turn.phase : null,
    phaseSince: useLog ? log.phaseSince : undefined,
    owner: typeof turn.proposalOwner === 'string' ? turn.proposalOwner : null,
    waitingFor: turn.waitingFor,
    turnSince: useLog ? log.turnSince : undefined,
    createdAt: typeof protocol.createdAt === 'string' ? protocol.createdAt : undefined,
    updatedAt: typeof protocol.updatedAt === 'string' ? protocol.updatedAt : undefined,
    timeline: log.tail,
    timelineFrom: log.count - log.tail.length,
    eventCount: log.count,
    firstAt: log.firstAt,
    phasePath: log.phases,
    ...(log.lastBlocked ? { lastBlocked: log.lastBlocked } : {}),
    ...(log.lastEvent ? { lastEvent: log.lastEvent } : {}),
    logErrors: log.errors,
    gates,
    readiness: { blocking: readiness.blocking, unresolved: readiness.unresolved, deferredWithoutReason: readiness.deferredWithoutReason, readyToImplement: readiness.readyToImplement },
    ...(await deliverableViews(reading, folder, protocol, log)),
    ...(outcomes.length === 1 ? { outcome: { status: outcomes[0]![1]!, text: outcomes[0]![2]!.trim() } } : {}),
    documents,
    documentNotes,
    validation,
  };
}

/**
 * The snapshot with its timeline holding the `limit` events before position
 * `upto` (an older page of the dashboard's timeline). A page the snapshot
 * does not hold is read from the log, streamed once more keeping only it.
 */
export async function withTimelinePage(sources: SnapshotSources, s: Snapshot, upto: number, limit: number): Promise<Snapshot> {
  const end = Math.min(Math.max(upto, 0), s.eventCount);
  if (end - limit >= s.timelineFrom || s.timelineFrom === 0) return s;
  const { facts } = await new LogModel(sources.api, limit, end).update(sources.host, s.folder, await sources.api.readProtocol(sources.host, s.folder));
  return { ...s, timeline: facts.tail, timelineFrom: Math.min(end, facts.count) - facts.tail.length };
}

async function deliverableViews(sources: SnapshotSources, folder: string, protocol: Json, log: LogFacts): Promise<{ primary?: DeliverableView; supporting: DeliverableView[] }> {
  const { api } = sources;
  const declared = api.isObject(protocol.deliverables) ? protocol.deliverables : {};
  const primaryRef = api.primaryRef(protocol);
  const primaryType = api.isObject(declared.primary) ? api.pyStr(declared.primary.pluginType ?? declared.primary.type ?? '') : '';
  const supporting = (Array.isArray(declared.supporting) ? declared.supporting : []).filter(api.isObject).filter((s) => typeof s.file === 'string');
  const view = (ref: string, type: string, role: DeliverableView['role']) => deliverableView(sources, folder, protocol, log, ref, type, role);
  return {
    ...(primaryRef === undefined ? {} : { primary: await view(primaryRef, primaryType, 'primary') }),
    supporting: await Promise.all(supporting.map((s) => view(api.deliverableRef(protocol, s.file as string), api.pyStr(s.type ?? ''), 'supporting'))),
  };
}

async function deliverableView(sources: SnapshotSources, folder: string, protocol: Json, log: LogFacts, ref: string, type: string, role: DeliverableView['role']): Promise<DeliverableView> {
  const { api, host } = sources;
  const view: DeliverableView = { ref, type, role, exists: false };
  const freeze = log.freezes.get(freezeKey(role, ref));
  if (freeze) view.frozen = { seq: freeze.seq, at: freeze.at, sha256: freeze.sha256, from: freeze.from };
  try {
    const bytes = await api.readDeliverable(host, folder, protocol, ref);
    if (bytes) {
      view.exists = true;
      view.sha256 = await api.sha256Hex(bytes);
      view.text = api.decodeText(bytes, ref);
      const status = api.markdown.status(view.text);
      if (status !== undefined) view.status = status;
    }
  } catch (error) {
    view.problem = error instanceof Error ? error.message : String(error);
  }
  if (view.frozen) view.matches = view.sha256 !== undefined && view.sha256 === view.frozen.sha256;
  return view;
}

/** How long ago an ISO time was, relative to the snapshot (`5m 3s`; '' when it is not a time). */
export function elapsed(s: Snapshot, at: unknown): string {
  const then = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isNaN(then) ? '' : formatDuration(Date.parse(s.now) - then);
}

/** The event that blocked a blocked collaboration (its summary is the reason). */
export function blockingEvent(s: Snapshot): Json | undefined {
  return s.phase === 'blocked' ? s.lastBlocked : undefined;
}

/**
 * The outcome drafted in conclusion.md of a collaboration that has not
 * ended, when it is worth naming: a draft saying `blocked` (init's
 * placeholder says so) is left out, since the collaboration is not blocked.
 */
export function shownDraft(s: Snapshot): Snapshot['outcome'] {
  if (s.phase === 'completed' || s.phase === 'blocked' || s.outcome?.status === 'blocked') return undefined;
  return s.outcome;
}
