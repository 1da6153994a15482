/**
 * `acp doctor [--fix]`: diagnose a collaboration folder's integrity and
 * repair what is safely repairable.
 *
 * Diagnoses: the folder lock (held by whom, alive or abandoned, a breaker
 * left by a killed process), leftover temporary files of atomic writes, a
 * torn last line of events.jsonl (a writer killed mid-append), invalid lines
 * and seq numbering, protocol.json's cached state against the state replayed
 * from the log, missing required and present forbidden files, frozen
 * deliverables whose file changed since the freeze (hash drift), and an
 * interrupted `acp freeze` (a deliverable that says Frozen, its hash in
 * readiness.md, but no deliverable_frozen event).
 *
 * `--fix` works under the folder lock and only does what loses nothing: it
 * breaks an abandoned lock, removes temporary files whose writer is gone,
 * keeps a full copy of events.jsonl before cutting a torn last line
 * (`events.jsonl.torn-{time}.bak`), ends a complete last line that lacks its
 * newline, and rewrites protocol.json's cached state from the log
 * (atomically). An interrupted freeze is completed (its event appended,
 * through every check of append) or, when the log no longer allows that
 * event, undone (the status line and the readiness hash put back; the text
 * kept). Everything else (user content) is reported, never touched.
 *
 * The `doctor` command (plugins/doctor.ts) loads this module when it runs.
 * Like every plugin module it imports only types from runtime/types.ts; the library
 * arrives as the command context's `api`.
 * @module
 */
import type * as Acp from '../../runtime/types.ts';
import type { Json } from '../../runtime/util.ts';

/** The library as plugins receive it. */
type DoctorCore = Acp.AcpApi;

/** One thing doctor looked at. */
export interface DoctorFinding {
  /** What was checked: `lock`, `temp-files`, `protocol.json`, `events.jsonl`, `state`, `files`, `deliverables`. */
  check: string;
  /** `ok`; `problem` (makes the folder unhealthy); `note` (worth knowing, harmless). */
  status: 'ok' | 'problem' | 'note';
  message: string;
  /** Whether `--fix` can repair it. */
  fixable: boolean;
}

/** What doctor found and (with `fix`) changed. */
export interface DoctorReport {
  folder: string;
  /** No problem remains. */
  healthy: boolean;
  /** Findings after the fixes (with `fix`), or of the diagnosis. */
  findings: DoctorFinding[];
  /** Every change made, in order, in words (empty without `fix`). */
  changes: string[];
}

/** Options of {@link doctor}. */
export interface DoctorOptions {
  /** Repair what is safely repairable. */
  fix?: boolean;
  /** How long `--fix` waits for a live lock holder (default 10 s). */
  lockTimeoutMs?: number;
  /** Stop waiting for the lock when this aborts (SIGINT/SIGTERM): nothing is changed. */
  signal?: AbortSignal;
  /** The registry the event `--fix` appends to complete an interrupted freeze goes through (its hooks run). */
  registry?: Acp.Registry;
  /** The store every repair goes through (the command's: `--git`, the configuration); default: the folder's. */
  store?: Acp.Store;
}

/** Temporary files of `writeFileAtomic` (`.{name}.{pid}.{random}.tmp`) and of lock breaking (`.acp.lock….stale`). */
const TEMP_RE = /^\.(.+)\.(\d+)\.([a-z0-9]*)\.(tmp|stale)$/;
/** A temporary file older than this whose writer cannot be checked is a leftover. */
const TEMP_STALE_MS = 60_000;
/** Without `--fix`, how long to let a running append finish before looking. */
const SETTLE_MS = 2000;

interface LogFacts {
  bytes: Uint8Array;
  /** Byte offset just after the last `\n` (the complete lines). */
  completeEnd: number;
  /** Bytes after the last newline. */
  tail: Uint8Array;
  /** The tail is a complete JSON object (just lacks its newline). */
  tailIsEvent: boolean;
  /** The tail is only white space (readers skip it). */
  tailBlank: boolean;
  events: Json[];
  /** Read errors of the complete lines. */
  errors: string[];
  /** The complete lines are not valid UTF-8. */
  undecodable: boolean;
}

interface Diagnosis {
  findings: DoctorFinding[];
  protocol?: Json;
  log?: LogFacts;
  /** The state replayed from the log, when both files are readable. */
  derived?: { phase: string | null; proposalOwner: string | null; waitingFor: string[]; lastAt?: string };
  staleTemps: string[];
  /** Events whose `at` is earlier than an earlier event's (a clock behind the others'), and the time that repairs each. */
  backwardsAt: { seq: unknown; at: string; repaired: string; after: string }[];
  /** Deliverables an interrupted `acp freeze` left frozen without their event. */
  halfFrozen: HalfFrozen[];
  lockAbandoned: boolean;
  breakerAbandoned: boolean;
}

/** A deliverable that says `Status: Frozen`, whose hash readiness.md records, and that no deliverable_frozen event froze. */
interface HalfFrozen {
  ref: string;
  role: 'primary' | 'supporting';
  sha256: string;
}

/** How a check reports what it found (`fixable`: `--fix` repairs it; default no). */
type AddFinding = (check: string, status: DoctorFinding['status'], message: string, fixable?: boolean) => void;

