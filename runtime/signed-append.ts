/**
 * A signed append verifies what it extends (docs/signing.md, issue 36):
 * under the lock, before it signs, the log must be whole from the last
 * point this participant verified (its record, kept beside its key, of the
 * last line it signed) to the last line, and reach the head protocol.json
 * records; the line the participant signed must still be there. The keys
 * are the log's (seq 1 and the lines that announce one), never
 * protocol.json's copy, which is rebuilt from them. Costs the lines
 * appended since the participant's last append (the whole log the first
 * time). acp.ts passes in how it reads the log; this module imports only
 * types from acp.ts.
 * @module
 */
import { AcpError } from './errors.ts';
import type { FileReader, Host } from './host.ts';
import { lineHash } from './keyring.ts';
import { fastLineHasher, GENESIS_PREV, isPublicKey, keyForAppend, SignatureVerifier, type SigningDeclaration, signBody, signingDeclaration, UNSIGNED_POLICIES, type UnsignedPolicy, type VerifierState } from './signing.ts';
import type { ResumePoint } from './types.ts';
import { isInt, isObject, type Json, nodeCrypto } from './util.ts';
import { checkpointedSignedPrefix } from './validate-checkpoint.ts';

/** A participant's record of the last line it signed in one collaboration (kept by its keyring). */
interface HeadRecord {
  version: 1;
  /** The line's position in the log (its seq: acp numbers events by position). */
  seq: number;
  /** Byte offset of the line's start, and how many lines come before it. */
  offset: number;
  lines: number;
  /** SHA-256 of the line's text. */
  sha256: string;
  /** The log's policy and keys as verified up to that line. */
  policy: UnsignedPolicy;
  keys: Record<string, string>;
}

/**
 * How an append reads events.jsonl: from the start, or from where `resume`
 * says (given the file as opened: a line's byte offset, `lines` lines
 * before it); `afterChunk` runs after each piece.
 */
export type LogScan = (onEvent: (event: Json, line: string) => void, resume: ((file: FileReader) => Promise<ResumePoint | undefined>) | undefined, afterChunk: () => Promise<void>) => Promise<{ size: number; lines: number; tornTail: boolean }>;

/** The log's last line (with its newline) and size, when the append checkpoint vouches for them (read from the file, authenticated). */
export interface KnownEnd {
  tail: string;
  size: number;
}

/** A signed log an append verified, and how to sign the line that extends it. */
export interface VerifiedLog {
  /** protocol.json's `signing` as the log says it (the keys of the log, not of the copy). */
  declaration: SigningDeclaration;
  /**
   * Sign `event` as the appending participant: `prev`, `pubkey` when it
   * announces a key (its first, or `rotate`'s next), `sig` last. Returns
   * what to do once its line is durable (a rotation's swap, the record).
   */
  sign(event: Json, formatLine: (event: Json) => string, rotate: boolean): Promise<() => Promise<void>>;
}

/** Where to look when a signed log does not verify. */
const RECOVER = 'find out with `acp validate` and `acp doctor`, and restore events.jsonl from a known-good copy or its git history (docs/signing.md)';

/**
 * Verify the log `participant` is about to extend (see the module); `first`
 * is seq 1 when protocol.json declares no signing. `undefined` for an
 * unsigned collaboration; a folder whose seq 1 declares signing but whose
 * protocol.json lost its declaration is refused (every event of a signed
 * collaboration is signed), and so is one whose declaration names another
 * collaboration than seq 1.
 */
export async function verifyExtension(host: Host, folder: string, protocol: Json, participant: string, first: Json | undefined, scan: LogScan, known?: KnownEnd): Promise<VerifiedLog | undefined> {
  if (protocol.signing === undefined) {
    if (!isObject(first?.signing)) return undefined;
    throw new AcpError("seq 1 declares a signed collaboration, but protocol.json has no signing declaration (removed?): every event of a signed collaboration is signed, so nothing was appended; `acp doctor --fix` restores protocol.json's signing from the log", 2, 'invalid_folder');
  }
  const declared = signingDeclaration(protocol)!;
  // Looked up by protocol.json's id: one edited to hide the record sends the append to seq 1, whose id must be the same.
  const record = asRecord(await host.keyring?.recall?.(participant, declared.id).catch(() => undefined));
  // No record of its own (its first append on this machine): from where this host's last validate verified to, if it did.
  const fromCheckpoint: PrefixFinder = (file) => checkpointedSignedPrefix(host, folder, file, declared.id);
  const { verifier, read } = await checkLog(declared, participant, record ?? fromCheckpoint, scan, known);
  const s = verifier.state;
  return {
    declaration: verifier.declaration(),
    async sign(event, formatLine, rotate) {
      const registered = Object.hasOwn(s.keys, participant) ? s.keys[participant] : undefined;
      const { key, announce, afterWrite } = await keyForAppend(host.keyring, participant, registered, rotate);
      event.prev = s.lastHash || GENESIS_PREV;
      if (announce) event.pubkey = announce.x;
      event.sig = await signBody(key, declared.id, formatLine(event).slice(0, -1));
      const next: HeadRecord = {
        version: 1,
        seq: s.position + 1,
        offset: read.size + (read.tornTail ? 1 : 0),
        lines: read.lines,
        sha256: lineHash(formatLine(event).slice(0, -1)),
        policy: s.policy,
        keys: { ...s.keys, ...(announce ? { [participant]: announce.x } : {}) },
      };
      return async () => {
        await afterWrite?.();
        // The line is written: a record that cannot be kept costs the next append a verification from seq 1, never this append.
        await host.keyring?.remember?.(participant, declared.id, next).catch(() => undefined);
      };
    },
  };
}

