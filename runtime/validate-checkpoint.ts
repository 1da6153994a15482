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
import { type Checkpoint, currentCheckpoint, fingerprintOf, hmacHex, isFingerprint, isLastLineOf, type LogFingerprint, MIN_LOG_BYTES, sameFingerprint, sameText, validationCheckpointFile } from './checkpoint.ts';
import { VERSION as VERSION_OF_ACP } from './constants.ts';
import { READ_LIMITS } from './files.ts';
import { isPyNumber } from './pyjson.ts';
import type { PyInstant } from './pytext.ts';
import { isReviewLedger, type ReviewFile, type ReviewLedger, ReviewLinks } from './review-links.ts';
import type { VerifierState } from './signing.ts';
import { isInt, isObject, type Json, type NodeCrypto, nodeCrypto, sameList, type StreamingHash } from './util.ts';
import type { DerivedState, ResumePoint } from './types.ts';
export type { ResumePoint } from './types.ts';
export { MIN_LOG_BYTES } from './checkpoint.ts';

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
// vouched for in one of two ways, never by the checkpoint's word alone:
// - by the file's fingerprint (size, times, inode: checkpoint.ts), when the
//   file is the very one validate read whole (unchanged from before its
//   first read to after its last), or when the append checkpoint, itself
//   current, carries that fingerprint as the start of its chain of appends;
// - else by content: the prefix is hashed again, in blocks, and compared
//   with the stored digests, so any edit of the prefix (same length or
//   not), a truncation or a replaced file means a full validation.
// Lines appended after the prefix, by acp or by any other writer, are
// parsed and checked as a full validation would. Everything else the pass
// reads is compared as well (participants, deliverable references,
// readiness.md's decision gates, review.md by its SHA-256). Not covered, as
// for the append checkpoint: a process that can read the key can forge the
// verdict, as it can replace acp itself; and a fingerprint is exactly as
// good as the file system's times (docs/performance.md).

/** 5: the log's fingerprint in a head line; the prefix digested in blocks; the facts an append needs; strict mode's review checks. */
const VERSION = 5;

/** How much of the log is hashed at a time (one reused buffer). */
const PIECE_BYTES = 1 << 20;

/**
 * The prefix is digested in blocks of this size (SHA-256 each): a resume
 * that extends a vouched prefix rehashes at most one block, not the prefix.
 */
const BLOCK_BYTES = 256 * 1024;

/**
 * A strict append saves the checkpoint again only when this much of the log
 * lies after the checkpoint's prefix (or review.md's findings changed): the
 * lines in between are parsed again by the next strict append, in less time
 * than writing the checkpoint takes.
 */
const RESAVE_BYTES = 64 * 1024;

/**
 * The validation checkpoint of `folder` (an absolute path), or `undefined`
 * when the host keeps no caches or has no node:crypto (whose incremental
 * SHA-256 the checkpoint needs).
 */
export async function validateCheckpointPath(host: Host, folder: string): Promise<string | undefined> {
  return (await nodeCrypto()) ? validationCheckpointFile(host, folder) : undefined;
}

/**
 * What a caller that holds the folder lock vouches for (a strict append,
 * which validates the folder as it will be): the log's first
 * `fingerprint.size` bytes are the file at `fingerprint` (none: the host
 * reports no fingerprint), as it found it; `validated` is the validation
 * its chain of appends carries.
 */
export interface LogVouch {
  fingerprint?: LogFingerprint;
  validated?: LogFingerprint;
}