function join(folder: string, name: string): string {
  return folder.endsWith('/') || folder.endsWith('\\') ? folder + name : `${folder}/${name}`;
}

async function readIfExists(core: DoctorCore, host: Acp.Host, path: string): Promise<Uint8Array | undefined> {
  try {
    return await host.fs.readFile(path);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes(core.errorCode(error) ?? '')) return undefined;
    throw error;
  }
}

/**
 * events.jsonl's bytes; `undefined` when it is missing (the files check says
 * so) or when its name holds something that is no log, which is a finding
 * here, in the words validate and append use, not a failure of doctor.
 */
async function readLogBytes(core: DoctorCore, host: Acp.Host, folder: string, add: AddFinding): Promise<Uint8Array | undefined> {
  try {
    return await host.fs.readFile(join(folder, 'events.jsonl'));
  } catch (error) {
    const code = core.errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    const what = code === 'EISDIR' ? 'a directory' : code === 'ELOOP' ? 'a symbolic link loop' : undefined;
    if (!what) throw error;
    add('events.jsonl', 'problem', `events.jsonl is ${what}, not the event log (needs a person: put the log back)`);
    return undefined;
  }
}

function preview(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 60));
  return JSON.stringify(text + (bytes.length > 60 ? '…' : ''));
}

function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

async function readLogFacts(core: DoctorCore, bytes: Uint8Array): Promise<LogFacts> {
  // Lines end at \n, \r\n or a lone \r (universal newlines, as the runtime reads them).
  const completeEnd = Math.max(bytes.lastIndexOf(0x0a), bytes.lastIndexOf(0x0d)) + 1;
  const tail = bytes.subarray(completeEnd);
  let events: Json[] = [];
  let errors: string[] = [];
  let undecodable = false;
  try {
    const parsed = core.parseEventLog(core.decodeText(bytes.subarray(0, completeEnd), 'events.jsonl'));
    events = parsed.events;
    errors = parsed.errors;
  } catch {
    undecodable = true;
  }
  let tailIsEvent = false;
  let tailBlank = false;
  if (tail.length) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(tail);
      tailBlank = core.pyStrip(text) === '';
      const value: unknown = tailBlank ? undefined : core.loadsPy(text);
      if (core.isObject(value)) {
        tailIsEvent = true;
        events = [...events, value];
      }
    } catch {
      tailIsEvent = false;
    }
  }
  return { bytes, completeEnd, tail, tailIsEvent, tailBlank, events, errors, undecodable };
}

/**
 * Every check, in the order the report lists them. `underLock`: doctor
 * holds the folder lock itself (`--fix`), so the lock is its own and a
 * temporary file whose writer cannot be checked is a leftover.
 */
async function diagnose(core: DoctorCore, host: Acp.Host, folder: string, underLock: boolean): Promise<Diagnosis> {
  const findings: DoctorFinding[] = [];
  const add: AddFinding = (check, status, message, fixable = false) => {
    findings.push({ check, status, message, fixable });
  };
  const diagnosis: Diagnosis = { findings, staleTemps: [], backwardsAt: [], halfFrozen: [], lockAbandoned: false, breakerAbandoned: false };
  const now = host.now().getTime();
  if (underLock) add('lock', 'ok', 'taken by doctor for the repair');
  else await diagnoseLock(core, host, folder, diagnosis, add);
  await diagnoseLockLine(core, host, folder, add);
  const names = await entriesOf(host, folder);
  await diagnoseTempFiles(host, folder, names, { now, underLock }, diagnosis, add);
  diagnoseFiles(core, names, add);
  await diagnoseProtocol(core, host, folder, diagnosis, add);
  const bytes = await readLogBytes(core, host, folder, add);
  if (bytes) await diagnoseLog(core, bytes, diagnosis, add);
  const { protocol, log } = diagnosis;
  if (protocol && log && !log.undecodable && !log.errors.length) await diagnoseState(core, host, folder, protocol, log.events, diagnosis, add);
  if (protocol && log) {
    await diagnoseFrozenDrift(core, host, folder, protocol, log.events, add);
    await findHalfFrozen(core, host, folder, protocol, log.events, diagnosis, add);
  }
  // Signed when either says so: seq 1 stays the declaration when protocol.json's copy is removed.
  if (protocol && (protocol.signing !== undefined || core.isObject(log?.events[0]?.signing))) await checkSignatures(core, host, folder, add);
  return diagnosis;
}

/** The folder lock: free, held by a writer at work, or abandoned (with its breaker's file, if a breaker was killed). */
async function diagnoseLock(core: DoctorCore, host: Acp.Host, folder: string, diagnosis: Diagnosis, add: AddFinding): Promise<void> {
  try {
    const lock = await core.inspectFolderLock(host, folder);
    const who = `pid ${lock.pid ?? '?'}${lock.hostname ? ` on ${lock.hostname}` : ''}`;
    const alive = lock.alive === true ? 'alive' : lock.alive === false ? 'gone' : 'cannot be checked from here';
    if (lock.status === 'free') add('lock', 'ok', 'free');
    else if (lock.status === 'held') add('lock', 'note', `held by ${who} (${alive}) for ${seconds(lock.ageMs ?? 0)}: a writer is at work`);
    else {
      diagnosis.lockAbandoned = true;
      const torn = lock.pid === undefined ? ' (the lock file is torn: its writer died while taking it)' : '';
      add('lock', 'problem', `abandoned by ${who} (${alive}), ${seconds(lock.ageMs ?? 0)} old${torn}; the next writer breaks it`, true);
    }
    if (lock.breaker?.abandoned) {
      diagnosis.breakerAbandoned = true;
      add('lock', 'problem', `.acp.lock.break left by a process killed while breaking a lock, ${seconds(lock.breaker.ageMs)} old`, true);
    }
  } catch (error) {
    if (!(error instanceof core.AcpError)) throw error;
    add('lock', 'problem', error.message);
  }
}