/** A verified prefix of the log, found in the file as opened: where it ends and the verifier's state there. */
type PrefixFinder = (file: FileReader) => Promise<{ point: ResumePoint; state: VerifierState } | undefined>;

/**
 * Verify the log from `start` (the participant's record of its last signed
 * line, or a finder of a verified prefix; none found: from seq 1) to its
 * end, and against protocol.json's head; throws the refusal. Returns the
 * verifier after the last line, and where that is.
 */
async function checkLog(declared: SigningDeclaration, participant: string, start: HeadRecord | PrefixFinder, scan: LogScan, known: KnownEnd | undefined): Promise<{ verifier: SignatureVerifier; read: { size: number; lines: number; tornTail: boolean } }> {
  const record = typeof start === 'function' ? undefined : start;
  const hash = record ? lineHash : fastLineHasher(await nodeCrypto());
  const verifier = new SignatureVerifier(declared, hash, record ? { state: stateAt(record, declared.id) } : {});
  const resume = record
    ? async () => ({ offset: record.offset, lines: record.lines, errors: [] })
    : async (file: FileReader) => {
        const prefix = await (start as PrefixFinder)(file);
        if (prefix) Object.assign(verifier.state, prefix.state);
        return prefix?.point;
      };
  let recordLine = 'unseen' as 'unseen' | 'same' | 'changed';
  // The participant's own line still the last one, and the head: nothing to read (an agent appending twice in a row).
  const unchanged = record && known && endsAt(record, known) && declared.head?.seq === record.seq && declared.head.sha256 === record.sha256;
  if (unchanged) recordLine = 'same';
  const read = unchanged
    ? { size: known!.size, lines: record.lines + 1, tornTail: false }
    : await scan(
        (event, line) => {
          if (record && recordLine === 'unseen') recordLine = hash(line) === record.sha256 ? 'same' : 'changed';
          else if (recordLine !== 'changed') verifier.add(event, line);
        },
        resume,
        () => verifier.flush(),
      );
  await verifier.flush();
  const errors = record && recordLine !== 'same' ? [gone(record, participant)] : verifier.chainErrors();
  if (!errors.length && verifier.state.id !== declared.id) errors.push(`seq 1: declares collaboration ${verifier.state.id}, but protocol.json's signing names ${declared.id} (altered?); \`acp doctor --fix\` restores it from the log`);
  if (errors.length) throw new AcpError(`the log this append would extend is not what its signers wrote, so nothing was appended: ${errors.join('; ')}; ${RECOVER}`, 2, 'invalid_log');
  return { verifier, read };
}

/** The refusal when the line a participant signed last is not where it was. */
function gone(record: HeadRecord, participant: string): string {
  return `seq ${record.seq}: the line ${participant} signed there (sha256 ${record.sha256.slice(0, 12)}…) is no longer in events.jsonl: the log was cut or rewritten after ${participant}'s last append (an older copy restored on purpose: then remove ${participant}'s record of that line, kept beside its key, docs/signing.md)`;
}

/** Whether the recorded line is `known`'s last line, at its place. */
function endsAt(record: HeadRecord, known: KnownEnd): boolean {
  return known.tail.endsWith('\n') && record.offset + new TextEncoder().encode(known.tail).length === known.size && lineHash(known.tail.slice(0, -1)) === record.sha256;
}

/** The verifier's state right after a recorded line. */
function stateAt(record: HeadRecord, id: string): VerifierState {
  const keySeqs = Object.fromEntries(Object.keys(record.keys).map((who) => [who, record.seq]));
  const head = { seq: record.seq, sha256: record.sha256 };
  return { position: record.seq, lastHash: record.sha256, id, policy: record.policy, keys: { ...record.keys }, keySeqs, lastSigned: head, unsigned: [], verified: 0, problems: [] };
}

/** A record as {@link HeadRecord} has it, or `undefined` (then the log is verified from seq 1). */
function asRecord(value: unknown): HeadRecord | undefined {
  if (!isObject(value) || value.version !== 1 || !isInt(value.seq) || value.seq < 1 || !isInt(value.offset) || value.offset < 0 || !isInt(value.lines) || value.lines < 0) return undefined;
  if (typeof value.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(value.sha256) || !UNSIGNED_POLICIES.includes(value.policy as UnsignedPolicy)) return undefined;
  if (!isObject(value.keys) || !Object.values(value.keys).every(isPublicKey)) return undefined;
  return value as unknown as HeadRecord;
}
