/**
 * The participants' private signing keys on this machine (docs/signing.md):
 * one Ed25519 JWK file per participant outside every folder, or one file
 * given by path, or a keyring in memory. Small on purpose: the hosts build
 * it on every start; the signing itself is runtime/signing.ts, loaded only
 * for a signed folder.
 * @module
 */
import * as nodePath from 'node:path';
import { AcpError } from './errors.ts';
import type { Keyring } from './host.ts';
import { bunCryptoHasher, sha256, toHex } from './sha256.ts';
import { errorCode, getBuiltin, isObject, unwritableReason } from './util.ts';

const PUBLIC_KEY = /^[A-Za-z0-9_-]{43}$/;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Each character code's 6 bits, -1 for a character outside base64url (built on first use: no work at load). */
let base64UrlValues: Int8Array | undefined;

/** base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    text += BASE64URL[a >> 2]! + BASE64URL[((a & 3) << 4) | (b >> 4)]!;
    if (i + 1 < bytes.length) text += BASE64URL[((b & 15) << 2) | (c >> 6)]!;
    if (i + 2 < bytes.length) text += BASE64URL[c & 63]!;
  }
  return text;
}

/**
 * base64url (no padding) → bytes; `undefined` unless `text` is the canonical
 * encoding of them (no second spelling of a signature: no padding, no other
 * alphabet, no whitespace, no stray bits in the last character). Decoded by
 * table, not through atob and a re-encoding: validate decodes a signature
 * per event.
 */
export function fromBase64Url(text: string): Uint8Array | undefined {
  const values = (base64UrlValues ??= Int8Array.from({ length: 128 }, (_, code) => BASE64URL.indexOf(String.fromCharCode(code))));
  const rest = text.length % 4;
  if (rest === 1) return undefined;
  const bytes = new Uint8Array((text.length >> 2) * 3 + (rest ? rest - 1 : 0));
  let bits = 0;
  let count = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? values[code]! : -1;
    if (value < 0) return undefined;
    bits = ((bits << 6) | value) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes[at++] = (bits >> count) & 0xff;
    }
  }
  // The bits left over past the last whole byte must be zero (a canonical encoder writes them so).
  return (bits & ((1 << count) - 1)) === 0 ? bytes : undefined;
}

/** A function hashing a line's text (UTF-8) to hex SHA-256. */
export type LineHasher = (line: string) => string;

/** The line hasher of {@link lineHash}, chosen on first use. */
let chosenLineHasher: LineHasher | undefined;

/**
 * SHA-256 (hex) of a line's UTF-8 text (only signed collaborations hash
 * lines: the chain, the head, the key file names). Natively where that
 * costs no module load the signed path does not make anyway: Bun's
 * CryptoHasher (a global), Node's node:crypto (which a signed append loads
 * to sign); elsewhere (Deno, whose node:crypto costs a fresh process more
 * than the few lines hashed here) in TypeScript. Why: the TypeScript
 * digest runs cold, in the interpreter: ~45 µs per 64-byte block in the
 * compiled binary, ~1 ms of a signed append's ~5 ms over an unsigned one.
 */
export function lineHash(line: string): string {
  chosenLineHasher ??= bunLineHasher() ?? ((globalThis as { Deno?: unknown }).Deno === undefined ? nodeLineHasher(getBuiltin('node:crypto')) : undefined) ?? typeScriptLineHash;
  return chosenLineHasher(line);
}

/** node:crypto's line hasher (its one-shot `hash`, else `createHash`), given the module; `undefined` without one. */
export function nodeLineHasher(crypto: unknown): LineHasher | undefined {
  const c = crypto as { hash?: (algorithm: string, data: string) => string; createHash?: (algorithm: string) => { update(data: string): { digest(encoding: 'hex'): string } } } | undefined;
  if (typeof c?.hash === 'function') return (line) => c.hash!('sha256', line);
  if (typeof c?.createHash === 'function') return (line) => c.createHash!('sha256').update(line).digest('hex');
  return undefined;
}

/** Bun's native SHA-256 (the `Bun.CryptoHasher` global: nothing to load); `undefined` elsewhere. */
function bunLineHasher(): LineHasher | undefined {
  const Hasher = bunCryptoHasher();
  return Hasher ? (line) => new Hasher('sha256').update(line).digest('hex') : undefined;
}

function typeScriptLineHash(line: string): string {
  return toHex(sha256(new TextEncoder().encode(line)));
}

/** An Ed25519 private key as a JWK (the key file's content). */
export interface PrivateJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  d: string;
  x: string;
}

/** Whether `value` is an Ed25519 private JWK (the shape; WebCrypto checks the rest on import). */
export function isPrivateJwk(value: unknown): value is PrivateJwk {
  return isObject(value) && value.kty === 'OKP' && value.crv === 'Ed25519' && typeof value.d === 'string' && typeof value.x === 'string' && PUBLIC_KEY.test(value.x) && PUBLIC_KEY.test(value.d);
}

