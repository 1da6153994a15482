/**
 * Signed collaborations ([beyond], docs/signing.md): Ed25519 keys, the
 * signed line format, the key files, and the verifier validate runs over the
 * log. acp.ts signs inside its one append transaction and passes in what
 * belongs to the protocol (the line format); this module imports only types
 * from acp.ts.
 *
 * The format, in one place:
 * - protocol.json `signing`: `{version, id, policy, keys, head}`: `id` names
 *   this collaboration (random), `policy` says what an unsigned event is
 *   (`warn` or `refuse`), `keys` each participant's current public key (a
 *   copy of what the log says), `head` the last signed line (`seq`, `sha256`).
 * - seq 1 (`initialized`) carries `signing: {version, id, policy, keys}`:
 *   the declaration, signed by the initializer.
 * - every signed line carries `prev` (SHA-256, hex, of the previous event
 *   line's text; 64 zeros on the first line), optionally `pubkey` (a new
 *   key of its author: the first one, or a rotation signed by the old one)
 *   and, last, `sig`: Ed25519 (base64url) over `acp signed event 1\n{id}\n`
 *   and the line as written without its `,"sig":"…"`.
 * @module
 */
// The WebCrypto types as @types/node names them (the declaration build has no DOM lib).
import type { webcrypto } from 'node:crypto';
import { AcpError } from './errors.ts';
import type { Keyring } from './host.ts';
import { fromBase64Url, isPrivateJwk, type LineHasher, lineHash, nodeLineHasher, toBase64Url, type PrivateJwk } from './keyring.ts';
import { dumpsPy } from './pyjson.ts';
import { type KeyHandle, type ParallelOptions, type SignatureCheck, type SignatureSink, signatureSink, subtle, type VerifyMode } from './signature-pool.ts';
import { getBuiltin, isInt, isObject, type Json } from './util.ts';
import type { SigningDeclaration, SigningSummary, UnsignedPolicy } from './types.ts';
export type { SigningDeclaration, SigningSummary, UnsignedPolicy } from './types.ts';

/** The format's version (protocol.json and seq 1 `signing.version`). */
export const SIGNING_VERSION = 1;
/** `prev` of the first line. */
export const GENESIS_PREV = '0'.repeat(64);
/** The policies, for option choices. */
export const UNSIGNED_POLICIES: readonly UnsignedPolicy[] = ['warn', 'refuse'];


/**
 * The collaboration's fixed terms: what protocol.json declares at init and
 * no event changes (the signing policy is in the declaration itself).
 */
export const TERM_FIELDS = ['objective', 'objectiveGates', 'participants', 'completionGates', 'deliverables', 'repoRoot'] as const;

/**
 * SHA-256 (hex) of each of protocol.json's fixed terms, in a canonical form
 * (Python's `json.dumps(sort_keys=True)`, a missing field as `null`): seq 1
 * carries them, signed, so that validate names a term edited afterwards.
 */
export function termsDigests(protocol: Json): Record<string, string> {
  return Object.fromEntries(TERM_FIELDS.map((field) => [field, lineHash(dumpsPy(protocol[field] ?? null, { sortKeys: true }))]));
}

const SIG_TAIL = /,"sig":"([A-Za-z0-9_-]{86})"\}$/;
const PUBLIC_KEY = /^[A-Za-z0-9_-]{43}$/;
const HEX64 = /^[0-9a-f]{64}$/;

// ---------------------------------------------------------------------------
// Encodings and hashes
// ---------------------------------------------------------------------------

export type { LineHasher } from './keyring.ts';

/** The fastest line hasher the runtime has, given node:crypto (validate loads it anyway): its own, else {@link lineHash}. */
export function fastLineHasher(crypto: unknown): LineHasher {
  return nodeLineHasher(crypto) ?? lineHash;
}

// ---------------------------------------------------------------------------
// Keys (WebCrypto Ed25519: Node ≥ 20, Bun, Deno)
// ---------------------------------------------------------------------------

/** A new Ed25519 key pair, as the private JWK (which holds the public key `x`). */
export async function generateSigningKey(): Promise<PrivateJwk> {
  const pair = (await subtle().generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const jwk = await subtle().exportKey('jwk', pair.privateKey);
  return { kty: 'OKP', crv: 'Ed25519', d: jwk.d!, x: jwk.x! };
}

/** Whether `value` is a public key as the folder records it (base64url of 32 bytes). */
export function isPublicKey(value: unknown): value is string {
  return typeof value === 'string' && PUBLIC_KEY.test(value) && fromBase64Url(value)?.length === 32;
}

/** The bytes a line's signature covers. */
function signedMessage(id: string, body: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`acp signed event ${SIGNING_VERSION}\n${id}\n${body}`) as Uint8Array<ArrayBuffer>;
}