/** The folder's entries; none when it cannot be listed (the files check then finds every required file missing). */
async function entriesOf(host: Acp.Host, folder: string): Promise<string[]> {
  try {
    return await host.fs.readDir(folder);
  } catch {
    return [];
  }
}

/** Leftover temporary files of interrupted writes (`names`: the folder's entries), told from writes in progress by their writer's pid and age. */
async function diagnoseTempFiles(host: Acp.Host, folder: string, names: string[], at: { now: number; underLock: boolean }, diagnosis: Diagnosis, add: AddFinding): Promise<void> {
  for (const name of names) {
    const match = TEMP_RE.exec(name);
    if (!match) continue;
    const stat = await host.fs.stat(join(folder, name));
    if (!stat?.isFile) continue;
    const pid = Number(match[2]);
    const alive = pid === host.pid ? true : host.isProcessAlive(pid);
    const age = at.now - stat.mtimeMs;
    if (alive === false || age > TEMP_STALE_MS || (at.underLock && alive !== true)) {
      diagnosis.staleTemps.push(name);
      add('temp-files', 'problem', `${name}: a temporary file left by an interrupted write (pid ${pid}, ${alive === false ? 'gone' : `${seconds(age)} old`})`, true);
    } else add('temp-files', 'note', `${name}: a write in progress (pid ${pid})`);
  }
}

/** Required files that are missing and forbidden ones that are present (`names`: the folder's entries). */
function diagnoseFiles(core: DoctorCore, names: string[], add: AddFinding): void {
  const present = new Set(names);
  const missing = core.REQUIRED_FILES.filter((name) => !present.has(name));
  if (missing.length) add('files', 'problem', `missing required file${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  for (const name of core.FORBIDDEN_FILES) {
    if (present.has(name)) add('files', 'problem', `${name} is not part of the protocol: move what it says into events.jsonl/readiness.md, then remove it (doctor never deletes it)`);
  }
}

/** protocol.json, read as every command reads it (kept in `diagnosis.protocol` for the checks after). */
async function diagnoseProtocol(core: DoctorCore, host: Acp.Host, folder: string, diagnosis: Diagnosis, add: AddFinding): Promise<void> {
  try {
    diagnosis.protocol = await core.readProtocol(host, folder);
    add('protocol.json', 'ok', 'readable');
  } catch (error) {
    if (!(error instanceof core.AcpError)) throw error;
    add('protocol.json', 'problem', `${error.message} (doctor cannot rebuild the declaration; restore it from a copy)`);
  }
}

/** events.jsonl's lines, its last line, its seq numbering and its times (kept in `diagnosis.log` for the checks after). */
async function diagnoseLog(core: DoctorCore, bytes: Uint8Array, diagnosis: Diagnosis, add: AddFinding): Promise<void> {
  const log = await readLogFacts(core, bytes);
  diagnosis.log = log;
  if (log.undecodable) add('events.jsonl', 'problem', 'events.jsonl is not valid UTF-8 before its last line (needs a person: find the damaged line)');
  for (const message of log.errors) add('events.jsonl', 'problem', message);
  if (log.tail.length && !log.tailIsEvent && !log.tailBlank) {
    add('events.jsonl', 'problem', `the last line is incomplete (${log.tail.length} bytes after the last newline: ${preview(log.tail)}): a writer was interrupted mid-append`, true);
  } else if (log.tailIsEvent) {
    add('events.jsonl', 'note', 'the last line is a complete event without its final newline (readers accept it; the next append ends it)', true);
  } else if (log.tail.length) {
    add('events.jsonl', 'note', 'events.jsonl ends with white space after its last newline (readers skip it)');
  }
  diagnoseSeqs(core, log.events, add);
  diagnosis.backwardsAt = backwardsTimes(core, log.events);
  const signed = isSigned(core, diagnosis.protocol, log.events);
  for (const b of diagnosis.backwardsAt) {
    const what = `seq ${core.pyRepr(b.seq)}: at ${b.at} is earlier than ${b.after}'s ${b.repaired} (written by a clock behind the others'); validate fails for everyone until it is moved to ${b.repaired}`;
    if (signed) add('events.jsonl', 'problem', `${what}. --fix refuses to move it: this collaboration is signed, and a new at would invalidate seq ${core.pyRepr(b.seq)}'s signature and the prev of every line after it. By hand: keep a copy of events.jsonl, then either leave the log as it is (every line stays verifiable; validate keeps reporting the time) or start a new signed collaboration from this one's documents (docs/signing.md)`);
    else add('events.jsonl', 'problem', what, true);
  }
  if (signed && log.tail.length && !log.tailIsEvent && !log.tailBlank && SIGNED_TAIL_RE.test(new TextDecoder().decode(log.tail))) {
    // A line that ends with a signature but does not parse was not torn by an append: cutting it would drop a signed line.
    const finding = diagnosis.findings.findLast((f) => f.check === 'events.jsonl' && f.fixable);
    if (finding) Object.assign(finding, { fixable: false, message: `${finding.message}; --fix refuses to cut it: it ends with a signature, so it is a signed line damaged after it was written, not a torn append. By hand: compare it with another participant's copy of events.jsonl and put the line back` });
  }
  if (!diagnosis.findings.some((f) => f.check === 'events.jsonl')) add('events.jsonl', 'ok', `${log.events.length} event${log.events.length === 1 ? '' : 's'}, every line complete`);
}

