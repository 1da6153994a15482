/**
 * acp — a runtime for the Agent Collaboration Protocol (ACP schema v2).
 *
 * This file is the compact core and the public entry: the protocol, the hook
 * points plugins use, the library and the CLI edge. Everything that touches
 * the host (files, clock, process) goes through the {@link Host} capability
 * object, so the same core runs on Node, Bun and Deno, and in-process inside
 * a sandboxed agent with an in-memory file system. Importing it has no side
 * effects. The folder format and every message are fixed by
 * `spec/protocol.md`: other tools (a Python tool set) work in the same
 * folders at the same time.
 *
 * Contents, in reading order:
 *   1. Protocol constants
 *   2. The event log (spec §4)
 *   3. The derived state machine (spec §5) and its checks
 *   4. The folder's declaration: protocol.json, deliverables, their types
 *   5. Hooks and plugins; commands as data; the registry
 *   6. Append (spec §6)
 *   7. Validation (spec §8)
 *   8. Init (spec §9)
 *   9. Next action and waiting (spec §10)
 *  10. The library facade (libraryApi, openCollaboration, runCommand)
 *  11. The CLI edge (runCli; the process itself is runtime/process.ts)
 * Host adapters, Python text semantics, the lock, the checkpoint, the
 * document rules and the argv parser are modules in runtime/
 * (docs/architecture.md); the commands beyond the protocol's are plugins.
 *
 * @module
 */
import * as nodePath from 'node:path';
import packageJson from './package.json' with { type: 'json' };
import { checkOptionValues, commandWord, formatHelp, parseArgv, parsePartial, parsePyFloat, parsePyInt } from './runtime/argv.ts';
import type { SignatureVerifier, SigningDeclaration, SigningSummary, UnsignedPolicy } from './runtime/signing.ts';
import { ValidateCheckpoint, type ResumePoint } from './runtime/validate-checkpoint.ts';
import { CHECKPOINT_NAME, addSeq, checkpointState, hasSeq, loadCheckpoint, logFacts, saveCheckpoint, stripErrors, type LogFacts } from './runtime/checkpoint.ts';
import { defineCommand, defineDeliverableType, definePlugin } from './runtime/define.ts';
import { CONCLUSION_SECTIONS, checkDecisions, conclusionErrors, decisionGateErrors, initialDocuments, markdown, readinessGateErrors, readReadiness, strictProposalErrors, strictReviewErrors, type MarkdownHelpers, type ReadinessFacts } from './runtime/documents.ts';
import { AcpAbortError, AcpAppendedError, AcpError, AcpPluginError, AcpTimeoutError, UsageError } from './runtime/errors.ts';
import { LOCK_BREAKER, LOCK_NAME, READ_LIMITS, confineHost, danglingLinkTarget, inspectFolderLock, logDecodeError, openCapped, readCapped, readWholeLines, withFolderLock, writeFileAtomic, type FolderLock, type WriteAtomicOptions } from './runtime/files.ts';
import type { FileReader, FileSystem, Host } from './runtime/host.ts';
import { createMemoryFileSystem, createMemoryHost } from './runtime/memory-host.ts';
import { lineHash } from './runtime/keyring.ts';
import { createNodeHost } from './runtime/node-host.ts';
import { dumpsPy, loadsPy, PyJsonError, pyKeys } from './runtime/pyjson.ts';
import { compareInstants, comparePy, decodeText, endsWithLineBreak, formatProtocolJson, formatTimestamp, hasLoneSurrogate, parseZonedTimestamp, purePosixPath, pyRepr, pySplitLines, pyStr, pyStrip, reviewHeadings, type ReviewHeading, sha256Hex, sortedPy, zonedInstant } from './runtime/pytext.ts';
import type { PyInstant } from './runtime/pytext.ts';
import { errorCode, fsError, isInside, isInt, isObject, isPyIntLike, pySeqKey, type Json, nodeCrypto, realpathOfExistingAncestor, sameList, sleep } from './runtime/util.ts';

export { parseArgv, parsePyFloat, parsePyInt, type ParsedArgv } from './runtime/argv.ts';
export { CHECKPOINT_NAME } from './runtime/checkpoint.ts';
export { defineCommand, defineDeliverableType, definePlugin } from './runtime/define.ts';
export { CONCLUSION_SECTIONS, conclusionErrors, decisionGateErrors, markdown, readReadiness, type MarkdownHelpers, type ReadinessFacts } from './runtime/documents.ts';
export { AcpAbortError, AcpAppendedError, AcpError, AcpPluginError, AcpTimeoutError, UsageError } from './runtime/errors.ts';
export { LOCK_BREAKER, LOCK_NAME, confineHost, inspectFolderLock, readCapped, withFolderLock, writeFileAtomic, type FolderLock, type FolderLockOptions, type FolderLockState, type WriteAtomicOptions } from './runtime/files.ts';
export type { FileReader, FileStat, FileSystem, Host, ProcessIdentity } from './runtime/host.ts';
export { createMemoryFileSystem, createMemoryHost, type MemoryFileSystem, type MemoryHostOptions } from './runtime/memory-host.ts';
export { createNodeHost, type NodeHostOptions } from './runtime/node-host.ts';
export { dumpsPy, isPyFloat, loadsPy, PyFloat, PyInt, PyJsonError, pyFloatRepr, pyKeys, type DumpOptions } from './runtime/pyjson.ts';
export { compareInstants, comparePy, decodeText, formatProtocolJson, formatTimestamp, parseZonedTimestamp, purePosixPath, pyFromIsoFormat, pyRepr, pySplitLines, pyStr, pyStrip, reviewHeadings, type ReviewHeading, sha256Hex, sortedPy, zonedInstant } from './runtime/pytext.ts';
export type { PyDateTime, PyInstant } from './runtime/pytext.ts';
export { errorCode, fsError, isInside, isObject, realpathOfExistingAncestor, sameList, sleep } from './runtime/util.ts';

// ---------------------------------------------------------------------------
// Protocol constants
// ---------------------------------------------------------------------------

/** Every event name the protocol knows, in the spec's order. */
export const EVENT_NAMES = [
  'initialized',
  'deliverable_drafted',
  'deliverable_revised',
  'deliverable_frozen',
  'proposal_submitted',
  'review_submitted',
  'proposal_revised',
  'question_classified',
  'decision_proposed',
  'decision_accepted',
  'readiness_passed',
  'completed',
  'blocked',
] as const;

/** An event name of the protocol. */
export type EventName = (typeof EVENT_NAMES)[number];

/** Every phase of the state machine. */
export const PHASES = ['blocked', 'completed', 'decision_review', 'drafting', 'readiness_check', 'reviewing', 'revising'] as const;

/** A phase of the state machine. */
export type Phase = (typeof PHASES)[number];