/** The part of node:crypto that signs (Node, Bun). */
interface NodeSigner {
  createPrivateKey(options: { key: PrivateJwk; format: 'jwk' }): unknown;
  sign(algorithm: null, data: Uint8Array, key: unknown): Uint8Array;
}

/**
 * Sign `body` (a line without its sig) for collaboration `id`; base64url.
 * On Node through node:crypto (a fresh Node loads it in a third of
 * WebCrypto's time: an append signs once); elsewhere, and where that
 * fails, through WebCrypto: Bun's and Deno's node:crypto is a layer that a
 * fresh process loads in more time than WebCrypto takes to sign (measured
 * in the compiled binary: ~9 ms of CPU against ~1 ms, a third of what
 * signing adds to an append). Both are the platform's own implementation
 * and agree byte for byte (Ed25519 is deterministic).
 */
export async function signBody(key: PrivateJwk, id: string, body: string): Promise<string> {
  const g = globalThis as { Bun?: unknown; Deno?: unknown };
  const node = g.Bun === undefined && g.Deno === undefined ? (getBuiltin('node:crypto') as Partial<NodeSigner> | undefined) : undefined;
  if (typeof node?.sign === 'function' && typeof node.createPrivateKey === 'function') {
    try {
      return toBase64Url(node.sign(null, signedMessage(id, body), node.createPrivateKey({ key, format: 'jwk' })));
    } catch {
      // A runtime whose node:crypto lacks Ed25519 JWKs: WebCrypto below.
    }
  }
  let privateKey: KeyHandle;
  try {
    privateKey = await subtle().importKey('jwk', { ...key, key_ops: ['sign'], ext: false }, { name: 'Ed25519' }, false, ['sign']);
  } catch (error) {
    throw new AcpError(`the signing key is not a usable Ed25519 key (${error instanceof Error ? error.message : String(error)})`, 2, 'usage');
  }
  return toBase64Url(new Uint8Array(await subtle().sign('Ed25519', privateKey, signedMessage(id, body))));
}

/** The line without its signature, and the signature; `undefined` when the line does not end with a `sig`. */
export function splitSignedLine(line: string): { body: string; sig: string } | undefined {
  const match = SIG_TAIL.exec(line);
  return match ? { body: `${line.slice(0, match.index)}}`, sig: match[1]! } : undefined;
}

// ---------------------------------------------------------------------------
// The declaration
// ---------------------------------------------------------------------------

/** protocol.json's `signing`, when it declares a signed collaboration; a malformed one is an error. */
export function signingDeclaration(protocol: Json): SigningDeclaration | undefined {
  const value = protocol.signing;
  if (value === undefined) return undefined;
  const problem = declarationProblem(value);
  if (problem) throw new AcpError(`protocol.json signing ${problem}`, 2, 'invalid_folder');
  return value as SigningDeclaration;
}

/** What is wrong with a `signing` object, or `undefined`. */
export function declarationProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'must be an object';
  if (value.version !== SIGNING_VERSION) return `version must be ${SIGNING_VERSION}`;
  if (typeof value.id !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(value.id)) return 'id must be 16–64 base64url characters';
  if (!UNSIGNED_POLICIES.includes(value.policy as UnsignedPolicy)) return "policy must be 'warn' or 'refuse'";
  if (!isObject(value.keys) || !Object.values(value.keys).every(isPublicKey)) return 'keys must map participants to Ed25519 public keys';
  const head = value.head;
  if (head !== undefined && !(isObject(head) && isInt(head.seq) && typeof head.sha256 === 'string' && HEX64.test(head.sha256))) return 'head must be {seq, sha256}';
  return undefined;
}

/** A new collaboration's declaration. */
export function newDeclaration(policy: UnsignedPolicy, keys: Record<string, string>): SigningDeclaration {
  return { version: SIGNING_VERSION, id: toBase64Url(crypto.getRandomValues(new Uint8Array(16))), policy, keys };
}

// ---------------------------------------------------------------------------
// Verification (validate, doctor, status, the report)
// ---------------------------------------------------------------------------