/** Duplicate seqs, and the first event whose seq is not its position. */
function diagnoseSeqs(core: DoctorCore, events: Json[], add: AddFinding): void {
  let expected = 1;
  const seen = new Map<unknown, number>();
  for (const event of events) seen.set(event.seq, (seen.get(event.seq) ?? 0) + 1);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([seq]) => core.pyRepr(seq));
  if (duplicates.length) add('events.jsonl', 'problem', `duplicate seq${duplicates.length > 1 ? 's' : ''} ${duplicates.slice(0, 10).join(', ')}${duplicates.length > 10 ? ', …' : ''} (concurrent writers without a lock?)`);
  for (const event of events) {
    if (event.seq !== expected) {
      add('events.jsonl', 'problem', `seq numbering breaks at event ${expected}: found ${core.pyRepr(event.seq)}`);
      break;
    }
    expected++;
  }
}

/** protocol.json's cached state against the state replayed from the log (kept in `diagnosis.derived` for the repair). */
async function diagnoseState(core: DoctorCore, host: Acp.Host, folder: string, protocol: Json, events: Json[], diagnosis: Diagnosis, add: AddFinding): Promise<void> {
  let participants: string[] | undefined;
  try {
    participants = core.participantIds(protocol);
  } catch (error) {
    if (!(error instanceof core.AcpError)) throw error;
    add('state', 'problem', error.message);
  }
  if (!participants) return;
  let readinessText = '';
  try {
    readinessText = core.decodeText((await readIfExists(core, host, join(folder, 'readiness.md'))) ?? new Uint8Array(), 'readiness.md');
  } catch {
    // The readiness gates do not change phase, owner or waitingFor.
    readinessText = '';
  }
  const state = core.replay(events, participants, core.readReadiness(readinessText));
  const last = events.at(-1);
  diagnosis.derived = { phase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor, lastAt: typeof last?.at === 'string' ? last.at : undefined };
  const cache = core.readCachedTurn(protocol);
  const cached = `phase ${core.pyRepr(cache.phase)}, owner ${core.pyRepr(cache.proposalOwner)}, waitingFor ${core.pyRepr(cache.waitingFor)}`;
  const derived = `phase ${core.pyRepr(state.phase)}, owner ${core.pyRepr(state.proposalOwner)}, waitingFor ${core.pyRepr(state.waitingFor)}`;
  if (!events.length) add('state', 'problem', 'events.jsonl holds no event: there is no state to derive');
  else if (!core.cacheEquals(protocol, state)) {
    add('state', 'problem', `protocol.json caches ${cached}; the log gives ${derived} (a writer stopped between the log and protocol.json?)`, true);
  } else add('state', 'ok', `protocol.json matches the log (${derived})`);
  if (state.errors.length) add('state', 'note', `replaying the log reports ${state.errors.length} protocol error${state.errors.length > 1 ? 's' : ''}; \`acp validate\` lists them`);
}

/** Frozen deliverables whose file changed (or went) since the freeze, once per (doc, hash, seq). */
async function diagnoseFrozenDrift(core: DoctorCore, host: Acp.Host, folder: string, protocol: Json, events: Json[], add: AddFinding): Promise<void> {
  const seen = new Set<string>();
  for (const event of events) {
    if (event.event !== 'deliverable_frozen' || typeof event.doc !== 'string' || typeof event.sha256 !== 'string') continue;
    const key = JSON.stringify([event.doc, event.sha256, event.seq]);
    if (seen.has(key)) continue;
    seen.add(key);
    let current: Uint8Array | undefined;
    try {
      current = await core.readDeliverable(host, folder, protocol, event.doc);
    } catch (error) {
      if (!(error instanceof core.AcpError)) throw error;
      add('deliverables', 'problem', error.message);
      continue;
    }
    const seq = core.pyRepr(event.seq);
    if (!current) add('deliverables', 'problem', `${event.doc} (frozen at seq ${seq}) is missing`);
    else {
      const hash = await core.sha256Hex(current);
      if (hash !== event.sha256) add('deliverables', 'problem', `${event.doc} changed since it was frozen at seq ${seq} (sha256 then ${event.sha256.slice(0, 12)}…, now ${hash.slice(0, 12)}…); restore the frozen text`);
      else add('deliverables', 'ok', `${event.doc} unchanged since its freeze at seq ${seq}`);
    }
  }
}

/**
 * The lock's waiting line: every file named like a ticket, live (a waiter
 * at work: a note), stale (its waiter gone: the next writer clears it) or
 * not a ticket at all (writers ignore it). `--fix` removes all but the live
 * ones; a directory is left for a person.
 */