/** validate's log pass (validate.ts LogPass), as far as the checkpoint reads and restores it. */
export interface LogPassState {
  readonly shapeErrors: string[];
  /** Step 7's links (review-links.ts): built from the headings, or from the checkpoint's ledger. */
  links: ReviewLinks;
  readonly deliverableItems: { event: Json; docErrors: string[]; freeze: boolean }[];
  primaryFreezes: number;
  readonly frozenSupporting: Set<string>;
  readonly state: DerivedState;
  readonly eventNames: Set<unknown>;
  anyPrimaryFreeze: boolean;
  count: number;
  lastAt: PyInstant | undefined;
  seenSeqs: Set<unknown> | undefined;
  /** Whether every seq so far is the number of its event (1, 2, 3…), not merely equal to it as Python compares (`1.0`, `true`). */
  seqsExact: boolean;
  /** The seqs of the decision_accepted events, in order (an append re-checks each against the current readiness.md). */
  readonly gateSeqs: number[];
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
  /**
   * seq and author of every review_submitted, in log order: seqs joined by
   * commas, authors as indexes into `names` (10k reviews read back as three
   * strings, decoded only when review.md changed).
   */
  reviews: { seqs: string; from: string; names: string[] };
  items: { seq: number; doc: string; sha256?: string; docErrors: string[]; freeze: boolean }[];
  primaryFreezes: number;
  frozenSupporting: string[];
  eventNames: string[];
  anyPrimaryFreeze: boolean;
  seqsExact: boolean;
  gateSeqs: number[];
  /** The signature verifier's state (`null`: none ran). */
  signing: VerifierState | null;
  firstSignature: number | null;
}

/** The review.md a checkpoint was made with: its SHA-256 (`''`: none), its fingerprint when it did not change while validate ran, and step 7's ledger for it. */
interface StoredReview {
  sha256: string;
  fingerprint: LogFingerprint | null;
  ledger?: ReviewLedger;
}

interface Stored {
  version: number;
  /**
   * events.jsonl as validate read it whole and unchanged (then its size is
   * the prefix's), second in the JSON: an append reads it from the file's
   * first bytes (checkpoint.ts).
   */
  fingerprint: LogFingerprint | null;
  /** The review.md the prefix was checked against (finding its headings takes longer than hashing it). */
  review?: StoredReview;
  /** `gates` is `null` when the prefix has no decision_accepted (then readiness.md does not matter). */
  inputs: Omit<PassInputs, 'gates'> & { gates: string[] | null };
  /** The prefix: its length, its lines, the SHA-256 of each whole block of it and of the rest. */
  log: { offset: number; lines: number; blocks: string[]; rest: string };
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

/** Write a checkpoint whole: a concurrent reader finds the old one or the new one. */
async function store(host: Host, path: string, key: Uint8Array, folder: string, stored: Stored): Promise<void> {
  // `version`, then `fingerprint`: the order checkpoint.ts reads the fingerprint in.
  const json = JSON.stringify(stored);
  const temporary = `${path}.${host.pid}.tmp`;
  await host.fs.mkdir(nodePath.dirname(path));
  await host.fs.writeFile(temporary, `${await checkpointMac(key, folder, json)}\n${json}\n`);
  await host.fs.rename(temporary, path);
}

/**
 * The SHA-256 of a prefix of the log, block by block ({@link BLOCK_BYTES}):
 * fed the pieces a scan reads, in order; a digest made from a stored one
 * continues after its last whole block, so extending a prefix the file's
 * fingerprint vouches for rehashes at most one block.
 */
class PrefixDigest {
  readonly #crypto: NodeCrypto;
  readonly blocks: string[];
  #block: StreamingHash;
  #inBlock = 0;
  /** How many bytes were hashed, and the last of them (-1: none). */
  end: number;
  lastByte = -1;

  constructor(crypto: NodeCrypto, blocks: readonly string[] = []) {
    this.#crypto = crypto;
    this.blocks = [...blocks];
    this.end = blocks.length * BLOCK_BYTES;
    this.#block = crypto.createHash('sha256');
  }