/** The verifier between two events, JSON-safe: the validation checkpoint saves and restores it. */
export interface VerifierState {
  /** Events seen (the position of the last one). */
  position: number;
  /** SHA-256 of the last event line ('' before the first). */
  lastHash: string;
  /** seq 1's declaration, as far as the log has shown it. */
  id: string | null;
  policy: UnsignedPolicy;
  /** Each participant's current key, by the log. */
  keys: Record<string, string>;
  /** Where each key came from (seq), for messages. */
  keySeqs: Record<string, number>;
  lastSigned: { seq: number; sha256: string } | null;
  unsigned: [number, number][];
  verified: number;
  /** `[position, message]`, in the order found. */
  problems: [number, string][];
  /** How many of `problems` are about protocol.json's copy of the declaration only (`doctor --fix` rebuilds it from the log). */
  cacheProblems?: number;
}

/** Options of a {@link SignatureVerifier}. */
export interface VerifierOptions {
  /** Where to go on from: a saved state (the validation checkpoint), or a point an append verified before. */
  state?: VerifierState;
  /** {@link termsDigests} of protocol.json as it is now, compared with seq 1's (undefined: not compared). */
  terms?: Record<string, string>;
  /** How the signatures are verified (default 'parallel': on every core; 'serial' is the path it is tested against). */
  mode?: VerifyMode;
  /** The parallel path's chunk and window. */
  parallel?: ParallelOptions;
}

/** A signature queued by {@link SignatureVerifier.add}: where it is and whose, for the message if it fails. */
interface QueuedSignature extends SignatureCheck {
  position: number;
  from: string;
}

/** How many problems are listed one by one; past it, one line counts the rest. */
const LISTED_PROBLEMS = 50;

/**
 * The verifier of a signed log, fed event by event as validate reads it
 * ({@link add} is synchronous: validate's pass is), with the signatures of
 * each piece of the log checked by {@link flush}. Every problem is reported
 * with the seq (position) of the line where the log stops being what its
 * signers wrote: an edited line fails its own signature, a removed, inserted
 * or moved one breaks the next line's `prev`, another participant's key
 * fails the author's signature, a cut tail falls short of protocol.json's
 * signed head.
 */
export class SignatureVerifier {
  readonly state: VerifierState;
  readonly #declared: SigningDeclaration | undefined;
  readonly #hash: LineHasher;
  readonly #terms: Record<string, string> | undefined;
  /** This run's problems of protocol.json's copy only (an append rebuilds the copy rather than refusing). */
  readonly #cacheEntries = new Set<[number, string]>();
  readonly #signatures: SignatureSink<QueuedSignature>;
  #warnedUndeclared = false;

  /** `declared`: protocol.json's `signing` (undefined when it has none); `hash`: see {@link fastLineHasher}. */
  constructor(declared: SigningDeclaration | undefined, hash: LineHasher, options: VerifierOptions = {}) {
    this.#declared = declared;
    this.#hash = hash;
    this.#terms = options.terms;
    this.#signatures = signatureSink(options.mode ?? 'parallel', (check, ok) => this.#verdict(check, ok), options.parallel);
    this.state = options.state ?? { position: 0, lastHash: '', id: null, policy: declared?.policy ?? 'warn', keys: {}, keySeqs: {}, lastSigned: null, unsigned: [], verified: 0, problems: [] };
  }

  /** Whether the folder is signed: protocol.json or seq 1 declares it. */
  get active(): boolean {
    return this.#declared !== undefined || this.state.id !== null;
  }

  /** Take the next event line (its text after universal newlines, without the newline) and its parsed object. */
  add(event: Json, line: string): void {
    const s = this.state;
    const position = ++s.position;
    if (position === 1) this.#start(event);
    if (!this.active) {
      if (event.sig !== undefined && !this.#warnedUndeclared) {
        this.#warnedUndeclared = true;
        this.#problem(position, 'carries a signature, but neither protocol.json nor seq 1 declares a signed collaboration (the declaration was removed?)');
      }
      return;
    }
    const prev = s.lastHash || GENESIS_PREV;
    const hash = this.#hash(line);
    s.lastHash = hash;
    if (event.sig === undefined) {
      // A tool that does not sign writes neither key: a line with the
      // chain's keys and no signature had it removed.
      if (event.prev !== undefined || event.pubkey !== undefined) this.#problem(position, 'carries prev or pubkey but no sig: its signature was removed');
      else pushRange(s.unsigned, position);
      return;
    }
    const split = splitSignedLine(line);
    if (!split) this.#problem(position, 'sig must be the line\'s last key and an Ed25519 signature (86 base64url characters)');
    if (event.prev !== prev) {
      this.#problem(position, position === 1 ? 'prev must be 64 zeros on the first line' : `prev does not match the line before it: seq ${position - 1} was changed, or a line was removed, inserted or moved before seq ${position}`);
    }
    this.#queue(event, position, split);
    s.lastSigned = { seq: position, sha256: hash };
  }

