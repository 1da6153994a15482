/**
 * Strict mode: whether a door's appends are strict, and its view of the
 * folder after an event (the files an append would write, laid over the
 * host), so that validate can judge the outcome before anything is written.
 * The strict checks themselves are validate's (runtime/validate.ts), and
 * the refusal is the transaction's (acp.ts).
 * @module
 */
import * as nodePath from 'node:path';
import { AcpError } from './errors.ts';
import type { FileReader, FileSystem, Host } from './host.ts';
import { fsError } from './util.ts';
import type { Registry } from './types.ts';

/** What an append is about to write: the log's new tail and protocol.json's new text. */
export interface PendingFiles {
  log: { path: string; tail: Uint8Array };
  protocol: { path: string; bytes: Uint8Array };
}

/**
 * `host` as it will be once `pending` is written: reads of the log see its
 * new tail, reads of protocol.json its new text. Read-only for those two
 * files (validate never writes to a folder); everything else is `host`.
 */
export function pendingHost(host: Host, pending: PendingFiles): Host {
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
  // The host's other members as they are, inherited ones too (a guarded or writer host is made
  // with Object.create): a spread would drop the checkpoint key and the cache directory.
  return Object.create(host, { fs: { value: view, enumerable: true } }) as Host;
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
      // Wholly inside the file: the file's own view, uncopied (a scan of a long log reads it by the megabyte).
      if (fromFile === length) return file.read(position, length);
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

/**
 * Whether appends are strict: `strict: true|false` in acp.config.yaml,
 * else the door's default (`false` for the CLI and the library, `true` for
 * the MCP and JSON-RPC servers, whose callers are agents).
 */
export function strictSetting(registry: Registry | undefined, doorDefault: boolean): boolean {
  const configured = registry?.config?.sections.strict;
  return typeof configured === 'boolean' ? configured : doorDefault;
}