  /** Hash the part of `piece` (read at `position`) after what was hashed; a piece that leaves a gap is not hashed. */
  add(piece: Uint8Array, position: number): void {
    const skip = this.end - position;
    if (skip < 0 || skip >= piece.length) return;
    for (let at = skip; at < piece.length; ) {
      const take = Math.min(piece.length - at, BLOCK_BYTES - this.#inBlock);
      this.#block.update(piece.subarray(at, at + take));
      this.#inBlock += take;
      at += take;
      if (this.#inBlock === BLOCK_BYTES) {
        this.blocks.push(this.#block.digest('hex'));
        this.#block = this.#crypto.createHash('sha256');
        this.#inBlock = 0;
      }
    }
    this.end = position + piece.length;
    this.lastByte = piece[piece.length - 1]!;
  }

  /** The SHA-256 of the bytes after the last whole block. */
  rest(): string {
    return this.#block.copy().digest('hex');
  }

  /** Whether this digest is the one stored (the same bytes, block for block). */
  matches(log: Stored['log']): boolean {
    return this.end === log.offset && sameList(this.blocks, log.blocks) && this.rest() === log.rest;
  }

  /** Feed it `file`'s bytes from where it stopped to `to`; `false` when the file ends before. */
  async readTo(file: FileReader, to: number): Promise<boolean> {
    while (this.end < to) {
      const piece = await file.read(this.end, Math.min(PIECE_BYTES, to - this.end));
      if (!piece.length) return false;
      this.add(piece, this.end);
    }
    return true;
  }
}

/**
 * Whether `file` begins with the stored prefix, by content: its blocks
 * hashed again and compared. Returns the digest, which has read the prefix
 * (a scan from the start continues it), and the verdict.
 */
async function hashedPrefix(crypto: NodeCrypto, file: FileReader, log: Stored['log']): Promise<{ digest: PrefixDigest; same: boolean }> {
  const digest = new PrefixDigest(crypto);
  const read = await digest.readTo(file, log.offset);
  return { digest, same: read && digest.lastByte === 0x0a && digest.matches(log) };
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
  const { offset, lines } = stored.log;
  if (offset <= 0 || offset > file.size || !(await hashedPrefix(crypto!, file, stored.log)).same) return undefined;
  return { point: { offset, lines, errors: [] }, state: structuredClone(state) };
}

/** Whether an (authentic) checkpoint has the shape this version writes: restoring it cannot fail half-way. */
function wellFormed(stored: Stored): boolean {
  const { inputs, log, pass, review, fingerprint } = stored;
  if (fingerprint !== null && !isFingerprint(fingerprint)) return false;
  if (review !== undefined && !(isObject(review) && typeof review.sha256 === 'string' && (review.fingerprint === null || isFingerprint(review.fingerprint)) && (review.ledger === undefined || isReviewLedger(review.ledger)))) return false;
  const reviews = pass?.reviews;
  if (!isObject(reviews) || typeof reviews.seqs !== 'string' || typeof reviews.from !== 'string' || !Array.isArray(reviews.names)) return false;
  const lists = [stored.scanErrors, pass?.shapeErrors, pass?.stateErrors, pass?.items, pass?.frozenSupporting, pass?.eventNames, pass?.gateSeqs];
  const prefix = isObject(log) && isInt(log.offset) && log.offset > 0 && isInt(log.lines) && Array.isArray(log.blocks) && log.blocks.length * BLOCK_BYTES <= log.offset && log.offset - log.blocks.length * BLOCK_BYTES < BLOCK_BYTES && typeof log.rest === 'string';
  return isObject(inputs) && prefix && isObject(pass) && isObject(pass.state) && isInt(pass.count) && (pass.lastAt === null || (Array.isArray(pass.lastAt) && pass.lastAt.length === 2 && pass.lastAt.every(isInt))) && lists.every(Array.isArray);
}

/**
 * The pass as JSON, or `undefined` when a checkpoint could not restore it
 * exactly; `prefix`: the stored reviews of the prefix the pass resumed
 * after, when its links came from the ledger (then they hold only the
 * reviews read since).
 */
function savePass(pass: LogPassState, prefix: SavedPass['reviews'] | undefined): SavedPass | undefined {
  // Only a prefix whose seqs are its event numbers: then the first event of
  // any seq in it is known from its position, and every seq is an integer.
  if (pass.seenSeqs) return undefined;
  const reviews = addReviews(pass.links.ledger ? prefix : undefined, pass.links.events);
  if (!reviews) return undefined;
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
    seqsExact: pass.seqsExact,
    gateSeqs: pass.gateSeqs,
    signing: pass.signing ? structuredClone(pass.signing.state) : null,
    firstSignature: pass.firstSignature ?? null,
  };
}

/** `saved` (none: no review yet) followed by the review events `events`, or `undefined` when one has no integer seq or no author. */
function addReviews(saved: SavedPass['reviews'] | undefined, events: readonly Json[]): SavedPass['reviews'] | undefined {
  const names = [...(saved?.names ?? [])];
  const seqs: string[] = saved?.seqs ? [saved.seqs] : [];
  const from: string[] = saved?.from ? [saved.from] : [];
  for (const event of events) {
    if (!isInt(event.seq) || typeof event.from !== 'string') return undefined;
    let index = names.indexOf(event.from);
    if (index < 0) index = names.push(event.from) - 1;
    seqs.push(String(event.seq));
    from.push(String(index));
  }
  return { seqs: seqs.join(','), from: from.join(','), names };
}

/** The reviews {@link addReviews} wrote, as lists (`undefined`: not a list it wrote). */
function readReviews(saved: SavedPass['reviews']): { seqs: number[]; from: string[] } | undefined {
  const seqs = saved.seqs ? saved.seqs.split(',').map(Number) : [];
  const from = saved.from ? saved.from.split(',').map((index) => saved.names[Number(index)]) : [];
  return seqs.length === from.length && seqs.every(isInt) && from.every((name) => typeof name === 'string') ? { seqs, from: from as string[] } : undefined;
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
  if ((saved.signing === null) !== (pass.signing === undefined) || (saved.signing !== null && !isVerifierState(saved.signing))) return false;
  // Links from the ledger have judged the prefix's reviews; links from the headings get them back.
  if (!pass.links.ledger) {
    const reviews = readReviews(saved.reviews);
    if (!reviews) return false;
    const reviewSeqs = new Set(reviews.seqs);
    for (const seq of pass.links.watched) if (typeof seq === 'number' && seq >= 1 && seq <= saved.count && !reviewSeqs.has(seq)) return false;
    pass.links.restore(reviews.seqs, reviews.from);
  }
  pass.shapeErrors.push(...saved.shapeErrors);
  for (const { seq, doc, sha256, docErrors, freeze } of saved.items) pass.deliverableItems.push({ event: { seq, doc, sha256 }, docErrors, freeze });
  pass.primaryFreezes = saved.primaryFreezes;
  for (const doc of saved.frozenSupporting) pass.frozenSupporting.add(doc);
  Object.assign(pass.state, structuredClone(saved.state), { errors: [...saved.stateErrors] });
  for (const name of saved.eventNames) pass.eventNames.add(name);
  pass.anyPrimaryFreeze = saved.anyPrimaryFreeze;
  pass.seqsExact = saved.seqsExact === true;
  pass.gateSeqs.push(...saved.gateSeqs);
  pass.count = saved.count;
  pass.lastAt = saved.lastAt ? [saved.lastAt[0], saved.lastAt[1]] : undefined;
  if (pass.signing && saved.signing) Object.assign(pass.signing.state, structuredClone(saved.signing));
  pass.firstSignature = saved.firstSignature ?? undefined;
  return true;
}

/** Saves a strict append's validation checkpoint once its line is written, given the log's fingerprint then. */
export type CheckpointCommit = (written: LogFingerprint | undefined) => Promise<void>;

/**
 * One `validate`'s use of the checkpoint: {@link reviewHeadings} and
 * {@link strictReview} find or recall what review.md gives; {@link resume}
 * is handed the log's reader and the fresh pass and says where the scan
 * starts; {@link save} records the pass after the whole log (under a strict
 * append's view of the folder, it prepares {@link commit} instead, run once
 * the line is written).
 */
export class ValidateCheckpoint {
  readonly #host: Host;
  readonly #folder: string;
  readonly #path: string;
  readonly #key: Uint8Array;
  readonly #inputs: PassInputs;
  readonly #crypto: NodeCrypto;
  readonly #vouch: LogVouch | undefined;
  /** events.jsonl's fingerprint when validate began (none under a strict append's view: its vouch stands for it). */
  #opened: LogFingerprint | undefined;
  #loaded: Stored | undefined;
  /** review.md's SHA-256 (`''`: none) and its fingerprint when this validate began. */
  #reviewSha: string | undefined;
  #reviewAt: LogFingerprint | null = null;
  #digest: PrefixDigest | undefined;
  #size = 0;
  /** Where the scan resumed (0: from the start), and whether the file's fingerprint vouched for the prefix there. */
  #resumedAt = 0;
  #fingerprinted = false;
  #current = false;
  /** How the scan ended, when it read the whole log. */
  #scan: { lines: number; scanErrors: string[] } | undefined;
  /** A strict append's save of the checkpoint, to run once its line is written. */
  commit: CheckpointCommit | undefined;