  /** Wait for the verdicts of the signatures {@link add} handed over (call after each piece of the log, and before reading the state). */
  async flush(): Promise<void> {
    await this.#signatures.drain();
  }

  /** How the signatures are verified (see {@link VerifierOptions.mode}): 'serial' where the runtime lacks the parallel path. */
  get mode(): VerifyMode {
    return this.#signatures.mode;
  }

  /**
   * The verdict, once the whole log was added and flushed: errors (each
   * `seq N: …`, in log order), warnings (unsigned events under `warn`, a
   * stale head) and the summary.
   */
  finish(): { errors: string[]; warnings: string[]; summary: SigningSummary | undefined; rebuilt?: SigningDeclaration } {
    if (!this.active) return { errors: this.state.problems.map(([p, m]) => `seq ${p}: ${m}`), warnings: [], summary: undefined };
    const s = this.state;
    const problems: [number, string][] = [...s.problems];
    const warnings: string[] = [];
    let cacheProblems = s.cacheProblems ?? 0;
    // A log that falls short of the head lacks key announcements too: only a whole log is compared with the registry.
    const whole = this.#checkHead(problems, warnings);
    if (whole) cacheProblems += this.#checkRegistry(problems) + (this.#declared && !this.#declared.head && s.lastSigned ? 1 : 0);
    const errors = formatProblems(problems);
    if (s.unsigned.length) {
      const text = `seq ${formatRanges(s.unsigned)}: unsigned (appended by a tool that does not sign, such as the Python scripts): who wrote ${count(s.unsigned) > 1 ? 'them' : 'it'} is not verified`;
      if (s.policy === 'refuse') errors.push(`${text}, and this collaboration's signing policy refuses unsigned events`);
      else warnings.push(text);
    }
    const summary: SigningSummary = { events: s.position, policy: s.policy, verified: s.verified, unsigned: s.unsigned, head: s.lastSigned, problems: problems.length + (s.policy === 'refuse' && s.unsigned.length ? 1 : 0) };
    // Only a copy that is all that is wrong is rebuilt: the log itself must be whole.
    const rebuilt = whole && s.id !== null && cacheProblems === problems.length ? this.declaration() : undefined;
    return { errors, warnings, summary, ...(rebuilt && problems.length ? { rebuilt } : {}) };
  }

  /**
   * What an append refuses to extend, in validate's words: the chain's
   * problems and the head's (not protocol.json's copy of the keys, which
   * the append rebuilds from the log, nor unsigned events, validate's
   * verdict under the policy).
   */
  chainErrors(): string[] {
    const problems = this.state.problems.filter((problem) => !this.#cacheEntries.has(problem));
    this.#checkHead(problems, []);
    return formatProblems(problems);
  }

  /** protocol.json's `signing` as the log says it (id and policy of seq 1, the keys of the log, the head at the last signed line). */
  declaration(): SigningDeclaration {
    const s = this.state;
    return { version: SIGNING_VERSION, id: s.id ?? '', policy: s.policy, keys: { ...s.keys }, ...(s.lastSigned ? { head: { ...s.lastSigned } } : {}) };
  }

  /** seq 1: the declaration the log starts with, against protocol.json's. */
  #start(event: Json): void {
    const s = this.state;
    const declared = this.#declared;
    const first = isObject(event.signing) ? event.signing : undefined;
    const problem = first && declarationProblem({ ...first, head: undefined });
    if (first && !problem) {
      s.id = first.id as string;
      s.policy = first.policy as UnsignedPolicy;
      for (const [who, key] of Object.entries(first.keys as Record<string, string>)) [s.keys[who], s.keySeqs[who]] = [key, 1];
      if (!declared) this.#cacheProblem(1, 'declares a signed collaboration, but protocol.json has no signing declaration (removed?)');
      else if (declared.id !== s.id || declared.policy !== s.policy) this.#cacheProblem(1, `protocol.json signing (id ${declared.id}, policy ${declared.policy}) is not what seq 1 declares (id ${s.id}, policy ${s.policy})`);
      this.#checkTerms(first.terms);
      return;
    }
    if (first) this.#problem(1, `signing ${problem}`);
    else if (declared) this.#problem(1, 'protocol.json declares a signed collaboration, but seq 1 does not: the log was not started signed, or its first line was replaced');
    if (declared) {
      // Go on with protocol.json's word, so that every later line is still checked.
      s.id = declared.id;
      s.policy = declared.policy;
    }
  }

