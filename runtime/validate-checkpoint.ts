/**
 * The validation checkpoint ([beyond]): what `validate`'s log pass learnt
 * from a prefix of events.jsonl, with the SHA-256 of that prefix, so that
 * the next `validate` hashes the prefix (one pass, no parsing, no per-line
 * work) and parses and checks only the events after it. The verdict is the
 * full validation's, byte for byte: see docs/performance.md. A cache kept
 * outside the folder (validate never writes there): deleting it costs one
 * full validation. acp.ts passes in what the pass reads besides the log;
 * this module imports only types from runtime/types.ts.
 * @module
 */
import * as nodePath from 'node:path';
import type { FileReader, Host } from './host.ts';
import { hmacHex, sameText } from './checkpoint.ts';
import { READ_LIMITS } from './files.ts';
import { isPyNumber } from './pyjson.ts';
import { type PyInstant, type ReviewHeading, reviewHeadings } from './pytext.ts';
import type { VerifierState } from './signing.ts';
import { isInt, isObject, type Json, type NodeCrypto, nodeCrypto, sameList, type StreamingHash } from './util.ts';
import type { DerivedState, ResumePoint } from './types.ts';
export type { ResumePoint } from './types.ts';

// Where: `Host.cacheDir()` (by default ~/.local/state/acp/validate/, next to
// the checkpoint key, private to the account), one file per folder path
// (named by its SHA-256), and only for logs of at least MIN_LOG_BYTES: a
// shorter one is validated in full in a few milliseconds, and small folders
// (tests, conformance runs) leave nothing behind.
//
// Threat model: the append checkpoint's (runtime/checkpoint.ts). The
// file's claims (the errors of the prefix, the replayed state) decide the
// verdict, so it is authenticated the same way although it lives outside
// the folder: HMAC-SHA256 with the host's checkpoint key over the label
// `acp validate checkpoint`, the folder's path and the content. A file
// written by someone without the key (a synced or shared state directory),
// edited, or made for another folder is not used. The log itself is
// vouched for by content, not by file times: the prefix's SHA-256 is
// recomputed from the bytes read on every use, so any edit of the prefix
// (same length or not), a truncation or a replaced file means a full
// validation; lines appended after it, by acp or by any other writer, are
// parsed and checked as a full validation would. Everything else the pass
// reads is compared as well (participants, deliverable references,
// readiness.md's decision gates, review.md by its SHA-256). Not covered, as
// for the append checkpoint: a process that can read the key can forge the
// verdict, as it can replace acp itself.

const VERSION = 4;
/** Logs shorter than this are validated in full and leave no checkpoint. */
export const MIN_LOG_BYTES = 64 * 1024;

/** How much of the log is hashed at a time (one reused buffer). */
const PIECE_BYTES = 1 << 20;

/**
 * The validation checkpoint of `folder` (an absolute path), or `undefined`
 * when the host keeps no caches or has no node:crypto (whose incremental
 * SHA-256 the checkpoint needs).
 */
export async function validateCheckpointPath(host: Host, folder: string): Promise<string | undefined> {
  const dir = await host.cacheDir?.();
  const crypto = await nodeCrypto();
  return dir && crypto && nodePath.join(dir, `${crypto.createHash('sha256').update(folder).digest('hex')}.json`);
}

/** validate's log pass (acp.ts LogPass), as far as the checkpoint reads and restores it. */
export interface LogPassState {
  readonly shapeErrors: string[];
  readonly headingSeqs: ReadonlySet<number | bigint>;
  readonly reviewEvents: Json[];
  readonly firstBySeq: Map<number, Json>;
  readonly deliverableItems: { event: Json; docErrors: string[]; freeze: boolean }[];
  primaryFreezes: number;
  readonly frozenSupporting: Set<string>;
  readonly state: DerivedState;
  readonly eventNames: Set<unknown>;
  anyPrimaryFreeze: boolean;
  count: number;
  lastAt: PyInstant | undefined;
  seenSeqs: Set<unknown> | undefined;
  /** A signed folder's verifier (runtime/signing.ts), flushed: its state is JSON. */
  readonly signing: { readonly state: VerifierState } | undefined;
  /** The first signed event of a folder that declares no signing. */
  firstSignature: number | undefined;
}