  private constructor(host: Host, folder: string, path: string, key: Uint8Array, inputs: PassInputs, crypto: NodeCrypto, vouch: LogVouch | undefined) {
    this.#crypto = crypto;
    this.#host = host;
    this.#folder = folder;
    this.#path = path;
    this.#key = key;
    this.#inputs = inputs;
    this.#vouch = vouch;
  }

  /**
   * The checkpoint of `folder`, or `undefined` when the host has no
   * checkpoint key or cache directory (then: full validation, nothing
   * saved). `vouch`: what a strict append, validating the folder as it will
   * be, knows of the log.
   */
  static async open(host: Host, folder: string, inputs: PassInputs, vouch?: LogVouch): Promise<ValidateCheckpoint | undefined> {
    // A small log is validated in full, and nothing is loaded for it:
    // node:crypto alone costs a fresh Node ~4 ms, a tenth of a small validate.
    const log = await host.fs.stat(nodePath.join(folder, 'events.jsonl')).catch(() => null);
    if (!log || log.size < MIN_LOG_BYTES) return undefined;
    const key = await host.checkpointKey?.();
    const path = key && (await validateCheckpointPath(host, folder));
    const crypto = await nodeCrypto();
    if (!key || !path || !crypto) return undefined;
    const checkpoint = new ValidateCheckpoint(host, folder, path, key, inputs, crypto, vouch);
    checkpoint.#opened = vouch ? undefined : fingerprintOf(log);
    checkpoint.#loaded = await checkpoint.#load();
    return checkpoint;
  }