  /** seq 1's digests of the terms against protocol.json's terms now (a seq 1 without them, from before terms were signed, is not compared). */
  #checkTerms(signed: unknown): void {
    if (!this.#terms || !isObject(signed)) return;
    const edited = TERM_FIELDS.filter((field) => signed[field] !== this.#terms![field]);
    if (edited.length) {
      this.#problem(1, `protocol.json's ${edited.join(', ')} ${edited.length > 1 ? 'are' : 'is'} not what seq 1 signed: the collaboration's terms were edited after it started (restore protocol.json from a known-good copy or its git history)`);
    }
  }

  /** Which key must have signed this line, and the key it announces. */
  #queue(event: Json, position: number, split: { body: string; sig: string } | undefined): void {
    const s = this.state;
    const from = typeof event.from === 'string' ? event.from : String(event.from);
    const announced = event.pubkey;
    if (announced !== undefined && !isPublicKey(announced)) this.#problem(position, 'pubkey must be an Ed25519 public key (43 base64url characters)');
    const current = Object.hasOwn(s.keys, from) ? s.keys[from] : undefined;
    // A first key signs its own announcement; a new one is announced under the old.
    const key = current ?? (isPublicKey(announced) ? announced : undefined);
    if (key === undefined) this.#problem(position, `${from} has no registered signing key (a participant's first signed event must announce its pubkey)`);
    else if (split) this.#signatures.push({ position, from, key, message: signedMessage(s.id ?? '', split.body), sig: split.sig });
    if (isPublicKey(announced)) [s.keys[from], s.keySeqs[from]] = [announced, position];
  }

  /** protocol.json's head: a tail cut off, or the last signed line replaced, shows here. Returns whether the log reaches it. */
  #checkHead(problems: [number, string][], warnings: string[]): boolean {
    const head = this.#declared?.head;
    const last = this.state.lastSigned;
    if (!head) {
      if (this.#declared && last) problems.push([last.seq, "protocol.json's signing has no head (removed?): a cut tail of the log cannot be told from an honest end; `acp doctor --fix` restores it from the log"]);
      return true;
    }
    const count = this.state.position;
    const range = head.seq === count + 1 ? `seq ${head.seq} was` : `events ${count + 1}–${head.seq} were`;
    if (head.seq > count) problems.push([count + 1, `missing: events.jsonl ends at seq ${count}, but protocol.json's signed head is seq ${head.seq} (${range} removed)`]);
    else if (last && head.seq < last.seq) warnings.push(`protocol.json's signed head is seq ${head.seq}, but the log's last signed event is seq ${last.seq}: protocol.json is stale (the next signed append rewrites it)`);
    else if (!last || head.seq > last.seq) problems.push([head.seq, `protocol.json's signed head names seq ${head.seq}, which is not signed (its signature was removed, or the line replaced)`]);
    else if (head.sha256 !== last.sha256) problems.push([head.seq, `is not the line protocol.json's signed head records (sha256 ${head.sha256.slice(0, 12)}…)`]);
    else return true;
    return false;
  }

  /** protocol.json's copy of the keys against the log's, both ways; returns how many problems it added. */
  #checkRegistry(problems: [number, string][]): number {
    if (!this.#declared) return 0;
    const cached = this.#declared.keys;
    const before = problems.length;
    for (const [who, key] of Object.entries(this.state.keys)) {
      const where = this.state.keySeqs[who]!;
      if (!Object.hasOwn(cached, who)) problems.push([where, `protocol.json signing.keys has no key for ${who}, whose key the log registers (at seq ${where}): the copy is not what the log says (\`acp doctor --fix\` rebuilds it)`]);
      else if (cached[who] !== key) problems.push([where, `protocol.json signing.keys records another key for ${who} than the log (announced at seq ${where})`]);
    }
    for (const who of Object.keys(cached)) {
      // Found at the log's end (no line up to there registers it): an edited line that lost its announcement is named first.
      if (!Object.hasOwn(this.state.keys, who)) problems.push([this.state.position, `protocol.json signing.keys names ${who}, whose key the log never registers: the copy is not what the log says (\`acp doctor --fix\` rebuilds it)`]);
    }
    return problems.length - before;
  }