/** What the log pass reads besides the log: a checkpoint made with other inputs is not used. */
export interface PassInputs {
  /** The acp version: another one may check differently. */
  acp: string;
  participants: string[];
  /** The primary deliverable's reference (`null`: none) and the supporting ones': the doc errors of deliverable events. */
  primary: string | null;
  supporting: string[];
  /** readiness.md's decision gate errors, which the replay adds at every decision_accepted. */
  gates: string[];
  /** How signatures are checked: `off`, `none` (no declaration) or the declaration's `{id} {policy}`. */
  signing: string;
}

/** The pass after the prefix, in a form that survives JSON exactly. */
interface SavedPass {
  count: number;
  lastAt: [number, number] | null;
  shapeErrors: string[];
  stateErrors: string[];
  state: Omit<DerivedState, 'errors'>;
  /** seq and from of every review_submitted, in log order (flat lists: read back without per-item objects). */
  reviews: { seqs: number[]; from: string[] };
  items: { seq: number; doc: string; sha256?: string; docErrors: string[]; freeze: boolean }[];
  primaryFreezes: number;
  frozenSupporting: string[];
  eventNames: string[];
  anyPrimaryFreeze: boolean;
  /** The signature verifier's state (`null`: none ran). */
  signing: VerifierState | null;
  firstSignature: number | null;
}

/** review.md's headings, as {@link reviewHeadings} finds them. */
type Headings = ReviewHeading[];

interface Stored {
  version: number;
  /** The headings of the review.md whose SHA-256 is `sha256` (finding them takes longer than hashing it). */
  review?: { sha256: string; participants: string[]; seqs: number[] };
  /** `gates` is `null` when the prefix has no decision_accepted (then readiness.md does not matter). */
  inputs: Omit<PassInputs, 'gates'> & { gates: string[] | null };
  log: { offset: number; sha256: string; lines: number };
  scanErrors: string[];
  pass: SavedPass;
}

/** The MAC of a checkpoint's JSON: the host's key over a label, the folder's path and the content. */
function checkpointMac(key: Uint8Array, folder: string, json: string): Promise<string> {
  return hmacHex(key, `acp validate checkpoint\n${folder}\n${json}`);
}

/** The checkpoint stored at `path` when `key` authenticates it for `folder` and it has this version's shape; `undefined` otherwise. */
async function loadAuthentic(host: Host, path: string, key: Uint8Array, folder: string): Promise<Stored | undefined> {
  let stored: Stored;
  try {
    const text = new TextDecoder().decode(await host.fs.readFile(path, { maxBytes: READ_LIMITS.checkpoint }));
    const newline = text.indexOf('\n');
    const json = text.slice(newline + 1, text.endsWith('\n') ? -1 : undefined);
    if (newline < 0 || !sameText(text.slice(0, newline), await checkpointMac(key, folder, json))) return undefined;
    stored = JSON.parse(json);
  } catch {
    return undefined;
  }
  return isObject(stored) && stored.version === VERSION && wellFormed(stored) ? stored : undefined;
}

/**
 * Where a signed append may start verifying when its participant has no
 * record of its own (runtime/signed-append.ts): the signature verifier's
 * state after the prefix of `file` (events.jsonl of `folder`, as opened)
 * that this host's validation checkpoint vouches for. Only an authentic
 * checkpoint (the host's key, this folder's path) whose prefix is the
 * file's own first bytes (hashed here, on the file opened) and whose
 * verifier met no problem there, in collaboration `id`; `undefined`
 * otherwise (then the append verifies from seq 1). Hashing the prefix
 * costs far less than verifying its signatures.
 */
export async function checkpointedSignedPrefix(host: Host, folder: string, file: FileReader, id: string): Promise<{ point: ResumePoint; state: VerifierState } | undefined> {
  if (file.size < MIN_LOG_BYTES) return undefined;
  const key = await host.checkpointKey?.();
  const path = key && (await validateCheckpointPath(host, folder));
  const crypto = await nodeCrypto();
  const stored = key && path && crypto ? await loadAuthentic(host, path, key, folder) : undefined;
  const state = stored?.pass.signing;
  if (!stored || !isVerifierState(state) || state.id !== id || state.problems.length || stored.scanErrors.length) return undefined;
  const { offset, lines, sha256 } = stored.log;
  if (!isInt(offset) || offset <= 0 || offset > file.size) return undefined;
  const hash = crypto!.createHash('sha256');
  let lastByte = -1;
  for (let position = 0; position < offset; ) {
    const piece = await file.read(position, Math.min(PIECE_BYTES, offset - position));
    if (!piece.length) return undefined;
    hash.update(piece);
    lastByte = piece[piece.length - 1]!;
    position += piece.length;
  }
  if (lastByte !== 0x0a || hash.digest('hex') !== sha256) return undefined;
  return { point: { offset, lines, errors: [] }, state: structuredClone(state) };
}