// ---------------------------------------------------------------------------
// Key files (the default keyring: outside every folder, 0600)
// ---------------------------------------------------------------------------

/** The key file name of `participant` in a keyring directory: readable, and unique per id. */
export function keyFileName(participant: string): string {
  const readable = participant.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
  return `${readable}-${lineHash(participant).slice(0, 12)}.jwk`;
}

/**
 * The synchronous file calls a keyring of files makes (node:fs provides
 * them; spelled out so that the library's declarations need no Node types).
 */
export interface KeyringFs {
  statSync(path: string): { mode: number };
  openSync(path: string, flags: number): number;
  fstatSync(fd: number): { mode: number; size: number; isFile(): boolean };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
  constants: { O_RDONLY: number; O_NOFOLLOW?: number; O_NONBLOCK?: number };
  mkdirSync(path: string, options: { recursive: true; mode: number }): unknown;
  writeFileSync(path: string, data: string, options: { mode: number; flag: string }): void;
  linkSync(existing: string, path: string): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: true }): void;
  existsSync(path: string): boolean;
  copyFileSync(from: string, to: string): void;
  chmodSync(path: string, mode: number): void;
}

/** A key file holds one JWK (~150 bytes); anything larger is not one, and is not read. */
const KEY_FILE_MAX_BYTES = 16 * 1024;

/**
 * The text of the key file `path`, or `undefined` when there is none. Opened
 * without following a symlink and without blocking (a FIFO must not hang the
 * append), and read only when the opened file is a regular file of at most
 * {@link KEY_FILE_MAX_BYTES} that others may neither read nor write, as ssh
 * refuses a key file (`posixModes`: where the file system has POSIX modes).
 */
function readKeyFile(fs: KeyringFs, path: string, posixModes: boolean): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (isAbsent(error)) return undefined;
    if (errorCode(error) === 'ELOOP') throw new AcpError(`signing key ${path} is a symbolic link: acp opens key files only as the regular files they are (put the key itself there)`, 2, 'usage');
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new AcpError(`signing key ${path} is not a regular file (a directory, FIFO, device or socket)`, 2, 'usage');
    if (posixModes && (stat.mode & 0o077) !== 0) throw new AcpError(`signing key ${path} is readable or writable by others (mode ${(stat.mode & 0o777).toString(8)}); chmod 600 it`, 2, 'usage');
    if (stat.size > KEY_FILE_MAX_BYTES) throw new AcpError(`signing key ${path} is larger than ${KEY_FILE_MAX_BYTES / 1024} KiB, more than a key; refusing to read it`, 2, 'usage');
    const buffer = new Uint8Array(KEY_FILE_MAX_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = fs.readSync(fd, buffer, length, buffer.length - length, length);
    if (length > KEY_FILE_MAX_BYTES) throw new AcpError(`signing key ${path} grew past ${KEY_FILE_MAX_BYTES / 1024} KiB while read; refusing it`, 2, 'usage');
    return new TextDecoder().decode(buffer.subarray(0, length));
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether a read failed because the file cannot be there: missing, or a parent is not a folder (then a write says why, see {@link unwritableKeyError}). */
function isAbsent(error: unknown): boolean {
  return errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';
}

/**
 * Refuse a key directory others may write (or, for a directory of keys,
 * read), as the key file's mode is checked: whoever may write the directory
 * may replace the key in it. A directory of keys is made 0700; a key file
 * given by path may sit in a world-readable directory, not in a writable one
 * (unless sticky, as /tmp: nobody else may rename a file there).
 */
function checkKeyDirectory(fs: KeyringFs, dir: string, ofKeys: boolean): void {
  let mode: number;
  try {
    mode = fs.statSync(dir).mode;
  } catch (error) {
    if (isAbsent(error)) return;
    throw error;
  }
  const open = ofKeys ? (mode & 0o077) !== 0 : (mode & 0o022) !== 0 && (mode & 0o1000) === 0;
  if (open) throw new AcpError(`signing key directory ${dir} is ${ofKeys ? 'readable or writable' : 'writable'} by others (mode ${(mode & 0o7777).toString(8)}): anyone who may write it may replace the key; chmod ${ofKeys ? '700' : 'go-w'} it`, 2, 'usage');
}

/**
 * A keyring of files: one JWK file per participant in `dir`, or every
 * participant's key in one `file` (a key given by path: one agent, one
 * identity). Keys are created 0600 (their directory 0700) and, where the
 * file system has POSIX modes (`posixModes`), a key file that others may
 * read or write, or a directory others may write, is refused, as ssh
 * refuses one (see {@link readKeyFile}, {@link checkKeyDirectory}).
 */
export function fileKeyring(fs: KeyringFs, where: { dir: string } | { file: string }, posixModes = true): Keyring {
  const pathOf = (participant: string): string => ('file' in where ? where.file : nodePath.join(where.dir, keyFileName(participant)));
  const read = (path: string): PrivateJwk | undefined => {
    if (posixModes) checkKeyDirectory(fs, nodePath.dirname(path), 'dir' in where);
    const text = readKeyFile(fs, path, posixModes);
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (!isPrivateJwk(value)) throw new AcpError(`signing key ${path} is not an Ed25519 private key (a JWK with kty OKP, crv Ed25519, d and x)`, 2, 'usage');
    return value;
  };
  const write = (path: string, value: PrivateJwk | unknown, exclusive: boolean): void => {
    // Math.random, as files.ts names its temporaries: the name need only not collide (the file is made O_EXCL), and Node loads WebCrypto (~1 ms of a signed append) at the first touch of globalThis.crypto.
    const temp = `${path}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      fs.mkdirSync(nodePath.dirname(path), { recursive: true, mode: 0o700 });
      fs.writeFileSync(temp, `${JSON.stringify(value)}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      throw unwritableKeyError(error, path, 'file' in where) ?? error;
    }
    let renamed = false;
    try {
      // Linked into place: a racing process reads no key or a whole one, and two racers keep the same key.
      if (exclusive) fs.linkSync(temp, path);
      else {
        fs.renameSync(temp, path);
        renamed = true;
      }
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    } finally {
      // A renamed temporary is gone already (every append renames its record: a removal of nothing is two system calls).
      if (!renamed) fs.rmSync(temp, { force: true });
    }
  };
  return {
    where: pathOf,
    async load(participant, create) {
      const path = pathOf(participant);
      const key = read(path);
      if (key || !create) return key;
      write(path, (await create()) as PrivateJwk, true);
      return read(path);
    },
    async stage(participant, key) {
      write(`${pathOf(participant)}.next`, key as PrivateJwk, false);
    },
    async staged(participant) {
      return read(`${pathOf(participant)}.next`);
    },
    async promote(participant) {
      const path = pathOf(participant);
      if (fs.existsSync(path)) fs.copyFileSync(path, `${path}.old`);
      fs.chmodSync(`${path}.next`, 0o600);
      fs.renameSync(`${path}.next`, path);
    },
    async recall(participant, id) {
      try {
        // Read as a key file is (no-follow, regular, small): it sits beside the key, in the same directory.
        const text = readKeyFile(fs, headRecordPath(pathOf(participant), id), posixModes);
        return text === undefined ? undefined : (JSON.parse(text) as unknown);
      } catch {
        // None yet, or unreadable: the append verifies the log from seq 1.
        return undefined;
      }
    },
    async remember(participant, id, record) {
      // Renamed into place: whatever was at the path (a link, a FIFO) is replaced, never written through or waited on.
      write(headRecordPath(pathOf(participant), id), record, false);
    },
  };
}