  /** One signature's verdict, reported in the order {@link add} queued them. */
  #verdict(check: QueuedSignature, ok: boolean): void {
    if (ok) this.state.verified++;
    else this.#problem(check.position, `the signature of ${check.from} does not verify: the event was changed after it was signed, or ${check.from} did not sign it (another key, or another collaboration's event)`);
  }

  #problem(position: number, message: string): void {
    this.state.problems.push([position, message]);
  }

  /** A problem of protocol.json's copy only. */
  #cacheProblem(position: number, message: string): void {
    const problem: [number, string] = [position, message];
    this.state.problems.push(problem);
    this.#cacheEntries.add(problem);
    this.state.cacheProblems = (this.state.cacheProblems ?? 0) + 1;
  }
}

/** Problems as messages, in log order, the first {@link LISTED_PROBLEMS} one by one. */
function formatProblems(problems: [number, string][]): string[] {
  problems.sort((a, b) => a[0] - b[0]);
  const errors = problems.slice(0, LISTED_PROBLEMS).map(([p, m]) => `seq ${p}: ${m}`);
  if (problems.length > LISTED_PROBLEMS) errors.push(`signatures: ${problems.length - LISTED_PROBLEMS} more problems after seq ${problems[LISTED_PROBLEMS - 1]![0]}`);
  return errors;
}

/** Extend sorted `[first, last]` ranges with `n`, larger than all of them. */
function pushRange(ranges: [number, number][], n: number): void {
  const last = ranges.at(-1);
  if (last && last[1] + 1 === n) last[1] = n;
  else ranges.push([n, n]);
}

function formatRanges(ranges: [number, number][]): string {
  return ranges.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ');
}

function count(ranges: [number, number][]): number {
  return ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
}


// ---------------------------------------------------------------------------
// Signing (the append transaction, init)
// ---------------------------------------------------------------------------

/** The key an append signs with, the key it announces (its first, or a rotation's next), and what to do once its line is durable. */
export interface AppendKey {
  key: PrivateJwk;
  announce?: PrivateJwk;
  afterWrite?: () => Promise<void>;
}

/**
 * The key `participant` signs with in a collaboration that registered
 * `registered` for them (undefined: none yet, so this append announces one,
 * made on first use). A key that is not the registered one is refused: the
 * event would read as impersonated. `rotate` makes a new key, staged until
 * the line announcing it (signed by the current key) is written.
 */
export async function keyForAppend(keyring: Keyring | undefined, participant: string, registered: string | undefined, rotate: boolean): Promise<AppendKey> {
  if (!keyring) throw new AcpError('this collaboration is signed, but this host keeps no signing keys (give one with ACP_SIGNING_KEY_FILE; docs/signing.md)', 2, 'usage');
  const where = keyring.where(participant);
  let key = asKey(await keyring.load(participant, registered === undefined ? generateSigningKey : undefined), where);
  if (registered !== undefined && key?.x !== registered) {
    // A rotation whose line was written, but whose new key was not yet made current.
    const staged = asKey(await keyring.staged(participant), `${where}.next`);
    if (staged?.x === registered) {
      await keyring.promote(participant);
      key = staged;
    }
  }
  if (!key) throw new AcpError(`no signing key for ${participant} in ${where}: this collaboration registered a key for ${participant}, and only its holder can append as ${participant} (a lost key: docs/signing.md)`, 2, 'refused');
  if (registered !== undefined && key.x !== registered) {
    throw new AcpError(`the signing key in ${where} is not the one this collaboration registered for ${participant}: the event would read as impersonated, so nothing was appended (docs/signing.md)`, 2, 'refused');
  }
  if (registered === undefined) return { key, announce: key };
  if (!rotate) return { key };
  const next = await generateSigningKey();
  await keyring.stage(participant, next);
  return { key, announce: next, afterWrite: () => keyring.promote(participant) };
}

function asKey(value: object | undefined, where: string): PrivateJwk | undefined {
  if (value === undefined || isPrivateJwk(value)) return value;
  throw new AcpError(`signing key ${where} is not an Ed25519 private key`, 2, 'usage');
}
