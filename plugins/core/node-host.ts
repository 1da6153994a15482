/**
 * The default host adapter: files through `node:fs`, which Node, Bun and Deno
 * all provide (Deno maps it onto its permission system, so only the folders
 * granted are reachable). acp.ts re-exports it; this module imports nothing
 * but types from acp.ts (see docs/architecture.md: no value import circle).
 * @module
 */
import * as nodePath from 'node:path';
import type { FileStat, FileSystem, Host } from '../../acp.ts';
import { errorCode, fsError } from './util.ts';

/** Options of {@link createNodeHost}. */
export interface NodeHostOptions {
  /**
   * Do the file operations synchronously (inside the async API). The CLI
   * does: the promise API costs ~0.5 ms of CPU per call in a fresh Bun
   * process and starts a thread pool, a quarter of a small command, while
   * the calls take microseconds. A library host stays asynchronous: an
   * embedder's loop over `await host.fs…` must still yield to timers and I/O.
   */
  syncFs?: boolean;
}

/**
 * The default host: files through `node:fs`, which Node, Bun and Deno all
 * provide (Deno maps it onto its permission system, so only the folders
 * granted are reachable).
 */
export async function createNodeHost(options: NodeHostOptions = {}): Promise<Host> {
  const fs = await import('node:fs');
  const fsp = fs.promises;
  const sync = options.syncFs === true;
  const proc = (globalThis as { process?: { pid?: number; cwd?(): string; kill?(pid: number, signal: number): void } }).process;
  // Descriptor-level calls, synchronous or through callbacks (see NodeHostOptions.syncFs).
  const callback = <T>(run: (done: (error: Error | null, value?: T) => void) => void): Promise<T> =>
    new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
  const fd = sync
    ? {
        open: async (path: string, flags: number) => fs.openSync(path, flags, 0o666),
        fstat: async (fd: number) => fs.fstatSync(fd),
        write: async (fd: number, bytes: Uint8Array, offset: number) => fs.writeSync(fd, bytes, offset),
        read: async (fd: number, bytes: Uint8Array, length: number, position: number) => fs.readSync(fd, bytes, 0, length, position),
        datasync: async (fd: number) => fs.fdatasyncSync(fd),
        truncate: async (fd: number, size: number) => fs.ftruncateSync(fd, size),
        close: async (fd: number) => fs.closeSync(fd),
      }
    : {
        open: (path: string, flags: number) => callback<number>((done) => fs.open(path, flags, 0o666, done)),
        fstat: (fd: number) => callback<import('node:fs').Stats>((done) => fs.fstat(fd, done)),
        write: (fd: number, bytes: Uint8Array, offset: number) => callback<number>((done) => fs.write(fd, bytes, offset, bytes.length - offset, null, done)),
        read: (fd: number, bytes: Uint8Array, length: number, position: number) => callback<number>((done) => fs.read(fd, bytes, 0, length, position, done)),
        datasync: (fd: number) => callback<void>((done) => fs.fdatasync(fd, done)),
        truncate: (fd: number, size: number) => callback<void>((done) => fs.ftruncate(fd, size, done)),
        close: (fd: number) => callback<void>((done) => fs.close(fd, done)),
      };
  // Every file is opened without blocking (a FIFO with no writer, or no
  // reader, must not hang the command) and checked to be a regular file
  // before a byte moves: a FIFO, a device (/dev/zero) or a socket is refused.
  const c = fs.constants;
  const NONBLOCK = c.O_NONBLOCK ?? 0;
  const openRegular = async (path: string, flags: number): Promise<number> => {
    const handle = await fd.open(path, flags | NONBLOCK);
    try {
      const st = await fd.fstat(handle);
      if (st.isDirectory()) throw fsError('EISDIR', `${path} is a directory`);
      if (!st.isFile()) throw fsError('EFTYPE', `${path} is not a regular file (a FIFO, device or socket); acp reads only regular files`);
      return handle;
    } catch (error) {
      await fd.close(handle);
      throw error;
    }
  };
  const nodeFs: FileSystem = {
    readFile: async (path, options) => {
      const max = options?.maxBytes ?? Number.MAX_SAFE_INTEGER;
      const handle = await openRegular(path, c.O_RDONLY);
      try {
        const size = (await fd.fstat(handle)).size;
        if (size > max) throw fsError('EFBIG', `${path} holds ${size} bytes, more than ${max}`);
        // Read what fstat announced: a snapshot, bounded even if the file
        // grows meanwhile (an append in progress is not half-read).
        const bytes = new Uint8Array(size);
        let length = 0;
        while (length < size) {
          const n = await fd.read(handle, bytes.subarray(length), size - length, length);
          if (n <= 0) break;
          length += n;
        }
        // A view, not a copy: events.jsonl can be tens of megabytes.
        return bytes.subarray(0, length);
      } finally {
        await fd.close(handle);
      }
    },
    writeFile: async (path, data, options) => {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      // O_CREAT|O_EXCL makes a new regular file (it follows no symlink): no
      // check needed, and nothing between open and write (a lock file must
      // not be left empty by a kill in between).
      const handle = options?.exclusive ? await fd.open(path, c.O_WRONLY | c.O_CREAT | c.O_EXCL) : await openRegular(path, c.O_WRONLY | c.O_CREAT);
      try {
        if (!options?.exclusive) await fd.truncate(handle, 0);
        let written = 0;
        while (written < bytes.length) {
          const n = await fd.write(handle, bytes, written);
          if (n <= 0) throw fsError('EIO', `short write to ${path}`);
          written += n;
        }
      } finally {
        await fd.close(handle);
      }
    },
    appendFile: async (path, data) => {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      const handle = await openRegular(path, c.O_WRONLY | c.O_APPEND | c.O_CREAT);
      try {
        const start = (await fd.fstat(handle)).size;
        let written = 0;
        try {
          // One write call carries the whole line, so a process killed mid-append
          // leaves at most a torn final line (which readers detect); the loop only
          // runs again when the OS accepted part of it.
          while (written < bytes.length) {
            const bytesWritten = await fd.write(handle, bytes, written);
            if (bytesWritten <= 0) throw fsError('EIO', `short write to ${path}`);
            written += bytesWritten;
          }
          await fd.datasync(handle);
        } catch (error) {
          // A failed write (disk full…) must not leave a partial line behind;
          // roll back unless someone else appended meanwhile.
          try {
            if (written > 0 && (await fd.fstat(handle)).size === start + written) await fd.truncate(handle, start);
          } catch {
            // the original error is what matters
          }
          throw error;
        }
      } finally {
        await fd.close(handle);
      }
    },
    rename: async (from, to) => (sync ? fs.renameSync(from, to) : fsp.rename(from, to)),
    remove: async (path) => {
      if (sync) fs.rmSync(path, { force: true });
      else await fsp.rm(path, { force: true });
    },
    mkdir: async (path) => {
      if (sync) fs.mkdirSync(path, { recursive: true });
      else await fsp.mkdir(path, { recursive: true });
    },
    stat: async (path) => {
      try {
        const link = sync ? fs.lstatSync(path) : await fsp.lstat(path);
        let target: typeof link | null = link;
        if (link.isSymbolicLink()) {
          try {
            target = sync ? fs.statSync(path) : await fsp.stat(path);
          } catch {
            target = null;
          }
        }
        if (!target) return { isFile: false, isDirectory: false, isSymlink: true, size: 0, mtimeMs: link.mtimeMs };
        return {
          isFile: target.isFile(),
          isDirectory: target.isDirectory(),
          isSymlink: link.isSymbolicLink(),
          size: target.size,
          mtimeMs: target.mtimeMs,
          ctimeMs: target.ctimeMs,
          ino: target.ino,
          // Owner and permission bits mean something on POSIX only (Windows reports uid 0 and mode 0o666).
          ...(nodePath.sep === '/' ? { uid: target.uid, mode: target.mode & 0o7777 } : {}),
        };
      } catch (error) {
        // Names nothing that exists (as Python's os.path.exists sees it).
        if (['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP'].includes(errorCode(error) ?? '')) return null;
        throw error;
      }
    },
    readTail: async (path, length) => {
      let handle: number;
      try {
        handle = await openRegular(path, c.O_RDONLY);
      } catch (error) {
        // Not a log tail: missing, a directory, a FIFO or a device.
        if (['ENOENT', 'ENOTDIR', 'EISDIR', 'EFTYPE'].includes(errorCode(error) ?? '')) return null;
        throw error;
      }
      try {
        const st = await fd.fstat(handle);
        // A directory opens fine on POSIX but cannot be read: not a log tail.
        if (!st.isFile()) return null;
        const want = Math.max(0, Math.min(length, st.size));
        const bytes = new Uint8Array(want);
        const bytesRead = want ? await fd.read(handle, bytes, want, st.size - want) : 0;
        const stat = { isFile: st.isFile(), isDirectory: st.isDirectory(), isSymlink: false, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
        return { stat, bytes: bytes.subarray(0, bytesRead) };
      } finally {
        await fd.close(handle);
      }
    },
    // The native realpath(3), as fs.promises.realpath uses (realpathSync alone is a JS re-implementation).
    realpath: async (path) => (sync ? (fs.realpathSync.native ?? fs.realpathSync)(path) : fsp.realpath(path)),
    readDir: async (path) => (sync ? fs.readdirSync(path) : fsp.readdir(path)),
    truncate: async (path, size) => (sync ? fs.truncateSync(path, size) : fsp.truncate(path, size)),
    watch: (path, onChange) => {
      try {
        const watcher = fs.watch(path, { persistent: true }, () => onChange());
        watcher.on('error', () => undefined);
        return () => watcher.close();
      } catch {
        return () => undefined;
      }
    },
  };
  // No file name holds a NUL character: such a path (from a hostile
  // protocol.json or argument) names nothing, rather than making node:fs
  // throw a TypeError.
  for (const key of Object.keys(nodeFs) as (keyof FileSystem)[]) {
    const fn = nodeFs[key] as (...args: unknown[]) => unknown;
    (nodeFs as unknown as Record<string, unknown>)[key] = (...args: unknown[]): unknown => {
      const paths = key === 'rename' ? args.slice(0, 2) : args.slice(0, 1);
      if (!paths.some((p) => typeof p === 'string' && p.includes('\0'))) return fn(...args);
      if (key === 'stat' || key === 'readTail') return Promise.resolve(null);
      if (key === 'remove') return Promise.resolve();
      if (key === 'watch') return () => undefined;
      return Promise.reject(fsError('ENOENT', `no file name holds a NUL character: ${JSON.stringify(paths.join(' '))}`));
    };
  }
  // Deno asks interactively for sys/run permissions unless granted; never
  // prompt from a lock check: without them the lock falls back to its age.
  const deno = (globalThis as { Deno?: { permissions?: { querySync?(d: { name: string; kind?: string }): { state: string } } } }).Deno;
  const granted = (descriptor: { name: string; kind?: string }): boolean => {
    if (!deno) return true;
    try {
      return deno.permissions?.querySync?.(descriptor).state === 'granted';
    } catch {
      return false;
    }
  };
  let hostname: string | undefined;
  if (granted({ name: 'sys', kind: 'hostname' })) {
    try {
      // Recorded in the lock so a lock taken on another machine (shared folder)
      // is never judged by this machine's process table.
      hostname = (await import('node:os')).hostname() || undefined;
    } catch {
      hostname = undefined;
    }
  }
  const mayKill = granted({ name: 'run' });
  const mayReadProc = granted({ name: 'read', path: '/proc' } as { name: string });
  const readProc = (path: string): string | undefined => {
    if (!mayReadProc) return undefined;
    try {
      return fs.readFileSync(path, 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  };
  const startTime = (pid: number | 'self'): string | undefined => {
    // Field 22 counted after the command name, which may hold spaces and parentheses.
    const stat = readProc(`/proc/${pid}/stat`);
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields?.[19];
  };
  let pidNamespace: string | undefined;
  try {
    pidNamespace = mayReadProc ? String(fs.statSync('/proc/self/ns/pid').ino) : undefined;
  } catch {
    pidNamespace = undefined;
  }
  const identity = { bootId: readProc('/proc/sys/kernel/random/boot_id'), pidNamespace, startTime: startTime('self') };
  return {
    fs: nodeFs,
    now: () => new Date(),
    pid: proc?.pid ?? 0,
    hostname,
    isProcessAlive: (pid) => {
      if (!proc?.kill || !mayKill || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
      try {
        proc.kill(pid, 0);
        return true;
      } catch (error) {
        if (errorCode(error) === 'ESRCH') return false;
        if (errorCode(error) === 'EPERM') return true;
        return undefined;
      }
    },
    identity,
    processStartTime: (pid) => (Number.isSafeInteger(pid) && pid > 0 ? startTime(pid) : undefined),
    resolvePath: (path) => nodePath.resolve(path),
  };
}