async function diagnoseLockLine(core: DoctorCore, host: Acp.Host, folder: string, add: AddFinding): Promise<void> {
  const { tickets } = await core.inspectLockLine(host, folder).catch(() => ({ tickets: [] }));
  for (const ticket of tickets) {
    const who = ticket.pid === undefined ? '' : ` of pid ${ticket.pid}${ticket.hostname ? ` on ${ticket.hostname}` : ''}`;
    if (ticket.kind === 'live') add('lock-line', 'note', `${ticket.name}: a writer${who} waiting for the lock`);
    else if (ticket.kind === 'stale') add('lock-line', 'problem', `${ticket.name}: a stale ticket${who}: ${ticket.why}; writers skip it and the next one clears it`, true);
    else add('lock-line', 'problem', `${core.pyRepr(ticket.name)}: not a ticket of the lock's line (${ticket.why}); writers ignore it${ticket.why === 'a directory' ? ': remove it by hand' : ''}`, ticket.why !== 'a directory');
  }
}

/**
 * A signed folder (docs/signing.md): its chain and every signature, in
 * validate's words. Only protocol.json's copy of the declaration (removed,
 * its head or keys not the log's) is for `--fix` to repair, from the log.
 */
async function checkSignatures(core: DoctorCore, host: Acp.Host, folder: string, add: AddFinding): Promise<void> {
  const report = await core.verifySignatures(host, folder);
  for (const error of report.errors) add('signatures', 'problem', error, report.rebuilt !== undefined);
  for (const warning of report.warnings) add('signatures', 'note', warning);
  const summary = report.signing;
  if (summary && !report.errors.length) add('signatures', 'ok', `${summary.verified} signed event${summary.verified === 1 ? '' : 's'} verified, chain whole up to seq ${summary.head?.seq ?? 0}`);
}

/**
 * Events whose `at` is earlier than the latest valid `at` before them, as
 * validate counts them (spec §8 step 6), and the repair it accepts: that
 * latest time, so the log's times never run backwards.
 */
function backwardsTimes(core: DoctorCore, events: Json[]): { seq: unknown; at: string; repaired: string; after: string }[] {
  const found: { seq: unknown; at: string; repaired: string; after: string }[] = [];
  let latest: { time: number; text: string; seq: unknown } | undefined;
  for (const event of events) {
    const time = core.parseZonedTimestamp(event.at);
    if (time === undefined) continue;
    if (latest && time < latest.time) found.push({ seq: event.seq, at: event.at as string, repaired: latest.text, after: `seq ${core.pyRepr(latest.seq)}` });
    else latest = { time, text: event.at as string, seq: event.seq };
  }
  return found;
}

/** A line that ends as a signed line does (`,"sig":"…"}`, spec of docs/signing.md). */
const SIGNED_TAIL_RE = /,"sig":"[A-Za-z0-9_-]{86}"\}\s*$/;

/** Whether the collaboration is signed (protocol.json's `signing`, or seq 1's declaration): a repair must not change a signed line. */
function isSigned(core: DoctorCore, protocol: Json | undefined, events: Json[]): boolean {
  return core.isObject(protocol?.signing) || core.isObject(events[0]?.signing);
}

/** `--fix` for times that run backwards: a copy of the log kept, then each such `at` set to the time validate accepts (the rest of each line unchanged). Never in a signed folder (diagnose marks those unfixable). */
async function repairTimes(core: DoctorCore, host: Acp.Host, tx: Acp.Transaction, folder: string, diagnosis: Diagnosis, changes: string[]): Promise<void> {
  const backwards = diagnosis.backwardsAt;
  if (!backwards.length) return;
  if (isSigned(core, diagnosis.protocol, diagnosis.log?.events ?? [])) throw new core.AcpError('doctor --fix refuses to rewrite at values in a signed collaboration (the signatures would break); nothing was changed');
  const path = join(folder, 'events.jsonl');
  const bytes = await host.fs.readFile(path);
  const stamp = core.formatTimestamp(host.now()).replace(/[-:]/g, '');
  const backup = await backupName(host, folder, stamp, 'at');
  await tx.write(join(folder, backup), bytes);
  changes.push(`kept a copy of events.jsonl (${bytes.length} bytes) as ${backup}`);
  const bySeq = new Map(backwards.map((b) => [JSON.stringify(b.seq), b]));
  const lines = core.decodeText(bytes, 'events.jsonl').split('\n').map((line) => {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return line;
    }
    const fix = core.isObject(event) ? bySeq.get(JSON.stringify(event.seq)) : undefined;
    if (!fix || (event as Json).at !== fix.at) return line;
    changes.push(`set seq ${core.pyRepr(fix.seq)}'s at to ${fix.repaired} (was ${fix.at}), the time validate accepts`);
    return line.replace(/("at"\s*:\s*)"[^"]*"/, (_, key: string) => `${key}${JSON.stringify(fix.repaired)}`);
  });
  await tx.write(path, lines.join('\n'));
}


/**
 * An interrupted `acp freeze` (killed between its files and its event):
 * the deliverable says Frozen and readiness.md has its hash, but no
 * deliverable_frozen event names that hash.
 */