/** Files a collaboration folder must hold (spec §1). */
export const REQUIRED_FILES = ['protocol.json', 'events.jsonl', 'proposal.md', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md'] as const;

/** Files whose presence is an error (spec §1). */
export const FORBIDDEN_FILES = ['state.log', 'discussion.md', 'opinions.md'] as const;

const DELIVERABLE_EVENTS = new Set(['deliverable_drafted', 'deliverable_revised', 'deliverable_frozen']);
const SHA256_HEX = /^[0-9a-f]{64}$/;
const INIT_SUMMARY = 'Initialized ACP schema v2 collaboration workspace.';
/** This runtime's version (package.json's, inlined by the bundler). */
export const VERSION: string = packageJson.version;

/** Default `wait` timeout: 30 minutes (spec §10). */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 1800;
/** Default `wait` fallback poll period in seconds. */
export const DEFAULT_WAIT_INTERVAL_SECONDS = 2;

// ---------------------------------------------------------------------------
// The event log (spec §4)
// ---------------------------------------------------------------------------

/** One event of events.jsonl. Unknown keys are kept. */
export interface AcpEvent {
  seq: number;
  from: string;
  event: EventName | string;
  at: string;
  summary: string;
  doc?: string;
  reply_to?: number;
  role?: 'primary' | 'supporting' | string;
  sha256?: string;
  [extra: string]: unknown;
}

/** The parsed log: events in order, and read errors (bad lines). */
export interface EventLog {
  /** Objects in the log, in order (bad lines are left out). */
  events: Json[];
  /** `events.jsonl line {n}: …` messages. */
  errors: string[];
  /** Byte length of the file read. */
  size: number;
  /** Whether the file ends in the middle of a line (no final newline). */
  tornTail: boolean;
  /** The last event line's text (after universal newlines, without its newline): a signed append hashes it. */
  lastLine?: string;
}

/** Parse events.jsonl text (spec §4). */
export function parseEventLog(text: string): Omit<EventLog, 'size'> {
  const events: Json[] = [];
  const errors: string[] = [];
  const { tornTail } = parseEventLines(text, 0, true, (event) => void events.push(event), errors);
  return { events, errors, tornTail };
}

/**
 * Parse a run of whole lines of events.jsonl (text after universal
 * newlines) whose first line is line `before + 1`; `last` when the run ends
 * the file. Events go to `onEvent`, bad lines to `errors`.
 */
function parseEventLines(text: string, before: number, last: boolean, onEvent: (event: Json, line: string) => void, errors: string[]): { lines: number; tornTail: boolean } {
  // The Python tools split the log with str.splitlines() and read each line with json.loads.
  const lines = pySplitLines(text);
  const tornTail = last && text.length > 0 && !endsWithLineBreak(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // An event line starts with `{`: skip the (regex) blank test for it.
    if (line.charCodeAt(0) !== 0x7b && pyStrip(line) === '') continue;
    let value: unknown;
    try {
      value = loadsPy(line);
    } catch (error) {
      // An unterminated last line that is not JSON is what an interrupted
      // writer leaves: say so (after the detail, which tools compare loosely).
      const torn = tornTail && i === lines.length - 1 ? ` (the last line is incomplete: a writer was interrupted; \`acp doctor --fix\` repairs it)` : '';
      errors.push(`events.jsonl line ${before + i + 1}: invalid JSON: ${jsonErrorDetail(error)}${torn}`);
      continue;
    }
    if (!isObject(value)) {
      errors.push(`events.jsonl line ${before + i + 1}: event must be an object`);
      continue;
    }
    onEvent(value, line);
  }
  return { lines: lines.length, tornTail };
}

/**
 * Read events.jsonl for a reader that does not take the lock: a line being
 * appended at this moment can be caught half-copied (the OS copies a write
 * page by page), so an unreadable last line is read once more before it is
 * reported. A torn line left by a killed writer is still there then.
 */
async function readEventLogSettled(host: Host, folder: string): Promise<EventLog> {
  try {
    const log = await readEventLog(host, folder);
    if (!log.tornTail || !log.errors.length) return log;
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
  }
  await sleep(25);
  return readEventLog(host, folder);
}

/** Read and parse events.jsonl; a missing file is `error: missing events.jsonl`. */
export async function readEventLog(host: Host, folder: string): Promise<EventLog> {
  const events: Json[] = [];
  let lastLine: string | undefined;
  const rest = await scanEventLog(host, folder, (event, line) => {
    events.push(event);
    lastLine = line;
  });
  return { events, ...rest, lastLine };
}

/**
 * How much of events.jsonl is decoded at a time: a long log is never held
 * as one string (validate of 100k events stays far below 150 MB).
 */
const LOG_CHUNK_BYTES = 1 << 20;

/**
 * Read events.jsonl and hand its events to `onEvent` in order, a megabyte of
 * whole lines at a time (never the whole log at once); returns the errors of
 * bad lines (as {@link readEventLog}). Throws what readEventLog throws, maybe
 * after some events: the consumer then starts afresh. `resume` (the
 * validation checkpoint) may vouch for a prefix; `afterChunk` runs after
 * each piece's events (validate checks their signatures there).
 */
export async function scanEventLog(
  host: Host,
  folder: string,
  onEvent: (event: Json, line: string) => void,
  resume?: (file: FileReader) => Promise<ResumePoint | undefined>,
  afterChunk?: () => Promise<void>,
): Promise<Omit<EventLog, 'events'> & { lines: number }> {
  const path = nodePath.join(folder, 'events.jsonl');
  let file: FileReader;
  try {
    file = await openCapped(host, path, READ_LIMITS.log, 'events.jsonl');
  } catch (error) {
    // The Python tools refuse a folder without its log (issue 12 item 5):
    // starting a new history there would split it from theirs for good.
    if (errorCode(error) === 'ENOENT') throw new AcpError('missing events.jsonl', 2, 'invalid_log');
    if (errorCode(error) === 'EISDIR') throw new AcpError('events.jsonl is a directory, not the event log');
    if (errorCode(error) === 'ELOOP') throw new AcpError('events.jsonl is a symbolic link loop, not the event log');
    throw error;
  }
  try {
    const from = await resume?.(file);
    const errors: string[] = from?.errors ?? [];
    let before = from?.lines ?? 0;
    let tornTail = false;
    const scan = async (lines: Uint8Array, end: boolean): Promise<void> => {
      let text: string;
      try {
        text = decodeText(lines, 'events.jsonl');
      } catch (error) {
        throw logDecodeError(await readCapped(host, path, READ_LIMITS.log, 'events.jsonl'), error);
      }
      const run = parseEventLines(text, before, end, onEvent, errors);
      before += run.lines;
      tornTail = run.tornTail;
      await afterChunk?.();
    };
    const position = await readWholeLines(file, from?.offset ?? 0, LOG_CHUNK_BYTES, scan, from?.seen);
    return { errors, size: position, tornTail, lines: before };
  } finally {
    await file.close();
  }
}

/** The fields of an event in the order the tools write them (spec §4); other keys follow in their own order. */
const EVENT_FIELD_ORDER = ['seq', 'from', 'event', 'at', 'summary', 'doc', 'reply_to', 'role', 'sha256'];

/** Serialise an event as one compact line (spec §4) as json.dumps does, with U+0085/U+2028/U+2029 escaped. */
export function formatEventLine(event: Json): string {
  const keys = [...EVENT_FIELD_ORDER.filter((key) => Object.hasOwn(event, key)), ...pyKeys(event).filter((key) => !EVENT_FIELD_ORDER.includes(key))];
  const members = keys.flatMap((key) => (event[key] === undefined ? [] : [`${dumpsPy(key)}:${dumpsPy(event[key])}`]));
  return `{${members.join(',')}}`.replace(/[\u0085\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

/**
 * Refuse to write text that UTF-8 cannot encode: a lone surrogate, which is
 * what a command-line byte that is not UTF-8 becomes (`$'x\xffy'` is
 * `'x\udcffy'`, as Python decodes argv). The Python tools fail to write
 * such an event or folder (UnicodeEncodeError); acp says so before writing
 * anything. `what` names the file; `values` are the strings going into it.
 */
function refuseUnencodable(what: string, values: unknown): void {
  const bad = firstLoneSurrogateText(values);
  if (bad === undefined) return;
  const char = [...bad].find((ch) => hasLoneSurrogate(ch))!;
  throw new AcpError(`cannot write ${what}: ${pyRepr(bad)} holds ${pyRepr(char)}, which UTF-8 cannot encode (a byte that is not UTF-8 in the command line, or a lone surrogate); nothing was written`, 2, 'invalid_event');
}

/** The first string (or key) in a JSON value that holds a lone surrogate. */
function firstLoneSurrogateText(value: unknown): string | undefined {
  if (typeof value === 'string') return hasLoneSurrogate(value) ? value : undefined;
  if (Array.isArray(value) || value instanceof Map) {
    for (const item of value instanceof Map ? [...value].flat() : value) {
      const found = firstLoneSurrogateText(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') return firstLoneSurrogateText(Object.entries(value).flat());
  return undefined;
}

/**
 * A JSON parser's complaint, made engine-neutral: V8 quotes the whole input
 * ("…" is not valid JSON) and JavaScriptCore prefixes "JSON Parse error: ";
 * either would leak file content (or a second `error: `) into our message.
 */
export function jsonErrorDetail(error: unknown): string {
  if (error instanceof PyJsonError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      .replace(/^JSON Parse error:\s*/, '')
      .replace(/,\s*".*" is not valid JSON$/s, '')
      .replace(/\berror:\s*/gi, '')
      .split('\n', 1)[0] || 'invalid JSON'
  );
}

/** Next seq: largest integer seq + 1, or 1 (spec §4). */
export function nextSeq(events: Json[]): number {
  return highestSeq(events) + 1;
}

/** The highest integer seq of the log (0 when none): what a refusal past 2^53 quotes (`nextSeq - 1` is rounded there). */
function highestSeq(events: Json[]): number {
  let max = 0;
  for (const event of events) if (isPyIntLike(event.seq) && Number(pySeqKey(event.seq)) > max) max = Number(pySeqKey(event.seq));
  return max;
}

// ---------------------------------------------------------------------------
// The derived state machine (spec §5)
// ---------------------------------------------------------------------------

/** State derived by replaying the log. */
export interface DerivedState {
  phase: Phase | null;
  proposalOwner: string | null;
  waitingFor: string[];
  reviewersDue: string[];
  acceptorsDue: string[];
  latestClassification: number;
  latestDecisionInput: number;
  primaryDrafted: boolean;
  primaryFrozen: boolean;
  readinessPassed: boolean;
  /** Errors found while replaying, in order (the Python tools' messages). */
  errors: string[];
  /** The stable code of each error in {@link errors}, index for index. */
  codes: RefusalCode[];
}

/**
 * What kind of rule an event broke: `phase` (nobody may do it now),
 * `not_your_turn` (someone else may), or `invalid_event` (any other rule).
 * The state machine records it beside each message, so that other layers
 * map the code and never parse the text.
 */
export type RefusalCode = 'phase' | 'not_your_turn' | 'invalid_event';

/** Record a broken rule: its message (validate prints it) and its code. */
function breakRule(state: DerivedState, code: RefusalCode, message: string): void {
  state.errors.push(message);
  state.codes.push(code);
}

/** The code of a refused event: a wrong phase outranks a wrong actor (nobody may do it now). */
export function refusalCodeOf(state: DerivedState): RefusalCode {
  if (state.codes.includes('phase')) return 'phase';
  if (state.codes.includes('not_your_turn')) return 'not_your_turn';
  return 'invalid_event';
}

/** The initial (empty) derived state. */
export function emptyState(): DerivedState {
  return {
    phase: null,
    proposalOwner: null,
    waitingFor: [],
    reviewersDue: [],
    acceptorsDue: [],
    latestClassification: 0,
    latestDecisionInput: 0,
    primaryDrafted: false,
    primaryFrozen: false,
    readinessPassed: false,
    errors: [],
    codes: [],
  };
}

const PHASE_RULES: Record<string, { phases: Phase[]; action: string }> = {
  deliverable_drafted: { phases: ['drafting', 'revising', 'decision_review'], action: 'deliverable draft' },
  deliverable_revised: { phases: ['revising', 'decision_review'], action: 'deliverable revision' },
  deliverable_frozen: { phases: ['readiness_check'], action: 'deliverable freeze' },
  proposal_submitted: { phases: ['drafting', 'revising'], action: 'proposal submission' },
  review_submitted: { phases: ['reviewing'], action: 'review submission' },
  proposal_revised: { phases: ['revising'], action: 'proposal revision' },
  decision_proposed: { phases: ['revising', 'decision_review'], action: 'decision proposal' },
  question_classified: { phases: ['decision_review'], action: 'question classification' },
  decision_accepted: { phases: ['decision_review'], action: 'decision acceptance' },
  readiness_passed: { phases: ['readiness_check'], action: 'readiness pass' },
  completed: { phases: ['readiness_check'], action: 'completion' },
};

/** `seq {s}` of an event, as messages print it. */
function seqText(event: Json): string {
  return pyStr(event.seq);
}

// The checks of applyEvent, as plain functions: a replay of a long log
// calls them for every event, and closures per event cost memory.
function requirePhase(state: DerivedState, event: Json, allowed: Phase[]): void {
  if (!state.phase || !allowed.includes(state.phase)) breakRule(state, 'phase', `seq ${seqText(event)}: ${pyStr(event.event)} is not allowed from phase ${state.phase ?? 'None'}`);
}

function requireActor(state: DerivedState, event: Json, allowed: string[], action: string): void {
  const actor = event.from;
  if (typeof actor === 'string' && allowed.includes(actor)) return;
  const who = allowed.length ? sortedPy(allowed).join(', ') : 'no participant';
  breakRule(state, 'not_your_turn', `seq ${seqText(event)}: ${action} is reserved for ${who}; got ${pyStr(actor)}`);
}

function requireOwner(state: DerivedState, event: Json, action: string): void {
  if (state.proposalOwner !== null) requireActor(state, event, [state.proposalOwner], action);
}

function ownerList(state: DerivedState): string[] {
  return state.proposalOwner === null ? [] : [state.proposalOwner];
}

/**
 * Apply one event to the derived state (mutates `state`), recording errors.
 * `readiness` is the *current* readiness.md (decision gates, spec §5).
 */
export function applyEvent(state: DerivedState, event: Json, participants: string[], readiness: ReadinessFacts): void {
  const name = event.event;
  // Supporting-deliverable events (most of a long log) have no effect.
  if (event.role !== 'primary' && DELIVERABLE_EVENTS.has(name as string)) return;
  // One small function per event: a replay of a long log makes them hot, and
  // the JIT compiles small functions much faster than one big switch.
  switch (name) {
    case 'initialized':
      return applyInitialized(state, event, participants);
    case 'blocked':
      state.phase = 'blocked';
      state.waitingFor = [];
      return;
    case 'deliverable_drafted':
    case 'deliverable_revised':
    case 'deliverable_frozen':
      return applyPrimaryDeliverable(state, event, name);
    case 'proposal_submitted':
      return applyProposalSubmitted(state, event, participants);
    case 'review_submitted':
      return applyReviewSubmitted(state, event);
    case 'proposal_revised':
    case 'decision_proposed':
      return applyDecisionInput(state, event, name);
    case 'question_classified':
      return applyQuestionClassified(state, event, participants);
    case 'decision_accepted':
      return applyDecisionAccepted(state, event, readiness);
    case 'readiness_passed':
      return applyReadinessPassed(state, event);
    case 'completed':
      return applyCompleted(state, event);
    default:
      return;
  }
}

function applyInitialized(state: DerivedState, event: Json, participants: string[]): void {
  const actor = event.from;
  if (pySeqKey(event.seq) !== 1) breakRule(state, 'invalid_event', 'initialized must be seq 1');
  if (typeof actor !== 'string' || !participants.includes(actor)) breakRule(state, 'invalid_event', `seq ${seqText(event)}: initialized participant is not listed in protocol.json`);
  state.proposalOwner = typeof actor === 'string' ? actor : pyStr(actor);
  state.phase = 'drafting';
  state.waitingFor = [state.proposalOwner];
}

function applyPrimaryDeliverable(state: DerivedState, event: Json, name: 'deliverable_drafted' | 'deliverable_revised' | 'deliverable_frozen'): void {
  const rule = PHASE_RULES[name]!;
  if (name === 'deliverable_revised' && state.primaryFrozen) breakRule(state, 'invalid_event', `seq ${seqText(event)}: deliverable_revised is not allowed after deliverable_frozen`);
  if (name === 'deliverable_frozen' && state.primaryFrozen) breakRule(state, 'invalid_event', `seq ${seqText(event)}: primary deliverable can be frozen only once`);
  requirePhase(state, event, rule.phases);
  requireOwner(state, event, rule.action);
  if (name === 'deliverable_frozen') state.primaryFrozen = true;
  else state.primaryDrafted = true;
}

function applyProposalSubmitted(state: DerivedState, event: Json, participants: string[]): void {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.proposal_submitted!.phases);
  if (!state.primaryDrafted) breakRule(state, 'invalid_event', `seq ${seqText(event)}: proposal_submitted requires prior primary deliverable_drafted`);
  requireActor(state, event, state.proposalOwner === null ? [pyStr(actor)] : [state.proposalOwner], 'proposal submission');
  state.proposalOwner = pyStr(actor);
  state.reviewersDue = participants.filter((p) => p !== state.proposalOwner);
  if (!state.reviewersDue.length) breakRule(state, 'invalid_event', `seq ${seqText(event)}: proposal_submitted requires at least one reviewer`);
  state.phase = 'reviewing';
  state.waitingFor = sortedPy(new Set(state.reviewersDue));
}

function applyReviewSubmitted(state: DerivedState, event: Json): void {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.review_submitted!.phases);
  requireActor(state, event, state.reviewersDue, 'review submission');
  state.reviewersDue = state.reviewersDue.filter((p) => p !== actor);
  // Each event sets the phase it leads to, even one refused from another phase (the Python tools' replay).
  if (state.reviewersDue.length) {
    state.phase = 'reviewing';
    state.waitingFor = sortedPy(new Set(state.reviewersDue));
  } else {
    state.phase = 'revising';
    state.waitingFor = ownerList(state);
  }
}

function applyDecisionInput(state: DerivedState, event: Json, name: 'proposal_revised' | 'decision_proposed'): void {
  const rule = PHASE_RULES[name]!;
  requirePhase(state, event, rule.phases);
  requireOwner(state, event, rule.action);
  state.latestDecisionInput = isPyIntLike(event.seq) ? Number(pySeqKey(event.seq)) : 0;
  state.latestClassification = 0;
  state.phase = 'decision_review';
  state.waitingFor = ownerList(state);
}

function applyQuestionClassified(state: DerivedState, event: Json, participants: string[]): void {
  requirePhase(state, event, PHASE_RULES.question_classified!.phases);
  requireOwner(state, event, 'question classification');
  state.latestClassification = isPyIntLike(event.seq) ? Number(pySeqKey(event.seq)) : 0;
  state.acceptorsDue = [...participants];
  state.phase = 'decision_review';
  state.waitingFor = sortedPy(new Set(state.acceptorsDue));
}

function applyDecisionAccepted(state: DerivedState, event: Json, readiness: ReadinessFacts): void {
  const actor = event.from;
  requirePhase(state, event, PHASE_RULES.decision_accepted!.phases);
  if (state.latestDecisionInput && state.latestClassification <= state.latestDecisionInput) {
    breakRule(state, 'invalid_event', `seq ${seqText(event)}: decision_accepted requires question_classified after the latest proposal or decision`);
  }
  requireActor(state, event, state.acceptorsDue, 'decision acceptance');
  // The gates read the *current* readiness.md, on every replay (spec §5).
  for (const message of decisionGateErrors(readiness)) breakRule(state, 'invalid_event', `seq ${seqText(event)}: ${message}`);
  state.acceptorsDue = state.acceptorsDue.filter((p) => p !== actor);
  if (state.acceptorsDue.length) {
    state.phase = 'decision_review';
    state.waitingFor = sortedPy(new Set(state.acceptorsDue));
  } else {
    state.phase = 'readiness_check';
    state.waitingFor = ownerList(state);
  }
}

function applyReadinessPassed(state: DerivedState, event: Json): void {
  requirePhase(state, event, PHASE_RULES.readiness_passed!.phases);
  if (!state.primaryFrozen) breakRule(state, 'invalid_event', `seq ${seqText(event)}: readiness_passed requires primary deliverable_frozen`);
  requireOwner(state, event, 'readiness pass');
  state.readinessPassed = true;
  state.phase = 'readiness_check';
  state.waitingFor = ownerList(state);
}

function applyCompleted(state: DerivedState, event: Json): void {
  if (state.phase !== 'readiness_check' || !state.readinessPassed) breakRule(state, 'invalid_event', `seq ${seqText(event)}: completed requires a prior readiness_passed event`);
  if (event.doc !== 'conclusion.md') breakRule(state, 'invalid_event', `seq ${seqText(event)}: completed must reference conclusion.md`);
  requireOwner(state, event, 'completion');
  state.phase = 'completed';
  state.waitingFor = [];
}

/** Replay a whole log (spec §5). */
export function replay(events: Json[], participants: string[], readiness: ReadinessFacts): DerivedState {
  const state = emptyState();
  for (const event of events) applyEvent(state, event, participants, readiness);
  return state;
}

/** Whose turn it is: protocol.json's cached turn, or the log's when the cache is a stale copy of an earlier point of it. */
export interface Turn {
  phase: unknown;
  proposalOwner: unknown;
  waitingFor: string[];
  /**
   * Set when protocol.json's cache is stale: its phase, owner, waitingFor
   * and `updatedAt` are exactly those after this earlier event (an append of
   * a later event died between its line and the rename, met a full disk, or
   * is between the two right now). The turn is then the log's.
   */
  staleAt?: Json;
}

/** The turn after one event. */
interface TurnSnapshot {
  event: Json;
  phase: Phase | null;
  owner: string | null;
  waiting: string[];
}

/** How many of the log's last events a stale cache may describe (every append repairs it, so one in practice). */
const STALE_DEPTH = 8;

/**
 * Follows a log event by event (the state machine's turn after each) and
 * tells whose turn it is against protocol.json's cache. A cache that
 * matches the end of the log, or no point of it at all (a hand edit, which
 * the Python tools read as written), is taken as it is; one that matches an
 * earlier event exactly, its time included, was left behind by an append,
 * and the log's turn is the answer.
 */
export class TurnTracker {
  readonly state = emptyState();
  #recent: TurnSnapshot[] = [];
  readonly #participants: string[];

  constructor(participants: string[]) {
    this.#participants = participants;
  }

  /** The next event of the log. */
  add(event: Json): void {
    // Phases and turns do not depend on readiness.md (only decision_accepted's errors do).
    applyEvent(this.state, event, this.#participants, NO_READINESS);
    if (this.#recent.length === STALE_DEPTH) this.#recent.shift();
    this.#recent.push({ event, phase: this.state.phase, owner: this.state.proposalOwner, waiting: this.state.waitingFor });
  }

  /** The turn, given protocol.json as read now. */
  turn(protocol: Json): Turn {
    const cached: Turn = { phase: protocol.currentPhase, proposalOwner: protocol.proposalOwner, waitingFor: cachedWaiting(protocol) };
    const matches = (r: TurnSnapshot): boolean => r.phase === protocol.currentPhase && r.owner === protocol.proposalOwner && sameList(protocol.waitingFor, r.waiting);
    const last = this.#recent.at(-1);
    if (!last || matches(last)) return cached;
    for (let i = this.#recent.length - 2; i >= 0; i--) {
      const r = this.#recent[i]!;
      if (r.event.at === protocol.updatedAt && matches(r)) return { phase: last.phase, proposalOwner: last.owner, waitingFor: [...last.waiting], staleAt: r.event };
    }
    return cached;
  }
}

const NO_READINESS: ReadinessFacts = { blocking: [], unresolved: [], deferredWithoutReason: [], readyToImplement: true, isGateChecked: () => true };

/** The turn of a folder whose log is read whole (see {@link TurnTracker}). */
export function turnOf(protocol: Json, events: Json[]): Turn {
  // Only a cache whose time is that of one of the last events but the very
  // last can be stale: most reads need no replay.
  if (!events.slice(-STALE_DEPTH - 1, -1).some((e) => e.at === protocol.updatedAt)) return { phase: protocol.currentPhase, proposalOwner: protocol.proposalOwner, waitingFor: cachedWaiting(protocol) };
  const tracker = new TurnTracker(participantIds(protocol));
  for (const event of events) tracker.add(event);
  return tracker.turn(protocol);
}

/**
 * Whether a stale-looking cache is an append caught between its line and
 * its rename (the folder lock held, or protocol.json caught up since): the
 * answer from the log is right either way, but only a cache left behind is
 * worth a note.
 */
async function appendInFlight(host: Host, folder: string, turn: Turn): Promise<boolean> {
  if ((await inspectFolderLock(host, folder).catch(() => undefined))?.status === 'held') return true;
  const now = await readProtocol(host, folder).catch(() => undefined);
  return now !== undefined && now.currentPhase === turn.phase && now.proposalOwner === turn.proposalOwner && sameList(now.waitingFor, turn.waitingFor);
}

/** Words for a stale cache, on stderr of the command that answered from the log. */
export function staleNote(turn: Turn, events: Json[] | Json | undefined): string | undefined {
  if (!turn.staleAt) return undefined;
  const last = Array.isArray(events) ? events.at(-1) : events;
  return `protocol.json is stale (it describes seq ${pyStr(turn.staleAt.seq)}; the log ends at seq ${pyStr(last?.seq)}): answering from the log; the next append or \`acp doctor --fix\` rewrites it`;
}

// ---------------------------------------------------------------------------
// Protocol declaration (protocol.json)
// ---------------------------------------------------------------------------

/** A participant entry: `{id}` (readers also accept plain strings). */
export type ParticipantEntry = { id: string } | string;

/** A completion gate. */
export interface CompletionGate {
  source: 'objective' | 'generated';
  text: string;
}

/** A deliverable declaration. */
export interface DeliverableDeclaration {
  type: string;
  file: string;
  checklist?: string[];
  frozen?: boolean;
  /** Set when the primary type is provided by a plugin (recorded as `custom` for other tools). */
  pluginType?: string;
  [extra: string]: unknown;
}

/** The deliverables block of protocol.json. */
export interface DeliverablesDeclaration {
  mode: 'internal' | 'external';
  dir: string;
  owner?: string;
  coAuthors?: string[];
  primary: DeliverableDeclaration;
  supporting?: DeliverableDeclaration[];
  attachments?: { file: string }[];
}

/** protocol.json as written by init (unknown extra keys are tolerated). */
export interface ProtocolDocument {
  protocol: 'acp';
  schemaVersion: 2;
  objective: string;
  objectiveGates: string[];
  participants: ParticipantEntry[];
  completionGates: CompletionGate[];
  deliverables: DeliverablesDeclaration;
  repoRoot?: string;
  currentPhase: Phase | null;
  proposalOwner: string | null;
  waitingFor: string[];
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** Participant ids of a protocol document, accepting `{id}` objects and strings. */
export function participantIds(protocol: Json): string[] {
  const list = protocol.participants;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new AcpError('protocol.json participants must be a list');
  const ids: string[] = [];
  for (const entry of list) {
    if (typeof entry === 'string') ids.push(entry);
    else if (isObject(entry) && typeof entry.id === 'string') ids.push(entry.id);
    else if (isObject(entry) && entry.id !== undefined) ids.push(pyStr(entry.id));
  }
  return ids;
}

/** Is this path unsafe (absolute or with a `..` segment)? (spec §3) */
export function isUnsafePath(path: string): boolean {
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return true;
  return path.split(/[\\/]/).includes('..');
}

/**
 * The reference string of a deliverable file: `{dir}/{file}` or
 * `external:{file}`, in `PurePosixPath`'s normal form as the Python tools
 * build it (`docs/` and `./x.md` give `docs/x.md`; dir `.` gives `x.md`).
 */
export function deliverableRef(protocol: Json, file: string): string {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  return refOf(deliverables.mode === 'external' ? 'external' : 'internal', typeof deliverables.dir === 'string' ? deliverables.dir : 'deliverables', file);
}

function refOf(mode: string, dir: string, file: string): string {
  return mode === 'external' ? `external:${purePosixPath(file)}` : purePosixPath(dir, file);
}

/** Reference of the primary deliverable, or `undefined` when not declared. */
export function primaryRef(protocol: Json): string | undefined {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : undefined;
  const primary = deliverables && isObject(deliverables.primary) ? deliverables.primary : undefined;
  if (!primary || typeof primary.file !== 'string') return undefined;
  return deliverableRef(protocol, primary.file);
}

function supportingEntries(protocol: Json): Json[] {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : undefined;
  const list = deliverables?.supporting;
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** Resolve a deliverable reference to an absolute path (no safety checks). */
export function resolveDeliverablePath(folder: string, protocol: Json, ref: string): string | undefined {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  const dir = typeof deliverables.dir === 'string' ? deliverables.dir : 'deliverables';
  if (ref.startsWith('external:')) {
    const repoRoot = typeof protocol.repoRoot === 'string' ? protocol.repoRoot : undefined;
    if (repoRoot === undefined) return undefined;
    return nodePath.resolve(folder, repoRoot, dir, ref.slice('external:'.length));
  }
  return nodePath.resolve(folder, ref);
}

/** Where an attachment is: in the deliverables directory, where the Python validator looks (issue 12 item 4). */
function attachmentPath(folder: string, protocol: Json, file: string): string {
  const deliverables = isObject(protocol.deliverables) ? protocol.deliverables : {};
  const dir = typeof deliverables.dir === 'string' ? deliverables.dir : 'deliverables';
  if (deliverables.mode === 'external' && typeof protocol.repoRoot === 'string') return nodePath.resolve(folder, protocol.repoRoot, dir, file);
  return nodePath.resolve(folder, dir, file);
}

/**
 * The directory a deliverable must stay in: its repoRoot for an
 * `external:` reference, else the collaboration folder.
 */
export function deliverableBoundary(folder: string, protocol: Json, ref: string): string {
  if (ref.startsWith('external:') && typeof protocol.repoRoot === 'string') return nodePath.resolve(folder, protocol.repoRoot);
  return folder;
}

/**
 * Read a deliverable's bytes; `undefined` when missing. **[beyond]** refuses
 * a file whose real path (symlinks followed) leaves its boundary.
 */
export async function readDeliverable(host: Host, folder: string, protocol: Json, ref: string): Promise<Uint8Array | undefined> {
  const path = resolveDeliverablePath(folder, protocol, ref);
  if (!path) return undefined;
  const stat = await host.fs.stat(path);
  if (!stat || !stat.isFile) return undefined;
  await assertInsideBoundary(host, path, deliverableBoundary(folder, protocol, ref), ref);
  return readCapped(host, path, READ_LIMITS.document, ref);
}

/**
 * The path of a document reference, checked like the CLI checks it: a
 * declared deliverable must stay inside its boundary (the folder, or
 * repoRoot for `external:`), any other name inside the folder, with
 * symlinks followed (for a file that does not exist yet, its nearest
 * existing ancestor's). For the RPC server's read and write, so both go
 * through the same check as `validate` and hooks.
 */
export async function checkedDocumentPath(host: Host, folder: string, protocol: Json, ref: string): Promise<string> {
  if (typeof ref !== 'string' || ref === '' || ref.includes('\0')) throw new AcpError(`not a document reference: ${pyRepr(ref)}`);
  const declared = [primaryRef(protocol), ...supportingEntries(protocol).map((entry) => (typeof entry.file === 'string' ? deliverableRef(protocol, entry.file) : undefined))];
  if (declared.includes(ref)) {
    const path = resolveDeliverablePath(folder, protocol, ref);
    if (!path) throw new AcpError(`deliverable ${ref}: protocol.json has no repoRoot`);
    await assertInsideBoundary(host, path, deliverableBoundary(folder, protocol, ref), ref);
    return path;
  }
  const path = nodePath.resolve(folder, ref);
  if (!isInside(path, folder)) throw new AcpError(`document ${ref} is outside the collaboration folder`);
  await assertInsideBoundary(host, path, folder, ref);
  return path;
}

/**
 * Read access to a folder's documents, for hooks and plugins: declared
 * deliverable references go through {@link readDeliverable}; other names
 * must stay inside the folder (symlinks followed). See {@link DocumentFiles}.
 */
export function documentFiles(host: Host, folder: string, protocol: Json): DocumentFiles {
  return {
    async read(ref: string): Promise<string | undefined> {
      if (typeof ref !== 'string' || ref === '' || ref.includes('\0')) throw new AcpError(`not a document reference: ${pyRepr(ref)}`);
      const declared = [primaryRef(protocol), ...supportingEntries(protocol).map((entry) => (typeof entry.file === 'string' ? deliverableRef(protocol, entry.file) : undefined))];
      if (declared.includes(ref)) {
        const bytes = await readDeliverable(host, folder, protocol, ref);
        return bytes === undefined ? undefined : decodeText(bytes, ref);
      }
      const path = nodePath.resolve(folder, ref);
      if (!isInside(path, folder)) throw new AcpError(`document ${ref} is outside the collaboration folder`);
      const stat = await host.fs.stat(path);
      if (!stat?.isFile) return undefined;
      await assertInsideBoundary(host, path, folder, ref);
      return decodeText(await readCapped(host, path, READ_LIMITS.document, ref), ref);
    },
  };
}

/**
 * A confined file system's refusal (a symlink, or a file, where a
 * directory was expected beneath the folder) as an {@link AcpError} (exit
 * 2, the folder unchanged); `undefined` for any other error.
 */
export function symlinkRefusal(error: unknown): AcpError | undefined {
  if (errorCode(error) !== 'ELOOP' && errorCode(error) !== 'ENOTDIR') return undefined;
  return new AcpError(`refused: ${(error as Error).message} (acp never reads or writes through a symlink there)`, 2, 'invalid_folder');
}

async function assertInsideBoundary(host: Host, path: string, boundary: string, ref: string): Promise<void> {
  let real: string;
  let realBoundary: string;
  try {
    real = await host.fs.realpath(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    real = nodePath.join(await realpathOfExistingAncestor(host, nodePath.dirname(path)), nodePath.basename(path));
  }
  try {
    realBoundary = await host.fs.realpath(boundary);
  } catch {
    realBoundary = boundary;
  }
  // Everything is "inside" the filesystem root: a boundary there bounds nothing.
  if (realBoundary === nodePath.parse(realBoundary).root) throw new AcpError(`deliverable ${ref}: repoRoot must not resolve to filesystem root`);
  if (!isInside(real, realBoundary)) throw new AcpError(`deliverable ${ref} resolves outside ${realBoundary} (symlink refused)`);
}

// ---------------------------------------------------------------------------
// Deliverable types (modules in deliverable-types/, registered at run time)
// ---------------------------------------------------------------------------

/** What a deliverable type's `check` receives. */
export interface DeliverableCheckContext {
  /** The deliverable's text (UTF-8, universal newlines). */
  text: string;
  /** Its reference, e.g. `deliverables/rfc.md`. */
  ref: string;
  /** The required sections (from {@link DeliverableType.sections}). */
  sections: string[];
  /** Whether frozen content is required (a freeze, readiness_passed or completed exists). */
  frozenRequired: boolean;
  /** Helpers for Markdown sections. */
  markdown: MarkdownHelpers;
}

/** Findings a check returns. */
export interface Findings {
  errors: string[];
  warnings: string[];
}

/**
 * A deliverable type: its template, its generated completion gates and its
 * checks. Built-in types and plugin types use this same shape.
 */
export interface DeliverableType {
  /** The type name written to protocol.json (`adr`, `rfc`, …). */
  type: string;
  /** Human title, used in the template heading. */
  title: string;
  /** Default file name (required for types other than `custom`). */
  defaultFile?: string;
  /** Short description for `acp types`. */
  description?: string;
  /** Required sections, in order. `checklist` is the declared checklist (custom types). */
  sections(checklist: string[]): string[];
  /** Template text of a new deliverable. Defaults to the protocol's template. */
  template?(context: { title: string; type: string; sections: string[] }): string;
  /**
   * Generated completion gates. Defaults to the protocol's six generated
   * gates; a type may add its own after them.
   */
  gates?(context: { ref: string; type: string; defaults: string[] }): string[];
  /** Extra checks beyond section presence/content (plugin types). */
  check?(context: DeliverableCheckContext): Findings | Promise<Findings>;
  /**
   * Record a folder of this type in protocol.json as `type: "custom"` with the
   * sections as its `checklist` and `pluginType: "{type}"`, so tools that do
   * not know this type (the Python tool set, acp without the plugin) still
   * validate it. Default: true for plugin types. `false` records the type's
   * own name, which only runtimes that load the plugin accept.
   */
  recordAsCustom?: boolean;
}

/** The protocol's template of a new deliverable (spec §3). */
export function defaultTemplate(context: { title: string; type: string; sections: string[] }): string {
  const head = `# ${context.title}\n\nDeliverable type: \`${context.type}\`\nStatus: Draft\n\n`;
  return head + context.sections.map((section) => `## ${section}\n\n\n`).join('\n');
}

/** The protocol's six generated completion gates (spec §9). */
export function defaultGates(ref: string, type: string): string[] {
  return [
    `Primary deliverable exists: \`${ref}\``,
    `Primary deliverable has required \`${type}\` sections`,
    'Every accepted decision has `Reflected in`',
    'Every accepted decision is reflected in the primary deliverable',
    'Primary deliverable status is `Frozen`',
    'Primary deliverable SHA-256 snapshot recorded',
  ];
}

// ---------------------------------------------------------------------------
// Reading protocol.json
// ---------------------------------------------------------------------------

/** Read protocol.json; raises the spec's messages (§6 step 1). */
export async function readProtocol(host: Host, folder: string): Promise<Json> {
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(host, nodePath.join(folder, 'protocol.json'), READ_LIMITS.protocol, 'protocol.json');
  } catch (error) {
    // A dangling or looping link, or a name too long to exist, is missing.
    if (['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG'].includes(errorCode(error) ?? '')) throw new AcpError(`missing protocol.json in ${folder}`, 2, 'invalid_folder');
    if (errorCode(error) === 'EISDIR') throw new AcpError('invalid protocol.json: protocol.json is a directory', 2, 'invalid_folder');
    throw error;
  }
  let text: string;
  try {
    text = decodeText(bytes, 'protocol.json');
  } catch {
    throw new AcpError('invalid protocol.json: not valid UTF-8', 2, 'invalid_folder');
  }
  // json.loads refuses a BOM; accepting it would let acp drive a folder the Python tools refuse (issue 12 item 9).
  if (text.charCodeAt(0) === 0xfeff) throw new AcpError('invalid protocol.json: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)', 2, 'invalid_folder');
  let value: unknown;
  try {
    value = loadsPy(text);
  } catch (error) {
    throw new AcpError(`invalid protocol.json: ${jsonErrorDetail(error)}`, 2, 'invalid_folder');
  }
  if (!isObject(value)) throw new AcpError('invalid protocol.json: top level must be an object', 2, 'invalid_folder');
  return value;
}

/**
 * A protocol document's text; `undefined` when missing. A directory in its
 * place is an error, never an empty document that passes (issue 12 item 9);
 * `validate` reports it once among its findings and reads it as missing.
 */
async function readTextIfExists(host: Host, path: string, name: string, directoryIsMissing = false): Promise<string | undefined> {
  try {
    return decodeText(await readCapped(host, path, READ_LIMITS.document, name), name);
  } catch (error) {
    if (errorCode(error) === 'EISDIR' && !directoryIsMissing) throw new AcpError(`${name} is a directory, not a file`, 2, 'invalid_folder');
    if (['ENOENT', 'EISDIR', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG'].includes(errorCode(error) ?? '')) return undefined;
    throw error;
  }
}

async function readReadinessFile(host: Host, folder: string): Promise<ReadinessFacts> {
  return readReadiness((await readTextIfExists(host, nodePath.join(folder, 'readiness.md'), 'readiness.md')) ?? '');
}

// ---------------------------------------------------------------------------
// Hooks and plugins
// ---------------------------------------------------------------------------

/** Context of the `init:files` hook. */
export interface InitFilesContext {
  /** The folder being created (absolute). */
  folder: string;
  /**
   * protocol.json as it will be written. Hooks may add extra keys (readers
   * ignore unknown keys, spec §2) but must not change the protocol's own.
   */
  protocol: ProtocolDocument;
  /**
   * Files to write besides protocol.json and events.jsonl: path relative to
   * the folder → text. Hooks may add, change or delete entries; paths must
   * stay inside the folder and must not exist yet (init never overwrites).
   */
  files: Map<string, string>;
}

/**
 * Read access to a collaboration's documents through the host, so a hook's
 * document check works on any host (the in-memory one included).
 */
export interface DocumentFiles {
  /**
   * Text of a document (UTF-8, universal newlines): a file of the folder
   * (`proposal.md`) or a declared deliverable reference
   * (`deliverables/adr.md`, `external:adr.md`). `undefined` when missing.
   * Paths that leave the folder or the deliverables' boundary are refused.
   */
  read(ref: string): Promise<string | undefined>;
}

/** Context of the `append:before` hook. */
export interface BeforeAppendContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  /** protocol.json as read before the append (a copy: changes are ignored). */
  protocol: Json;
  /** The event about to be written (frozen: a hook cannot alter it, only refuse it). */
  event: AcpEvent;
  /** State derived with the event applied (a copy). */
  state: DerivedState;
  /**
   * Veto the event: nothing is written and the CLI exits 2 with
   * `plugin '{name}' refused {event}: {message}`.
   */
  refuse(message: string): never;
}

/** Context of the `append:after` and `phase:change` hooks. */
export interface AfterAppendContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  /** protocol.json as read before the append. */
  protocol: Json;
  /** The event that was written. */
  event: AcpEvent;
  /** State after the event (what protocol.json now caches). */
  state: DerivedState;
  /** Phase before the event. */
  previousPhase: Phase | null;
  /** waitingFor before the event (to tell whose turn just came). */
  previousWaitingFor: string[];
}

/** Context of the `validate` hook. */
export interface ValidateHookContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  protocol: Json;
  events: Json[];
  /** The protocol's errors so far; push more (validate then exits 2). */
  errors: string[];
  /** The protocol's warnings so far; push more (exit 1 when no errors). */
  warnings: string[];
}

/** Context of the `next` hook. */
export interface NextHookContext {
  folder: string;
  /** The folder's documents (see {@link DocumentFiles}). */
  files: DocumentFiles;
  participant: string;
  /** The computed next action (do not mutate: other tools print the same). */
  result: NextResult;
  /** Extra lines printed after `next action:` as `hint: …` (`hints` in JSON). */
  hints: string[];
}

/**
 * The hook points. For each point, hooks run one after another (each awaited)
 * in plugin order: plugins with `enforce: 'pre'`, then normal ones, then
 * `'post'`; within a group, in load order (config file entries, then
 * `--plugin` options). A hook that throws stops the operation with an
 * {@link AcpPluginError} naming its plugin (exit 2), except where noted.
 */
export interface AcpHooks {
  /**
   * init, after the files are planned and the usage checks passed, before
   * anything is written. May add or change files (and add extra keys to
   * protocol.json). Throwing (or any refusal) writes nothing at all.
   */
  'init:files': (context: InitFilesContext) => void | Promise<void>;
  /**
   * append, under the folder lock, after every protocol check passed, before
   * the line is written. May veto with `refuse(message)`. Throwing or refusing
   * writes nothing; later hooks do not run.
   */
  'append:before': (context: BeforeAppendContext) => void | Promise<void>;
  /**
   * append, after the line and protocol.json were written and the lock was
   * released. The event stays written whatever happens here: every
   * `append:after` and `phase:change` hook runs even if an earlier one threw,
   * then the failures are reported (exit 2, saying the event was appended).
   */
  'append:after': (context: AfterAppendContext) => void | Promise<void>;
  /** Like `append:after`, after it, only when the event changed the phase. */
  'phase:change': (context: AfterAppendContext) => void | Promise<void>;
  /**
   * validate, after every protocol check (and the deliverable types' own
   * `check`) when protocol.json was readable. May push errors or warnings;
   * must not remove the protocol's.
   */
  validate: (context: ValidateHookContext) => void | Promise<void>;
  /** next and wait, after the next action is computed. May add hints. */
  next: (context: NextHookContext) => void | Promise<void>;
}

/** The hook names, for checking plugins. */
export const HOOK_NAMES: readonly (keyof AcpHooks)[] = ['init:files', 'append:before', 'append:after', 'phase:change', 'validate', 'next'];

/** Hook ordering, as in vite. */
export type HookOrder = 'pre' | 'normal' | 'post';

interface RegisteredHook {
  name: keyof AcpHooks;
  fn: (context: never) => unknown;
  order: HookOrder;
  owner: string;
  timeoutMs: number;
}

/** How long a hook call may take unless its plugin says otherwise ({@link AcpPlugin.timeoutMs}). */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

/**
 * Run a hook with a deadline: a hook that never settles must not hold the
 * folder lock (and every other writer) forever. A synchronous endless loop
 * cannot be interrupted from inside the process; the lock's lease covers it.
 */
async function callWithDeadline(hook: RegisteredHook, name: string, context: unknown): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const seconds = hook.timeoutMs / 1000;
      reject(new AcpError(`plugin '${hook.owner}' timed out in ${name} after ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`, 2, 'plugin_timeout'));
    }, hook.timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => (hook.fn as (context: unknown) => unknown)(context)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Thrown by `refuse()` inside `append:before`. */
class AcpRefusal extends Error {}

const ORDER_RANK: Record<HookOrder, number> = { pre: 0, normal: 1, post: 2 };

/** A typed hook runner (in the style of unjs/hookable). */
export class HookRunner {
  #hooks: RegisteredHook[] = [];

  /** Register a hook; returns a function that unregisters it. */
  hook<K extends keyof AcpHooks>(name: K, fn: AcpHooks[K], options: { order?: HookOrder; owner?: string; timeoutMs?: number } = {}): () => void {
    const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
    const entry: RegisteredHook = { name, fn: fn as (context: never) => unknown, order: options.order ?? 'normal', owner: options.owner ?? 'anonymous', timeoutMs };
    this.#hooks.push(entry);
    return () => {
      this.#hooks = this.#hooks.filter((h) => h !== entry);
    };
  }

  /** Whether any hook is registered under `name`. */
  has(name: keyof AcpHooks): boolean {
    return this.#hooks.some((h) => h.name === name);
  }

  /**
   * Run the hooks of `name` in order (`pre`, normal, `post`; registration
   * order within each), one after another. The first failure stops the run
   * and is thrown, unless `failures` is given: then every hook runs and the
   * failures are collected there (used after an append, which cannot be undone).
   */
  async call<K extends keyof AcpHooks>(name: K, context: Parameters<AcpHooks[K]>[0], failures?: AcpError[]): Promise<void> {
    // Array.prototype.sort is stable: registration order holds within a rank.
    const hooks = this.#hooks.filter((h) => h.name === name).sort((a, b) => ORDER_RANK[a.order] - ORDER_RANK[b.order]);
    for (const hook of hooks) {
      try {
        const result = await callWithDeadline(hook, name, context);
        checkHookOutcome(name, result, context);
      } catch (error) {
        let failure: AcpError;
        if (error instanceof AcpRefusal) {
          const event = (context as { event?: { event?: unknown } }).event?.event;
          failure = new AcpError(`plugin '${hook.owner}' refused ${event === undefined ? 'the event' : pyStr(event)}: ${error.message}`, 2, 'plugin_refused');
        } else if (error instanceof AcpError && error.code === 'plugin_timeout') failure = error;
        else failure = error instanceof AcpPluginError ? error : new AcpPluginError(hook.owner, name, error);
        if (!failures) throw failure;
        failures.push(failure);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Commands (data: the CLI edge, `--help` and plugins share one description)
// ---------------------------------------------------------------------------

/** One `--option` of a command. */
export interface CommandOptionSpec {
  /**
   * `boolean` is a flag; the others take a value: `string` as given, `int`
   * through Python's `int()`, `seconds` through Python's `float()` and
   * non-negative. Each type has one parser (runtime/argv.ts), whatever the door.
   */
  type: 'string' | 'boolean' | 'int' | 'seconds';
  /** One line for `--help`. */
  description: string;
  /** Repeatable: the value is a `string[]` (argparse's `action='append'`). */
  multiple?: boolean;
  /** Listed in argparse's `the following arguments are required: …` when absent. */
  required?: boolean;
  /** Allowed values, refused with argparse's `invalid choice` wording. */
  choices?: readonly string[];
  /** Placeholder in `--help` (default: the option name). */
  valueName?: string;
}

/**
 * A command: `acp {name} [args] [--options]`. The protocol's own commands are
 * the core's internal plugin; every other command (doctor, serve, rpc, …) is
 * contributed by a plugin the same way a user plugin contributes one.
 */
export interface CommandSpec<O extends Record<string, CommandOptionSpec> = Record<string, CommandOptionSpec>> {
  /** The word after `acp`. */
  name: string;
  /** One line for `acp --help`. */
  description: string;
  /** Positional arguments in order; a trailing `?` makes one optional (`'params?'`). */
  args?: readonly string[];
  /** Options by the name typed after `--` (`folder`, `reply-to`). */
  options?: Readonly<O>;
  /**
   * The command writes or waits through the folder's store ({@link Store}):
   * each store's flag (`--git`) is one of its options, and
   * {@link CommandContext.store} opens the store they choose.
   */
  store?: boolean;
  /**
   * An extension's options under which it answers the command itself,
   * without calling `next()` (`wait --server` waits on a server, not the
   * folder). Given together with an option another plugin added to the
   * command (a store's flag included), the command is refused before it
   * runs, in argparse's words (`argument --git: not allowed with argument
   * --server`). Without one of them given, an extension must call `next()`:
   * two extensions never silently drop each other.
   */
  answers?: readonly string[];
  /**
   * Extend the command of this name instead of adding one: the options are
   * merged into it and `run` wraps it (call `context.next()` to run the
   * wrapped command). Used by `wait --server` (plugin `rpc`).
   */
  extend?: boolean;
  /**
   * Run the command. Return the exit code (default 0), or a
   * {@link CommandResult} whose `json` the CLI prints under `--json` and the
   * RPC server returns as the call's result. Text output goes through
   * `context.out` (commands print no text when `context.json` is set).
   */
  run(context: CommandContext<OptionValuesOf<O>>): Promise<CommandOutcome> | CommandOutcome;
}

/** The value `run` gets for one option (see {@link CommandOptionSpec.type}). */
export type OptionValue<O extends CommandOptionSpec> = O extends { type: 'boolean' }
  ? boolean
  : O extends { type: 'int' | 'seconds' }
    ? O extends { multiple: true }
      ? number[]
      : number
    : O extends { multiple: true }
      ? string[]
      : string;

/** The options `run` gets, typed from their data: a required option is always there. */
export type OptionValuesOf<O extends Record<string, CommandOptionSpec>> = string extends keyof O
  ? OptionValues
  : { [K in keyof O]: O[K] extends { required: true } ? OptionValue<O[K]> : OptionValue<O[K]> | undefined };

/** What a command returns: an exit code, or a typed result. */
export type CommandOutcome = number | void | CommandResult;

/** A command's typed result. */
export interface CommandResult {
  exitCode: number;
  /** The result as JSON (what `--json` prints); by convention it carries `ok` and `exitCode`. */
  json?: Json;
}

/** Parsed option values: a string or number, a list (`multiple`), `true` (flags), or undefined when absent. */
export type OptionValues = Record<string, string | string[] | number | number[] | boolean | undefined>;

/** What a command's `run` gets. Output goes through `out`/`err`; only the CLI edge touches the process. */
export interface CommandContext<V = OptionValues> {
  /** The command's name. */
  name: string;
  /** Positional arguments by name. */
  args: Record<string, string | undefined>;
  /**
   * Options by name, typed from the command's option data (an extension
   * also sees the options of the command it wraps, untyped).
   */
  options: V & OptionValues;
  /** The library: every function a plugin may call (see {@link libraryApi}). */
  api: AcpApi;
  host: Host;
  registry: Registry;
  runtime: RuntimeFacts;
  /** Print one line on stdout. */
  out(text: string): void;
  /** Print one line on stderr. */
  err(text: string): void;
  /** `--json` was given: print one JSON object instead of text. */
  json: boolean;
  /** Colour is allowed (a TTY, and NO_COLOR/FORCE_COLOR say so; decided at the edge). */
  color: boolean;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM). */
  signal: AbortSignal;
  /** Read an environment variable through the edge (`undefined` when absent or not permitted). */
  env(name: string): string | undefined;
  /** `--folder`, resolved against the working directory (a usage error when missing). */
  folder(): string;
  /** The store that serves `folder` in this run: the stores' flags given to the command, else the configuration, else the local folder. */
  store(folder: string): Promise<Store>;
  /** The wrapped command, inside an `extend` command's `run`. */
  next(): Promise<CommandResult>;
}

/**
 * Hooks answer through their context (`refuse()`, `errors.push()`, `hints`),
 * never through a return value: a value returned (`return false` to veto,
 * say) would be ignored, so it is an error; so is a non-string message.
 */
function checkHookOutcome(name: keyof AcpHooks, result: unknown, context: unknown): void {
  if (result !== undefined) {
    const hint = name === 'append:before' ? '; to veto the event call refuse(message)' : '';
    throw new Error(`the hook returned ${result === null ? 'null' : typeof result} where nothing is expected (hooks answer through their context${hint})`);
  }
  const lists = name === 'validate' ? ['errors', 'warnings'] : name === 'next' ? ['hints'] : [];
  for (const key of lists) {
    const list = (context as Record<string, unknown>)[key];
    if (Array.isArray(list) && list.some((item) => typeof item !== 'string')) {
      const index = list.findIndex((item) => typeof item !== 'string');
      list.splice(index);
      throw new Error(`${key}[${index}] is not a string (push messages as strings)`);
    }
  }
}

/** A plugin: hooks, deliverable types, commands, and cleanup. */
export interface AcpPlugin {
  /** Unique name, used in error messages and `acp types`. */
  name: string;
  /** Ordering of this plugin's hooks: `pre` run first, `post` last. */
  enforce?: 'pre' | 'post';
  /** Hooks by name (see {@link AcpHooks} for when each runs). */
  hooks?: Partial<AcpHooks>;
  /**
   * Deadline of each of this plugin's hook calls, in milliseconds (default
   * {@link DEFAULT_HOOK_TIMEOUT_MS}): past it the command fails, exit 2,
   * nothing written, the lock released.
   */
  timeoutMs?: number;
  /** Deliverable types this plugin provides. */
  deliverableTypes?: DeliverableType[];
  /** Commands this plugin adds (or extends, see {@link CommandSpec.extend}). */
  commands?: CommandSpec[];
  /** Stores this plugin provides: where a folder's writes go and how its waiters hear of others' (see {@link StoreProvider}). */
  stores?: StoreProvider[];
  /**
   * A valibot schema (built with `context.valibot`) for this plugin's options
   * from acp.config.yaml; options it refuses (an unknown key, a wrong type)
   * stop the run with an error naming the plugin.
   */
  optionsSchema?: unknown;
  /** Runs once when the plugin is loaded, before its hooks are registered. */
  setup?(context: PluginContext): void | Promise<void>;
  /** Runs when the command is done (always, in reverse load order). */
  cleanup?(): void | Promise<void>;
}

/**
 * The API handed to plugin modules. Plugins get everything through this
 * argument, so they work from a compiled binary whose bundled packages they
 * cannot import.
 */
export interface PluginContext {
  /** The library: the same functions acp.ts exports (see {@link libraryApi}). */
  api: AcpApi;
  definePlugin: typeof definePlugin;
  defineCommand: typeof defineCommand;
  defineDeliverableType: typeof defineDeliverableType;
  markdown: MarkdownHelpers;
  defaultTemplate: typeof defaultTemplate;
  defaultGates: typeof defaultGates;
  /** Options from the config file for this plugin (`{}` when none). */
  options: Record<string, unknown>;
  /** The runtime this plugin runs in (for running commands etc.). */
  runtime: RuntimeFacts;
  /** Where the plugin came from (file path, `acp:{name}` or `inline`). */
  source: string;
  /** Print `warning: {message}` on stderr (never changes the exit code). */
  warn(message: string): void;
  /** The valibot module, for {@link AcpPlugin.optionsSchema} (present for plugins loaded from files or config). */
  valibot?: typeof import('valibot');
}

/** What a plugin may know about the runtime. */
export interface RuntimeFacts {
  name: 'node' | 'bun' | 'deno' | 'unknown';
  /**
   * Run a command: an argv array, no shell. Resolves with its exit code
   * (`null` when killed, e.g. on timeout) and output; rejects when it cannot
   * start (not found, or Deno without `--allow-run`). With `detached` it
   * resolves as soon as the command started and does not wait for it;
   * `input` is written to its standard input (else it has none).
   * Undefined where the host cannot run commands.
   */
  run?(
    command: string[],
    options?: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; detached?: boolean; input?: string },
  ): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Whether a path may be read without asking (Deno permissions); undefined = yes. */
  mayRead?(path: string): boolean;
  /** This process's user id, when the runtime may know it (undefined on Windows and under Deno without `--allow-sys=uid`). */
  uid?: number;
}

/** Where a registered thing came from (for `acp types` and error messages). */
export interface Origin {
  kind: 'built-in' | 'plugin';
  /** The module: `deliverable-types/adr.ts`, a plugin file path, `acp:rfc` or `inline`. */
  source: string;
  /** How it was asked for: `--plugin`, the config file's path, or `createRegistry`. */
  via?: string;
  /** The plugin that provided it. */
  plugin?: string;
}

const TYPE_NAME_RE = /^[a-z0-9][a-z0-9._-]*$/;
const OPTION_TYPES: readonly unknown[] = ['string', 'boolean', 'int', 'seconds'] satisfies CommandOptionSpec['type'][];

/** Deliverable types and plugins known to a runtime instance. */
export class Registry {
  readonly types = new Map<string, { definition: DeliverableType; origin: Origin }>();
  readonly plugins: { plugin: AcpPlugin; origin: Origin }[] = [];
  readonly hooks = new HookRunner();
  /** The plugins' stores, in load order (see {@link openStore}). */
  readonly stores: StoreProvider[] = [];
  /**
   * Commands by name. `chain` is the command followed by the plugins'
   * `extend` wrappers, innermost first (the CLI runs the last one).
   */
  readonly commands = new Map<string, { spec: CommandSpec; origin: Origin; chain: CommandSpec[]; owners: string[] }>();
  /**
   * The configuration file the loader read (none with `--no-config`): its
   * path and its top-level sections other than `plugins:` (e.g. `git:`),
   * for the plugins that own them.
   */
  config?: { file: string; sections: Record<string, unknown> };

  /** Register a deliverable type. A name can be registered once (built-in names are reserved). */
  addType(definition: DeliverableType, origin: Origin): void {
    this.#checkType(definition, origin);
    this.types.set(definition.type, { definition, origin });
  }

  #checkType(definition: DeliverableType, origin: Origin): void {
    const who = origin.plugin ? `plugin '${origin.plugin}'` : origin.source;
    if (!definition || typeof definition !== 'object' || typeof definition.type !== 'string' || typeof definition.sections !== 'function') {
      throw new AcpError(`${who}: a deliverable type needs a \`type\` name and a \`sections()\` function`);
    }
    if (!TYPE_NAME_RE.test(definition.type)) throw new AcpError(`${who}: deliverable type name '${definition.type}' must match ${TYPE_NAME_RE.source}`);
    if (typeof definition.title !== 'string' || !pyStrip(definition.title)) throw new AcpError(`${who}: deliverable type '${definition.type}' needs a title`);
    const existing = this.types.get(definition.type);
    if (existing) {
      const other = existing.origin.kind === 'built-in' ? 'built in' : `already defined by plugin '${existing.origin.plugin}' (${existing.origin.source})`;
      throw new AcpError(`${who}: deliverable type '${definition.type}' is ${other}`);
    }
  }

  /** Look a type up. */
  type(name: string): DeliverableType | undefined {
    return this.types.get(name)?.definition;
  }

  /** Register a plugin (its setup, then its types and hooks). Nothing is registered if it fails. */
  async addPlugin(plugin: AcpPlugin, origin: Origin, context?: PluginContext): Promise<void> {
    if (!plugin || typeof plugin !== 'object' || typeof plugin.name !== 'string' || !pyStrip(plugin.name)) {
      throw new AcpError(`plugin from ${origin.source} must have a name`);
    }
    const where = `plugin '${plugin.name}' (${origin.source})`;
    const twin = this.plugins.find((p) => p.plugin.name === plugin.name);
    if (twin) throw new AcpError(`${where} is loaded twice (first from ${twin.origin.source})`);
    if (plugin.enforce !== undefined && plugin.enforce !== 'pre' && plugin.enforce !== 'post') throw new AcpError(`${where}: enforce must be 'pre' or 'post'`);
    if (plugin.timeoutMs !== undefined && !(typeof plugin.timeoutMs === 'number' && plugin.timeoutMs > 0 && plugin.timeoutMs <= 2 ** 31 - 1)) {
      throw new AcpError(`${where}: timeoutMs must be a positive number of milliseconds`);
    }
    const hooks = Object.entries(plugin.hooks ?? {});
    for (const [name, fn] of hooks) {
      if (!(HOOK_NAMES as readonly string[]).includes(name)) throw new AcpError(`${where} has an unknown hook '${name}' (known: ${HOOK_NAMES.join(', ')})`);
      if (typeof fn !== 'function') throw new AcpError(`${where}: hook '${name}' must be a function`);
    }
    const types = plugin.deliverableTypes ?? [];
    if (!Array.isArray(types)) throw new AcpError(`${where}: deliverableTypes must be an array`);
    const commands = plugin.commands ?? [];
    if (!Array.isArray(commands)) throw new AcpError(`${where}: commands must be an array`);
    for (const command of commands) this.#checkCommand(command, where);
    const stores = plugin.stores ?? [];
    if (!Array.isArray(stores) || !stores.every(isStoreProvider)) throw new AcpError(`${where}: stores must be an array of { name, open(context), flag? }`);
    if (plugin.optionsSchema !== undefined && context) await checkPluginOptions(plugin, context, where);
    const typeOrigin: Origin = { ...origin, plugin: plugin.name };
    types.forEach((type, index) => {
      this.#checkType(type, typeOrigin);
      if (types.findIndex((t) => t.type === type.type) !== index) throw new AcpError(`${where} defines deliverable type '${type.type}' twice`);
    });
    try {
      await plugin.setup?.(context ?? pluginContext({}, undefined, { source: origin.source }));
    } catch (error) {
      throw new AcpPluginError(plugin.name, 'setup', error);
    }
    this.plugins.push({ plugin, origin: typeOrigin });
    for (const type of types) this.types.set(type.type, { definition: type, origin: typeOrigin });
    const order: HookOrder = plugin.enforce ?? 'normal';
    for (const [name, fn] of hooks) this.hooks.hook(name as keyof AcpHooks, fn as never, { order, owner: plugin.name, timeoutMs: plugin.timeoutMs });
    for (const command of commands) this.#addCommand(command, typeOrigin);
    for (const store of stores) this.#addStore(store);
  }

  /** A store's flag becomes an option of every command that writes or waits through the store. */
  #addStore(provider: StoreProvider): void {
    this.stores.push(provider);
    if (!provider.flag) return;
    for (const [name, entry] of this.commands) {
      if (entry.spec.store) this.commands.set(name, { ...entry, spec: withStoreFlags(entry.spec, [provider]) });
    }
  }

  #checkCommand(command: CommandSpec, where: string): void {
    if (!command || typeof command !== 'object' || typeof command.name !== 'string' || typeof command.run !== 'function') {
      throw new AcpError(`${where}: a command needs a \`name\` and a \`run(context)\` function`);
    }
    if (!/^[a-z][a-z0-9-]*$/.test(command.name)) throw new AcpError(`${where}: command name '${command.name}' must match ^[a-z][a-z0-9-]*$`);
    const existing = this.commands.get(command.name);
    if (existing && !command.extend) throw new AcpError(`${where}: command '${command.name}' is already defined by ${existing.origin.plugin ? `plugin '${existing.origin.plugin}'` : existing.origin.source}`);
    if (!existing && command.extend) throw new AcpError(`${where}: extends command '${command.name}', which no plugin defines`);
    for (const [name, option] of Object.entries(command.options ?? {})) {
      if (!OPTION_TYPES.includes(option?.type)) throw new AcpError(`${where}: option --${name} of command '${command.name}' needs type ${OPTION_TYPES.map((t) => `'${t}'`).join(', ')}`);
    }
  }

  #addCommand(command: CommandSpec, origin: Origin): void {
    const existing = this.commands.get(command.name);
    if (!existing) {
      this.commands.set(command.name, { spec: command.store ? withStoreFlags(command, this.stores) : command, origin, chain: [command], owners: [origin.plugin ?? origin.source] });
      return;
    }
    // An extension adds its options to the command it wraps.
    const spec: CommandSpec = { ...existing.spec, options: { ...existing.spec.options, ...command.options } };
    this.commands.set(command.name, { spec, origin: existing.origin, chain: [...existing.chain, command], owners: [...existing.owners, origin.plugin ?? origin.source] });
  }

  /** Run every plugin's cleanup in reverse order; all run even if some throw. */
  async cleanup(): Promise<void> {
    const failures: string[] = [];
    const plugins = this.plugins.splice(0).reverse();
    for (const { plugin } of plugins) {
      try {
        await plugin.cleanup?.();
      } catch (error) {
        failures.push(new AcpPluginError(plugin.name, 'cleanup', error).message);
      }
    }
    if (failures.length) throw new AcpError(failures);
  }
}

function isStoreProvider(value: unknown): value is StoreProvider {
  if (!isObject(value) || typeof value.name !== 'string' || typeof value.open !== 'function') return false;
  const flag = value.flag;
  return flag === undefined || (isObject(flag) && typeof flag.name === 'string' && /^[a-z][a-z0-9-]*$/.test(flag.name) && typeof flag.description === 'string');
}

/** A command that writes or waits through the store, with each store's flag as a boolean option. */
function withStoreFlags(spec: CommandSpec, providers: readonly StoreProvider[]): CommandSpec {
  const flags = Object.fromEntries(providers.filter((p) => p.flag).map((p) => [p.flag!.name, { type: 'boolean', description: p.flag!.description } as const]));
  return { ...spec, options: { ...spec.options, ...flags } };
}

/** Check a plugin's options against its declared valibot schema. */
async function checkPluginOptions(plugin: AcpPlugin, context: PluginContext, where: string): Promise<void> {
  const v = context.valibot ?? (await import('valibot'));
  const result = v.safeParse(plugin.optionsSchema as Parameters<typeof v.safeParse>[0], context.options);
  if (result.success) return;
  const issue = result.issues[0];
  const key = issue.path?.map((p: { key: unknown }) => String(p.key)).join('.') ?? '';
  throw new AcpError(`${where}: option ${key ? `'${key}'` : '(top level)'}: ${issue.message}`, 2, 'plugin_failed');
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Call a deliverable type's code (sections, template, gates): a throw or a
 * result of the wrong shape becomes an {@link AcpPluginError} naming its plugin.
 */
export function callType<T>(registry: Registry, type: string, what: string, fn: () => T, valid: (value: unknown) => boolean): T {
  const origin = registry.types.get(type)?.origin;
  const fail = (cause: unknown): never => {
    throw new AcpPluginError(origin?.plugin ?? origin?.source ?? type, `${what} of deliverable type '${type}'`, cause);
  };
  let value: T;
  try {
    value = fn();
  } catch (error) {
    if (error instanceof AcpError) throw error;
    return fail(error);
  }
  if (!valid(value)) fail(`it returned ${Array.isArray(value) ? 'an array' : typeof value}, which is not what acp expects`);
  return value;
}

/** Build the context handed to a plugin module. */
export function pluginContext(
  options: Record<string, unknown>,
  runtime: RuntimeFacts = { name: 'unknown' },
  extra: { source?: string; warn?(message: string): void; valibot?: typeof import('valibot') } = {},
): PluginContext {
  const warn = extra.warn ?? (() => undefined);
  return { api: libraryApi(), definePlugin, defineCommand, defineDeliverableType, markdown, defaultTemplate, defaultGates, options, runtime, source: extra.source ?? 'inline', warn, valibot: extra.valibot };
}

/**
 * Load the built-in deliverable types. They are ordinary modules in
 * `deliverable-types/`, imported at run time (and embedded in bundles).
 */
export async function loadBuiltInTypes(registry: Registry): Promise<void> {
  const { builtInDeliverableTypes } = await import('./deliverable-types/index.ts');
  for (const definition of builtInDeliverableTypes) registry.addType(definition, { kind: 'built-in', source: `deliverable-types/${definition.type}.ts` });
}

/**
 * Plugins shipped in `plugins/`, loadable as `acp:{name}` (`--plugin acp:rfc`).
 * Literal imports, so bundles and the compiled binary embed them.
 */
const BUNDLED_PLUGINS: Record<string, () => Promise<unknown>> = {
  rfc: () => import('./plugins/rfc.ts'),
  'notify-turn': () => import('./plugins/notify-turn.ts'),
};

/**
 * Plugins every CLI run loads: the commands beyond the protocol's own. Each
 * module only describes its commands; their code loads when one runs.
 */
const BUILT_IN_PLUGINS: Record<string, () => Promise<{ default: unknown }>> = {
  protocol: () => import('./plugins/protocol.ts'),
  doctor: () => import('./plugins/doctor.ts'),
  rpc: () => import('./plugins/rpc.ts'),
  git: () => import('./plugins/git.ts'),
  mcp: () => import('./plugins/mcp.ts'),
  humans: () => import('./plugins/humans.ts'),
};

/** A plugin to load: a file path or `acp:{name}`, with options, or a plugin/type object. */
export type PluginEntry = string | { path: string; options?: Record<string, unknown> } | AcpPlugin | DeliverableType;

/** Options of {@link createRegistry}. */
export interface RegistryOptions {
  /** Plugins to load after the config file's; paths resolve against `cwd`. */
  plugins?: PluginEntry[];
  /** Also load the `plugins:` of the nearest `acp.config.yaml` in `cwd` or its ancestors. */
  config?: boolean;
  /** Working directory (default: the host's). */
  cwd?: string;
  /** The collaboration folder worked on: plugin code inside it is refused. */
  folder?: string;
  host?: Host;
  runtime?: RuntimeFacts;
  /** Where plugins print warnings (default: nowhere). */
  warn?(message: string): void;
  /** How `plugins` entries were asked for, shown by `acp types` (default `createRegistry`). */
  via?: string;
  /** Also register the commands: the protocol's own and the built-in plugins' (the CLI does). */
  builtIns?: boolean;
  /** Directories holding collaborations (`acp serve`'s root): the config search never looks in them. */
  collaborationRoots?: string[];
  /** Environment access (`ACP_TRUSTED_CONFIG`, `HOME` for the config search); default: none. */
  env?(name: string): string | undefined;
}

/**
 * A registry with the built-in deliverable types and, when asked, plugins.
 * If loading fails, the plugins already loaded are cleaned up; otherwise call
 * `registry.cleanup()` when done with it.
 */
export async function createRegistry(options: RegistryOptions = {}): Promise<Registry> {
  const registry = new Registry();
  await loadBuiltInTypes(registry);
  try {
    if (options.builtIns) await loadBuiltInPlugins(registry, options);
    if (!options.plugins?.length && !options.config) return registry;
    const { loadPlugins } = await import('./runtime/loader.ts');
    const host = options.host ?? (await createNodeHost());
    await loadPlugins(registry, { ...options, host }, libraryApi(), BUNDLED_PLUGINS);
  } catch (error) {
    await registry.cleanup().catch(() => undefined);
    throw error;
  }
  return registry;
}

/** Register the protocol's commands and the built-in plugins (see {@link BUILT_IN_PLUGINS}). */
async function loadBuiltInPlugins(registry: Registry, options: RegistryOptions): Promise<void> {
  for (const [name, load] of Object.entries(BUILT_IN_PLUGINS)) {
    const context = pluginContext({}, options.runtime, { source: `acp:${name}`, warn: options.warn });
    const exported = (await load()).default;
    const plugin = (typeof exported === 'function' ? await exported(context) : exported) as AcpPlugin;
    await registry.addPlugin(plugin, { kind: 'built-in', source: `plugins/${name}.ts` }, context);
  }
}

// ---------------------------------------------------------------------------
// Append (spec §6)
// ---------------------------------------------------------------------------

/** What an append asks for. */
export interface AppendRequest {
  participant: string;
  event: string;
  summary: string;
  doc?: string;
  replyTo?: number;
  role?: string;
  sha256?: string;
  /**
   * In a signed collaboration: announce a new signing key in this event,
   * signed by the current one, and sign with the new key from then on
   * (docs/signing.md).
   */
  rotateKey?: boolean;
}

/** What an append did. */
export interface AppendResult {
  event: AcpEvent;
  state: DerivedState;
  previousPhase: Phase | null;
  /** waitingFor before the event. */
  previousWaitingFor: string[];
  /**
   * What went wrong after the event line was durable (a full disk while
   * rewriting protocol.json): the append happened; the cached state is stale
   * until the next append or `acp doctor --fix`.
   */
  warnings?: string[];
  /** The store that published it, and how many runs of the transaction that took (git: rejected pushes + 1). */
  store?: { name: string; attempts: number };
}

/** Options of {@link append} and {@link transact}. */
export interface AppendOptions {
  /** Told once what a held lock waits for (see {@link FolderLockOptions.onWait}). */
  onLockWait?: (message: string) => void;
  /** Give up when the lock has not changed hands (nor the line ahead moved) for this long (default 60 s); a line that keeps moving is waited out. */
  lockTimeoutMs?: number;
  /** Told what a store found and settled on the way (git: an earlier run's event that did or did not land). */
  onNote?: (line: string) => void;
  /** The store to write through (default: the one {@link openStore} chooses for the folder). */
  store?: Store;
  /**
   * [beyond] Strict mode: refuse, in validate's words, an event after which
   * the folder would fail `validate --strict` (see {@link strictSetting}).
   * Default: the configuration's `strict:` key, else off (the Python tools'
   * behaviour).
   */
  strict?: boolean;
}

/**
 * Whether appends are strict: `strict: true|false` in acp.config.yaml,
 * else the door's default (`false` for the CLI and the library, `true` for
 * the MCP and JSON-RPC servers, whose callers are agents).
 */
export function strictSetting(registry: Registry | undefined, doorDefault: boolean): boolean {
  const configured = registry?.config?.sections.strict;
  return typeof configured === 'boolean' ? configured : doorDefault;
}

/** Declared supporting references per protocol document (validate checks every deliverable event). */
const supportingRefsCache = new WeakMap<Json, string[]>();

function deliverableDocErrors(protocol: Json, event: { doc?: unknown; role?: unknown }): string[] {
  const role = event.role;
  const doc = event.doc;
  if (role === undefined || role === null || role === '') return ['deliverable events require role'];
  if (doc === undefined || doc === null || doc === '') return ['deliverable events require doc'];
  if (role === 'primary' && doc !== primaryRef(protocol)) return ['doc must reference the primary deliverable'];
  if (role === 'supporting' && !supportingRefs(protocol).includes(doc as string)) return ['doc must reference a declared supporting deliverable'];
  return [];
}

/** The declared supporting deliverables' references (once per protocol object: validate asks for each event). */
function supportingRefs(protocol: Json): string[] {
  let refs = supportingRefsCache.get(protocol);
  if (!refs) supportingRefsCache.set(protocol, (refs = supportingEntries(protocol).filter((s) => typeof s.file === 'string').map((s) => deliverableRef(protocol, s.file as string))));
  return refs;
}

async function freezeErrors(host: Host, folder: string, protocol: Json, doc: string, sha: unknown): Promise<string[]> {
  if (typeof sha !== 'string' || !SHA256_HEX.test(sha)) return ['deliverable_frozen requires sha256'];
  const bytes = await readDeliverable(host, folder, protocol, doc);
  if (!bytes) return ['deliverable_frozen doc does not exist'];
  if ((await sha256Hex(bytes)) !== sha) return ['deliverable_frozen sha256 does not match current file'];
  return [];
}

function readinessAppendErrors(readiness: ReadinessFacts, eventName: string): string[] {
  return readinessGateErrors(readiness, 'first', eventName !== 'decision_accepted');
}

function completionGateTexts(protocol: Json): string[] {
  const gates = protocol.completionGates;
  if (!Array.isArray(gates)) return [];
  return gates.filter(isObject).map((g) => g.text).filter((t): t is string => typeof t === 'string');
}

/** DerivedState keys the checkpoint stores (all but the readiness-dependent errors). */
function stateKeys(): string[] {
  return Object.keys(emptyState())
    .filter((key) => key !== 'errors' && key !== 'codes')
    .sort();
}

// ---------------------------------------------------------------------------
// The one transaction: every door and every store ([beyond])
// ---------------------------------------------------------------------------

/** What a write is about, so that a store can publish exactly that. */
export interface WriteIntent {
  /** Who writes. */
  participant: string;
  /** `append` (one event), `freeze` (a deliverable frozen and its event), `write` (a document written through a server). */
  kind: 'append' | 'freeze' | 'write';
  /**
   * Absolute paths of the documents the write speaks for besides
   * events.jsonl and protocol.json (what a participant edits before the
   * event): a store that publishes takes their changes along.
   */
  documents: string[];
}

/** What a store's transaction body gets: the held lock, and a record of what it wrote. */
export interface StoreSession {
  /** The folder lock, held for the whole body. */
  readonly lock: FolderLock;
  /** The store brought the folder up to date before this run: anything read before the transaction may be stale. */
  readonly synced: boolean;
  /** Absolute paths the body wrote (the log and protocol.json included). */
  readonly written: Set<string>;
  /** One line per thing done (`seq 3 review_submitted by bob`), for the store's record (a commit message). */
  readonly done: string[];
  /** 1 for the first run of the body; more when the store ran it again (git: a rejected push). */
  readonly attempt: number;
}

/**
 * Where a folder's writes become durable and reach the other participants:
 * the local folder (the default), or a plugin's (git). Every door — the CLI,
 * the library, the JSON-RPC and MCP servers, `freeze` — writes through
 * {@link transact}, which runs the body inside the folder's store.
 */
export interface Store {
  /** Its name, for messages and `--json` (`local`, `git`). */
  readonly name: string;
  /**
   * Run `body` under the folder lock and resolve once what it wrote is
   * durable where the others read it. The body may run more than once (git:
   * another clone pushed first; the folder is brought up to date and every
   * check runs again), so it keeps no state between runs. A refusal thrown
   * by the body is passed on and nothing is published.
   */
  transact<T>(folder: string, intent: WriteIntent, body: (session: StoreSession) => Promise<T>, options?: Pick<AppendOptions, 'onLockWait' | 'lockTimeoutMs' | 'onNote'>): Promise<T>;
  /**
   * Keep the local folder up to date while someone waits on it (git: fetch
   * and fast-forward now, then in the background with back-off). Resolves
   * once the folder is current; `failed` ends the wait with an error that no
   * retry can fix. Returns the function that stops following.
   */
  follow?(folder: string, options: FollowOptions): Promise<() => void>;
}

/** Options of {@link Store.follow}. */
export interface FollowOptions {
  signal?: AbortSignal;
  /** The store changed the folder (a waiter reads it again at once). */
  changed(): void;
  /** Following cannot go on: the wait fails with this error. */
  failed(error: AcpError): void;
  /** A line for a person watching (a transient failure, retried). */
  note?(line: string): void;
}

/** A store a plugin provides (see {@link AcpPlugin.stores}). */
export interface StoreProvider {
  /** Its name (`git`). */
  name: string;
  /**
   * The flag that turns it on for one run (`git` → `--git`), added to every
   * command that writes or waits (`append`, `wait`, `freeze`, `serve`…).
   */
  flag?: { name: string; description: string };
  /**
   * The store for `folder`, or undefined when this provider does not serve
   * it in this run (its flag absent and its configuration silent). Errors
   * (not a git work tree, a malformed configuration) are thrown.
   */
  open(context: StoreContext): Promise<Store | undefined> | Store | undefined;
}

/** What a {@link StoreProvider} is asked with. */
export interface StoreContext {
  folder: string;
  host: Host;
  /** The provider's flag was given. */
  requested: boolean;
  /** The configuration file's sections (none with `--no-config`). */
  config?: Registry['config'];
}

/** The local folder as a store: the folder lock, and atomic writes inside it. */
export function localStore(host: Host): Store {
  return {
    name: 'local',
    transact: (folder, _intent, body, options = {}) =>
      withFolderLock(host, folder, (lock) => body({ lock, synced: false, written: new Set(), done: [], attempt: 1 }), { onWait: options.onLockWait, timeoutMs: options.lockTimeoutMs }),
  };
}

/**
 * The store that serves `folder`: the one a plugin's provider claims (its
 * flag in `flags`, or its configuration), else the local folder. Two
 * providers claiming one folder is an error: nothing would say which wins.
 */
export async function openStore(host: Host, folder: string, registry?: Registry, flags: Readonly<Record<string, unknown>> = {}): Promise<Store> {
  const claims: Store[] = [];
  for (const provider of registry?.stores ?? []) {
    const requested = provider.flag !== undefined && flags[provider.flag.name] === true;
    const store = await provider.open({ folder, host, requested, config: registry?.config });
    if (store) claims.push(store);
  }
  if (claims.length > 1) throw new AcpError(`stores ${claims.map((c) => `'${c.name}'`).join(' and ')} both serve ${folder}: configure one`, 2, 'usage');
  return claims[0] ?? localStore(host);
}

/** Inside {@link transact}: the session, and the writes a door may make. */
export interface Transaction {
  readonly session: StoreSession;
  /** Append an event with every check of spec §6 and the `append:before` hooks; its `append:after` hooks run once the store published it. */
  append(request: AppendRequest): Promise<AppendResult>;
  /**
   * Replace a file atomically; the store publishes it with the transaction.
   * `path` (absolute) must lie beneath `options.base` (default: the folder;
   * an external deliverable's is its repoRoot, see
   * {@link deliverableBoundary}), and is written without following any
   * symlink below the base: a directory swapped for a symlink after the
   * caller's checks is refused, never written through. `throughLink`: see
   * {@link WriteAtomicOptions} (protocol.json, which a user may have linked
   * on purpose, as the Python tools write it).
   */
  write(path: string, text: string, options?: TransactionWriteOptions): Promise<void>;
}

/** Options of {@link Transaction.write}. */
export interface TransactionWriteOptions extends WriteAtomicOptions {
  /** The directory the path must stay beneath (default: the collaboration folder). */
  base?: string;
}

/**
 * The one write transaction. `body` runs inside the folder's store (under
 * the lock; for git, fetched first and pushed after, retried when another
 * clone pushed first); the events it appended get their `append:after` and
 * `phase:change` hooks once, after the store published them, with the seqs
 * that landed. Every door writes through here: `append`, `freeze`, a
 * server's document write.
 */
export async function transact<T>(host: Host, folder: string, intent: WriteIntent, body: (tx: Transaction) => Promise<T>, registry?: Registry, options: AppendOptions = {}): Promise<T> {
  const store = options.store ?? (await openStore(host, folder, registry));
  let appended: AppendResult[] = [];
  let attempt = 1;
  const value = await store.transact(
    folder,
    intent,
    (session) => {
      // A run that is retried starts over: only the last run's events landed.
      appended = [];
      attempt = session.attempt;
      return body({
        session,
        append: async (request) => {
          const result = await appendUnderLock(host, folder, request, registry, session, options.strict ?? strictSetting(registry, false));
          appended.push(result);
          return result;
        },
        write: async (path, text, writeOptions = {}) => {
          const { base = folder, ...atomic } = writeOptions;
          if (path === base || !isInside(path, base)) throw new AcpError(`${path} is not inside ${base}: not written`);
          try {
            await writeFileAtomic(confineHost(host, [base]), path, text, atomic);
          } catch (error) {
            throw symlinkRefusal(error) ?? error;
          }
          session.written.add(path);
        },
      });
    },
    options,
  );
  for (const result of appended) result.store = { name: store.name, attempts: attempt };
  await afterAppend(host, folder, appended, registry);
  return value;
}

/**
 * Append an event (spec §6) through the folder's store. Raises
 * {@link AcpError} with the spec's message when a check fails; nothing is
 * written then.
 */
export async function append(host: Host, folder: string, request: AppendRequest, registry?: Registry, options: AppendOptions = {}): Promise<AppendResult> {
  const protocol = await readProtocol(host, folder);
  checkNames(protocol, request);
  const intent: WriteIntent = { participant: request.participant, kind: 'append', documents: eventDocuments(folder, protocol, request) };
  return transact(host, folder, intent, (tx) => tx.append(request), registry, options);
}

/** The event's name and participant, checked before waiting for any lock. */
function checkNames(protocol: Json, request: AppendRequest): string[] {
  if (!(EVENT_NAMES as readonly string[]).includes(request.event)) throw new AcpError(`unknown event '${request.event}'`, 2, 'unknown_event');
  const participants = participantIds(protocol);
  if (!participants.includes(request.participant)) throw new AcpError(`participant ${pyRepr(request.participant)} is not listed in protocol.json`, 2, 'unknown_participant');
  return participants;
}

/** Documents an event speaks for besides its `doc`: what a participant edits before appending it. */
const EVENT_DOCUMENTS: Record<string, string[]> = {
  proposal_submitted: ['proposal.md'],
  proposal_revised: ['proposal.md', 'decisions.md'],
  review_submitted: ['review.md'],
  decision_proposed: ['decisions.md'],
  question_classified: ['decisions.md', 'readiness.md'],
  decision_accepted: ['decisions.md', 'readiness.md'],
  readiness_passed: ['readiness.md'],
  completed: ['conclusion.md', 'readiness.md'],
  blocked: ['conclusion.md'],
};

/** Absolute paths of the documents an event speaks for (its `doc`, resolved as a deliverable where it is one). */
export function eventDocuments(folder: string, protocol: Json, request: Pick<AppendRequest, 'event' | 'doc'>): string[] {
  const paths = new Set((EVENT_DOCUMENTS[request.event] ?? []).map((ref) => nodePath.join(folder, ref)));
  if (request.doc !== undefined && request.doc !== '' && !isUnsafePath(request.doc)) paths.add(resolveDeliverablePath(folder, protocol, request.doc) ?? nodePath.join(folder, request.doc));
  return [...paths];
}

/** The reactions to appended events, once they are published; failures are reported with the event marked as appended. */
async function afterAppend(host: Host, folder: string, appended: AppendResult[], registry?: Registry): Promise<void> {
  if (!appended.length || !(registry?.hooks.has('append:after') || registry?.hooks.has('phase:change'))) return;
  const protocol = await readProtocol(host, folder);
  for (const result of appended) {
    const context: AfterAppendContext = { folder, files: documentFiles(host, folder, protocol), protocol, ...result };
    const failures: AcpError[] = [];
    await registry.hooks.call('append:after', context, failures);
    if (result.previousPhase !== result.state.phase) await registry.hooks.call('phase:change', context, failures);
    if (failures.length) {
      // The event is written: a caller must not append it again.
      const note = `seq ${result.event.seq} ${result.event.event} was appended and stays in the log; do not append it again`;
      throw new AcpAppendedError([...failures.map((f) => f.message), note], result);
    }
  }
}

/** What an append knows of the log: from the checkpoint when it provably describes it, else from a full read. */
interface LogView {
  checkpoint?: Awaited<ReturnType<typeof loadCheckpoint>>;
  log?: EventLog;
  events: Json[];
  count: number;
  seqExists(seq: number): boolean;
  nextSeq: number;
  /** The highest seq in the log (`nextSeq - 1` is not exact past 2^53). */
  maxSeq: number;
  /** The last event's `at` (a new event is never earlier). */
  lastAt: unknown;
}

async function viewLog(host: Host, folder: string, participants: string[]): Promise<LogView> {
  // The checkpoint stands in for reading and replaying the log when it
  // provably describes it; the verdicts are those of a full replay.
  const checkpoint = await loadCheckpoint(host, folder, participants, stateKeys());
  const log = checkpoint ? undefined : await readEventLog(host, folder);
  if (log?.errors.length) throw new AcpError(log.errors, 2, 'invalid_log');
  const events = log?.events ?? [];
  return {
    checkpoint,
    log,
    events,
    count: checkpoint ? checkpoint.count : events.length,
    seqExists: (seq) => (checkpoint ? isInt(seq) && hasSeq(checkpoint.seqs, seq) : events.some((e) => isPyIntLike(e.seq) && pySeqKey(e.seq) === seq)),
    nextSeq: checkpoint ? checkpoint.maxSeq + 1 : nextSeq(events),
    maxSeq: checkpoint ? checkpoint.maxSeq : highestSeq(events),
    lastAt: checkpoint ? lastLineAt(checkpoint.log.tail) : events.at(-1)?.at,
  };
}

/** The `at` of the checkpoint's copy of the last line (undefined when it has none). */
function lastLineAt(tail: string): unknown {
  try {
    const event: unknown = JSON.parse(tail);
    return isObject(event) ? event.at : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The new event's `at`: now, or the previous event's time when the clock
 * is behind it (another clone's clock, a skewed sandbox). A log whose times
 * ran backwards fails `validate` for every participant, for good. `at` has
 * whole seconds, so a previous time with a fraction (`…:05.5Z`, written by
 * another tool) is rounded up to the next second, never down below it.
 */
function eventTime(host: Host, lastAt: unknown): string {
  const now = Math.floor(host.now().getTime() / 1000);
  const previous = zonedInstant(lastAt);
  const floor = previous ? previous[0] + (previous[1] > 0 ? 1 : 0) : now;
  return formatTimestamp(new Date(Math.max(now, floor) * 1000));
}

/** The request's own checks (spec §6 steps 2–5): reply_to, the deliverable reference, the frozen hash. */
async function checkRequest(host: Host, folder: string, protocol: Json, request: AppendRequest, view: LogView): Promise<void> {
  if (request.replyTo !== undefined && !view.seqExists(request.replyTo)) throw new AcpError('reply_to must point to an existing event');
  if (view.count && request.replyTo === undefined) throw new AcpError('reply_to is required after initialized');
  if (!DELIVERABLE_EVENTS.has(request.event)) return;
  const docErrors = deliverableDocErrors(protocol, { doc: request.doc, role: request.role });
  if (docErrors.length) throw new AcpError(docErrors);
  if (request.event !== 'deliverable_frozen') return;
  const errors = await freezeErrors(host, folder, protocol, request.doc!, request.sha256);
  if (errors.length) throw new AcpError(errors);
}

/** The event line to write, numbered `seq`. */
function eventOf(host: Host, request: AppendRequest, maxSeq: number, lastAt: unknown): AcpEvent {
  const seq = maxSeq + 1;
  const event: AcpEvent = { seq, from: request.participant, event: request.event, at: eventTime(host, lastAt), summary: request.summary };
  if (request.doc !== undefined) event.doc = request.doc;
  if (request.replyTo !== undefined) event.reply_to = request.replyTo;
  if (request.role !== undefined) event.role = request.role;
  if (request.sha256 !== undefined) event.sha256 = request.sha256;
  return event;
}

/** readiness.md and conclusion.md's gates for the events that close a stage (spec §6 steps 7–8). */
async function checkGates(host: Host, folder: string, protocol: Json, request: AppendRequest, readiness: ReadinessFacts): Promise<void> {
  if (['decision_accepted', 'readiness_passed', 'completed'].includes(request.event)) {
    const errors = readinessAppendErrors(readiness, request.event);
    if (errors.length) throw new AcpError(errors[0]!);
  }
  if (request.event !== 'completed') return;
  if (request.doc !== 'conclusion.md') throw new AcpError('completed must reference conclusion.md');
  const unchecked = completionGateTexts(protocol).filter((gate) => !readiness.isGateChecked(gate));
  if (unchecked.length) throw new AcpError(`completion gates must be checked first: ${unchecked.join(', ')}`);
  const conclusion = (await readTextIfExists(host, nodePath.join(folder, 'conclusion.md'), 'conclusion.md')) ?? '';
  const errors = conclusionErrors(conclusion, primaryRef(protocol));
  if (errors.length) throw new AcpError(errors);
}

/** Every check, the veto hooks, then the write: the part of an append that holds the folder lock. */
async function appendUnderLock(host: Host, folder: string, request: AppendRequest, registry: Registry | undefined, session: StoreSession, strict: boolean): Promise<AppendResult> {
  // Read under the lock: the copy read before it may be seconds old under
  // contention (or, through a store that syncs, from before the fetch).
  const protocol = await readProtocol(host, folder);
  const participants = checkNames(protocol, request);
  const view = await viewLog(host, folder, participants);
  await checkRequest(host, folder, protocol, request, view);
  const event = eventOf(host, request, view.maxSeq, view.lastAt);
  const readiness = await readReadinessFile(host, folder);
  const before = view.checkpoint ? checkpointState(view.checkpoint, decisionGateErrors(readiness), emptyState()) : replay(view.events, participants, readiness);
  if (!view.checkpoint) await repairStaleCache(host, folder, protocol, view.events, session);
  const state = structuredClone(before);
  applyEvent(state, event, participants, readiness);
  if (state.errors.length) throw new AcpError(state.errors, 2, refusalCodeOf(state));
  await checkGates(host, folder, protocol, request, readiness);
  // Past 2^53 - 1 a JavaScript number no longer counts by one: every later
  // append would get the same seq. Checked where the Python tools would
  // write (their own refusals come first). The log's own highest seq is
  // quoted (seq - 1 would be rounded: 2^53 + 1 - 1 gives 2^53 - 1).
  if (!Number.isSafeInteger(event.seq)) throw new AcpError(`events.jsonl holds a seq of 2^53 - 1 or more; acp cannot number the next event exactly (seq ${pyStr(view.maxSeq)})`, 2, 'invalid_log');
  refuseUnencodable('the event', event);
  if (registry?.hooks.has('append:before')) {
    // Copies: a hook must not be able to change what was checked and is written.
    await registry.hooks.call('append:before', {
      folder,
      files: documentFiles(host, folder, protocol),
      protocol: structuredClone(protocol),
      event: Object.freeze({ ...event }),
      state: structuredClone(state),
      refuse: (message: string): never => {
        throw new AcpRefusal(message);
      },
    });
  }
  const afterWrite = protocol.signing === undefined ? undefined : await signEvent(host, protocol, request, event, view);
  // Signed first: the strict check validates the very line that will be written.
  if (strict) await refuseInvalidOutcome(host, folder, pendingFiles(folder, protocol, view, event, state), registry);
  const warnings = await writeEvent(host, folder, protocol, participants, view, event, state, before);
  await afterWrite?.();
  session.written.add(nodePath.join(folder, 'events.jsonl')).add(nodePath.join(folder, 'protocol.json'));
  session.done.push(`seq ${event.seq} ${event.event} by ${event.from}`);
  return { event, state, previousPhase: before.phase, previousWaitingFor: before.waitingFor, ...(warnings.length ? { warnings } : {}) };
}

/**
 * Sign the event of a signed collaboration (docs/signing.md), after every
 * check and right before its line is written, so that every door and store
 * signs alike: `prev` (the SHA-256 of the log's last line), `pubkey` when the
 * participant announces a key (its first, or a rotation signed by the old
 * one), and `sig` last. Returns what to do once the line is durable.
 */
async function signEvent(host: Host, protocol: Json, request: AppendRequest, event: AcpEvent, view: LogView): Promise<(() => Promise<void>) | undefined> {
  const signing = await import('./runtime/signing.ts');
  const declaration = signing.signingDeclaration(protocol)!;
  const registered = Object.hasOwn(declaration.keys, request.participant) ? declaration.keys[request.participant] : undefined;
  const { key, announce, afterWrite } = await signing.keyForAppend(host.keyring, request.participant, registered, request.rotateKey === true);
  const previous = view.checkpoint ? view.checkpoint.log.tail.slice(0, -1) : view.log?.lastLine;
  event.prev = previous === undefined ? signing.GENESIS_PREV : lineHash(previous);
  if (announce) event.pubkey = announce.x;
  event.sig = await signing.signBody(key, declaration.id, formatEventLine(event).slice(0, -1));
  return afterWrite;
}

/** protocol.json's `signing` after a signed line: the head moves to it, and a key it announces is recorded. */
function signedHead(protocol: Json, event: AcpEvent, line: string): Json {
  const signing = protocol.signing as Json;
  const keys = { ...(signing.keys as Json), ...(typeof event.pubkey === 'string' ? { [event.from]: event.pubkey } : {}) };
  return { ...signing, keys, head: { seq: event.seq, sha256: lineHash(line.slice(0, -1)) } };
}

/**
 * protocol.json left behind by an append that died between its line and
 * the rename (or met a full disk) is rewritten from the log before the new
 * event is checked, so the folder is whole again even if this event is
 * refused. A cache that matches no point of the log (a hand edit) is left
 * as it is: the Python tools read it as written.
 */
async function repairStaleCache(host: Host, folder: string, protocol: Json, events: Json[], session: StoreSession): Promise<void> {
  const turn = turnOf(protocol, events);
  if (!turn.staleAt) return;
  const updated = { ...protocol, currentPhase: turn.phase, proposalOwner: turn.proposalOwner, waitingFor: turn.waitingFor, updatedAt: events.at(-1)!.at };
  await writeFileAtomic(host, nodePath.join(folder, 'protocol.json'), formatProtocolJson(updated), { throughLink: true });
  session.written.add(nodePath.join(folder, 'protocol.json'));
}

/** The bytes an append adds to events.jsonl: the line, after a newline that ends a torn last line. */
function appendedText(view: LogView, event: AcpEvent): string {
  // A last line without its newline but with a complete event (a hand edit,
  // another tool) must not be glued to ours: end it first.
  return (view.log?.tornTail ? '\n' : '') + formatEventLine(event);
}

/** protocol.json with the state after `event` (other keys as read under the lock: a person's or another tool's edits stay). */
function updatedProtocol(protocol: Json, state: DerivedState, event: AcpEvent, line: string): Json {
  const updated: Json = { ...protocol, currentPhase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor, updatedAt: event.at };
  // A signed collaboration's protocol.json records the last signed line (docs/signing.md).
  if (event.sig !== undefined) updated.signing = signedHead(protocol, event, line);
  return updated;
}

/** What an append is about to write: the log's new tail and protocol.json's new text. */
interface PendingFiles {
  log: { path: string; tail: Uint8Array };
  protocol: { path: string; bytes: Uint8Array };
}

function pendingFiles(folder: string, protocol: Json, view: LogView, event: AcpEvent, state: DerivedState): PendingFiles {
  const encoder = new TextEncoder();
  return {
    log: { path: nodePath.join(folder, 'events.jsonl'), tail: encoder.encode(appendedText(view, event)) },
    protocol: { path: nodePath.join(folder, 'protocol.json'), bytes: encoder.encode(formatProtocolJson(updatedProtocol(protocol, state, event, formatEventLine(event)))) },
  };
}

/**
 * Strict mode: validate the folder as it would be after the append —
 * validate itself, run over a view of the folder in which events.jsonl
 * already ends with the new line and protocol.json holds the new state —
 * and refuse with its errors. Nothing is written before this passes.
 */
async function refuseInvalidOutcome(host: Host, folder: string, pending: PendingFiles, registry: Registry | undefined): Promise<void> {
  const own = registry ?? (await createRegistry());
  try {
    const result = await validate(pendingHost(host, pending), folder, own, { strict: true });
    if (!result.ok) throw new AcpError(result.errors, 2, 'strict');
  } finally {
    if (!registry) await own.cleanup();
  }
}

/**
 * `host` as it will be once `pending` is written: reads of the log see its
 * new tail, reads of protocol.json its new text. Read-only for those two
 * files (validate never writes to a folder); everything else is `host`.
 */
function pendingHost(host: Host, pending: PendingFiles): Host {
  const { log, protocol } = pending;
  const fs = host.fs;
  const concat = (head: Uint8Array, tail: Uint8Array): Uint8Array => {
    const out = new Uint8Array(head.length + tail.length);
    out.set(head);
    out.set(tail, head.length);
    return out;
  };
  const refuseWrite = (path: string): void => {
    if (path === log.path || path === protocol.path) throw new AcpError(`internal error: a strict check tried to write ${nodePath.basename(path)}`, 70, 'internal');
  };
  const readLog = async (options?: { maxBytes?: number }): Promise<Uint8Array> => {
    const bytes = concat(await fs.readFile(log.path, options), log.tail);
    if (options?.maxBytes !== undefined && bytes.length > options.maxBytes) throw fsError('EFBIG', log.path);
    return bytes;
  };
  const view: FileSystem = {
    ...fs,
    readTail: undefined,
    // A confined copy would read the files as written, not as pending: this view does not confine.
    beneath: undefined,
    async readFile(path, options) {
      if (path === protocol.path) return protocol.bytes;
      return path === log.path ? readLog(options) : fs.readFile(path, options);
    },
    async openRead(path, options) {
      if (path === protocol.path) return memoryReader(protocol.bytes);
      if (path !== log.path) return fs.openRead ? fs.openRead(path, options) : memoryReader(await fs.readFile(path, options));
      return fs.openRead ? withTail(await fs.openRead(log.path, options), log.tail) : memoryReader(await readLog(options));
    },
    async stat(path) {
      const stat = await fs.stat(path);
      if (stat && path === protocol.path) return { ...stat, size: protocol.bytes.length };
      return stat && path === log.path ? { ...stat, size: stat.size + log.tail.length } : stat;
    },
    async writeFile(path, data, options) {
      refuseWrite(path);
      return fs.writeFile(path, data, options);
    },
    async appendFile(path, data) {
      refuseWrite(path);
      return fs.appendFile(path, data);
    },
    async rename(from, to) {
      refuseWrite(to);
      return fs.rename(from, to);
    },
  };
  return { ...host, fs: view };
}

/** A reader over bytes in memory. */
function memoryReader(bytes: Uint8Array): FileReader {
  return { size: bytes.length, read: async (position, length) => bytes.subarray(position, position + length), close: async () => undefined };
}

/** `file` followed by `tail`, as one reader. */
function withTail(file: FileReader, tail: Uint8Array): FileReader {
  return {
    size: file.size + tail.length,
    async read(position, length) {
      const fromFile = Math.max(0, Math.min(length, file.size - position));
      const head = fromFile > 0 ? (await file.read(position, fromFile)).slice() : new Uint8Array(0);
      if (head.length < fromFile) return head; // the file was shorter than its size said
      const start = Math.max(0, position - file.size);
      const rest = tail.subarray(start, start + length - head.length);
      if (!head.length) return rest;
      const out = new Uint8Array(head.length + rest.length);
      out.set(head);
      out.set(rest, head.length);
      return out;
    },
    close: () => file.close(),
  };
}

/** Write the line, then the caches (protocol.json's state, the checkpoint); returns warnings about the caches. */
async function writeEvent(host: Host, folder: string, protocol: Json, participants: string[], view: LogView, event: AcpEvent, state: DerivedState, before: DerivedState): Promise<string[]> {
  const line = formatEventLine(event);
  const written = appendedText(view, event);
  await host.fs.appendFile(nodePath.join(folder, 'events.jsonl'), written);
  // The line is durable: the append has happened. What follows is a cache;
  // failing to write it (a full disk) is a warning, never a failed append
  // (an agent told "failed" would append the event again).
  try {
    // `protocol` was read under the lock: its other keys (edited by a person
    // or another tool) are current and must not be rolled back.
    await writeFileAtomic(host, nodePath.join(folder, 'protocol.json'), formatProtocolJson(updatedProtocol(protocol, state, event, line)), { throughLink: true });
  } catch (error) {
    await host.fs.remove(nodePath.join(folder, CHECKPOINT_NAME)).catch(() => undefined);
    const why = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    return [`seq ${event.seq} ${event.event} is appended, but protocol.json could not be rewritten (${why}): its cached phase is stale until the next append or \`acp doctor --fix\``];
  }
  const facts = view.checkpoint ?? logFacts(view.events, before);
  const sizeBefore = view.checkpoint ? view.checkpoint.log.size : view.log!.size;
  if (!facts) {
    await host.fs.remove(nodePath.join(folder, CHECKPOINT_NAME)).catch(() => undefined);
    return [];
  }
  const next: LogFacts = {
    count: facts.count + 1,
    maxSeq: event.seq,
    seqs: addSeq(facts.seqs, event.seq),
    gateSeqs: event.event === 'decision_accepted' ? [...facts.gateSeqs, pyStr(event.seq)] : facts.gateSeqs,
    state: stripErrors(state),
  };
  await saveCheckpoint(host, folder, participants, next, line, sizeBefore + new TextEncoder().encode(written).length);
  return [];
}

// ---------------------------------------------------------------------------
// Validation (spec §8)
// ---------------------------------------------------------------------------

/** Options of {@link validate}. */
export interface ValidateOptions {
  /**
   * [beyond] Also what strict mode asks (see {@link checkStrict}): no step
   * recorded over an empty or template document. A strict append refuses an
   * event after which this validation would fail.
   */
  strict?: boolean;
}

/** The outcome of validation. */
export interface ValidationResult {
  ok: boolean;
  errors: string[];
  warnings: string[];
  /** A signed folder's verification (docs/signing.md): absent for an unsigned folder or `signatures: false`. */
  signing?: SigningSummary;
}

function checkDeliverablesDeclaration(protocol: Json, folder: string, errors: string[], host: Host, dirs: Set<string>, registry?: Registry): boolean {
  const start = errors.length;
  const deliverables = protocol.deliverables;
  if (!isObject(deliverables)) {
    errors.push('protocol.json deliverables.primary is required');
    return false;
  }
  const mode = deliverables.mode;
  if (mode !== 'internal' && mode !== 'external') errors.push('deliverables.mode must be internal or external');
  if (mode === 'internal' && protocol.repoRoot !== undefined) errors.push('repoRoot is not allowed for internal deliverables');
  if (mode === 'external') {
    const repoRoot = protocol.repoRoot;
    if (typeof repoRoot !== 'string' || pyStrip(repoRoot) === '') errors.push('repoRoot is required for external deliverables');
    else if (nodePath.isAbsolute(repoRoot)) errors.push('repoRoot must be relative');
    else {
      const resolved = nodePath.resolve(folder, repoRoot);
      if (!dirs.has(resolved)) errors.push('repoRoot must resolve to an existing directory');
      else if (resolved === nodePath.parse(resolved).root) errors.push('repoRoot must not resolve to filesystem root');
      else if (!isInside(folder, resolved)) errors.push('collaboration folder must be inside repoRoot');
    }
  }
  const dir = deliverables.dir;
  if (typeof dir !== 'string' || pyStrip(dir) === '') errors.push('deliverables.dir is required');
  else if (isUnsafePath(dir)) errors.push('deliverables.dir must be relative and must not contain ..');
  const primary = deliverables.primary;
  if (!isObject(primary)) {
    errors.push('protocol.json deliverables.primary is required');
    return errors.length === start;
  }
  // A loaded plugin type that opted out of being recorded as custom is known too.
  const knownType = (type: unknown): boolean => typeof type === 'string' && (validationTypes.has(type) || registry?.type(type)?.recordAsCustom === false);
  if (!knownType(primary.type)) errors.push('primary deliverable type is invalid');
  const file = primary.file;
  if (typeof file !== 'string' || !file.endsWith('.md')) errors.push('primary deliverable file must be Markdown');
  else if (isUnsafePath(file)) errors.push('primary deliverable file must be relative and must not contain ..');
  if (primary.type === 'custom' && !(Array.isArray(primary.checklist) && primary.checklist.some((c) => typeof c === 'string' && pyStrip(c)))) {
    errors.push('custom primary deliverable requires checklist');
  }
  const seen = new Set<string>();
  const supporting = deliverables.supporting;
  for (const entry of Array.isArray(supporting) ? supporting : []) {
    const item = isObject(entry) ? entry : {};
    if (!knownType(item.type)) errors.push('supporting deliverable type is invalid');
    const sfile = item.file;
    if (typeof sfile !== 'string' || !sfile.endsWith('.md')) errors.push('supporting deliverable file must be Markdown');
    else if (isUnsafePath(sfile)) errors.push('supporting deliverable file must be relative and must not contain ..');
    if (typeof sfile === 'string') {
      if (seen.has(sfile)) errors.push('supporting deliverable files must be unique');
      seen.add(sfile);
      if (sfile === file) errors.push('supporting deliverable must not reuse the primary deliverable file');
    }
  }
  const attachments = deliverables.attachments;
  for (const entry of Array.isArray(attachments) ? attachments : []) {
    if (!isObject(entry)) {
      errors.push('attachments must be objects');
      continue;
    }
    if (typeof entry.file !== 'string' || pyStrip(entry.file) === '') errors.push('attachment file is required');
    else if (isUnsafePath(entry.file)) errors.push('attachment file must be relative and must not contain ..');
  }
  return errors.length === start;
}

/** The built-in type names the protocol accepts in validation (spec §3). */
const validationTypes = new Set(['adr', 'design-spec', 'implementation-plan', 'decision-memo', 'review-report', 'test-plan', 'custom']);

function checkReviews(text: string | undefined, pass: LogPass, ref: string | undefined, errors: string[]): void {
  const body = text ?? '';
  const { headings, headingSeqs, reviewEvents, firstBySeq } = pass;
  for (const event of reviewEvents) {
    if (!headingSeqs.has(pySeqKey(event.seq) as number)) errors.push(`seq ${pyStr(event.seq)}: review_submitted requires matching review.md heading`);
  }
  for (const heading of headings) {
    const event = typeof heading.seq === 'number' ? firstBySeq.get(heading.seq) : undefined;
    if (!event) errors.push(`review.md heading seq ${heading.seq}: no matching event`);
    else if (event.event !== 'review_submitted') errors.push(`review.md heading seq ${heading.seq}: matching event is ${pyStr(event.event)}, not review_submitted`);
    else if (event.from !== heading.participant) {
      errors.push(`review.md heading seq ${heading.seq}: participant '${heading.participant}' does not match event from '${pyStr(event.from)}'`);
    }
  }
  if (reviewEvents.length) {
    if (!body.includes('Reviewed primary deliverable:')) errors.push('review.md must declare Reviewed primary deliverable');
    if (!body.includes('Review Scope:')) errors.push('review.md must declare Review Scope');
    if (!body.includes('Primary deliverable completeness')) errors.push('review.md Review Scope must include Primary deliverable completeness');
    if (ref !== undefined && !body.includes(ref)) errors.push('review.md must reference the primary deliverable');
  }
}

async function checkDeliverableContent(
  host: Host,
  folder: string,
  protocol: Json,
  registry: Registry,
  entry: Json,
  ref: string,
  frozenRequired: boolean,
  primary: boolean,
  findings: Findings,
): Promise<void> {
  const { errors } = findings;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readDeliverable(host, folder, protocol, ref);
  } catch (error) {
    if (error instanceof AcpError) {
      errors.push(error.message);
      return;
    }
    throw error;
  }
  if (!bytes) {
    errors.push(primary ? `primary deliverable missing: ${ref}` : `supporting deliverable missing: ${ref}`);
    return;
  }
  let text: string;
  try {
    text = decodeText(bytes, ref);
  } catch (error) {
    errors.push((error as AcpError).message);
    return;
  }
  const status = markdown.status(text);
  if (!status) errors.push(primary ? 'primary deliverable must include Status: Draft, In Review, or Frozen' : `supporting deliverable ${ref} must include Status`);
  // Not `else`: the Python tools report a missing Status line and, where
  // frozen content is required, the missing Frozen too (issue 12 item 8).
  if (frozenRequired && status !== 'Frozen') errors.push(primary ? 'primary deliverable status must be Frozen' : `supporting deliverable ${ref} status must be Frozen`);
  const sections = requiredSections(registry, entry);
  for (const section of sections) {
    if (!markdown.hasSection(text, section)) {
      errors.push(primary ? `primary deliverable missing required section: ${section}` : `supporting deliverable ${ref} missing required section: ${section}`);
    } else if (frozenRequired && pyStrip(markdown.sectionBody(text, section) ?? '') === '') {
      errors.push(primary ? `primary deliverable section must not be empty when frozen: ${section}` : `supporting deliverable ${ref} section must not be empty when frozen: ${section}`);
    }
  }
  await checkPluginType(registry, entry, { text, ref, sections, frozenRequired, markdown }, findings);
}

/** The `## ` sections a declared deliverable must have: its type's, or its recorded checklist. */
function requiredSections(registry: Registry, entry: Json): string[] {
  const type = typeof entry.type === 'string' ? entry.type : '';
  const checklist = Array.isArray(entry.checklist) ? entry.checklist.filter((c): c is string => typeof c === 'string').map(pyStrip).filter(Boolean) : [];
  const definition = registry.type(type);
  return definition ? callType(registry, type, 'sections()', () => definition.sections(checklist), isStringList) : checklist;
}

/**
 * A deliverable type's own `check`. A folder recorded as `custom` with a
 * `pluginType` gets that type's check when its plugin is loaded, and a
 * warning when it is not (the recorded checklist was checked all the same).
 */
async function checkPluginType(registry: Registry, entry: Json, context: DeliverableCheckContext, findings: Findings): Promise<void> {
  const pluginType = entry.type === 'custom' && typeof entry.pluginType === 'string' ? entry.pluginType : undefined;
  const typeName = pluginType ?? (typeof entry.type === 'string' ? entry.type : '');
  const registered = registry.types.get(typeName);
  if (pluginType !== undefined && !registered) {
    findings.warnings.push(
      `deliverable type '${pluginType}' is not loaded; checked ${context.ref} against its recorded checklist only (load its plugin with --plugin or acp.config.yaml for its own checks)`,
    );
    return;
  }
  const check = registered?.definition.check;
  if (!check) return;
  const owner = registered.origin.plugin ?? registered.origin.source;
  let result: Findings;
  try {
    result = await check(context);
  } catch (error) {
    throw new AcpPluginError(owner, `the check of deliverable type '${typeName}'`, error);
  }
  const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (!strings(result?.errors) || !strings(result?.warnings)) {
    throw new AcpPluginError(owner, `the check of deliverable type '${typeName}'`, 'it must return { errors: string[], warnings: string[] }');
  }
  findings.errors.push(...result.errors);
  findings.warnings.push(...result.warnings);
}

const EVENT_FIELDS = ['seq', 'from', 'event', 'at', 'summary'];
const EVENT_NAME_SET = new Set<unknown>(EVENT_NAMES);

/**
 * The per-event work of validate (steps 6–9 and the facts later steps
 * need), done as the log is read: a long log is never held in memory. The
 * messages of each step are kept apart, so they come out in the spec's order.
 */
class LogPass {
  /** Step 6 messages, in event order. */
  readonly shapeErrors: string[] = [];
  /** Step 7: the review.md headings, the review events, and the first event of each heading's seq. */
  readonly headings: ReviewHeading[];
  readonly headingSeqs: Set<number | bigint>;
  readonly reviewEvents: Json[] = [];
  readonly firstBySeq = new Map<number, Json>();
  /** Step 8: deliverable events with doc errors, or freezes to check against the files, in order. */
  readonly deliverableItems: { event: Json; docErrors: string[]; freeze: boolean }[] = [];
  primaryFreezes = 0;
  readonly frozenSupporting = new Set<string>();
  /** Step 9: the replayed state. */
  readonly state = emptyState();
  /** Later steps: which events occur; whether a primary freeze exists (whatever its doc). */
  readonly eventNames = new Set<unknown>();
  anyPrimaryFreeze = false;
  /** Every event, only when a `validate` hook wants them. */
  readonly events: Json[] | undefined;
  count = 0;
  /** The last valid `at` (exact to the microsecond, as Python compares them). */
  lastAt: PyInstant | undefined;
  /** A signed folder's signature verifier (docs/signing.md); undefined when none is declared or signatures are not checked. */
  readonly signing: SignatureVerifier | undefined;
  /** Signatures checked but none declared: the first event that carries one anyway. */
  firstSignature: number | undefined;
  readonly #watchSignatures: boolean;
  // The seqs seen so far: while each seq equals its position (the normal
  // case) they are 1..count and need no set.
  seenSeqs: Set<unknown> | undefined;
  readonly #protocol: Json;
  readonly #participants: string[];
  readonly #readiness: ReadinessFacts;

  constructor(protocol: Json, participants: string[], readiness: ReadinessFacts, headings: ReviewHeading[], keepEvents: boolean, signatures: PassSignatures) {
    this.signing = signatures.verifier?.();
    this.#watchSignatures = signatures.check;
    this.#protocol = protocol;
    this.#participants = participants;
    this.#readiness = readiness;
    this.headings = headings;
    this.headingSeqs = new Set(this.headings.map((h) => h.seq));
    this.events = keepEvents ? [] : undefined;
  }

  add(event: Json, line: string): void {
    const index = this.count++;
    this.events?.push(event);
    if (this.signing) this.signing.add(event, line);
    else if (this.#watchSignatures && this.firstSignature === undefined && event.sig !== undefined) this.firstSignature = index + 1;
    this.#checkShape(event, index);
    if (event.event === 'review_submitted') this.reviewEvents.push(event);
    const seq = pySeqKey(event.seq) as number;
    if (this.headingSeqs.has(seq) && !this.firstBySeq.has(seq)) this.firstBySeq.set(seq, event);
    this.#noteDeliverable(event);
    applyEvent(this.state, event, this.#participants, this.#readiness);
    this.eventNames.add(event.event);
    if (event.event === 'deliverable_frozen' && event.role === 'primary') this.anyPrimaryFreeze = true;
  }

  /** Step 6: event shape. */
  #checkShape(event: Json, index: number): void {
    const errors = this.shapeErrors;
    const expected = index + 1;
    // Python's `!=`: seq 1.0 and true equal 1.
    if (pySeqKey(event.seq) !== expected) errors.push(`events.jsonl: expected seq ${expected}, found ${seqText(event)}`);
    if (!('seq' in event && 'from' in event && 'event' in event && 'at' in event && 'summary' in event)) {
      for (const field of EVENT_FIELDS) if (!(field in event)) errors.push(`seq ${seqText(event)}: missing required field ${field}`);
    }
    if (!EVENT_NAME_SET.has(event.event)) errors.push(`seq ${seqText(event)}: unknown event ${pyRepr(event.event)}`);
    if (DELIVERABLE_EVENTS.has(event.event as string)) {
      if (event.role !== 'primary' && event.role !== 'supporting') errors.push(`seq ${seqText(event)}: deliverable events require role`);
      if (typeof event.doc !== 'string') errors.push(`seq ${seqText(event)}: deliverable events require doc`);
      if (event.event === 'deliverable_frozen' && !(typeof event.sha256 === 'string' && SHA256_HEX.test(event.sha256))) {
        errors.push(`seq ${seqText(event)}: deliverable_frozen requires sha256`);
      }
    }
    if (event.event !== 'initialized') {
      const replyTo = event.reply_to;
      if (replyTo === undefined || replyTo === null) errors.push(`seq ${seqText(event)}: reply_to is required after initialized`);
      else if (!isPyIntLike(replyTo) || !(this.seenSeqs ? this.seenSeqs.has(pySeqKey(replyTo)) : Number(replyTo) >= 1 && Number(replyTo) <= index)) {
        errors.push(`seq ${seqText(event)}: reply_to must point to an earlier event`);
      }
    }
    const at = zonedInstant(event.at);
    if (at === undefined) errors.push(`seq ${seqText(event)}: at must be an ISO-8601 timestamp`);
    else {
      if (this.lastAt !== undefined && compareInstants(at, this.lastAt) < 0) errors.push(`seq ${seqText(event)}: at must not be earlier than the previous event`);
      this.lastAt = at;
    }
    // The earlier seqs a reply_to may name: the int ones (`1.0` is no int to Python).
    const seq = isPyIntLike(event.seq) ? pySeqKey(event.seq) : undefined;
    if (this.seenSeqs) this.seenSeqs.add(seq);
    else if (seq !== expected) {
      this.seenSeqs = new Set<unknown>([seq]);
      for (let seq = 1; seq <= index; seq++) this.seenSeqs.add(seq);
    }
  }

  /** Step 8, the part that needs no file. */
  #noteDeliverable(event: Json): void {
    if (!DELIVERABLE_EVENTS.has(event.event as string)) return;
    if ((event.role !== 'primary' && event.role !== 'supporting') || typeof event.doc !== 'string') return;
    const docErrors = deliverableDocErrors(this.#protocol, event);
    const isFreeze = event.event === 'deliverable_frozen';
    if (isFreeze) {
      if (event.role === 'primary') this.primaryFreezes++;
      else this.frozenSupporting.add(event.doc);
    }
    if (docErrors.length || isFreeze) this.deliverableItems.push({ event, docErrors, freeze: isFreeze && !docErrors.length });
  }
}

/** How validate's pass checks signatures: whether at all, and the verifier of a signed folder. */
interface PassSignatures {
  check: boolean;
  verifier?: () => SignatureVerifier;
  /** What the validation checkpoint keys on (see PassInputs.signing). */
  key: string;
  /** A malformed `signing` declaration in protocol.json. */
  problem?: string;
}

/** Options of {@link validate}. */
export interface ValidateOptions {
  /**
   * Verify a signed folder's chain and signatures (default `true`); `false`
   * validates exactly as the spec's tools do, which ignore the extra keys
   * signing adds (spec §2: "unknown extra keys are tolerated everywhere").
   */
  signatures?: boolean;
}

/** The signature checks of validate's pass: signing.ts is loaded only for a folder that declares signing. */
async function passSignatures(protocol: Json, options: ValidateOptions): Promise<PassSignatures> {
  if (options.signatures === false) return { check: false, key: 'off' };
  if (protocol.signing === undefined) return { check: true, key: 'none' };
  const signing = await import('./runtime/signing.ts');
  const hash = signing.fastLineHasher(await nodeCrypto());
  let declared: SigningDeclaration | undefined;
  try {
    declared = signing.signingDeclaration(protocol);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    return { check: true, key: 'malformed', problem: error.message, verifier: () => new signing.SignatureVerifier(undefined, hash) };
  }
  return { check: true, key: `${declared!.id} ${declared!.policy}`, verifier: () => new signing.SignatureVerifier(declared, hash) };
}

/** The signature checks' verdict, after every spec step (so that the spec's messages keep their order). */
function signatureFindings(pass: Pick<LogPass, 'signing' | 'firstSignature'>, signatures: PassSignatures, findings: Findings): SigningSummary | undefined {
  if (signatures.problem) findings.errors.push(signatures.problem);
  if (pass.firstSignature !== undefined) {
    findings.errors.push(`seq ${pass.firstSignature}: carries a signature, but protocol.json declares no signed collaboration (its signing declaration was removed?)`);
  }
  if (!pass.signing) return undefined;
  const verdict = pass.signing.finish();
  findings.errors.push(...verdict.errors);
  findings.warnings.push(...verdict.warnings);
  return verdict.summary;
}

/** What {@link verifySignatures} found. */
export interface SignatureReport {
  errors: string[];
  warnings: string[];
  /** Absent when the folder declares no signing. */
  signing?: SigningSummary;
}

/**
 * Verify a folder's chain and signatures alone, without the rest of
 * validate (doctor; a quick check after a sync): the same messages as
 * validate's signature checks, and the log's unreadable lines. A folder
 * that declares no signing and whose events carry none reports nothing.
 */
export async function verifySignatures(host: Host, folder: string): Promise<SignatureReport> {
  const protocol = await readProtocol(host, folder);
  const signatures = await passSignatures(protocol, {});
  const verifier = signatures.verifier?.();
  let position = 0;
  let firstSignature: number | undefined;
  const errors: string[] = [];
  try {
    const log = await scanEventLog(
      host,
      folder,
      (event, line) => {
        position++;
        if (verifier) verifier.add(event, line);
        else if (firstSignature === undefined && event.sig !== undefined) firstSignature = position;
      },
      undefined,
      verifier && (() => verifier.flush()),
    );
    errors.push(...log.errors);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    errors.push(error.message);
  }
  const findings: Findings = { errors, warnings: [] };
  const signing = signatureFindings({ signing: verifier, firstSignature }, signatures, findings);
  return { ...findings, ...(signing ? { signing } : {}) };
}

/**
 * Validate a collaboration folder (spec §8). Never throws for folder content
 * problems: they are reported as errors, in the order of the spec's steps;
 * a signed folder's chain and signatures after them (docs/signing.md).
 */
export async function validate(host: Host, folder: string, registry: Registry, options: ValidateOptions = {}): Promise<ValidationResult> {
  const errors: string[] = [];
  const warnings: string[] = [];
  const fileErrors = await folderFileErrors(host, folder);
  let protocol: Json;
  try {
    protocol = await readProtocol(host, folder);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    return { ok: false, errors: [error.message, ...fileErrors], warnings };
  }
  errors.push(...fileErrors);
  const participants = checkDeclaration(protocol, errors);
  // Step 4: the deliverables declaration.
  const dirs = new Set<string>();
  if (typeof protocol.repoRoot === 'string' && !nodePath.isAbsolute(protocol.repoRoot)) {
    const resolved = nodePath.resolve(folder, protocol.repoRoot);
    if ((await host.fs.stat(resolved))?.isDirectory) dirs.add(resolved);
  }
  const declarationOk = checkDeliverablesDeclaration(protocol, folder, errors, host, dirs, registry);
  const ref = declarationOk || isObject((protocol.deliverables as Json | undefined)?.primary) ? primaryRef(protocol) : undefined;
  // Steps 5–9: the log is read once, in pieces, and each event is checked
  // as it comes (see LogPass); review.md and readiness.md are read first.
  const reviewText = await readTextIfExists(host, nodePath.join(folder, 'review.md'), 'review.md', true);
  const readiness = readReadiness((await readTextIfExists(host, nodePath.join(folder, 'readiness.md'), 'readiness.md', true)) ?? '');
  const hooked = registry.hooks.has('validate'); // a hook is handed every event: then the whole log is parsed
  const signatures = await passSignatures(protocol, options);
  const inputs = { acp: VERSION, participants, primary: primaryRef(protocol) ?? null, supporting: supportingRefs(protocol), gates: decisionGateErrors(readiness), signing: signatures.key };
  const checkpoint = hooked ? undefined : await ValidateCheckpoint.open(host, folder, inputs);
  const headings = checkpoint ? await checkpoint.reviewHeadings(reviewText ?? '') : reviewHeadings(reviewText ?? '');
  const pass = await scanLog(host, folder, () => new LogPass(protocol, participants, readiness, headings, hooked, signatures), errors, checkpoint);
  errors.push(...pass.shapeErrors);
  checkReviews(reviewText, pass, ref, errors);
  await checkDeliverableEvents(host, folder, protocol, pass, errors);
  checkCachedState(protocol, pass.state, errors);
  if (declarationOk) await checkContent(host, folder, protocol, registry, pass, ref!, { errors, warnings });
  await checkClosing(host, folder, protocol, pass, readiness, ref, { errors, warnings });
  const signing = signatureFindings(pass, signatures, { errors, warnings });
  if (options.strict) await checkStrict(host, folder, protocol, registry, { pass, reviewText, readiness, ref: declarationOk ? ref : undefined }, errors);
  if (hooked) await registry.hooks.call('validate', { folder, files: documentFiles(host, folder, protocol), protocol, events: pass.events ?? [], errors, warnings });
  return { ok: errors.length === 0, errors, warnings, ...(signing ? { signing } : {}) };
}

/** Steps 1–2: the required files (not directories) and the forbidden ones. */
async function folderFileErrors(host: Host, folder: string): Promise<string[]> {
  let names: Set<string>;
  try {
    names = new Set(await host.fs.readDir(folder));
  } catch {
    names = new Set();
  }
  const errors: string[] = [];
  for (const name of REQUIRED_FILES) {
    if (!names.has(name)) errors.push(`missing ${name}`);
    else if (name.endsWith('.md') && (await host.fs.stat(nodePath.join(folder, name)))?.isDirectory) errors.push(`${name} is a directory, not a file`);
  }
  for (const name of FORBIDDEN_FILES) {
    if (names.has(name)) errors.push(`${name} is not part of the protocol; remove it and use events.jsonl/readiness.md instead`);
  }
  return errors;
}

/** Step 3: protocol.json's declaration; returns the participant ids. */
function checkDeclaration(protocol: Json, errors: string[]): string[] {
  if (protocol.protocol !== 'acp') errors.push("protocol.json protocol must be 'acp'");
  if (protocol.schemaVersion !== 2) errors.push('protocol.json schemaVersion must be 2');
  if (typeof protocol.currentPhase !== 'string' || !(PHASES as readonly string[]).includes(protocol.currentPhase)) {
    errors.push(`currentPhase must be one of ${pyRepr([...PHASES])}`);
  }
  if (typeof protocol.objective !== 'string' || pyStrip(protocol.objective) === '') errors.push('protocol.json objective must not be blank');
  let participants: string[] = [];
  try {
    participants = participantIds(protocol);
    if (!participants.length) errors.push('protocol.json participants must not be empty');
  } catch (error) {
    errors.push((error as AcpError).message);
  }
  const gates = protocol.completionGates;
  if (!Array.isArray(gates) || gates.length === 0) errors.push('protocol.json completionGates must not be empty');
  else {
    gates.forEach((gate, index) => {
      if (!isObject(gate) || (gate.source !== 'objective' && gate.source !== 'generated') || typeof gate.text !== 'string' || pyStrip(gate.text) === '') {
        errors.push(`completionGates[${index + 1}] must include source and text`);
        return;
      }
      for (const name of FORBIDDEN_FILES) if ((gate.text as string).includes(name)) errors.push(`completion gate must not reference obsolete file ${name}`);
    });
  }
  if (!('waitingFor' in protocol)) errors.push('protocol.json waitingFor must be present');
  if (!('proposalOwner' in protocol)) errors.push('protocol.json proposalOwner must be present');
  return participants;
}

/** Step 5: read the log through a fresh pass; an unreadable log counts as empty. */
async function scanLog(host: Host, folder: string, newPass: () => LogPass, errors: string[], checkpoint?: ValidateCheckpoint): Promise<LogPass> {
  let pass = newPass();
  try {
    const log = await scanEventLog(host, folder, (event, line) => pass.add(event, line), checkpoint && ((file) => checkpoint.resume(file, pass)), pass.signing && (() => pass.signing!.flush()));
    if (!log.tornTail) await checkpoint?.save(log.lines, log.errors, pass);
    errors.push(...log.errors);
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    errors.push(error.message);
    pass = newPass();
  }
  return pass;
}

/** Step 8: deliverable events (references, roles, hashes) and the frozen marks. */
async function checkDeliverableEvents(host: Host, folder: string, protocol: Json, pass: LogPass, errors: string[]): Promise<void> {
  for (const { event, docErrors, freeze } of pass.deliverableItems) {
    for (const message of docErrors) errors.push(`seq ${seqText(event)}: ${message}`);
    if (!freeze) continue;
    try {
      for (const message of await freezeErrors(host, folder, protocol, event.doc as string, event.sha256)) errors.push(`seq ${seqText(event)}: ${message}`);
    } catch (error) {
      if (!(error instanceof AcpError)) throw error;
      errors.push(`seq ${seqText(event)}: ${error.message}`);
    }
  }
  if (pass.primaryFreezes > 1) errors.push('primary deliverable can be frozen only once');
  for (const entry of supportingEntries(protocol)) {
    if (typeof entry.file !== 'string') continue;
    const sref = deliverableRef(protocol, entry.file);
    if (entry.frozen && !pass.frozenSupporting.has(sref)) errors.push(`supporting deliverable requires deliverable_frozen: ${sref}`);
    if (!entry.frozen && pass.frozenSupporting.has(sref)) errors.push(`supporting deliverable has freeze event but is not marked frozen: ${sref}`);
  }
}

/** Step 9: the replay's errors, and protocol.json's cached state against it. */
function checkCachedState(protocol: Json, state: DerivedState, errors: string[]): void {
  errors.push(...state.errors);
  // With no event replayed (an empty or unreadable log) the Python tools
  // compare only waitingFor (issue 12 item 6).
  const replayed = state.phase !== null;
  if (replayed && protocol.currentPhase !== state.phase) errors.push(`protocol.json currentPhase is ${pyStr(protocol.currentPhase)}, expected ${state.phase}`);
  if (replayed && protocol.proposalOwner !== state.proposalOwner) {
    errors.push(`protocol.json proposalOwner is '${pyStr(protocol.proposalOwner)}', expected '${pyStr(state.proposalOwner)}'`);
  }
  const cachedWaiting = protocol.waitingFor;
  if (!Array.isArray(cachedWaiting) || cachedWaiting.length !== state.waitingFor.length || cachedWaiting.some((v, i) => v !== state.waitingFor[i])) {
    errors.push(`protocol.json waitingFor is ${pyRepr(cachedWaiting)}, expected ${pyRepr(state.waitingFor)}`);
  }
}

/** Step 10: the deliverables' content, decisions.md and the attachments. */
async function checkContent(host: Host, folder: string, protocol: Json, registry: Registry, pass: LogPass, ref: string, findings: Findings): Promise<void> {
  const deliverables = protocol.deliverables as Json;
  const has = (name: string): boolean => pass.eventNames.has(name);
  const frozenRequired = pass.primaryFreezes > 0 || has('readiness_passed') || has('completed');
  await checkDeliverableContent(host, folder, protocol, registry, deliverables.primary as Json, ref, frozenRequired, true, findings);
  for (const entry of supportingEntries(protocol)) {
    const sref = deliverableRef(protocol, entry.file as string);
    // Frozen by the protocol.json flag or by an event: either way its content must be final.
    await checkDeliverableContent(host, folder, protocol, registry, entry, sref, Boolean(entry.frozen) || pass.frozenSupporting.has(sref), false, findings);
  }
  const refs = [ref, ...supportingEntries(protocol).map((s) => deliverableRef(protocol, s.file as string))];
  checkDecisions(await readTextIfExists(host, nodePath.join(folder, 'decisions.md'), 'decisions.md', true), refs, findings.errors);
  const attachments = Array.isArray(deliverables.attachments) ? deliverables.attachments.filter(isObject) : [];
  for (const attachment of attachments) {
    const file = attachment.file as string;
    if (!(await host.fs.stat(attachmentPath(folder, protocol, file)))) findings.errors.push(`attachment missing: ${file}`);
  }
}

/** Steps 11–13: readiness and completion. */
async function checkClosing(host: Host, folder: string, protocol: Json, pass: LogPass, readiness: ReadinessFacts, ref: string | undefined, findings: Findings): Promise<void> {
  const { errors, warnings } = findings;
  const has = (name: string): boolean => pass.eventNames.has(name);
  if (has('decision_accepted')) errors.push(...decisionGateErrors(readiness));
  if (has('readiness_passed') || has('completed')) {
    errors.push(...readinessGateErrors(readiness, 'before readiness_passed or completed', true));
    if (pass.primaryFreezes === 0 && !pass.anyPrimaryFreeze) errors.push('readiness_passed requires primary deliverable_frozen');
  }
  if (has('completed')) {
    const unchecked = completionGateTexts(protocol).filter((gate) => !readiness.isGateChecked(gate));
    if (unchecked.length) errors.push(`completion gates must be checked before completed: ${unchecked.join(', ')}`);
    errors.push(...conclusionErrors((await readTextIfExists(host, nodePath.join(folder, 'conclusion.md'), 'conclusion.md', true)) ?? '', ref));
  } else if (readiness.deferredWithoutReason.length) {
    warnings.push('deferred_nonblocking readiness items should include a reason');
  }
}

/** What {@link checkStrict} reads besides the folder: validate's log pass and the documents it read. */
interface StrictInputs {
  pass: LogPass;
  reviewText: string | undefined;
  readiness: ReadinessFacts;
  /** The primary deliverable's reference when its declaration is sound. */
  ref: string | undefined;
}

/**
 * [beyond] What strict mode asks of a folder beyond the Python tools'
 * validation: nothing the log says was done still reads as init left it.
 * The primary deliverable, once drafted, has every required section filled
 * in and none left as its template wrote it; proposal.md, once submitted,
 * lost init's placeholder and has no empty section; each review carries
 * its own declarations; once questions are classified, none is unresolved.
 */
async function checkStrict(host: Host, folder: string, protocol: Json, registry: Registry, inputs: StrictInputs, errors: string[]): Promise<void> {
  const { pass, ref } = inputs;
  const has = (name: string): boolean => pass.eventNames.has(name);
  if (ref !== undefined && pass.state.primaryDrafted) errors.push(...(await draftedDeliverableErrors(host, folder, protocol, registry, ref, pass.primaryFreezes > 0 || has('readiness_passed') || has('completed'))));
  if (has('proposal_submitted')) {
    const proposal = await readTextIfExists(host, nodePath.join(folder, 'proposal.md'), 'proposal.md', true);
    if (proposal !== undefined) errors.push(...strictProposalErrors(proposal));
  }
  if (pass.reviewEvents.length && inputs.reviewText !== undefined) {
    errors.push(...strictReviewErrors(inputs.reviewText, new Set(pass.reviewEvents.map((event) => pySeqKey(event.seq) as number)), reviewHeadings));
  }
  if (has('question_classified') && inputs.readiness.unresolved.length) errors.push('unresolved readiness questions must be classified once question_classified');
}

/** A drafted primary deliverable: each required section filled in (validate asks it of a frozen one) and none as its template wrote it. */
async function draftedDeliverableErrors(host: Host, folder: string, protocol: Json, registry: Registry, ref: string, frozenRequired: boolean): Promise<string[]> {
  let text: string;
  try {
    const bytes = await readDeliverable(host, folder, protocol, ref);
    if (!bytes) return []; // validate says it is missing
    text = decodeText(bytes, ref);
  } catch (error) {
    if (error instanceof AcpError) return []; // validate says why it cannot be read
    throw error;
  }
  const entry = (protocol.deliverables as Json).primary as Json;
  const sections = requiredSections(registry, entry);
  const template = typeTemplate(registry, entry, sections);
  const errors: string[] = [];
  for (const section of sections) {
    const body = markdown.sectionBody(text, section);
    if (body === undefined) continue; // validate names the missing section
    if (pyStrip(body) === '') {
      if (!frozenRequired) errors.push(`primary deliverable section must not be empty once drafted: ${section}`);
    } else if (template !== undefined && pyStrip(body) === pyStrip(markdown.sectionBody(template, section) ?? '')) {
      errors.push(`primary deliverable section still holds its template text: ${section}`);
    }
  }
  return errors;
}

/** The template `init` wrote for a deliverable of this declaration (its plugin type's when loaded), or undefined. */
function typeTemplate(registry: Registry, entry: Json, sections: string[]): string | undefined {
  const name = entry.type === 'custom' && typeof entry.pluginType === 'string' ? entry.pluginType : typeof entry.type === 'string' ? entry.type : '';
  const definition = registry.type(name);
  if (!definition) return undefined;
  const render = definition.template?.bind(definition) ?? defaultTemplate;
  return callType(registry, name, 'template()', () => render({ title: definition.title, type: name, sections: [...sections] }), (t) => typeof t === 'string');
}

// ---------------------------------------------------------------------------
// Init (spec §9)
// ---------------------------------------------------------------------------

/** What `init` asks for. */
export interface InitRequest {
  participants: string[];
  objective: string;
  completion: string[];
  primaryType: string;
  primaryFile?: string;
  primaryChecks?: string[];
  mode?: 'internal' | 'external' | string;
  dir?: string;
  repoRoot?: string;
  resume?: boolean;
  /** Start a signed collaboration (docs/signing.md): the first participant's key signs seq 1. */
  sign?: boolean;
  /** What validate makes of an unsigned event in it: `warn` (default) or `refuse`. */
  signingPolicy?: UnsignedPolicy;
  /** Public keys of participants registered at init (participant → key, as `acp key` prints it), instead of at their first append. */
  participantKeys?: Record<string, string>;
}

/** What `init` did. */
export interface InitResult {
  /** `false` when `resume` found an existing folder. */
  created: boolean;
  protocol?: ProtocolDocument;
  files: string[];
}

function uniqueTrimmed(values: string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const trimmed = pyStrip(value);
    if (trimmed && !out.includes(trimmed)) out.push(trimmed);
  }
  return out;
}

/** Build the protocol document and the files of a new folder (no I/O). */
export function planInit(folder: string, request: InitRequest, registry: Registry, now: Date): { protocol: ProtocolDocument; files: Map<string, string> } {
  const objective = pyStrip(request.objective ?? '');
  if (!objective) throw new AcpError('--objective must not be blank');
  const participants = uniqueTrimmed(request.participants ?? []);
  if (participants.length < 2) throw new AcpError('at least two non-blank --participant values are required');
  const completion = (request.completion ?? []).map(pyStrip).filter(Boolean);
  if (!completion.length) throw new AcpError('at least one non-blank --completion is required');
  const typeName = pyStrip(request.primaryType ?? '');
  const definition = registry.type(typeName);
  if (!definition) throw new AcpError(`unknown deliverable type '${typeName}' (known: ${sortedPy(registry.types.keys()).join(', ')})`);
  const checks = (request.primaryChecks ?? []).map(pyStrip).filter(Boolean);
  const custom = typeName === 'custom';
  // The file and the directory are taken as given, not trimmed, as the Python tools take them (`--primary-deliverable-file ''` is none).
  const file = request.primaryFile || definition.defaultFile;
  if (!file || (custom && !request.primaryFile)) throw new AcpError(custom ? 'custom deliverables require --primary-deliverable-file' : `deliverable type '${typeName}' requires --primary-deliverable-file`);
  if (custom && !checks.length) throw new AcpError('custom deliverables require at least one --primary-deliverable-check');
  if (!file.endsWith('.md')) throw new AcpError('primary deliverable file must end with .md');
  if (isUnsafePath(file)) throw new AcpError('primary deliverable file must be relative and must not contain ..');
  // A blank --deliverables-dir is refused where the Python tools would write (initFolder).
  const dir = request.dir ?? 'deliverables';
  if (isUnsafePath(dir)) throw new AcpError('--deliverables-dir must be relative and must not contain ..');
  const mode = pyStrip(request.mode ?? 'internal') || 'internal';
  if (mode !== 'internal' && mode !== 'external') throw new AcpError("--deliverables-mode must be 'internal' or 'external'");
  // `--repo-root ''` is no --repo-root, as the Python tools' truthiness test reads it.
  const repoRoot = request.repoRoot === undefined || request.repoRoot === '' ? undefined : pyStrip(request.repoRoot);
  if (mode === 'external' && !repoRoot) throw new AcpError('--repo-root is required when --deliverables-mode external');
  if (mode === 'external' && nodePath.isAbsolute(repoRoot!)) throw new AcpError('--repo-root must be relative to the collaboration folder');
  if (mode === 'internal' && repoRoot !== undefined) throw new AcpError('--repo-root is only allowed when --deliverables-mode external');

  const sections = callType(registry, typeName, 'sections()', () => definition.sections(checks), isStringList);
  // Plugin types are recorded as custom (+ pluginType) unless they opt out: interoperability (issue 4).
  const recordAsCustom = !custom && (definition.recordAsCustom ?? !validationTypes.has(typeName));
  const primary: DeliverableDeclaration = { type: recordAsCustom ? 'custom' : typeName, file, checklist: custom ? checks : recordAsCustom ? sections : [] };
  if (recordAsCustom) primary.pluginType = typeName;
  const ref = refOf(mode, dir, file);
  const defaults = defaultGates(ref, primary.type);
  const gates = definition.gates?.bind(definition);
  const generated = gates ? callType(registry, typeName, 'gates()', () => gates({ ref, type: primary.type, defaults: [...defaults] }), isStringList) : defaults;
  const stamp = formatTimestamp(now);
  const protocol: ProtocolDocument = {
    protocol: 'acp',
    schemaVersion: 2,
    objective,
    objectiveGates: completion,
    participants: participants.map((id) => ({ id })),
    completionGates: [...completion.map((text) => ({ source: 'objective' as const, text })), ...generated.map((text) => ({ source: 'generated' as const, text }))],
    deliverables: { mode, dir, owner: participants[0]!, coAuthors: [], primary, supporting: [], attachments: [] },
    currentPhase: 'drafting',
    proposalOwner: participants[0]!,
    waitingFor: [participants[0]!],
    createdAt: stamp,
    updatedAt: stamp,
  };
  if (mode === 'external') protocol.repoRoot = repoRoot;
  const render = definition.template?.bind(definition) ?? defaultTemplate;
  const template = callType(registry, typeName, 'template()', () => render({ title: definition.title, type: typeName, sections: [...sections] }), (t) => typeof t === 'string');
  const deliverablePath = mode === 'external' ? nodePath.join(repoRoot!, dir, file) : nodePath.join(dir, file);
  const files = new Map<string, string>([
    ...Object.entries(initialDocuments({ objective, owner: participants[0]!, participants, ref, title: definition.title, gates: protocol.completionGates.map((gate) => gate.text) })),
    [deliverablePath, template],
  ]);
  return { protocol, files };
}

/**
 * Initialise a collaboration folder (spec §9). **[beyond]** never
 * overwrites an existing file: if any target exists, nothing is written.
 */
export async function init(host: Host, folder: string, request: InitRequest, registry: Registry): Promise<InitResult> {
  try {
    return await initFolder(host, folder, request, registry);
  } catch (error) {
    if (errorCode(error) === 'EROFS') throw new AcpError(`cannot create the collaboration in ${folder}: the file system is read-only (EROFS)`, 2, 'file_system');
    throw symlinkRefusal(error) ?? error;
  }
}

/**
 * {@link init}, its files written beneath the folder (and an external
 * repoRoot) without following a symlink: a `deliverables` planted as a
 * symlink out of the folder is refused, never written through.
 */
async function initFolder(plainHost: Host, folder: string, request: InitRequest, registry: Registry): Promise<InitResult> {
  const protocolPath = nodePath.join(folder, 'protocol.json');
  // Usage errors come first, as in the common tools.
  const planned = planInit(folder, request, registry, plainHost.now());
  const repoRoot = planned.protocol.repoRoot;
  const host = confineHost(plainHost, [folder, ...(repoRoot === undefined ? [] : [nodePath.resolve(folder, repoRoot)])]);
  const protocolTarget = await danglingLinkTarget(plainHost, folder, protocolPath);
  if (!protocolTarget && (await host.fs.stat(protocolPath))) {
    if (request.resume) return { created: false, files: [] };
    throw new AcpError('collaboration folder already contains protocol.json; use --resume to acknowledge it');
  }
  // The Python tools would write `"dir": ""` here, which their own validate rejects.
  if (!pyStrip(planned.protocol.deliverables.dir)) throw new AcpError('--deliverables-dir must not be blank (a folder without deliverables.dir does not validate: deliverables.dir is required)');
  const unfinished = await readInitJournal(host, folder);
  if (unfinished) {
    if (!request.resume) throw new AcpError(`an interrupted init left files in ${folder}; run init again with --resume to complete it`);
    await writeInitFiles(host, folder, unfinished.files, true);
    return { created: true, protocol: loadsPy(unfinished.files.find(([name]) => name === 'protocol.json')![1]) as ProtocolDocument, files: unfinished.files.map(([name]) => name) };
  }
  const { protocol, files } = planned;
  if (registry.hooks.has('init:files')) await registry.hooks.call('init:files', { folder, protocol, files });
  const event: AcpEvent = { seq: 1, from: protocol.proposalOwner!, event: 'initialized', at: protocol.createdAt, summary: INIT_SUMMARY, doc: 'protocol.json' };
  refuseUnencodable('the new folder', [protocol, files]);
  if (request.sign) await signInit(host, protocol, event, request);
  else if (request.signingPolicy !== undefined || request.participantKeys !== undefined) throw new AcpError('--signing-policy and --register-key need --sign');
  const all = new Map<string, string>([['protocol.json', formatProtocolJson(protocol)], ...files, ['events.jsonl', formatEventLine(event)]]);
  const existing: string[] = [];
  for (const relative of all.keys()) {
    if (isUnsafePath(relative) && !relative.startsWith(protocol.repoRoot ?? '\0')) throw new AcpError(`refusing to write outside the folder: ${relative}`);
    const path = relative === 'protocol.json' ? (protocolTarget ?? protocolPath) : nodePath.resolve(folder, relative);
    if (await host.fs.stat(path)) existing.push(relative);
  }
  if (existing.length) {
    throw new AcpError(`refusing to overwrite existing files in ${folder}: ${existing.join(', ')} (init never replaces files; move them away or use another folder)`);
  }
  if (protocol.repoRoot !== undefined) {
    const root = nodePath.resolve(folder, protocol.repoRoot);
    if (root === nodePath.parse(root).root) throw new AcpError('--repo-root must not resolve to the filesystem root');
  }
  await host.fs.mkdir(folder);
  await writeInitFiles(host, folder, [...all], false, protocolTarget);
  return { created: true, protocol, files: [...all.keys()] };
}

/**
 * Declare a signed collaboration (docs/signing.md): seq 1 carries the
 * declaration (a fresh id, the policy, the keys known now: the initializer's
 * and those given) and is signed by the first participant's key, made on
 * first use; protocol.json records the declaration and its head.
 */
async function signInit(host: Host, protocol: ProtocolDocument, event: AcpEvent, request: InitRequest): Promise<void> {
  const signing = await import('./runtime/signing.ts');
  const policy = request.signingPolicy ?? 'warn';
  if (!signing.UNSIGNED_POLICIES.includes(policy)) throw new AcpError(`--signing-policy must be 'warn' or 'refuse', not ${pyRepr(policy)}`);
  const given = request.participantKeys ?? {};
  const participants = participantIds(protocol);
  for (const [who, key] of Object.entries(given)) {
    if (!participants.includes(who)) throw new AcpError(`--register-key: ${pyRepr(who)} is not a participant`);
    if (!signing.isPublicKey(key)) throw new AcpError(`--register-key ${who}: not an Ed25519 public key (43 base64url characters, as \`acp key\` prints it)`);
  }
  const owner = event.from;
  const { key } = await signing.keyForAppend(host.keyring, owner, Object.hasOwn(given, owner) ? given[owner] : undefined, false);
  const declaration = signing.newDeclaration(policy, { ...given, [owner]: key.x });
  event.signing = { version: declaration.version, id: declaration.id, policy, keys: declaration.keys };
  event.prev = signing.GENESIS_PREV;
  event.sig = await signing.signBody(key, declaration.id, formatEventLine(event).slice(0, -1));
  protocol.signing = { ...declaration, head: { seq: 1, sha256: lineHash(formatEventLine(event).slice(0, -1)) } };
}

/**
 * `participant`'s public signing key on this host (made on first use), and
 * where its private key lives: what a participant hands the initializer of
 * a signed collaboration (`init --register-key`) to be registered from
 * the start (docs/signing.md).
 */
export async function signingKey(host: Host, participant: string): Promise<{ participant: string; publicKey: string; where: string }> {
  const signing = await import('./runtime/signing.ts');
  if (pyStrip(participant) === '') throw new AcpError('--participant must not be blank');
  const { key } = await signing.keyForAppend(host.keyring, participant, undefined, false);
  return { participant, publicKey: key.x, where: host.keyring!.where(participant) };
}

/**
 * Written before the first file of an init and removed after protocol.json:
 * what the interrupted init was writing, so `init --resume` completes it
 * with the same text instead of refusing the files it finds.
 */
const INIT_JOURNAL = '.acp.init.json';

async function readInitJournal(host: Host, folder: string): Promise<{ files: [string, string][] } | undefined> {
  let text: string | undefined;
  try {
    text = await readTextIfExists(host, nodePath.join(folder, INIT_JOURNAL), INIT_JOURNAL);
  } catch {
    text = undefined;
  }
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as { files?: unknown };
    const files = value.files;
    const entries = Array.isArray(files) && files.every((f) => Array.isArray(f) && f.length === 2 && typeof f[0] === 'string' && typeof f[1] === 'string') ? (files as [string, string][]) : [];
    const protocolText = entries.find(([name]) => name === 'protocol.json')?.[1];
    const repoRoot = protocolText === undefined ? undefined : (loadsPy(protocolText) as { repoRoot?: unknown }).repoRoot;
    // The same boundary as a fresh init: inside the folder or under --repo-root.
    const safe = entries.every(([name]) => !isUnsafePath(name) || (typeof repoRoot === 'string' && name.startsWith(repoRoot)));
    if (protocolText !== undefined && safe) return { files: entries };
  } catch {
    // a torn journal: its writer died before writing any file
  }
  throw new AcpError(`${nodePath.join(folder, INIT_JOURNAL)} is not an init journal acp wrote; remove it and the files of the interrupted init`);
}

/**
 * Write an init's files, protocol.json last and atomically (a folder with a
 * protocol.json is complete). A failure removes what this call wrote and the
 * journal; `resume` rewrites files a killed init may have left half-written.
 */
async function writeInitFiles(host: Host, folder: string, all: [string, string][], resume: boolean, protocolTarget?: string): Promise<void> {
  const journal = nodePath.join(folder, INIT_JOURNAL);
  const written: string[] = [];
  try {
    if (!resume) await writeFileAtomic(host, journal, JSON.stringify({ files: all }));
    for (const [relative, text] of all) {
      if (relative === 'protocol.json') continue;
      const path = nodePath.resolve(folder, relative);
      await host.fs.mkdir(nodePath.dirname(path));
      if (resume) await writeFileAtomic(host, path, text);
      else await host.fs.writeFile(path, text, { exclusive: true });
      written.push(relative);
    }
    const protocolPath = protocolTarget ?? nodePath.join(folder, 'protocol.json');
    if (await host.fs.stat(protocolPath)) throw fsError('EEXIST', protocolPath);
    await writeFileAtomic(host, protocolPath, all.find(([name]) => name === 'protocol.json')![1]);
  } catch (error) {
    if (!resume) {
      for (const relative of written) await host.fs.remove(nodePath.resolve(folder, relative)).catch(() => undefined);
      await host.fs.remove(journal).catch(() => undefined);
    }
    if (errorCode(error) === 'EEXIST') throw new AcpError(`refusing to overwrite a file created while initialising ${folder}; nothing was kept`);
    throw error;
  }
  await host.fs.remove(journal).catch(() => undefined);
}

// ---------------------------------------------------------------------------
// Next action and waiting (spec §10)
// ---------------------------------------------------------------------------

/** The next action for a participant. */
export interface NextResult {
  phase: string;
  proposalOwner: string;
  waitingFor: string[];
  lastEvent?: { seq: unknown; event: unknown; from: unknown };
  action: string;
  /** 0, or 1 when the cached phase is invalid. */
  exitCode: number;
  /** Why the answer comes from the log rather than protocol.json's cache (a stale cache); the CLI prints it on stderr. */
  note?: string;
}

function cachedWaiting(protocol: Json): string[] {
  return Array.isArray(protocol.waitingFor) ? protocol.waitingFor.map((v) => pyStr(v)) : [];
}

/** Compute the next action for `participant` (spec §10). */
export async function nextAction(host: Host, folder: string, participant: string, registry?: Registry): Promise<NextResult> {
  const protocol = await readProtocol(host, folder);
  if (!participantIds(protocol).includes(participant)) throw new AcpError(`participant ${pyRepr(participant)} is not listed in protocol.json`, 2, 'unknown_participant');
  const log = await readEventLogSettled(host, folder);
  if (log.errors.length) throw new AcpError(log.errors, 2, 'invalid_log');
  return describeTurn(host, folder, protocol, log.events, participant, turnOf(protocol, log.events), registry);
}

/** The next action for `participant` on `turn` (spec §10), the `next` hooks' hints included. */
async function describeTurn(host: Host, folder: string, protocol: Json, events: Json[], participant: string, turn: Turn, registry?: Registry): Promise<NextResult> {
  const phase = pyStr(turn.phase);
  const owner = pyStr(turn.proposalOwner);
  const waiting = turn.waitingFor;
  const isWaiting = waiting.includes(participant);
  const latest = (names: string[]): Json | undefined => [...events].reverse().find((e) => names.includes(e.event as string));
  let action: string;
  let exitCode = 0;
  switch (turn.phase) {
    case 'drafting':
      action = isWaiting
        ? 'draft the primary deliverable, append deliverable_drafted, update proposal.md, then append proposal_submitted.'
        : 'wait for the proposal owner to submit the proposal.';
      break;
    case 'reviewing': {
      const proposal = latest(['proposal_submitted']) ?? latest(['proposal_revised']);
      // No proposal event (a hand-edited phase): the Python tools do not ask for a review then.
      if (isWaiting && proposal !== undefined && proposal.from !== participant) action = 'review proposal.md and the primary deliverable, update review.md with Review Scope, then append review_submitted.';
      else if (participant === turn.proposalOwner) action = 'wait for the listed reviewer(s); do not edit proposal.md or deliverables while reviewing unless blocking the collaboration.';
      else action = 'wait for the listed reviewer(s) to submit review_submitted or blocked.';
      break;
    }
    case 'revising': {
      const review = latest(['review_submitted']);
      action =
        isWaiting && review && review.from !== participant
          ? 'revise proposal.md and deliverables as needed, append deliverable_revised if the deliverable changed, then append proposal_revised.'
          : 'wait for the proposal owner to revise.';
      break;
    }
    case 'decision_review':
      action =
        isWaiting && !events.some((e) => e.event === 'decision_accepted' && e.from === participant)
          ? 'review decisions.md and append decision_accepted only if decisions are explicit.'
          : 'wait for remaining participants to accept decisions.';
      break;
    case 'readiness_check': {
      const readiness = await readReadinessFile(host, folder);
      const conclusion = (await readTextIfExists(host, nodePath.join(folder, 'conclusion.md'), 'conclusion.md')) ?? '';
      if (readiness.blocking.length || readiness.unresolved.length || readiness.deferredWithoutReason.length) {
        action = 'classify readiness.md questions and clear blockers before readiness_passed.';
      } else if (!readiness.readyToImplement) action = 'complete the final design checklist in readiness.md.';
      else if (!events.some((e) => e.event === 'readiness_passed')) action = 'run validate_collaboration.py, then append readiness_passed.';
      else if (!events.some((e) => e.event === 'deliverable_frozen' && e.role === 'primary')) {
        action = 'freeze the primary deliverable with deliverable_frozen, run validate_collaboration.py, then append readiness_passed.';
      } else if (conclusionErrors(conclusion, primaryRef(protocol)).length) {
        action = 'write conclusion.md with the final outcome, deliverable receipt, readiness result, and next action.';
      } else action = 'run validate_collaboration.py, then append completed with doc=conclusion.md.';
      break;
    }
    case 'completed':
      action = 'stop; collaboration is complete.';
      break;
    case 'blocked':
      action = 'resolve the blocker or start a new collaboration round.';
      break;
    default:
      action = 'run validate_collaboration.py; current phase is invalid.';
      exitCode = 1;
  }
  const last = events.at(-1);
  const result: NextResult = { phase, proposalOwner: owner, waitingFor: waiting, action, exitCode };
  if (last) result.lastEvent = { seq: last.seq, event: last.event, from: last.from };
  const note = staleNote(turn, last);
  if (note && !(await appendInFlight(host, folder, turn))) result.note = note;
  if (registry?.hooks.has('next')) {
    const hints: string[] = [];
    await registry.hooks.call('next', { folder, files: documentFiles(host, folder, protocol), participant, result, hints });
    if (hints.length) (result as NextResult & { hints?: string[] }).hints = hints;
  }
  return result;
}

/** Format a {@link NextResult} as the CLI prints it. */
export function formatNext(result: NextResult & { hints?: string[] }): string {
  const lines = [`phase: ${result.phase}`, `proposal owner: ${result.proposalOwner}`, `waiting for: ${result.waitingFor.length ? result.waitingFor.join(', ') : 'none'}`];
  if (result.lastEvent) lines.push(`last event: seq ${pyStr(result.lastEvent.seq)} ${pyStr(result.lastEvent.event)} from ${pyStr(result.lastEvent.from)}`);
  lines.push(`next action: ${result.action}`);
  for (const hint of result.hints ?? []) lines.push(`hint: ${hint}`);
  return lines.join('\n');
}

/** Options of {@link waitForTurn}. */
export interface WaitOptions {
  /** Fallback poll period, seconds (default 2). */
  intervalSeconds?: number;
  /** Give up after this many seconds; 0 waits forever (default 1800). */
  timeoutSeconds?: number;
  /** Stop waiting. */
  signal?: AbortSignal;
  /** Called with `waiting: …` lines whenever the state changes. */
  onProgress?(line: string): void;
  /** The store to follow (default: the one {@link openStore} chooses for the folder). */
  store?: Store;
}

/** What {@link waitForTurn} returns. */
export interface WaitResult {
  /** `ready: …` line. */
  reason: string;
  next: NextResult;
}

/** Wake-ups for a reader that follows a folder (see {@link followFolder}). */
export interface FolderFollower {
  /**
   * Forget the changes seen so far: call it just before reading the folder,
   * so that only a change made after the read makes {@link next} return at once.
   */
  settle(): void;
  /**
   * Resolve at the next change of the folder, when the signal aborts, or
   * after `ms` at the latest (the polling fallback); at once when a change
   * came since {@link settle}. `true` when a change notification (or the
   * abort) ended the wait, `false` when the time ran out.
   */
  next(ms: number): Promise<boolean>;
  /** Count as a change now (another source, such as a store that fetched, changed the folder). */
  wake(): void;
  /** Stop watching. */
  close(): void;
}

/**
 * Follow a folder's changes: file-system notifications where the host has
 * them, a poll every `ms` of {@link FolderFollower.next} otherwise. `wait`
 * and `acp log --follow` use it, so an idle follower uses no CPU and a
 * handoff is seen within milliseconds.
 */
export function followFolder(host: Host, folder: string, signal?: AbortSignal): FolderFollower {
  let wake: (() => void) | undefined;
  let pending = false;
  const notify = (): void => {
    pending = true;
    wake?.();
  };
  const stopWatching = host.fs.watch?.(folder, notify) ?? (() => undefined);
  signal?.addEventListener('abort', notify);
  return {
    wake: notify,
    settle: () => void (pending = false),
    next: (ms) =>
      pending || signal?.aborted
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => done(false), ms);
            function done(changed: boolean): void {
              clearTimeout(timer);
              wake = undefined;
              resolve(changed);
            }
            wake = () => done(true);
          }),
    close: () => {
      stopWatching();
      signal?.removeEventListener('abort', notify);
      // A wait still pending ends now rather than holding its timer.
      wake?.();
    },
  };
}

/** How long `wait` tolerates a folder caught mid-write by a non-atomic writer. */
const UNREADABLE_GRACE_MS = 2000;

/**
 * Wait until `participant` is listed in waitingFor or the phase is
 * completed/blocked (spec §10). Woken by file-system notifications, with a
 * poll every `intervalSeconds` as the fallback; a store that follows others
 * (git) keeps the folder up to date meanwhile. The turn is the log's when
 * protocol.json's cache is a stale copy of it (see {@link TurnTracker}).
 */
export async function waitForTurn(host: Host, folder: string, participant: string, options: WaitOptions = {}, registry?: Registry): Promise<WaitResult> {
  // An infinite interval polls never (file-change notifications still wake the wait): a timer past 2^31 - 1 ms would fire at once.
  const intervalMs = Math.min(2 ** 31 - 1, Math.max(0.01, options.intervalSeconds ?? DEFAULT_WAIT_INTERVAL_SECONDS) * 1000);
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_WAIT_TIMEOUT_SECONDS;
  // Python's `if args.timeout and elapsed >= args.timeout`: 0 waits forever, a negative timeout is already over.
  const deadline = timeoutSeconds !== 0 ? host.now().getTime() + timeoutSeconds * 1000 : Infinity;
  const follower = followFolder(host, folder, options.signal);
  let failure: AcpError | undefined;
  let stopFollowing = (): void => undefined;
  let lastReport = '';
  try {
    const store = options.store ?? (await openStore(host, folder, registry));
    if (store.follow) {
      const following = store.follow(folder, { signal: options.signal, changed: follower.wake, failed: (error) => ((failure = error), follower.wake()), note: options.onProgress });
      stopFollowing = await untilDeadline(following, deadline - host.now().getTime(), options.signal, `timeout: the ${store.name} store did not bring ${folder} up to date in time`);
    }
    const read = folderReader(host, folder, participant);
    for (;;) {
      if (options.signal?.aborted) throw new AcpAbortError();
      if (failure) throw failure;
      follower.settle();
      const seen = await read();
      if (!seen) continue;
      const { turn, last } = seen;
      let reason: string | undefined;
      if (turn.waitingFor.includes(participant)) reason = `ready: ${participant} is listed in waitingFor`;
      else if (turn.phase === 'completed' || turn.phase === 'blocked') reason = `ready: phase is ${pyStr(turn.phase)}`;
      if (reason) return { reason, next: await nextAction(host, folder, participant, registry) };
      const report = `waiting for ${turn.waitingFor.length ? turn.waitingFor.join(', ') : 'none'}${last ? ` after seq ${pyStr(last.seq)}` : ''}`;
      if (report !== lastReport) {
        options.onProgress?.(`waiting: ${report}`);
        lastReport = report;
      }
      const remaining = deadline - host.now().getTime();
      if (remaining <= 0) throw new AcpTimeoutError(`timeout: ${report}`);
      await follower.next(Math.min(intervalMs, remaining));
    }
  } finally {
    stopFollowing();
    follower.close();
  }
}

/**
 * The waiter's reads of a folder: protocol.json and the turn. The log is
 * parsed again only when its size, times or inode changed (a long log would
 * cost an idle waiter CPU on every wake-up), following it event by event.
 * Hosts that cannot tell (no inode) re-read each time. Resolves undefined
 * when a folder readable before is caught mid-write by a tool that writes
 * in place (try again), for a grace period.
 */
function folderReader(host: Host, folder: string, participant: string): () => Promise<{ turn: Turn; last: Json | undefined } | undefined> {
  let cache: { key: string; errors: string[]; tracker: TurnTracker; last: Json | undefined } | undefined;
  let everRead = false;
  let unreadableSince: number | undefined;
  return async () => {
    try {
      const protocol = await readProtocol(host, folder);
      const participants = participantIds(protocol);
      if (!participants.includes(participant)) throw new AcpError(`participant ${pyRepr(participant)} is not listed in protocol.json`, 2, 'unknown_participant');
      const st = await host.fs.stat(nodePath.join(folder, 'events.jsonl'));
      const key = !st ? 'missing' : st.ino !== undefined && st.ctimeMs !== undefined ? `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : undefined;
      if (key === undefined || cache?.key !== key) {
        const tracker = new TurnTracker(participants);
        let last: Json | undefined;
        const read = await scanEventLog(host, folder, (event) => {
          tracker.add(event);
          last = event;
        });
        cache = { key: key ?? '', errors: read.errors, tracker, last };
      }
      if (cache.errors.length) throw new AcpError(cache.errors, 2, 'invalid_log');
      everRead = true;
      unreadableSince = undefined;
      return { turn: cache.tracker.turn(protocol), last: cache.last };
    } catch (error) {
      if (!(error instanceof AcpError) || !everRead) throw error;
      unreadableSince ??= host.now().getTime();
      if (host.now().getTime() - unreadableSince > UNREADABLE_GRACE_MS) throw error;
      await sleep(25);
      return undefined;
    }
  };
}

/** `promise`, or a timeout error once `ms` ran out (an abort ends it too); a value that arrives late is a stop function, called. */
async function untilDeadline(promise: Promise<() => void>, ms: number, signal: AbortSignal | undefined, message: string): Promise<() => void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let late = false;
  let onAbort = (): void => undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        // Past 2^31 - 1 ms a timer fires at once (Node and Bun clamp it to 1 ms): a deadline that far is no deadline.
        if (Number.isFinite(ms) && ms <= 2 ** 31 - 1) timer = setTimeout(() => reject(new AcpTimeoutError(message)), Math.max(0, ms));
        onAbort = () => reject(new AcpAbortError());
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort);
      }),
    ]);
  } catch (error) {
    late = true;
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    if (late) void promise.then((stop) => stop(), () => undefined);
  }
}

// ---------------------------------------------------------------------------
// The library facade
// ---------------------------------------------------------------------------

/** Options of {@link openCollaboration}. */
export interface OpenOptions {
  /** Host capabilities; defaults to the host runtime's files. */
  host?: Host;
  /** Registry with deliverable types and plugins; defaults to the built-ins. */
  registry?: Registry;
}

/** A collaboration folder bound to a host and a registry. */
export interface Collaboration {
  readonly folder: string;
  readonly host: Host;
  readonly registry: Registry;
  init(request: InitRequest): Promise<InitResult>;
  append(request: AppendRequest): Promise<AppendResult>;
  state(): Promise<DerivedState>;
  validate(): Promise<ValidationResult>;
  next(participant: string): Promise<NextResult>;
  wait(participant: string, options?: WaitOptions): Promise<WaitResult>;
}

/** Bind a folder to a host and registry for in-process use. */
export async function openCollaboration(folder: string, options: OpenOptions = {}): Promise<Collaboration> {
  const host = options.host ?? (await createNodeHost());
  const registry = options.registry ?? (await createRegistry());
  const absolute = host.resolvePath(folder);
  return {
    folder: absolute,
    host,
    registry,
    init: (request) => init(host, absolute, request, registry),
    append: (request) => append(host, absolute, request, registry),
    state: async () => {
      const protocol = await readProtocol(host, absolute);
      const log = await readEventLog(host, absolute);
      if (log.errors.length) throw new AcpError(log.errors, 2, 'invalid_log');
      return replay(log.events, participantIds(protocol), await readReadinessFile(host, absolute));
    },
    validate: () => validate(host, absolute, registry),
    next: (participant) => nextAction(host, absolute, participant, registry),
    wait: (participant, options) => waitForTurn(host, absolute, participant, options, registry),
  };
}

let sharedApi: AcpApi | undefined;

/**
 * The library as one object, handed to every plugin (its `context.api`) and
 * every command. Plugins cannot import acp.ts's values: a compiled binary's
 * modules are not importable from outside, and a built-in plugin that
 * imported acp.ts would wait for acp.ts, which awaits the CLI (see
 * docs/architecture.md). Everything here is also a named export. One
 * frozen object per process: built once (a command builds a context per
 * plugin), and no plugin can swap a function another plugin calls.
 */
export function libraryApi(): AcpApi {
  return (sharedApi ??= Object.freeze(apiObject()));
}

function apiObject() {
  return {
    VERSION, LOCK_NAME, CHECKPOINT_NAME, LOCK_BREAKER, EVENT_NAMES, PHASES, REQUIRED_FILES, FORBIDDEN_FILES, CONCLUSION_SECTIONS, DEFAULT_WAIT_TIMEOUT_SECONDS, DEFAULT_WAIT_INTERVAL_SECONDS,
    AcpError, AcpTimeoutError, AcpAbortError, AcpPluginError, AcpAppendedError, UsageError,
    createNodeHost, createMemoryHost, createMemoryFileSystem, openCollaboration, createRegistry, pluginContext,
    init, append, transact, strictSetting, openStore, signingKey, verifySignatures, localStore, eventDocuments, turnOf, staleNote, TurnTracker, refusalCodeOf, validate, nextAction, formatNext, waitForTurn, followFolder,
    readProtocol, readEventLog, scanEventLog, parseEventLog, formatEventLine, jsonErrorDetail, nextSeq, emptyState, applyEvent, replay,
    participantIds, isUnsafePath, deliverableRef, primaryRef, resolveDeliverablePath, deliverableBoundary, symlinkRefusal, readDeliverable, documentFiles, checkedDocumentPath,
    markdown, readReadiness, decisionGateErrors, conclusionErrors, defaultTemplate, defaultGates, reviewHeadings, parseZonedTimestamp,
    inspectFolderLock, withFolderLock, writeFileAtomic, confineHost, decodeText, sha256Hex, formatTimestamp, formatProtocolJson, pyRepr, pyStr, pyStrip, purePosixPath, expandUser, loadsPy, dumpsPy, pySplitLines,
    comparePy, sortedPy, parseArgv, parsePyInt, parsePyFloat, runCommand, describeError,
    errorCode, fsError, isInside, isObject, realpathOfExistingAncestor, sameList, sleep,
  };
}

/** The type of {@link libraryApi}: what `context.api` holds. */
export type AcpApi = Readonly<ReturnType<typeof apiObject>>;

// ---------------------------------------------------------------------------
// The CLI edge: argv → command → exit code (never exits; main() does)
// ---------------------------------------------------------------------------

/** Where the CLI writes and what it reads from the process. */
export interface CliIo {
  argv: string[];
  stdout(text: string): void;
  stderr(text: string): void;
  /** Colour output allowed? */
  color: boolean;
  /** Process capabilities for plugins (running commands); default: none. */
  runtime?: RuntimeFacts;
  /** Environment access (default: none). */
  env?(name: string): string | undefined;
  /** Aborted when the process should stop. */
  signal?: AbortSignal;
}

/**
 * Run the CLI. Returns the exit code; never calls `process.exit` (the entry
 * point does). Loads the registry (built-in and configured plugins), finds
 * the command, parses its options, runs it, and always cleans up.
 */
export async function runCli(io: CliIo, hostOverride?: Host): Promise<number> {
  const host = hostOverride ?? (await createNodeHost());
  const found = commandWord(io.argv);
  const argv = io.argv.filter((_, index) => index !== found.index);
  const wantsJson = argv.includes('--json');
  let registry: Registry | undefined;
  try {
    if (found.word === undefined && (argv.includes('--version') || argv.includes('-v'))) {
      io.stdout(`acp/${VERSION}\n`);
      return 0;
    }
    const globals = parsePartial(argv);
    // In-process callers (tests, embedders) get this process's capabilities, as the entry point does.
    const runtime = io.runtime ?? (await (await import('./runtime/process.ts')).createProcessRuntime());
    registry = await createRegistry({
      host,
      runtime,
      config: globals.config,
      plugins: globals.plugins,
      via: '--plugin',
      cwd: host.resolvePath('.'),
      folder: globals.folder === undefined ? undefined : host.resolvePath(globals.folder),
      warn: (message) => io.stderr(`warning: ${message}\n`),
      builtIns: true,
      env: io.env,
      // `acp serve` serves its --root (default: the working directory); other agents write there.
      collaborationRoots: found.word === 'serve' ? [host.resolvePath(globals.root ?? '.')] : undefined,
    });
    const code = await dispatch({ ...io, runtime }, host, registry, found.word, argv);
    // Cleanup failures are errors too (exit 2); the finally below is for the error paths.
    await registry.cleanup();
    return code;
  } catch (error) {
    return reportError(io, error, wantsJson);
  } finally {
    await registry?.cleanup().catch((error: unknown) => io.stderr(`error: ${(error as Error).message}\n`));
  }
}

/** Find and run the command `word`. */
async function dispatch(io: CliIo, host: Host, registry: Registry, word: string | undefined, argv: string[]): Promise<number> {
  const out = (text: string): void => io.stdout(`${text}\n`);
  if (word === undefined) {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.stdout(formatHelp(registry, VERSION));
      return 0;
    }
    throw new UsageError(`a command is required (${[...registry.commands.keys()].join(', ')})`);
  }
  const entry = registry.commands.get(word);
  if (!entry) throw new UsageError(`unknown command '${word}' (commands: ${[...registry.commands.keys()].join(', ')})`);
  const spec = entry.spec;
  const parsed = parseArgv(argv, spec);
  if (parsed.options.help) {
    io.stdout(formatHelp(registry, VERSION, spec));
    return 0;
  }
  const result = await runCommand(registry, word, parsed, {
    host,
    runtime: io.runtime,
    out,
    err: (text) => io.stderr(`${text}\n`),
    color: io.color,
    signal: io.signal,
    env: io.env,
  });
  if (parsed.options.json === true && result.json) out(JSON.stringify(jsonWithOutcome(result.json, result.exitCode)));
  return result.exitCode;
}

/**
 * Every `--json` object carries `ok` and `exitCode`, and `ok` is false
 * whenever the exit code is not 0 (issue 12 item 11), whatever a command or
 * plugin put there: a script can rely on either field.
 */
function jsonWithOutcome(json: Json, exitCode: number): Json {
  if (!isObject(json)) return json;
  return { ...json, ok: exitCode === 0 ? json.ok !== false : false, exitCode };
}

/** Where a command runs: the host, and where its output goes (default: nowhere). */
export interface RunCommandOptions {
  host: Host;
  runtime?: RuntimeFacts;
  out?(text: string): void;
  err?(text: string): void;
  color?: boolean;
  signal?: AbortSignal;
  env?(name: string): string | undefined;
}

/**
 * Run a registered command with options already parsed (no argv): the CLI
 * edge calls it after parsing, the RPC server and embedders call it with
 * typed values. Options are checked against the command's spec (types,
 * `choices`, `required`) with the CLI's words. Typed errors are thrown.
 */
export async function runCommand(registry: Registry, name: string, input: { options?: OptionValues; args?: Record<string, string | undefined> }, where: RunCommandOptions): Promise<CommandResult> {
  const entry = registry.commands.get(name);
  if (!entry) throw new UsageError(`unknown command '${name}' (commands: ${[...registry.commands.keys()].join(', ')})`);
  const options = checkOptionValues(entry.spec, input.options ?? {});
  const context: Omit<CommandContext, 'next'> = {
    name,
    args: input.args ?? {},
    options,
    api: libraryApi(),
    host: where.host,
    registry,
    runtime: where.runtime ?? { name: 'unknown' },
    out: where.out ?? (() => undefined),
    err: where.err ?? (() => undefined),
    json: options.json === true,
    color: where.color ?? false,
    signal: where.signal ?? new AbortController().signal,
    env: (variable) => where.env?.(variable),
    folder: () => folderOption(where.host, options.folder, where.env),
    store: (folder) => openStore(where.host, folder, registry, options),
  };
  checkAnswers(registry, entry, options);
  return runCommandChain(entry, context);
}

/** An extension that answers the command itself excludes the options the rest of the chain would have used (see {@link CommandSpec.answers}). */
function checkAnswers(registry: Registry, entry: { spec: CommandSpec; chain: CommandSpec[] }, options: OptionValues): void {
  const given = (name: string): boolean => options[name] !== undefined && options[name] !== false;
  const base = entry.chain[0]!;
  entry.chain.forEach((extension, index) => {
    const answer = extension.answers?.find(given);
    if (answer === undefined) return;
    const theirs = [
      ...entry.chain.filter((_, i) => i > 0 && i !== index).flatMap((other) => Object.keys(other.options ?? {})),
      ...(base.store ? registry.stores.flatMap((store) => (store.flag ? [store.flag.name] : [])) : []),
    ].filter((name) => !Object.hasOwn(extension.options ?? {}, name) && !Object.hasOwn(base.options ?? {}, name));
    const clash = theirs.find(given);
    if (clash !== undefined) throw new UsageError(`argument --${clash}: not allowed with argument --${answer}`);
  });
}

/** Run a command and the `extend` wrappers around it, outermost first; a wrapper that neither answers nor calls `next()` is a plugin error. */
async function runCommandChain(entry: { chain: readonly CommandSpec[]; owners: readonly string[] }, context: Omit<CommandContext, 'next'>, index = entry.chain.length - 1): Promise<CommandResult> {
  const spec = entry.chain[index]!;
  let passedOn = index === 0;
  const next = (): Promise<CommandResult> => {
    passedOn = true;
    return index > 0 ? runCommandChain(entry, context, index - 1) : Promise.resolve({ exitCode: 0 });
  };
  const outcome = await spec.run({ ...context, next });
  const answered = spec.answers?.some((name) => context.options[name] !== undefined && context.options[name] !== false);
  if (!passedOn && !answered) throw new AcpPluginError(entry.owners[index] ?? 'unknown', `command '${spec.name}'`, new Error('it extends the command but neither ran it (ctx.next()) nor declared the options under which it answers it (answers)'));
  return typeof outcome === 'object' ? outcome : { exitCode: outcome ?? 0 };
}

/** `--folder`, resolved; a usage error when absent. */
function folderOption(host: Host, value: unknown, env?: (name: string) => string | undefined): string {
  if (typeof value !== 'string') throw new UsageError('the following arguments are required: --folder');
  if (value.includes('\0')) throw new UsageError('argument --folder: a path cannot contain a NUL character');
  return host.resolvePath(expandUser(value, env, host));
}

/**
 * `Path.expanduser()` (Python 3.11): a first component `~` is HOME (`/`
 * when HOME is empty; without HOME, the current user's home from the
 * password database), `~name` is that user's home, so `--folder=~/G` (no
 * shell to expand it) means what it means to the Python tools rather than
 * a directory named `~` (issue 12 item 2). Users are looked up through
 * `host.userHome` (/etc/passwd); an unknown one is Python's RuntimeError,
 * here a clean error.
 */
export function expandUser(path: string, env?: (name: string) => string | undefined, host?: Pick<Host, 'userHome'>): string {
  if (!path.startsWith('~')) return path;
  const cut = path.indexOf('/');
  const first = cut < 0 ? path : path.slice(0, cut);
  const rest = cut < 0 ? '' : path.slice(cut);
  const home = first === '~' ? (env?.('HOME') ?? host?.userHome?.()) : host?.userHome?.(first.slice(1));
  const dir = home === undefined ? undefined : home.replace(/\/+$/, '') || '/';
  if (dir === undefined || dir.startsWith('~')) throw new AcpError('Could not determine home directory.');
  return purePosixPath(dir, rest.replace(/^\/+/, ''));
}

/** Print a failure as `error: …` (and the JSON object under `--json`); returns the exit code (70: a bug). */
function reportError(io: CliIo, error: unknown, wantsJson: boolean): number {
  const described = describeError(error);
  if (!described) {
    io.stderr(`error: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (io.argv.includes('--debug') && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    return 70;
  }
  const { message, exitCode, code } = described;
  const appended = error instanceof AcpAppendedError ? error.appended : undefined;
  if (wantsJson) io.stdout(`${JSON.stringify({ ok: false, error: message, exitCode, code, ...(appended ? { appended: appended.event } : {}) })}\n`);
  else if (appended) io.stdout(`appended seq ${appended.event.seq}: ${appended.event.event}\n`);
  // A strict refusal lists validate's errors, one line each as validate prints them (the Python tools' own refusals keep their one line).
  const lines = error instanceof AcpError && code === 'strict' ? error.messages : [message];
  io.stderr(lines.map((line) => `error: ${line}\n`).join(''));
  return exitCode;
}

/**
 * The user-facing side of a failure: an {@link AcpError}'s message, exit code
 * and stable code, or a file system failure nobody foresaw (a file replaced
 * by a directory, a disk error…), which is the environment's, not a bug
 * (`file system error: …`, exit 2). `undefined` for anything else: a bug.
 */
export function describeError(error: unknown): { message: string; exitCode: number; code: string } | undefined {
  if (error instanceof AcpError) return { message: error.message, exitCode: error.exitCode, code: error.code };
  const errno = errorCode(error);
  // A FIFO, device or oversized file met by a reader other than the core's
  // own (a plugin's, doctor's): the host's refusal, said plainly.
  if (errno === 'EFTYPE' || errno === 'EFBIG') return { message: (error as Error).message.replace(/^E[A-Z]+: /, ''), exitCode: 2, code: 'invalid_folder' };
  if (errno !== undefined && /^E[A-Z0-9]+$/.test(errno)) return { message: `file system error: ${(error as Error).message}`, exitCode: 2, code: 'file_system' };
  return undefined;
}

/**
 * Run the CLI as this process: argv, stdio, signals and the exit code
 * (runtime/process.ts). The bin (runtime/bin.ts, dist/acp.mjs) calls it;
 * embedders call {@link runCli} instead.
 */
export function main(): Promise<void> {
  // Once per process: in the skill's one-file runtime this module is the
  // program itself as well as the bin's library, and both would start it.
  running ??= import('./runtime/process.ts').then((process) => process.runProcess((io, host) => runCli(io, host)));
  return running;
}
let running: Promise<void> | undefined;

// Bun and Deno run the source as a program (`bun acp.ts …`), and say so in
// `import.meta.main`, a plain boolean: no await, so this module can also be
// required from CommonJS. Node runs the bin. (`import.meta` goes through a
// variable: Bun's bundler rewrites a literal `import.meta.main` for Node into
// a check that is true in any ES module.)
const meta = import.meta as ImportMeta & { main?: boolean };
if (meta.main === true) void main();
