/**
 * The append checkpoint ([beyond]): what a full replay of the log would
 * conclude, cached with a fingerprint of the log, so an append on a long log
 * reads its tail instead of all of it. A cache: deleting it costs one full
 * replay. acp.ts passes in what belongs to the state machine (its start
 * state, the keys it stores); this module imports only types from runtime/types.ts.
 * @module
 */
import * as nodePath from 'node:path';
import type { DerivedState } from './types.ts';
import type { FileStat, Host } from './host.ts';
import { READ_LIMITS, readCapped } from './files.ts';
import { loadsPy } from './pyjson.ts';
import { pySplitLines, pyStr } from './pytext.ts';
import { bunCryptoHasher, hmacSha256, sha256, toHex } from './sha256.ts';
import { isInt, isObject, type Json, nodeCrypto, sameList } from './util.ts';

// The append checkpoint ([beyond]). A full replay reads and re-checks the
// whole log, which costs ~0.2-0.4 s at 100k events. After each successful
// append the runtime records in `.acp.checkpoint.json` what the next append
// needs (the derived state, the seqs, the decision_accepted seqs) together
// with a fingerprint of events.jsonl (size, mtime, ctime, inode, last line).
// The next append uses it only when the fingerprint still matches; any other
// writer (the Python tools, an editor, a truncation) changes it, and then the
// log is read and replayed in full. The checkpoint is a cache: deleting it
// is always safe, and other tools ignore dot files.
//
// Threat model. Anyone who can write the folder can write the checkpoint,
// and its claims (the phase, who is due, the next seq) decide the verdict of
// an append: a forged one made acp append a duplicate seq or an event out of
// phase. A digest of the log inside the checkpoint would not help: the
// forger recomputes it next to a false state. So:
// - The checkpoint is authenticated: HMAC-SHA256 with a key the host keeps
//   outside every folder (`Host.checkpointKey`, by default
//   ~/.local/state/acp/checkpoint.key, 0600), over its content and the
//   folder's path. A writer of the folder who cannot read that key (another
//   account, a sandbox or container given the folder only, a synced or
//   shared copy) cannot make acp trust anything: a changed byte, a copied
//   checkpoint or a replayed old one (the log's ctime and inode, which no
//   writer can set back, are in the fingerprint) mean a full replay.
// - The seq facts are checked against the log itself, key or not: a
//   checkpoint is written only for a log whose seqs are exactly 1..count,
//   and its claim is accepted only when the log's last line, read from the
//   file, is the event numbered maxSeq = count. Editing the checkpoint
//   alone, even with the key, cannot make acp number an event twice: the
//   number comes from the log's last line.
// - Not covered: a process of the same account that reads the key can forge
//   the rest of the state (the phase, who is due), as it can replace acp
//   itself; and if it also edits the log (an earlier line given a larger
//   seq, a duplicate in the middle), the last line does not show it.
//   Verifying that too costs the full replay the checkpoint avoids.
//
// One chain for both checkpoints. The validation checkpoint
// (validate-checkpoint.ts, in the host's cache directory) vouches for a
// prefix of the log by its digest and, when validate saw the file whole and
// unchanged while reading it, by the file's fingerprint at that moment.
// Each append that verified the fingerprint it started from carries that
// validation's fingerprint forward (`validated`): "the file was exactly the
// one validate read, and since then only appends made under the folder
// lock, each from the fingerprint the one before it left". So validate and a
// strict append resume after the validated prefix without reading it, and
// the first append after a validate starts from validate's facts instead of
// reading the whole log (see docs/performance.md for why a fingerprint may
// stand in for the digest, and where it may not).

/** The append checkpoint's file name (a cache, local to one machine). */
export const CHECKPOINT_NAME = '.acp.checkpoint.json';
/**
 * 3: the state's own keys stand for the list of state keys that version 2
 * carried beside it (the same list, a sixth of the MAC'd bytes).
 * 4: `validated`, the fingerprint of the validation the chain carries.
 */