/** Whether an (authentic) checkpoint has the shape this version writes: restoring it cannot fail half-way. */
function wellFormed(stored: Stored): boolean {
  const { inputs, log, pass, review } = stored;
  if (review !== undefined && !(isObject(review) && Array.isArray(review.seqs) && Array.isArray(review.participants))) return false;
  const lists = [stored.scanErrors, pass?.shapeErrors, pass?.stateErrors, pass?.reviews?.seqs, pass?.reviews?.from, pass?.items, pass?.frozenSupporting, pass?.eventNames];
  return isObject(inputs) && isObject(log) && isInt(log.lines) && typeof log.sha256 === 'string' && isObject(pass) && isObject(pass.state) && isInt(pass.count) && (pass.lastAt === null || (Array.isArray(pass.lastAt) && pass.lastAt.length === 2 && pass.lastAt.every(isInt))) && lists.every(Array.isArray);
}

/** The pass as JSON, or `undefined` when a checkpoint could not restore it exactly. */
function savePass(pass: LogPassState): SavedPass | undefined {
  // Only a prefix whose seqs are its event numbers: then the first event of
  // any seq in it is known from its position, and every seq is an integer.
  if (pass.seenSeqs) return undefined;
  const reviews: SavedPass['reviews'] = { seqs: [], from: [] };
  for (const event of pass.reviewEvents) {
    if (!isInt(event.seq) || typeof event.from !== 'string') return undefined;
    reviews.seqs.push(event.seq);
    reviews.from.push(event.from);
  }
  const items: SavedPass['items'] = [];
  for (const { event, docErrors, freeze } of pass.deliverableItems) {
    if (!isInt(event.seq) || typeof event.doc !== 'string') return undefined;
    items.push({ seq: event.seq, doc: event.doc, ...(typeof event.sha256 === 'string' ? { sha256: event.sha256 } : {}), docErrors, freeze });
  }
  const { errors, ...state } = pass.state;
  if (!survivesJson(state)) return undefined;
  return {
    count: pass.count,
    lastAt: pass.lastAt ? [pass.lastAt[0], pass.lastAt[1]] : null,
    shapeErrors: pass.shapeErrors,
    stateErrors: errors,
    state,
    reviews,
    items,
    primaryFreezes: pass.primaryFreezes,
    frozenSupporting: [...pass.frozenSupporting],
    // Later steps ask only for event names (strings).
    eventNames: [...pass.eventNames].filter((name): name is string => typeof name === 'string'),
    anyPrimaryFreeze: pass.anyPrimaryFreeze,
    signing: pass.signing ? structuredClone(pass.signing.state) : null,
    firstSignature: pass.firstSignature ?? null,
  };
}

/** Whether a saved verifier state has the shape {@link SignatureVerifier} keeps (the validation checkpoint reads it back). */
function isVerifierState(value: unknown): value is VerifierState {
  return isObject(value) && isInt(value.position) && typeof value.lastHash === 'string' && isObject(value.keys) && isObject(value.keySeqs) && Array.isArray(value.unsigned) && Array.isArray(value.problems) && isInt(value.verified);
}

/** Whether JSON gives `value` back exactly (no -0, no undefined, no number beyond JSON's, which JSON.parse reads as ±Infinity). */
function survivesJson(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  // A PyFloat or PyInt would come back as a plain number.
  if (isPyNumber(value)) return false;
  if (Array.isArray(value)) return value.every(survivesJson);
  return isObject(value) ? Object.values(value).every(survivesJson) : true;
}

/**
 * Continue `pass` (fresh) from a saved one; `false` (nothing changed) when a
 * review.md heading names an event of the prefix that is not a review (its
 * message needs the event, which is not saved): then a full validation.
 */