async function findHalfFrozen(core: DoctorCore, host: Acp.Host, folder: string, protocol: Json, events: Json[], diagnosis: Diagnosis, add: AddFinding): Promise<void> {
  const readiness = core.decodeText((await readIfExists(core, host, join(folder, 'readiness.md')).catch(() => undefined)) ?? new Uint8Array(), 'readiness.md');
  const supporting = core.isObject(protocol.deliverables) && Array.isArray(protocol.deliverables.supporting) ? protocol.deliverables.supporting : [];
  const targets: { ref: string | undefined; role: 'primary' | 'supporting' }[] = [
    { ref: core.primaryRef(protocol), role: 'primary' },
    ...supporting.filter(core.isObject).map((entry) => ({ ref: typeof entry.file === 'string' ? core.deliverableRef(protocol, entry.file) : undefined, role: 'supporting' as const })),
  ];
  for (const { ref, role } of targets) {
    if (ref === undefined) continue;
    const bytes = await core.readDeliverable(host, folder, protocol, ref).catch(() => undefined);
    if (!bytes || core.markdown.status(core.decodeText(bytes, ref)) !== 'Frozen') continue;
    const sha256 = await core.sha256Hex(bytes);
    if (!readiness.includes(sha256) || events.some((e) => e.event === 'deliverable_frozen' && e.doc === ref && e.sha256 === sha256)) continue;
    diagnosis.halfFrozen.push({ ref, role, sha256 });
    add('freeze', 'problem', `${ref} says Status: Frozen and readiness.md records its sha256 ${sha256.slice(0, 12)}…, but no deliverable_frozen event does: an interrupted acp freeze (--fix completes it, or undoes it when the event cannot be appended now; the text is kept)`, true);
  }
}

/**
 * Finish an interrupted freeze: append its event as the first participant
 * the log lets append it (the checks of append decide; a refusal writes
 * nothing). When nobody may, undo it instead: the status line goes back
 * (`Draft` while drafting, else `In Review`) and the hash leaves
 * readiness.md; every other byte of both files stays.
 */
async function settleFreeze(core: DoctorCore, host: Acp.Host, folder: string, target: HalfFrozen, waitingFor: string[], options: DoctorOptions, changes: string[]): Promise<void> {
  const { registry, store } = options;
  const log = await core.readEventLog(host, folder);
  const last = log.events.at(-1);
  for (const participant of waitingFor) {
    const summary = `Froze ${target.ref} (sha256 ${target.sha256.slice(0, 12)}); an interrupted acp freeze, completed by acp doctor --fix.`;
    try {
      const result = await core.append(host, folder, { participant, event: 'deliverable_frozen', summary, doc: target.ref, role: target.role, sha256: target.sha256, replyTo: last?.seq as number }, registry, { store });
      changes.push(`completed the interrupted freeze of ${target.ref}: appended seq ${result.event.seq} deliverable_frozen as ${participant}`);
      return;
    } catch (error) {
      if (!(error instanceof core.AcpError)) throw error;
    }
  }
  const readinessPath = join(folder, 'readiness.md');
  const intent: Acp.WriteIntent = { participant: 'doctor', kind: 'repair', documents: [readinessPath] };
  const undone = await core.transact(host, folder, intent, async (tx) => {
    const protocol = await core.readProtocol(host, folder);
    const path = core.resolveDeliverablePath(folder, protocol, target.ref)!;
    const text = new TextDecoder().decode(await host.fs.readFile(path));
    const status = (await core.turnOf(protocol, log.events)).phase === 'drafting' ? 'Draft' : 'In Review';
    const reverted = text.replace(/^([ \t]*)Status:[ \t]*Frozen[ \t]*$/m, `$1Status: ${status}`);
    const readiness = new TextDecoder().decode(await host.fs.readFile(readinessPath));
    await tx.write(path, reverted, { base: core.deliverableBoundary(folder, protocol, target.ref) });
    await tx.write(readinessPath, readiness.split(` ${target.sha256}`).join('').split(target.sha256).join(''));
    tx.session.done.push(`doctor --fix undid the interrupted freeze of ${target.ref}`);
    return `undid the interrupted freeze of ${target.ref} (nobody may append its deliverable_frozen now): Status: Frozen is Status: ${status} again and its hash left readiness.md; the text is unchanged`;
  }, registry, { store });
  changes.push(undone);
}

async function backupName(host: Acp.Host, folder: string, stamp: string, kind = 'torn'): Promise<string> {
  for (let n = 1; ; n++) {
    const name = `events.jsonl.${kind}-${stamp}${n > 1 ? `-${n}` : ''}.bak`;
    if (!(await host.fs.stat(join(folder, name)))) return name;
  }
}

/**
 * What an interrupted write of this clone left, in a transaction of the
 * local store (none of it was ever published): an abandoned lock (broken
 * by taking it), a breaker's file, temporaries, stale tickets, and the
 * log's torn or unended last line.
 */