const CHECKPOINT_VERSION = 4;
/** Logs shorter than this are validated in full and leave no validation checkpoint (validate-checkpoint.ts). */
export const MIN_LOG_BYTES = 64 * 1024;

/**
 * What identifies events.jsonl as one state of one file: its size, its
 * modification and status-change times and its inode. Every write changes
 * the status-change time (which no writer can set back), a truncation or an
 * append the size, a replaced file the inode.
 */
export interface LogFingerprint {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** The fingerprint in `stat`, or `undefined` when the host does not report the inode or the status-change time. */
export function fingerprintOf(stat: FileStat | null | undefined): LogFingerprint | undefined {
  if (!stat || stat.ino === undefined || stat.ctimeMs === undefined) return undefined;
  return { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino };
}

/** Whether two fingerprints name the same state of the same file (both known). */
export function sameFingerprint(a: LogFingerprint | null | undefined, b: LogFingerprint | null | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** Whether `value` (read from a file) has the shape of a fingerprint. */
export function isFingerprint(value: unknown): value is LogFingerprint {
  return isObject(value) && isInt(value.size) && isInt(value.ino) && typeof value.mtimeMs === 'number' && typeof value.ctimeMs === 'number';
}
/** Up to this size a MAC is computed in TypeScript (see {@link hmacHex}). */
const SMALL_MAC_BYTES = 4096;

/** What an append needs from the log besides its last line. */
export interface LogFacts {
  count: number;
  /** Largest integer seq (0 when none): the next seq is this + 1. */
  maxSeq: number;
  /** The integer seqs of the log, as sorted disjoint `[first, last]` ranges. */
  seqs: [number, number][];
  /**
   * `seq` (as printed) of every decision_accepted, in log order: spec §5
   * re-checks each against the *current* readiness.md on every replay.
   */
  gateSeqs: string[];
  /** The replayed state; a checkpoint is written only after an error-free replay. */
  state: Omit<DerivedState, 'errors' | 'codes'>;
}

/** The append checkpoint, as stored in the folder. */
export interface Checkpoint extends LogFacts {
  version: number;
  participants: string[];
  log: LogFingerprint & { tail: string };
  /** The fingerprint the validation checkpoint recorded, when this checkpoint's chain of appends started from it (see above). */
  validated?: LogFingerprint;
  /** HMAC-SHA256 (hex) of the other fields and the folder, with the host's checkpoint key. */
  mac: string;
}

/** The checkpoint's MAC: binds its content to this folder and the host's key. */
function checkpointMac(key: Uint8Array, folder: string, body: Omit<Checkpoint, 'mac'>): Promise<string> {
  return hmacHex(key, `acp checkpoint\n${folder}\n${JSON.stringify(body)}`);
}

/**
 * HMAC-SHA256 (hex) of `text` with the host's checkpoint key: the one MAC of
 * both checkpoints (each prefixes its own label and the folder's path, so
 * neither can stand in for the other or for another folder's). Bun's own
 * HMAC where there is one; elsewhere a small text
 * (the append checkpoint's) is signed in TypeScript: loading node:crypto
 * costs a fresh Node ~4 ms, a tenth of an append; a large one (the
 * validation checkpoint's, which loads node:crypto for its digest anyway)
 * natively.
 */
export async function hmacHex(key: Uint8Array, text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  // Bun (and the binary) has a native HMAC that costs no load: ~0.5 ms less per MAC than the cold TypeScript one.
  const BunHasher = bunCryptoHasher();
  if (BunHasher) return new BunHasher('sha256', key).update(bytes).digest('hex');
  if (bytes.length <= SMALL_MAC_BYTES) return toHex(hmacSha256(key, bytes));
  const node = await nodeCrypto();
  if (node) return node.createHmac('sha256', key).update(bytes).digest('hex');
  const hmac = await crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', hmac, bytes as Uint8Array<ArrayBuffer>)));
}

/** Whether `facts` describe a log whose seqs are exactly 1..count (the only kind a checkpoint may describe). */
function seqsAreLineNumbers(facts: LogFacts): boolean {
  const [range, ...more] = facts.seqs;
  return facts.count > 0 && facts.maxSeq === facts.count && !more.length && range?.[0] === 1 && range[1] === facts.count;
}

/** Whether `tail` is one event line numbered `seq` (the log's last line, as read from the file). */
export function isLastLineOf(tail: string, seq: number): boolean {
  try {
    // One line as the Python tools split the log (str.splitlines), read as json.loads reads it (`1.0` is no seq).
    const event: unknown = loadsPy(tail);
    return tail.endsWith('\n') && pySplitLines(tail).length === 1 && isObject(event) && event.seq === seq;
  } catch {
    return false;
  }
}

/** Whether `seq` lies in `ranges` (sorted, disjoint `[first, last]` ranges; a binary search). */
export function hasSeq(ranges: [number, number][], seq: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last] = ranges[mid]!;
    if (seq < first) hi = mid - 1;
    else if (seq > last) lo = mid + 1;
    else return true;
  }
  return false;
}