function restorePass(pass: LogPassState, saved: SavedPass): boolean {
  // Indexed loops: this runs once per process, before the JIT, over ~10 k reviews at 100 k events.
  const { seqs, from } = saved.reviews;
  const reviewSeqs = new Set(seqs);
  for (const seq of pass.headingSeqs) if (typeof seq === 'number' && seq >= 1 && seq <= saved.count && !reviewSeqs.has(seq)) return false;
  if ((saved.signing === null) !== (pass.signing === undefined) || (saved.signing !== null && !isVerifierState(saved.signing))) return false;
  for (let i = 0; i < seqs.length; i++) {
    const event = { seq: seqs[i], from: from[i], event: 'review_submitted' };
    pass.reviewEvents.push(event);
    if (pass.headingSeqs.has(seqs[i]!)) pass.firstBySeq.set(seqs[i]!, event);
  }
  pass.shapeErrors.push(...saved.shapeErrors);
  for (const { seq, doc, sha256, docErrors, freeze } of saved.items) pass.deliverableItems.push({ event: { seq, doc, sha256 }, docErrors, freeze });
  pass.primaryFreezes = saved.primaryFreezes;
  for (const doc of saved.frozenSupporting) pass.frozenSupporting.add(doc);
  Object.assign(pass.state, structuredClone(saved.state), { errors: [...saved.stateErrors] });
  for (const name of saved.eventNames) pass.eventNames.add(name);
  pass.anyPrimaryFreeze = saved.anyPrimaryFreeze;
  pass.count = saved.count;
  pass.lastAt = saved.lastAt ? [saved.lastAt[0], saved.lastAt[1]] : undefined;
  if (pass.signing && saved.signing) Object.assign(pass.signing.state, structuredClone(saved.signing));
  pass.firstSignature = saved.firstSignature ?? undefined;
  return true;
}

/**
 * One `validate`'s use of the checkpoint: {@link reviewHeadings} finds or
 * recalls review.md's headings; {@link resume} is handed the log's reader
 * and the fresh pass and says where the scan starts; {@link save} records
 * the pass after the whole log.
 */
export class ValidateCheckpoint {
  readonly #host: Host;
  readonly #folder: string;
  readonly #path: string;
  readonly #key: Uint8Array;
  readonly #inputs: PassInputs;
  #stored: Stored | undefined;
  #review: Stored['review'];
  readonly #crypto: NodeCrypto;
  /** The log's SHA-256 so far: of its first `#hashed` bytes, the last of which is `#lastByte`. */
  #hash: StreamingHash | undefined;
  #hashed = 0;
  #lastByte = -1;
  #size = 0;
  #current = false;

  private constructor(host: Host, folder: string, path: string, key: Uint8Array, inputs: PassInputs, crypto: NodeCrypto) {
    this.#crypto = crypto;
    this.#host = host;
    this.#folder = folder;
    this.#path = path;
    this.#key = key;
    this.#inputs = inputs;
  }

  /** The checkpoint of `folder`, or `undefined` when the host has no checkpoint key or cache directory (then: full validation, nothing saved). */
  static async open(host: Host, folder: string, inputs: PassInputs): Promise<ValidateCheckpoint | undefined> {
    // A small log is validated in full, and nothing is loaded for it:
    // node:crypto alone costs a fresh Node ~4 ms, a tenth of a small validate.
    const log = await host.fs.stat(nodePath.join(folder, 'events.jsonl')).catch(() => null);
    if (!log || log.size < MIN_LOG_BYTES) return undefined;
    const key = await host.checkpointKey?.();
    const path = key && (await validateCheckpointPath(host, folder));
    const crypto = await nodeCrypto();
    if (!key || !path || !crypto) return undefined;
    const checkpoint = new ValidateCheckpoint(host, folder, path, key, inputs, crypto);
    checkpoint.#stored = await checkpoint.#load();
    return checkpoint;
  }