/**
 * The error a key write that the file system refused becomes: what could
 * not be written, where, and the one setting that moves the keys to a
 * writable place (docs/agents.md "In a sandbox"); `undefined` for any
 * other failure. Exit 2: the environment's, not a bug.
 */
export function unwritableKeyError(error: unknown, path: string, keyFile: boolean): AcpError | undefined {
  const why = unwritableReason(error);
  if (!why) return undefined;
  const fix = keyFile ? 'set ACP_SIGNING_KEY_FILE to a key file in a writable folder' : 'set ACP_SIGNING_KEY_DIR to a writable folder outside the collaboration folder';
  return new AcpError(`cannot write the signing key ${path}: ${nodePath.dirname(path)} is not writable here (${why}); ${fix}`, 2, 'usage');
}

/** Where a key file's record of the last line it signed in collaboration `id` is kept: beside it (`id` is base64url). */
function headRecordPath(keyPath: string, id: string): string {
  return `${keyPath}.${id}.head`;
}

/** A keyring in memory (the memory host's; tests give each participant a keyring of its own). */
export function memoryKeyring(initial: Record<string, PrivateJwk> = {}): Keyring {
  const keys = new Map(Object.entries(initial));
  const next = new Map<string, PrivateJwk>();
  const heads = new Map<string, unknown>();
  return {
    where: (participant) => `memory:${participant}`,
    async load(participant, create) {
      if (!keys.has(participant) && create) keys.set(participant, (await create()) as PrivateJwk);
      return keys.get(participant);
    },
    async stage(participant, key) {
      next.set(participant, key as PrivateJwk);
    },
    async staged(participant) {
      return next.get(participant);
    },
    async promote(participant) {
      const key = next.get(participant);
      if (key) keys.set(participant, key);
      next.delete(participant);
    },
    async recall(participant, id) {
      return structuredClone(heads.get(`${participant}\n${id}`));
    },
    async remember(participant, id, record) {
      heads.set(`${participant}\n${id}`, structuredClone(record));
    },
  };
}