/** `ranges` with `seq` added (a new array; the same one when it is already there), still sorted. */
export function addSeq(ranges: [number, number][], seq: number): [number, number][] {
  if (hasSeq(ranges, seq)) return ranges;
  const out = ranges.map((r): [number, number] => [r[0], r[1]]);
  // Indexed, not `.at(-1)`: every append runs this once, in a fresh process,
  // where JavaScriptCore's first call of a builtin such as Array.prototype.at
  // compiles it (~0.1 ms of the binary's append).
  const last = out[out.length - 1];
  if (last && last[1] + 1 === seq) last[1] = seq;
  else if (!last || last[1] < seq) out.push([seq, seq]);
  else {
    out.push([seq, seq]);
    out.sort((a, b) => a[0] - b[0]);
  }
  return out;
}

/**
 * The facts of a fully read log, from its events and their replayed state;
 * `undefined` for a log the checkpoint cannot describe exactly (a fractional
 * seq, which a library caller's `replyTo` could still match).
 */
export function logFacts(events: Json[], state: DerivedState): LogFacts | undefined {
  const gateSeqs = events.filter((e) => e.event === 'decision_accepted').map((e) => pyStr(e.seq));
  // The normal log, seqs 1..n in order, needs no set nor sort (~25 ms of a full replay at 100 k events).
  if (seqsAreIndexes(events)) return { count: events.length, maxSeq: events.length, seqs: events.length ? [[1, events.length]] : [], gateSeqs, state: stripErrors(state) };
  if (events.some((e) => typeof e.seq === 'number' && !Number.isInteger(e.seq))) return undefined;
  const ints = events.map((e) => e.seq).filter(isInt);
  ints.sort((a, b) => a - b);
  const seqs: [number, number][] = [];
  for (const seq of ints) {
    const last = seqs.at(-1);
    if (last && seq <= last[1] + 1) last[1] = Math.max(last[1], seq);
    else seqs.push([seq, seq]);
  }
  return { count: events.length, maxSeq: ints.reduce((max, seq) => Math.max(max, seq), 0), seqs, gateSeqs, state: stripErrors(state) };
}

/** Whether every event's seq is its position (1, 2, 3…): the log of a run with no error. */
function seqsAreIndexes(events: Json[]): boolean {
  for (let i = 0; i < events.length; i++) if (events[i]!.seq !== i + 1) return false;
  return true;
}

/** A deep copy of `state` without its errors and their codes: what a checkpoint keeps of it. */
export function stripErrors(state: DerivedState): Omit<DerivedState, 'errors' | 'codes'> {
  const { errors: _errors, codes: _codes, ...rest } = state;
  return structuredClone(rest);
}

/**
 * The state a full replay of the checkpointed log gives: `gates` are the
 * decision gate errors of the current readiness.md, `empty` the state
 * machine's start.
 */
export function checkpointState(facts: LogFacts, gates: readonly string[], empty: DerivedState): DerivedState {
  const errors = gates.length ? facts.gateSeqs.flatMap((seq) => gates.map((message) => `seq ${seq}: ${message}`)) : [];
  return { ...empty, ...structuredClone(facts.state), errors, codes: errors.map(() => 'invalid_event' as const) };
}