  /** review.md's headings: the stored ones when `text` is the review.md they were found in. */
  async reviewHeadings(text: string): Promise<Headings> {
    const sha256 = this.#crypto.createHash('sha256').update(text).digest('hex');
    const stored = this.#stored?.review;
    if (stored?.sha256 === sha256) {
      this.#review = stored;
      const headings: Headings = [];
      for (let i = 0; i < stored.seqs.length; i++) headings.push({ participant: stored.participants[i]!, seq: stored.seqs[i]! });
      return headings;
    }
    const headings = reviewHeadings(text);
    const seqs = headings.map((h) => h.seq).filter((seq) => typeof seq === 'number');
    this.#review = seqs.length === headings.length ? { sha256, participants: headings.map((h) => h.participant), seqs } : undefined;
    return headings;
  }

  #mac(json: string): Promise<string> {
    return checkpointMac(this.#key, this.#folder, json);
  }

  /** The stored checkpoint when authentic and made from the same inputs. */
  async #load(): Promise<Stored | undefined> {
    const stored = await loadAuthentic(this.#host, this.#path, this.#key, this.#folder);
    const inputs = this.#inputs;
    const same =
      stored !== undefined &&
      stored.inputs.acp === inputs.acp &&
      sameList(stored.inputs.participants, inputs.participants) &&
      stored.inputs.primary === inputs.primary &&
      sameList(stored.inputs.supporting, inputs.supporting) &&
      stored.inputs.signing === inputs.signing &&
      (stored.inputs.gates === null || sameList(stored.inputs.gates, inputs.gates));
    return same ? stored : undefined;
  }

  /**
   * Where the scan of `file` (events.jsonl) starts, with `pass` restored to
   * the prefix the checkpoint vouches for (offset 0: from the start). The
   * prefix is hashed in pieces, never parsed; the scan then shows this
   * checkpoint every piece it reads, for the whole log's digest.
   */
  async resume(file: FileReader, pass: LogPassState): Promise<ResumePoint> {
    const hash = (this.#hash = this.#crypto.createHash('sha256'));
    this.#size = file.size;
    const seen = (piece: Uint8Array, position: number): void => {
      const skip = this.#hashed - position;
      if (skip >= piece.length || skip < 0) return;
      hash.update(skip ? piece.subarray(skip) : piece);
      this.#hashed = position + piece.length;
      if (piece.length) this.#lastByte = piece[piece.length - 1]!;
    };
    const start = { offset: 0, lines: 0, errors: [], seen };
    const stored = this.#stored;
    const offset = stored?.log.offset;
    if (!stored || !isInt(offset) || offset <= 0 || offset > file.size) return start;
    while (this.#hashed < offset) {
      const piece = await file.read(this.#hashed, Math.min(PIECE_BYTES, offset - this.#hashed));
      if (!piece.length) return start;
      seen(piece, this.#hashed);
    }
    if (this.#lastByte !== 0x0a || hash.copy().digest('hex') !== stored.log.sha256 || !restorePass(pass, stored.pass)) return start;
    this.#current = offset === file.size;
    return { offset, lines: stored.log.lines, errors: [...stored.scanErrors], seen };
  }

  /**
   * Record the pass after the whole log (`lines` lines, `scanErrors`), when
   * the log ends with a whole line and the pass can be saved exactly. A
   * checkpoint that cannot be written only costs the next validate its speed.
   */
  async save(lines: number, scanErrors: string[], pass: LogPassState): Promise<void> {
    const size = this.#hashed;
    if ((this.#current && this.#review === this.#stored?.review) || !this.#hash || size !== this.#size || size < MIN_LOG_BYTES || this.#lastByte !== 0x0a) return;
    const saved = savePass(pass);
    if (!saved) return;
    try {
      const sha256 = this.#hash.digest('hex');
      const { gates, ...inputs } = this.#inputs;
      const stored: Stored = { version: VERSION, review: this.#review, inputs: { ...inputs, gates: pass.eventNames.has('decision_accepted') ? gates : null }, log: { offset: size, sha256, lines }, scanErrors, pass: saved };
      const json = JSON.stringify(stored);
      // Replaced whole: a concurrent validate reads the old checkpoint or the new one.
      const temporary = `${this.#path}.${this.#host.pid}.tmp`;
      await this.#host.fs.mkdir(nodePath.dirname(this.#path));
      await this.#host.fs.writeFile(temporary, `${await this.#mac(json)}\n${json}\n`);
      await this.#host.fs.rename(temporary, this.#path);
    } catch {
      // Not writable: validated in full next time.
    }
  }
}
