/**
 * Small helpers shared by the core and the built-in plugins (one copy each).
 * Imports nothing but types from runtime/types.ts, so acp.ts and any plugin may import
 * it without forming a value import circle.
 * @module
 */
import * as nodePath from 'node:path';
import type { Host } from './host.ts';
import { isPyNumber, PyFloat, PyInt } from './pyjson.ts';
import type { Json } from './types.ts';
export type { Json } from './types.ts';

/** Whether a value is a JSON object (not an array, not null, not a number kept as a PyFloat or PyInt). */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isPyNumber(value);
}

/** Whether a value is an integer number (a JSON seq). */
export function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** Whether a JSON value is a Python int (`isinstance(value, int)`): booleans and big ints are, `1.0` is not. */
export function isPyIntLike(value: unknown): boolean {
  return isInt(value) || typeof value === 'boolean' || value instanceof PyInt;
}

/**
 * The value Python's `==` and hashing see for a number-like JSON value, so
 * `seq` `1.0` and `true` equal 1 as they do for the Python tools (and in
 * their sets); other values come back unchanged.
 */
export function pySeqKey(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  return value instanceof PyFloat ? value.value : value;
}

/** The errno-like `code` of a thrown value (`'ENOENT'`…), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** Why a file system refused a write, in words, for the errors a read-only or missing place gives (a sandbox's home); `undefined` for any other failure. */
export function unwritableReason(error: unknown): string | undefined {
  const reasons: Record<string, string> = {
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    // mkdir -p on a read-only mount whose parents are missing (Codex's and srt's sandboxes answer so).
    ENOENT: 'it is missing and cannot be created',
    ENOTDIR: 'a parent is not a folder',
  };
  return reasons[errorCode(error) ?? ''];
}

/** Build an error carrying an errno-like code (used by file systems). */
export function fsError(code: string, message: string): Error & { code: string } {
  const error = new Error(`${code}: ${message}`) as Error & { code: string };
  error.code = code;
  return error;
}

/**
 * A Node built-in module through `process.getBuiltinModule` (Node >= 20.16,
 * Bun, Deno) when the runtime has it, else through `import()`. Why: Node's
 * `import('node:fs')` builds an ES module facade that reads every export,
 * and reading `fs.ReadStream` loads the whole streams machinery: ~15 % of a
 * small command's start-up, for streams acp does not use.
 */
export async function builtinModule<T>(name: 'node:fs' | 'node:os' | 'node:path' | 'node:url' | 'node:crypto', load: () => Promise<T>): Promise<T> {
  return (getBuiltin(name) as T | undefined) ?? load();
}

/** A Node built-in module through `process.getBuiltinModule`, synchronously; undefined where the runtime lacks it. */
export function getBuiltin(name: string): unknown {
  const get = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule;
  return typeof get === 'function' ? get(name) : undefined;
}

/** The part of node:crypto's incremental hashes the checkpoints use. */
export interface StreamingHash {
  update(data: Uint8Array | string): StreamingHash;
  copy(): StreamingHash;
  digest(encoding: 'hex'): string;
}

/** The part of node:crypto the checkpoints use. */
export interface NodeCrypto {
  createHash(algorithm: 'sha256'): StreamingHash;
  createHmac(algorithm: 'sha256', key: Uint8Array): StreamingHash;
}

/**
 * node:crypto where the runtime has it (Node, Bun, Deno), else `undefined`
 * (then WebCrypto). Why: in Node it loads in a third of WebCrypto's time
 * (~4 vs ~11 ms of a command's start), and its hashes are incremental, so a
 * prefix digest and the whole file's come out of one pass.
 */
export async function nodeCrypto(): Promise<NodeCrypto | undefined> {
  try {
    const crypto = await builtinModule<Partial<NodeCrypto>>('node:crypto', () => import('node:crypto') as unknown as Promise<Partial<NodeCrypto>>);
    return typeof crypto.createHash === 'function' && typeof crypto.createHmac === 'function' ? (crypto as NodeCrypto) : undefined;
  } catch {
    return undefined;
  }
}

/** The bytes of `parts`, one after the other. */
export function joinBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}

/** Whether `a` is a list equal, item by item, to `b`. */
export function sameList(a: unknown, b: readonly string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Text for a server's client with the server's absolute `root` taken out: a
 * path under it becomes relative to it, the root itself `.`. Every server
 * door (MCP, JSON-RPC) names folders this way in its results and errors,
 * never by the server's absolute paths; never applied to document content.
 */
export function withoutRoot(root: string, text: string): string {
  if (root === '/' || !text.includes(root)) return text; // `/` starts every absolute path: it says nothing
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The root followed by a separator, or by the end of the path (not by more of a longer name).
  return text.replace(new RegExp(`${escaped}(?:/|(?![^\\s'"\`),;:]))`, 'g'), (match) => (match.endsWith('/') ? '' : '.'));
}

/** {@link withoutRoot} on every string of a JSON value (keys kept), for a server's structured results and error data. */
export function jsonWithoutRoot<T>(root: string, value: T): T {
  if (typeof value === 'string') return withoutRoot(root, value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => jsonWithoutRoot(root, item)) as T;
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonWithoutRoot(root, item)])) as T;
}

/** Whether path `child` is `parent` or lies below it (lexically; resolve symlinks first). */
export function isInside(child: string, parent: string): boolean {
  const rel = nodePath.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

/**
 * Real path of `path`, or of its nearest existing ancestor joined with the
 * rest (for paths that do not exist yet, such as the folder `init` creates).
 */
export async function realpathOfExistingAncestor(host: Host, path: string): Promise<string> {
  const parts: string[] = [];
  let current = path;
  for (;;) {
    try {
      return nodePath.join(await host.fs.realpath(current), ...parts.reverse());
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw error;
      const parent = nodePath.dirname(current);
      if (parent === current) return path;
      parts.push(nodePath.basename(current));
      current = parent;
    }
  }
}