/**
 * The checkpoint, when it provably describes the current events.jsonl (and
 * the same participants); `undefined` otherwise (then: full replay). See the
 * threat model above.
 */
export async function loadCheckpoint(host: Host, folder: string, participants: string[], keys: readonly string[]): Promise<Checkpoint | undefined> {
  const cp = await currentCheckpoint(host, folder);
  // A checkpoint of another state shape (another acp version) is not ours to use.
  return cp && sameList(cp.participants, participants) && sameList(Object.keys(cp.state).sort(), [...keys]) ? cp : undefined;
}

/**
 * The checkpoint when it is authentic (this host's key, this folder) and
 * describes events.jsonl as it is now: its fingerprint and last line. The
 * chain of appends it carries (`validated`) is then the file's (validate
 * reads it here).
 */
export async function currentCheckpoint(host: Host, folder: string): Promise<Checkpoint | undefined> {
  const key = await host.checkpointKey?.();
  if (!key) return undefined;
  let cp: Checkpoint;
  try {
    cp = JSON.parse(new TextDecoder().decode(await readCapped(host, nodePath.join(folder, CHECKPOINT_NAME), READ_LIMITS.checkpoint, CHECKPOINT_NAME)));
  } catch {
    return undefined;
  }
  if (!isObject(cp) || cp.version !== CHECKPOINT_VERSION || typeof cp.mac !== 'string') return undefined;
  const { mac, ...body } = cp;
  if (!sameText(mac, await checkpointMac(key, folder, body))) return undefined;
  const validShape =
    isObject(cp.log) &&
    typeof cp.log.tail === 'string' &&
    isObject(cp.state) &&
    Array.isArray(cp.participants) &&
    isInt(cp.count) &&
    isInt(cp.maxSeq) &&
    Array.isArray(cp.seqs) &&
    cp.seqs.every((r) => Array.isArray(r) && r.length === 2 && isInt(r[0]) && isInt(r[1])) &&
    Array.isArray(cp.gateSeqs) &&
    cp.gateSeqs.every((g) => typeof g === 'string') &&
    (cp.validated === undefined || isFingerprint(cp.validated));
  // The seq facts hold by the log's own last line, whoever wrote the checkpoint.
  if (!validShape || !seqsAreLineNumbers(cp) || !isLastLineOf(cp.log.tail, cp.maxSeq)) return undefined;
  return (await fingerprintMatches(host, folder, cp.log)) ? cp : undefined;
}

/** Compare two MACs in time independent of where they differ. */
export function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Whether events.jsonl is the file the checkpoint saw: same size, times and
 * inode, and it ends with `log.tail` as a whole line (the byte before it is
 * a newline, or the tail is the whole file).
 */
async function fingerprintMatches(host: Host, folder: string, log: Checkpoint['log']): Promise<boolean> {
  const tail = new TextEncoder().encode(log.tail);
  const want = Math.min(log.size, tail.length + 1);
  const logPath = nodePath.join(folder, 'events.jsonl');
  let stat: FileStat | null;
  let bytes: Uint8Array;
  if (host.fs.readTail) {
    const read = await host.fs.readTail(logPath, want);
    if (!read) return false;
    ({ stat, bytes } = read);
  } else {
    stat = await host.fs.stat(logPath);
    if (!stat || stat.size !== log.size) return false;
    bytes = (await readCapped(host, logPath, READ_LIMITS.log, 'events.jsonl')).subarray(-want);
  }
  if (stat?.ino === undefined || stat.ctimeMs === undefined) return false;
  if (stat.size !== log.size || stat.mtimeMs !== log.mtimeMs || stat.ctimeMs !== log.ctimeMs || stat.ino !== log.ino) return false;
  if (bytes.length !== want || (want > tail.length && bytes[0] !== 0x0a)) return false;
  const end = bytes.subarray(want - tail.length);
  return end.every((b, i) => b === tail[i]);
}