async function removeLeftovers(core: DoctorCore, host: Acp.Host, tx: Acp.Transaction, folder: string, before: Diagnosis): Promise<string[]> {
  const changes: string[] = [];
  await repairTail(core, host, tx, folder, await diagnose(core, host, folder, true), changes);
  for (const name of (await diagnose(core, host, folder, true)).staleTemps) {
    await tx.remove(join(folder, name));
    changes.push(`removed ${name} (a temporary file left by an interrupted write; its content is derived and was never the live file)`);
  }
  for (const ticket of (await core.inspectLockLine(host, folder, true)).cleared) {
    changes.push(`removed ${core.pyRepr(ticket.name)} (${ticket.kind === 'stale' ? `a stale ticket of the lock's line: ${ticket.why}` : `not a ticket: ${ticket.why}`})`);
  }
  if (before.breakerAbandoned && (await host.fs.stat(join(folder, '.acp.lock.break')))) {
    await tx.remove(join(folder, '.acp.lock.break'));
    changes.push('removed .acp.lock.break left by a process killed while breaking a lock');
  }
  if (before.lockAbandoned) changes.unshift(`broke the abandoned lock (${before.findings.find((f) => f.check === 'lock' && f.status === 'problem')?.message ?? ''})`);
  return changes;
}

/**
 * The log and the cached state, inside the run's store's transaction (the
 * body may run again under git: it diagnoses afresh and reports only what
 * its last run changed).
 */
async function repairLog(core: DoctorCore, host: Acp.Host, tx: Acp.Transaction, folder: string): Promise<string[]> {
  const changes: string[] = [];
  await repairTimes(core, host, tx, folder, await diagnose(core, host, folder, true), changes);
  await restoreSigning(core, host, tx, folder, changes);
  // Derive the state again from what the log now holds.
  const after = await diagnose(core, host, folder, true);
  if (after.protocol && after.derived && after.log?.events.length && after.findings.some((f) => f.check === 'state' && f.fixable)) {
    const { phase, proposalOwner, waitingFor, lastAt } = after.derived;
    const updated = core.withCachedTurn(after.protocol, { phase, proposalOwner, waitingFor }, lastAt ?? after.protocol.updatedAt);
    await tx.write(join(folder, 'protocol.json'), core.formatProtocolJson(updated), { throughLink: true });
    changes.push(
      `rewrote protocol.json's cached state from the log: currentPhase ${core.pyRepr(phase)}, proposalOwner ${core.pyRepr(proposalOwner)}, waitingFor ${core.pyRepr(waitingFor)}${lastAt !== undefined ? `, updatedAt ${lastAt}` : ''}`,
    );
  }
  if (changes.length) tx.session.done.push(`doctor --fix: ${changes.length} repair${changes.length > 1 ? 's' : ''}`);
  return changes;
}

/** A torn last line cut (a copy of the whole log kept first), or a complete last event given its newline; never a signed line (diagnose marks those unfixable). */
async function repairTail(core: DoctorCore, host: Acp.Host, tx: Acp.Transaction, folder: string, d: Diagnosis, changes: string[]): Promise<void> {
  const log = d.log;
  if (!log || !log.tail.length || log.tailBlank) return; // Blank: harmless, readers skip it. Left as it is.
  if (!log.tailIsEvent && !d.findings.some((f) => f.check === 'events.jsonl' && f.fixable)) return;
  const path = join(folder, 'events.jsonl');
  if (log.tailIsEvent) {
    // The line's bytes stay as they are (a signature covers them): only the newline after it is added.
    await tx.write(path, concat(log.bytes, new Uint8Array([0x0a])));
    changes.push('ended the last line of events.jsonl (a complete event) with its missing newline');
    return;
  }
  const stamp = core.formatTimestamp(host.now()).replace(/[-:]/g, '');
  const backup = await backupName(host, folder, stamp);
  await tx.write(join(folder, backup), log.bytes);
  await tx.write(path, log.bytes.subarray(0, log.completeEnd));
  changes.push(`kept a copy of events.jsonl (${log.bytes.length} bytes) as ${backup}`);
  changes.push(`cut the incomplete last line from events.jsonl (${log.tail.length} bytes: ${preview(log.tail)}); it now ends after its last complete line`);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** `--fix` for protocol.json's copy of a signed collaboration's declaration: rebuilt from the log, when the log itself verifies. */
async function restoreSigning(core: DoctorCore, host: Acp.Host, tx: Acp.Transaction, folder: string, changes: string[]): Promise<void> {
  const { rebuilt } = await core.verifySignatures(host, folder);
  if (!rebuilt) return;
  const protocol = await core.readProtocol(host, folder);
  await tx.write(join(folder, 'protocol.json'), core.formatProtocolJson({ ...protocol, signing: rebuilt }), { throughLink: true });
  changes.push(`restored protocol.json's signing from the log: id ${rebuilt.id}, policy ${rebuilt.policy}, keys of ${Object.keys(rebuilt.keys).join(', ') || 'nobody'}, head seq ${rebuilt.head?.seq ?? 0} ${rebuilt.head?.sha256 ?? ''}`.trimEnd());
}

/**
 * Diagnose `folder` and, with `fix`, repair what is safely repairable: each
 * repair is a transaction of the folder's store (`options.store`, else the
 * one the folder's configuration names), under its lock, published where
 * the store publishes (git: committed and pushed).
 * Raises {@link Acp.AcpError} (exit 2) when the folder is not a collaboration folder.
 */
export async function doctor(core: DoctorCore, host: Acp.Host, folder: string, options: DoctorOptions = {}): Promise<DoctorReport> {
  const stat = await host.fs.stat(folder);
  if (!stat?.isDirectory) throw new core.AcpError(`missing protocol.json in ${folder}`);
  if (!(await host.fs.stat(join(folder, 'protocol.json'))) && !(await host.fs.stat(join(folder, 'events.jsonl')))) {
    throw new core.AcpError(`missing protocol.json in ${folder} (not a collaboration folder)`);
  }
  if (!options.fix) {
    // Let an append that is running finish, so its halfway state is not reported.
    const deadline = host.now().getTime() + SETTLE_MS;
    while ((await core.inspectFolderLock(host, folder).catch(() => undefined))?.status === 'held' && host.now().getTime() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { findings } = await diagnose(core, host, folder, false);
    return { folder, healthy: !findings.some((f) => f.status === 'problem'), findings, changes: [] };
  }
  const before = await diagnose(core, host, folder, false);
  const lockFinding = before.findings.find((f) => f.check === 'lock' && f.status === 'problem' && !f.fixable);
  if (lockFinding) return { folder, healthy: false, findings: before.findings, changes: [] };
  const changes: string[] = [];
  let findings = before.findings;
  // What an interrupted write of this clone left was never published: the folder lock (the local store) is all its repair takes.
  const tail = (f: DoctorFinding): boolean => f.check === 'events.jsonl' && f.fixable && f.message.startsWith('the last line is');
  const leftovers = before.findings.some((f) => (f.check === 'lock' && f.status !== 'ok') || (['temp-files', 'lock-line'].includes(f.check) && f.fixable) || tail(f));
  // The log's times, the signing declaration, the cached state: through the run's store, published like an append.
  // Neither: no transaction (under git it would fetch, and refuse what git doctor, run next, repairs).
  const published = before.findings.some((f) => f.fixable && !['lock', 'lock-line', 'temp-files', 'freeze'].includes(f.check) && !tail(f));
  for (const [needed, store, body] of [
    [leftovers, core.localStore(host), (tx: Acp.Transaction) => removeLeftovers(core, host, tx, folder, before)],
    [published, options.store, (tx: Acp.Transaction) => repairLog(core, host, tx, folder)],
  ] as const) {
    if (!needed) continue;
    const repaired = await repairInStore(core, host, folder, before, body, { ...options, store });
    if ('findings' in repaired) return { folder, healthy: false, findings: repaired.findings, changes };
    changes.push(...repaired.changes);
    findings = (await diagnose(core, host, folder, false)).findings;
  }
  // An interrupted freeze is settled through append (its own transaction, every check).
  const settled = await diagnose(core, host, folder, false);
  for (const target of settled.halfFrozen) await settleFreeze(core, host, folder, target, settled.derived?.waitingFor ?? [], options, changes);
  if (settled.halfFrozen.length) findings = (await diagnose(core, host, folder, false)).findings;
  return { folder, healthy: !findings.some((f) => f.status === 'problem'), findings, changes };
}

/** Repairs as one transaction of `options.store`; a lock that cannot be had, or a store's refusal, is a finding (nothing changed), not a failure. */
async function repairInStore(core: DoctorCore, host: Acp.Host, folder: string, before: Diagnosis, body: (tx: Acp.Transaction) => Promise<string[]>, options: DoctorOptions): Promise<{ changes: string[] } | { findings: DoctorFinding[] }> {
  const intent: Acp.WriteIntent = { participant: 'doctor', kind: 'repair', documents: [] };
  try {
    return { changes: await core.transact(host, folder, intent, body, options.registry, { store: options.store, lockTimeoutMs: options.lockTimeoutMs ?? 10_000, lockSignal: options.signal }) };
  } catch (error) {
    if (!(error instanceof core.AcpError) || error.code === 'aborted') throw error;
    // The lock could not be had, or the store refused (git: the remote unreachable): the folder is as it was.
    const check = error.code === 'lock_timeout' ? 'lock' : 'store';
    return { findings: [...before.findings, { check, status: 'problem' as const, message: `${error.message}; nothing was changed`, fixable: false }] };
  }
}

/** The text `acp doctor` prints. */
export function formatDoctorReport(report: DoctorReport, fix: boolean): string {
  const lines = [`acp doctor: ${report.folder}`];
  for (const f of report.findings) {
    const label = f.status === 'ok' ? 'ok' : f.status === 'note' ? 'note' : 'PROBLEM';
    lines.push(`${label}: ${f.check}: ${f.message}${f.status === 'problem' && f.fixable && !fix ? ' [--fix repairs this]' : ''}`);
  }
  for (const change of report.changes) lines.push(`fixed: ${change}`);
  const problems = report.findings.filter((f) => f.status === 'problem');
  const fixable = problems.filter((f) => f.fixable).length;
  if (!problems.length) lines.push(fix && report.changes.length ? 'doctor: healthy now' : 'doctor: healthy');
  else if (!fix && fixable) lines.push(`doctor: ${problems.length} problem${problems.length > 1 ? 's' : ''}; \`acp doctor --fix\` repairs ${fixable} of them`);
  else lines.push(`doctor: ${problems.length} problem${problems.length > 1 ? 's' : ''} need${problems.length > 1 ? '' : 's'} a person (doctor does not touch user content)`);
  return lines.join('\n');
}