  /**
   * Step 7's links from the stored ledger, when review.md is the one it was
   * made with: known by its fingerprint (then not read at all), else by its
   * text's SHA-256; `undefined` otherwise (then: from review.md's headings).
   * They stand only if {@link resume} restores the prefix.
   */
  async reviewLinks(review: ReviewFile): Promise<ReviewLinks | undefined> {
    const stored = this.#loaded?.review;
    const now = fingerprintOf(await this.#host.fs.stat(review.path).catch(() => null));
    this.#reviewAt = now ?? null;
    if (stored && sameFingerprint(stored.fingerprint, now)) this.#reviewSha = stored.sha256;
    else {
      const text = await review.text();
      this.#reviewSha = text === undefined ? '' : this.#crypto.createHash('sha256').update(text).digest('hex');
    }
    return stored?.ledger && stored.sha256 === this.#reviewSha ? ReviewLinks.fromLedger(stored.ledger, this.#loaded!.pass.count) : undefined;
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
   * Whether the file's fingerprint vouches for the stored prefix: the file
   * is the one validate read whole, or the chain of appends since then is
   * unbroken (the append checkpoint, current, carries that fingerprint; or
   * the strict append's own vouch does).
   */
  async #vouched(stored: Stored): Promise<boolean> {
    const at = stored.fingerprint;
    if (!at || at.size !== stored.log.offset) return false;
    if (this.#vouch) return sameFingerprint(at, this.#vouch.fingerprint) || sameFingerprint(at, this.#vouch.validated);
    if (sameFingerprint(at, this.#opened)) return true;
    const chain = this.#opened && (await currentCheckpoint(this.#host, this.#folder));
    return !!chain && sameFingerprint(chain.log, this.#opened) && sameFingerprint(chain.validated, at);
  }

  /**
   * Where the scan of `file` (events.jsonl) starts, with `pass` restored to
   * the prefix the checkpoint vouches for (offset 0: from the start). The
   * prefix is never parsed: vouched for by the file's fingerprint, only its
   * last partial block is hashed (to extend its digest); else it is hashed
   * whole and compared. The scan then shows this checkpoint every piece it
   * reads, for the whole log's digest.
   */
  async resume(file: FileReader, pass: LogPassState, fresh: () => Promise<ReviewLinks>): Promise<ResumePoint> {
    const point = await this.#resume(file, pass);
    // A ledger speaks for the stored prefix only: a scan from the start checks every heading.
    if (!point.offset && pass.links.ledger) pass.links = await fresh();
    return point;
  }

  async #resume(file: FileReader, pass: LogPassState): Promise<ResumePoint> {
    this.#size = file.size;
    this.#digest = new PrefixDigest(this.#crypto);
    const seen = (piece: Uint8Array, position: number): void => this.#digest!.add(piece, position);
    const start = { offset: 0, lines: 0, errors: [], seen };
    const loaded = this.#loaded;
    const log = loaded?.log;
    if (!loaded || !log || log.offset > file.size) return start;
    this.#fingerprinted = await this.#vouched(loaded);
    if (this.#fingerprinted) {
      this.#digest = new PrefixDigest(this.#crypto, log.blocks);
      if (!(await this.#digest.readTo(file, log.offset))) {
        this.#digest = new PrefixDigest(this.#crypto);
        return start;
      }
      // A prefix is stored only when it ends a line; its last block may have been whole.
      if (this.#digest.lastByte === -1) this.#digest.lastByte = 0x0a;
    } else {
      const hashed = await hashedPrefix(this.#crypto, file, log);
      this.#digest = hashed.digest;
      if (!hashed.same) return start;
    }
    if (!restorePass(pass, loaded.pass)) return start;
    this.#resumedAt = log.offset;
    this.#current = log.offset === file.size;
    return { offset: log.offset, lines: log.lines, errors: [...loaded.scanErrors], seen };
  }

  /** The scan read the whole log, `lines` lines, and it ends with a whole line: {@link save} may record it. */
  scanned(lines: number, scanErrors: string[]): void {
    this.#scan = { lines, scanErrors };
  }

  /**
   * Record the pass after the whole log (after every check, so that
   * review.md's findings are in), when the scan read it whole, it ends with
   * a whole line and the pass can be saved exactly; with the file's
   * fingerprint when it did not change while it was read. A checkpoint that
   * cannot be written only costs the next validate its speed.
   */
  async save(pass: LogPassState, ledger: () => ReviewLedger | undefined): Promise<void> {
    const digest = this.#digest;
    const scan = this.#scan;
    if (!scan || !digest || digest.end !== this.#size || digest.end < MIN_LOG_BYTES || digest.lastByte !== 0x0a || this.#reviewSha === undefined) return;
    const review = await this.#review(ledger());
    if (this.#vouch) {
      this.#prepareCommit(scan, pass, review);
      return;
    }
    const after = fingerprintOf(await this.#host.fs.stat(nodePath.join(this.#folder, 'events.jsonl')).catch(() => null));
    const fingerprint = after && sameFingerprint(after, this.#opened) && after.size === digest.end ? after : null;
    if (this.#current && this.#sameReview(review) && sameFingerprint(this.#loaded?.fingerprint, fingerprint)) return;
    const stored = this.#record(scan, pass, fingerprint, review);
    if (stored) await store(this.#host, this.#path, this.#key, this.#folder, stored).catch(() => undefined);
  }

  /** review.md as this validate saw it, with `ledger`; its fingerprint only if it did not change since validate began. */
  async #review(ledger: ReviewLedger | undefined): Promise<StoredReview> {
    const now = fingerprintOf(await this.#host.fs.stat(nodePath.join(this.#folder, 'review.md')).catch(() => null));
    return { sha256: this.#reviewSha!, fingerprint: sameFingerprint(now, this.#reviewAt) ? this.#reviewAt : null, ...(ledger ? { ledger } : {}) };
  }

  /** Whether `review` is what the checkpoint already holds. */
  #sameReview(review: StoredReview): boolean {
    return JSON.stringify(review) === JSON.stringify(this.#loaded?.review);
  }

  /**
   * A strict append's save: only when it is worth its cost (no checkpoint
   * to resume from, one the file's fingerprint did not vouch for, review.md's
   * findings new, or {@link RESAVE_BYTES} of lines after the stored prefix);
   * the file's fingerprint is the one the append finds after writing, when
   * its size is the one validated here.
   */
  #prepareCommit(scan: { lines: number; scanErrors: string[] }, pass: LogPassState, review: StoredReview): void {
    const size = this.#digest!.end;
    if (this.#fingerprinted && this.#sameReview(review) && size - this.#resumedAt < RESAVE_BYTES) return;
    const stored = this.#record(scan, pass, null, review);
    if (!stored) return;
    this.commit = async (written) => {
      const fingerprint = written?.size === size ? written : null;
      await store(this.#host, this.#path, this.#key, this.#folder, { ...stored, fingerprint }).catch(() => undefined);
    };
  }

  /** The checkpoint of the pass after the whole log, or `undefined` when JSON cannot hold it exactly. */
  #record(scan: { lines: number; scanErrors: string[] }, pass: LogPassState, fingerprint: LogFingerprint | null, review: StoredReview): Stored | undefined {
    const saved = savePass(pass, this.#loaded?.pass.reviews);
    const digest = this.#digest!;
    if (!saved) return undefined;
    const { lines, scanErrors } = scan;
    const { gates, ...inputs } = this.#inputs;
    return {
      version: VERSION,
      fingerprint,
      review,
      inputs: { ...inputs, gates: pass.eventNames.has('decision_accepted') ? gates : null },
      log: { offset: digest.end, lines, blocks: [...digest.blocks], rest: digest.rest() },
      scanErrors,
      pass: saved,
    };
  }
}

/**
 * The append checkpoint's facts from the validation checkpoint, for the
 * first append after a validate (its own checkpoint missing or stale): when
 * the validation checkpoint is this acp's, covers all of events.jsonl as it
 * is now (by its fingerprint, else by content), with no unreadable line, no
 * replay error, seqs 1..n and the append's participants and state keys,
 * and `agrees` says protocol.json's cached turn is the log's (else the
 * append reads the log, which also repairs a cache left behind). The facts
 * are then a full replay's: validate's pass replays with the same state
 * machine, and readiness.md only adds the decision gates' errors, which the
 * append recomputes from `gateSeqs` against the current readiness.md.
 */
export async function appendSeed(host: Host, folder: string, participants: string[], keys: readonly string[], agrees: (state: Checkpoint['state']) => boolean): Promise<Checkpoint | undefined> {
  const logPath = nodePath.join(folder, 'events.jsonl');
  const now = fingerprintOf(await host.fs.stat(logPath).catch(() => null));
  if (!now || now.size < MIN_LOG_BYTES || !host.fs.openRead) return undefined;
  const key = await host.checkpointKey?.();
  // node:crypto only where a checkpoint exists: a fresh Node takes ~4 ms to load it.
  const path = key && (await validationCheckpointFile(host, folder));
  const stored = key && path ? await loadAuthentic(host, path, key, folder) : undefined;
  if (!stored || stored.log.offset !== now.size) return undefined;
  const { inputs, pass, scanErrors } = stored;
  const { codes: _codes, ...state } = pass.state;
  const usable = inputs.acp === VERSION_OF_ACP && sameList(inputs.participants, participants) && !scanErrors.length && !pass.stateErrors.length && pass.seqsExact === true && pass.count > 0;
  if (!usable || !sameList(Object.keys(state).sort(), [...keys]) || !agrees(state)) return undefined;
  const file = await host.fs.openRead(logPath, { maxBytes: READ_LIMITS.log }).catch(() => undefined);
  if (!file) return undefined;
  try {
    const vouched = sameFingerprint(stored.fingerprint, now) && file.size === now.size;
    const crypto = vouched ? undefined : await nodeCrypto();
    if (!vouched && !(crypto && (await hashedPrefix(crypto, file, stored.log)).same)) return undefined;
    const tail = await lastLine(file);
    if (tail === undefined || !isLastLineOf(tail, pass.count)) return undefined;
    const seeded: Checkpoint = { version: 0, mac: '', participants, count: pass.count, maxSeq: pass.count, seqs: [[1, pass.count]], gateSeqs: pass.gateSeqs.map(String), state, log: { ...now, tail } };
    return vouched ? { ...seeded, validated: now } : seeded;
  } finally {
    await file.close();
  }
}

/** The last line of `file` (with its newline), when it ends one within its last {@link PIECE_BYTES} (read 4 KiB first, then more). */
async function lastLine(file: FileReader): Promise<string | undefined> {
  for (let want = 4096; ; want *= 4) {
    const from = Math.max(0, file.size - Math.min(want, PIECE_BYTES));
    const bytes = (await file.read(from, file.size - from)).slice();
    if (bytes.length !== file.size - from || bytes[bytes.length - 1] !== 0x0a) return undefined;
    const start = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    if (start === 0 && from > 0) {
      if (want >= PIECE_BYTES) return undefined;
      continue;
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start));
    } catch {
      return undefined;
    }
  }
}