/**
 * Record the checkpoint after an append wrote `line`, when events.jsonl is
 * exactly what we expect (`expectedSize`) and its seqs are 1..count:
 * otherwise another writer slipped in (or the log is one a checkpoint cannot
 * vouch for), and the stale checkpoint is removed.
 */
export async function saveCheckpoint(host: Host, folder: string, participants: string[], facts: LogFacts, line: string, expectedSize: number, validated?: LogFingerprint): Promise<void> {
  const path = nodePath.join(folder, CHECKPOINT_NAME);
  try {
    const key = await host.checkpointKey?.();
    const stat = await host.fs.stat(nodePath.join(folder, 'events.jsonl'));
    if (!key || !seqsAreLineNumbers(facts) || !stat || stat.size !== expectedSize || stat.ino === undefined || stat.ctimeMs === undefined) {
      await host.fs.remove(path);
      return;
    }
    const body: Omit<Checkpoint, 'mac'> = {
      version: CHECKPOINT_VERSION,
      participants,
      ...facts,
      log: { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, ino: stat.ino, tail: line },
      ...(validated ? { validated } : {}),
    };
    await host.fs.writeFile(path, `${JSON.stringify({ ...body, mac: await checkpointMac(key, folder, body) })}\n`);
  } catch {
    // A cache that cannot be written only costs the next append a full replay.
    await host.fs.remove(path).catch(() => undefined);
  }
}

/**
 * The validation checkpoint's file for `folder`: one per folder path, named
 * by its SHA-256, in the host's cache directory; `undefined` when the host
 * keeps no caches. (The TypeScript SHA-256: an append asks for it too, and
 * node:crypto costs a fresh Node ~4 ms to load.)
 */
export async function validationCheckpointFile(host: Host, folder: string): Promise<string | undefined> {
  const dir = await host.cacheDir?.();
  return dir && nodePath.join(dir, `${toHex(sha256(new TextEncoder().encode(folder)))}.json`);
}

/**
 * The fingerprint the validation checkpoint of `folder` names (the file
 * validate read whole and unchanged), read from the file's first bytes,
 * where it stands second in the JSON, without the MAC: an append only ever
 * records it when it equals the fingerprint the append itself verified
 * (see {@link validationChain}), and validate trusts only its own
 * authenticated copy of it.
 */
async function validationHead(host: Host, folder: string): Promise<LogFingerprint | undefined> {
  const path = await validationCheckpointFile(host, folder);
  if (!path || !host.fs.openRead) return undefined;
  try {
    const file = await host.fs.openRead(path, { maxBytes: READ_LIMITS.checkpoint });
    let text: string;
    try {
      text = new TextDecoder().decode(await file.read(0, 1024));
    } finally {
      await file.close();
    }
    const found = /^[0-9a-f]+\n\{"version":\d+,"fingerprint":(\{[^{}]*\})/.exec(text);
    const fingerprint: unknown = found && JSON.parse(found[1]!);
    return isFingerprint(fingerprint) ? fingerprint : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the append about to extend events.jsonl knows of it: its fingerprint
 * now, and the validation the new append checkpoint will carry
 * (`validated`): validate's fingerprint when the file is, right now, the one
 * validate read, else the one `previous` (the checkpoint this append started
 * from, its fingerprint verified) carried, when the file has not changed
 * since it was verified. Called under the folder lock, before the append
 * writes; `sizeBefore` skips short logs, which have no validation checkpoint.
 */
export async function validationChain(host: Host, folder: string, previous: Checkpoint | undefined, sizeBefore: number): Promise<{ fingerprint?: LogFingerprint; validated?: LogFingerprint }> {
  const now = fingerprintOf(await host.fs.stat(nodePath.join(folder, 'events.jsonl')).catch(() => null));
  if (!now || sizeBefore < MIN_LOG_BYTES) return { fingerprint: now };
  const head = await validationHead(host, folder);
  if (sameFingerprint(head, now)) return { fingerprint: now, validated: head };
  return { fingerprint: now, validated: previous?.validated && sameFingerprint(previous.log, now) ? previous.validated : undefined };
}
