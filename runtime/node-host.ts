/**
 * The default host adapter: files through `node:fs`, which Node, Bun and Deno
 * all provide (Deno maps it onto its permission system, so only the folders
 * granted are reachable). acp.ts re-exports it; this module imports nothing
 * but types from runtime/types.ts (see docs/architecture.md: no value import circle).
 * @module
 */
import * as nodePath from 'node:path';
import { AcpError } from './errors.ts';
import type { FileStat, FileSystem, Host } from './host.ts';
import { fileKeyring } from './keyring.ts';
import { decodeSurrogateEscape, encodeSurrogateEscape, hasLoneSurrogate, type LinkReader, purePosixPath, pyRealpath, pyRepr } from './pytext.ts';
import { builtinModule, errorCode, fsError, getBuiltin, isInside, unwritableReason } from './util.ts';
import type { NodeHostOptions } from './types.ts';
export type { NodeHostOptions } from './types.ts';

/** How much of a path a confined file system reaches without following symlinks: its directory, all of it, or all of it made. */
type Reach = 'parent' | 'whole' | 'create';
/** Where an operation opens a path (see {@link FileSystem.beneath}). */
interface Placed {
  /** The path to open: the one asked for, or one relative to a directory handle. */
  path: string;
  /** O_NOFOLLOW where the last component must not be a symlink (0 otherwise). */
  noFollow: number;
  /** The directories were made on the way (`create`). */
  created?: boolean;
  release(): Promise<void>;
}
type Place = (path: string, reach: Reach) => Promise<Placed>;

/**
 * The host an option names, or the default one. A Promise of a host (what
 * `createNodeHost()` returns: it is async) is awaited, so
 * `{ host: createNodeHost() }` works; anything else that is not a host is
 * refused by name, never met later as `host.resolvePath is not a function`.
 */
export async function resolveHost(given: Host | Promise<Host> | undefined): Promise<Host> {
  const host = await (given ?? createNodeHost());
  const missing = ['fs', 'resolvePath', 'now'].filter((key) => typeof (host as unknown as Record<string, unknown> | null)?.[key] !== (key === 'fs' ? 'object' : 'function'));
  if (missing.length) throw new AcpError(`options.host is not a Host (it has no ${missing.join(', ')}): pass \`await createNodeHost()\` or \`createMemoryHost()\``, 2, 'usage');
  return host;
}

/**
 * The default host: files through `node:fs`, which Node, Bun and Deno all
 * provide (Deno maps it onto its permission system, so only the folders
 * granted are reachable).
 */
export async function createNodeHost(options: NodeHostOptions = {}): Promise<Host> {
  const fs = await builtinModule('node:fs', () => import('node:fs'));
  // fs.promises loads ~20 internal modules; a synchronous host never needs it.
  const fsp = (): typeof fs.promises => fs.promises;
  const sync = options.syncFs === true;
  const proc = (globalThis as { process?: { pid?: number; cwd?(): string; getuid?(): number; kill?(pid: number, signal: number): void; env?: Record<string, string | undefined> } }).process;
  // Descriptor-level calls, synchronous or through callbacks (see NodeHostOptions.syncFs).
  const callback = <T>(run: (done: (error: Error | null, value?: T) => void) => void): Promise<T> =>
    new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
  const fd = sync
    ? {
        open: async (path: string, flags: number) => fs.openSync(osPath(path), flags, 0o666),
        fstat: async (fd: number) => fs.fstatSync(fd),
        write: async (fd: number, bytes: Uint8Array, offset: number) => fs.writeSync(fd, bytes, offset),
        read: async (fd: number, bytes: Uint8Array, length: number, position: number) => fs.readSync(fd, bytes, 0, length, position),
        datasync: async (fd: number) => fs.fdatasyncSync(fd),
        truncate: async (fd: number, size: number) => fs.ftruncateSync(fd, size),
        close: async (fd: number) => fs.closeSync(fd),
      }
    : {
        open: (path: string, flags: number) => callback<number>((done) => fs.open(osPath(path), flags, 0o666, done)),
        fstat: (fd: number) => callback<import('node:fs').Stats>((done) => fs.fstat(fd, done)),
        write: (fd: number, bytes: Uint8Array, offset: number) => callback<number>((done) => fs.write(fd, bytes, offset, bytes.length - offset, null, done)),
        read: (fd: number, bytes: Uint8Array, length: number, position: number) => callback<number>((done) => fs.read(fd, bytes, 0, length, position, done)),
        datasync: (fd: number) => callback<void>((done) => fs.fdatasync(fd, done)),
        truncate: (fd: number, size: number) => callback<void>((done) => fs.ftruncate(fd, size, done)),
        close: (fd: number) => callback<void>((done) => fs.close(fd, done)),
      };
  // A name given with surrogate escapes (from argv bytes that are not UTF-8,
  // as Python decodes them) is addressed by its bytes, as Python's os
  // functions do; names read back are decoded the same way. Node takes
  // Buffer paths exactly. Deno's node:fs turns a Buffer path into text with
  // U+FFFD, and Bun's node:path functions (native, UTF-8 only) do the same
  // to every path they join or resolve: either would create another name,
  // so there such a name is refused (see docs/spec-notes.md).
  const Bytes = (globalThis as { Buffer?: { from(bytes: Uint8Array): Uint8Array } }).Buffer;
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  const lossy = g.Deno !== undefined ? 'Deno' : g.Bun !== undefined ? 'Bun' : Bytes ? undefined : 'this runtime';
  // A name no file can have is the caller's mistake, refused as such (exit 2), not a file system failure.
  const refuseLossy = (path: string): Error => new AcpError(`${lossy} cannot address a file name that is not UTF-8 (acp on Node can): ${pyRepr(path)}`, 2, 'usage');
  const osPath = (path: string): string => {
    if (!hasLoneSurrogate(path)) return path;
    const bytes = encodeSurrogateEscape(path);
    if (!bytes) throw new AcpError(`no file name can hold a lone surrogate: ${pyRepr(path)}`, 2, 'usage');
    if (lossy || !Bytes) throw refuseLossy(path);
    // node:fs takes the Buffer for a path; typed as the string it stands for.
    return Bytes.from(bytes) as unknown as string;
  };
  const osName = (bytes: Uint8Array): string => decodeSurrogateEscape(bytes);
  /**
   * `Path(path).resolve()`: symbolic links resolved as Python does (messages
   * name the resolved folder; `L/../X` is where the OS puts it). A symlink
   * loop is Python's RuntimeError, here an error (ELOOP). Under Deno, a
   * component it may not read counts as no link (as an lstat Python cannot
   * make does), so nothing prompts.
   */
  const resolveLikePython = (path: string): string => {
    const links: LinkReader = {
      isLink: (p) => {
        if (!granted({ name: 'read', path: p } as { name: string })) return false;
        try {
          return fs.lstatSync(osPath(p), { throwIfNoEntry: false })?.isSymbolicLink() === true;
        } catch {
          return false;
        }
      },
      readlink: (p) => osName(fs.readlinkSync(osPath(p), { encoding: 'buffer' })),
    };
    // pathlib first normalises the text (`a//b/.` is `a/b`), then realpath walks it.
    const resolved = pyRealpath(purePosixPath(path), nodePath.resolve('.'), links);
    try {
      if (granted({ name: 'read', path: resolved } as { name: string })) fs.statSync(osPath(resolved), { throwIfNoEntry: false });
    } catch (error) {
      if (errorCode(error) === 'ELOOP') throw fsError('ELOOP', `Symlink loop from ${pyRepr(resolved)}`);
    }
    return resolved;
  };
  // Every file is opened without blocking (a FIFO with no writer, or no
  // reader, must not hang the command) and checked to be a regular file
  // before a byte moves: a FIFO, a device (/dev/zero) or a socket is refused.
  const c = fs.constants;
  const NONBLOCK = c.O_NONBLOCK ?? 0;
  const openRegular = async (path: string, flags: number, name = path): Promise<number> => {
    const handle = await fd.open(path, flags | NONBLOCK);
    try {
      const st = await fd.fstat(handle);
      if (st.isDirectory()) throw fsError('EISDIR', `${name} is a directory`);
      if (!st.isFile()) throw fsError('EFTYPE', `${name} is not a regular file (a FIFO, device or socket); acp reads only regular files`);
      return handle;
    } catch (error) {
      await fd.close(handle);
      throw error;
    }
  };
  /** Write `bytes` to a new file at `path` (O_EXCL: EEXIST when the name is taken; a symlink is never followed). */
  const writeNew = async (path: string, bytes: Uint8Array): Promise<void> => {
    const handle = await fd.open(path, c.O_WRONLY | c.O_CREAT | c.O_EXCL);
    try {
      for (let written = 0; written < bytes.length; ) {
        const n = await fd.write(handle, bytes, written);
        if (n <= 0) throw fsError('EIO', `short write to ${path}`);
        written += n;
      }
    } finally {
      await fd.close(handle);
    }
  };
  /**
   * Unlink a file; a missing one is not an error. Not fs.rm: for one file it
   * runs Node's recursive-removal code (an lstat and ~0.3 ms of JavaScript
   * in a cold process), twice per append.
   */
  const removeFile = async (path: string): Promise<void> => {
    try {
      if (sync) fs.unlinkSync(osPath(path));
      else await fsp().unlink(osPath(path));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  };
  /**
   * Create `path` with its content in one step: write a temporary sibling,
   * then hard-link it into place (EEXIST when taken) — an O_EXCL open would
   * leave an empty file (a lock without its holder) if the process were
   * killed between the open and the write. The temporary name is one
   * `doctor` recognises as a leftover.
   */
  const createExclusive = async (path: string, bytes: Uint8Array): Promise<void> => {
    const temp = nodePath.join(nodePath.dirname(path), `${nodePath.basename(path)}.${proc?.pid ?? 0}.${Math.random().toString(36).slice(2, 10)}.tmp`);
    await writeNew(temp, bytes);
    try {
      if (sync) fs.linkSync(osPath(temp), osPath(path));
      else await fsp().link(osPath(temp), osPath(path));
    } catch (error) {
      // A file system without hard links: the plain exclusive create.
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(errorCode(error) ?? '')) throw error;
      await writeNew(path, bytes);
    } finally {
      await removeFile(temp);
    }
  };

  // No file name holds a NUL character: such a path (from a hostile
  // protocol.json or argument) names nothing, rather than making node:fs
  // throw a TypeError.
  const withoutNul = (files: FileSystem): FileSystem => {
    for (const key of Object.keys(files) as (keyof FileSystem)[]) {
      const fn = files[key] as (...args: unknown[]) => unknown;
      (files as unknown as Record<string, unknown>)[key] = (...args: unknown[]): unknown => {
        const paths = key === 'rename' ? args.slice(0, 2) : args.slice(0, 1);
        if (!paths.some((p) => typeof p === 'string' && p.includes('\0'))) return fn(...args);
        if (key === 'stat' || key === 'readTail') return Promise.resolve(null);
        if (key === 'remove') return Promise.resolve();
        if (key === 'watch') return () => undefined;
        return Promise.reject(fsError('ENOENT', `no file name holds a NUL character: ${JSON.stringify(paths.join(' '))}`));
      };
    }
    return files;
  };
  /**
   * The file system over `place`, which says where each path is opened: the
   * path itself (the plain host), or, beneath a confinement base, a path
   * relative to a directory handle reached without following a symlink
   * (see {@link beneathPlace}); `noFollow` is added to every open.
   */
  const makeFs = (place: Place): FileSystem => {
    const placed = async <T>(path: string, run: (where: Placed) => Promise<T>, reach: Reach = 'parent'): Promise<T> => {
      const where = await place(path, reach);
      try {
        return await run(where);
      } catch (error) {
        // Messages name the path asked for, never the /proc/self/fd one it was opened by.
        if (where.path !== path && error instanceof Error) error.message = error.message.split(where.path).join(path);
        throw error;
      } finally {
        await where.release();
      }
    };
    return {
    readFile: (path, options) => placed(path, async ({ path: at, noFollow }) => {
      const max = options?.maxBytes ?? Number.MAX_SAFE_INTEGER;
      const handle = await openRegular(at, c.O_RDONLY | noFollow, path);
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
    }),
    openRead: async (path, options) => {
      const handle = await placed(path, ({ path: at, noFollow }) => openRegular(at, c.O_RDONLY | noFollow, path));
      let size: number;
      try {
        size = (await fd.fstat(handle)).size;
        if (size > (options?.maxBytes ?? Number.MAX_SAFE_INTEGER)) throw fsError('EFBIG', `${path} holds ${size} bytes, more than ${options?.maxBytes}`);
      } catch (error) {
        await fd.close(handle);
        throw error;
      }
      // One buffer, reused: each piece is consumed before the next read (a
      // long log is never held whole, nor zero-filled and paged in at once).
      let buffer = new Uint8Array(0);
      return {
        size,
        read: async (position, length) => {
          const want = Math.max(0, Math.min(length, size - position));
          if (buffer.length < want) buffer = new Uint8Array(want);
          const n = want ? await fd.read(handle, buffer, want, position) : 0;
          return buffer.subarray(0, Math.max(0, n));
        },
        close: () => fd.close(handle),
      };
    },
    writeFile: (path, data, options) => placed(path, async ({ path: at, noFollow }) => {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      if (options?.exclusive) return options.temporary ? writeNew(at, bytes) : createExclusive(at, bytes);
      const handle = await openRegular(at, c.O_WRONLY | c.O_CREAT | noFollow, path);
      try {
        await fd.truncate(handle, 0);
        let written = 0;
        while (written < bytes.length) {
          const n = await fd.write(handle, bytes, written);
          if (n <= 0) throw fsError('EIO', `short write to ${path}`);
          written += n;
        }
      } finally {
        await fd.close(handle);
      }
    }),
    appendFile: (path, data) => placed(path, async ({ path: at, noFollow }) => {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      const handle = await openRegular(at, c.O_WRONLY | c.O_APPEND | c.O_CREAT | noFollow, path);
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
    }),
    rename: (from, to) => placed(from, ({ path: src }) => placed(to, async ({ path: dst }) => (sync ? fs.renameSync(osPath(src), osPath(dst)) : fsp().rename(osPath(src), osPath(dst))))),
    remove: (path) => placed(path, ({ path: at }) => removeFile(at)),
    mkdir: (path) => placed(path, async ({ path: at, created }) => {
      if (created) return;
      try {
        if (sync) fs.mkdirSync(osPath(at), { recursive: true });
        else await fsp().mkdir(osPath(at), { recursive: true });
      } catch (error) {
        // Node's recursive mkdir says ENOENT for any failure to create (a
        // read-only mount, no permission): make the first missing directory
        // alone, which fails with the real reason.
        if (errorCode(error) !== 'ENOENT') throw error;
        let missing = at;
        while (nodePath.dirname(missing) !== missing && !fs.existsSync(osPath(nodePath.dirname(missing)))) missing = nodePath.dirname(missing);
        fs.mkdirSync(osPath(missing));
        throw error;
      }
    }, 'create'),
    stat: (path) => placed(path, ({ path: at, noFollow }) => statPath(at, noFollow !== 0)).catch((error) => {
      // Names nothing that exists (as Python's os.path.exists sees it).
      if (['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP'].includes(errorCode(error) ?? '')) return null;
      throw error;
    }),
    readTail: (path, length) => placed(path, async ({ path: at, noFollow }) => {
      let handle: number;
      try {
        handle = await openRegular(at, c.O_RDONLY | noFollow, path);
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
    }).catch((error) => {
      if (['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '')) return null;
      throw error;
    }),
    // The native realpath(3), as fs.promises.realpath uses (realpathSync alone is a JS re-implementation).
    // Always the plain path: a check only, never where a byte is read or written.
    realpath: async (path) => osName(sync ? (fs.realpathSync.native ?? fs.realpathSync)(osPath(path), { encoding: 'buffer' }) : await fsp().realpath(osPath(path), { encoding: 'buffer' })),
    readDir: (path) => placed(path, async ({ path: at }) => (sync ? fs.readdirSync(osPath(at), { encoding: 'buffer' }) : await fsp().readdir(osPath(at), { encoding: 'buffer' })).map(osName), 'whole'),
    truncate: (path, size) => placed(path, async ({ path: at, noFollow }) => {
      const handle = await openRegular(at, c.O_WRONLY | noFollow, path);
      try {
        await fd.truncate(handle, size);
      } finally {
        await fd.close(handle);
      }
    }),
    watch: (path, onChange) => {
      try {
        const watcher = fs.watch(osPath(path), { persistent: true }, () => onChange());
        watcher.on('error', () => undefined);
        return () => watcher.close();
      } catch {
        return () => undefined;
      }
    },
    };
  };
  /** lstat, then (unless `noFollow`) stat through a symlink: the host's {@link FileSystem.stat}. */
  const statPath = async (path: string, noFollow: boolean): Promise<FileStat | null> => {
    // Synchronously, a missing name is answered without an exception:
    // building one costs ~0.1 ms, and the config search stats ~4 names
    // per ancestor directory.
    const link = sync ? fs.lstatSync(osPath(path), { throwIfNoEntry: false }) : await fsp().lstat(osPath(path));
    if (link === undefined) return null;
    let target: typeof link | null = link;
    if (link.isSymbolicLink()) {
      try {
        target = noFollow ? null : sync ? (fs.statSync(osPath(path), { throwIfNoEntry: false }) ?? null) : await fsp().stat(osPath(path));
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
  };
  const direct: Place = async (path) => ({ path, noFollow: 0, release: async () => undefined });
  const nodeFs = withoutNul(makeFs(direct));
  nodeFs.beneath = (bases) => withoutNul(makeFs(beneathPlace(bases)));

  // Confinement (FileSystem.beneath). Node has no openat(2); on Linux the
  // magic link /proc/self/fd/N/name is one: the kernel resolves `name` in
  // the directory the handle N holds, whatever its path has become.
  const DIRECTORY = c.O_RDONLY | (c.O_DIRECTORY ?? 0);
  const NOFOLLOW = c.O_NOFOLLOW ?? 0;
  let procFd: boolean | undefined;
  /** Whether /proc/self/fd/N opens the directory handle N holds (Linux; on Deno only with read and write grants of /proc). */
  const procFdWorks = (): boolean => {
    if (procFd !== undefined) return procFd;
    procFd = false;
    if (!granted({ name: 'read', path: '/proc/self/fd' } as { name: string }) || !granted({ name: 'write', path: '/proc/self/fd' } as { name: string })) return procFd;
    try {
      const handle = fs.openSync('/', DIRECTORY);
      try {
        procFd = fs.statSync(`/proc/self/fd/${handle}`).ino === fs.fstatSync(handle).ino;
      } finally {
        fs.closeSync(handle);
      }
    } catch {
      procFd = false;
    }
    return procFd;
  };
  /** Why the walk stopped at `at` (shown as `shown`): a symlink is named as one. */
  const walkError = (error: unknown, at: string, shown: string, base: string): unknown => {
    if (!['ENOTDIR', 'ELOOP'].includes(errorCode(error) ?? '')) {
      // Name the path asked for, never the /proc/self/fd one (a directory removed meanwhile: ENOENT).
      if (error instanceof Error) error.message = error.message.split(at).join(shown);
      return error;
    }
    let link = false;
    try {
      link = fs.lstatSync(osPath(at)).isSymbolicLink();
    } catch {
      link = false;
    }
    return link ? fsError('ELOOP', `${shown} is a symbolic link: not followed beneath ${base}`) : fsError('ENOTDIR', `${shown} is not a directory`);
  };
  /**
   * The handle of `base`'s directory `parts` below, each component opened
   * relative to the previous one's handle without following a symlink
   * (missing ones made when `create`).
   */
  const openBeneath = async (base: string, parts: string[], create: boolean): Promise<number> => {
    // The base itself is the caller's (followed as given), made when missing.
    if (create && !fs.existsSync(osPath(base))) fs.mkdirSync(osPath(base), { recursive: true });
    let dir = await fd.open(base, DIRECTORY);
    try {
      for (let i = 0; i < parts.length; i++) {
        const at = `/proc/self/fd/${dir}/${parts[i]}`;
        const shown = nodePath.join(base, ...parts.slice(0, i + 1));
        let next: number;
        try {
          next = await fd.open(at, DIRECTORY | NOFOLLOW);
        } catch (error) {
          if (!create || errorCode(error) !== 'ENOENT') throw walkError(error, at, shown, base);
          try {
            fs.mkdirSync(osPath(at));
          } catch (made) {
            if (errorCode(made) !== 'EEXIST') throw made;
          }
          next = await fd.open(at, DIRECTORY | NOFOLLOW).catch((again) => Promise.reject(walkError(again, at, shown, base)));
        }
        await fd.close(dir);
        dir = next;
      }
      return dir;
    } catch (error) {
      await fd.close(dir);
      throw error;
    }
  };
  /**
   * Without /proc (macOS, a Deno without its grant): every component is
   * checked by lstat to be a directory, not a symlink, and the last one is
   * opened with O_NOFOLLOW. This narrows the window between check and use
   * to the walk's; only the handle walk above closes it.
   */
  const checkBeneath = (base: string, parts: string[], create: boolean): void => {
    if (create && !fs.existsSync(osPath(base))) fs.mkdirSync(osPath(base), { recursive: true });
    for (let i = 1; i <= parts.length; i++) {
      const prefix = nodePath.join(base, ...parts.slice(0, i));
      let st = fs.lstatSync(osPath(prefix), { throwIfNoEntry: false });
      if (!st && create) {
        fs.mkdirSync(osPath(prefix));
        st = fs.lstatSync(osPath(prefix), { throwIfNoEntry: false });
      }
      if (!st) throw fsError('ENOENT', `${prefix} does not exist`);
      if (st.isSymbolicLink()) throw fsError('ELOOP', `${prefix} is a symbolic link: not followed beneath ${base}`);
      if (!st.isDirectory()) throw fsError('ENOTDIR', `${prefix} is not a directory`);
    }
  };
  /** Where a path beneath one of `bases` is opened: relative to a handle of its directory, reached without following a symlink. */
  const beneathPlace = (bases: readonly string[]): Place => {
    const roots = bases.map((base) => nodePath.resolve(base)).sort((a, b) => b.length - a.length);
    return async (path, reach) => {
      const base = roots.find((root) => root !== path && isInside(path, root));
      if (base === undefined) return direct(path, reach);
      const parts = nodePath.relative(base, path).split(nodePath.sep);
      const last = reach === 'parent' ? parts.pop()! : undefined;
      if (!procFdWorks()) {
        checkBeneath(base, parts, reach === 'create');
        return { path, noFollow: NOFOLLOW, created: reach === 'create', release: async () => undefined };
      }
      const dir = await openBeneath(base, parts, reach === 'create');
      const at = last === undefined ? `/proc/self/fd/${dir}` : `/proc/self/fd/${dir}/${last}`;
      return { path: at, noFollow: NOFOLLOW, created: reach === 'create', release: () => fd.close(dir) };
    };
  };
  // Deno asks interactively for sys/run permissions unless granted; never
  // prompt from a lock check: without them the lock falls back to its age.
  const deno = (globalThis as { Deno?: { permissions?: { querySync?(d: { name: string; kind?: string }): { state: string } } } }).Deno;
  const granted = (descriptor: { name: string; kind?: string; variable?: string }): boolean => {
    if (!deno) return true;
    try {
      return deno.permissions?.querySync?.(descriptor).state === 'granted';
    } catch {
      return false;
    }
  };
  // Recorded in the lock so a lock taken on another machine (shared folder)
  // is never judged by this machine's process table. Read on first use, on
  // Linux from /proc (the UTS name os.hostname() returns): loading node:os
  // costs ~0.8 ms of an append.
  let hostname: string | undefined | null = null;
  const readHostname = (): string | undefined => {
    if (hostname === null) {
      try {
        const os = granted({ name: 'sys', kind: 'hostname' }) ? () => getBuiltin('node:os') as typeof import('node:os') | undefined : undefined;
        hostname = os ? readProc('/proc/sys/kernel/hostname') || os()?.hostname() || undefined : undefined;
      } catch {
        hostname = undefined;
      }
    }
    return hostname;
  };
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
  // Whether /proc numbers processes as this process's PID namespace does.
  // srt's sandbox starts its command in a new PID namespace under a /proc of
  // another one: there /proc/<pid> is some other process, and a lock holder's
  // start time read from it would make a live holder look replaced.
  let procOurs: boolean | undefined;
  const procIsOurs = (): boolean => (procOurs ??= readProc('/proc/self/stat')?.split(' ')[0] === String(proc?.pid));
  // The lock's process identity, also read on first use (three /proc reads).
  let identity: Host['identity'] | undefined;
  const readIdentity = (): Host['identity'] => {
    if (identity === undefined) {
      let pidNamespace: string | undefined;
      try {
        pidNamespace = mayReadProc ? String(fs.statSync('/proc/self/ns/pid').ino) : undefined;
      } catch {
        pidNamespace = undefined;
      }
      identity = { bootId: readProc('/proc/sys/kernel/random/boot_id'), pidNamespace, startTime: startTime('self') };
    }
    return identity;
  };
  let key: Promise<Uint8Array | undefined> | undefined;
  const keyFile = (): string | undefined => (options.checkpointKeyFile === undefined ? defaultKeyFile(proc?.env, granted) : (options.checkpointKeyFile ?? undefined));
  const mayUse = (path: string): boolean => granted({ name: 'read', path } as { name: string }) && granted({ name: 'write', path } as { name: string });
  // Why the key could not be made (a sandbox's read-only home), for validate to say once.
  let keyProblem: string | undefined;
  const checkpointKey = (): Promise<Uint8Array | undefined> => {
    key ??= (async () => {
      const path = keyFile();
      return path && mayUse(path) ? loadOrCreateKey(fs, path) : undefined;
    })().catch((error) => {
      const why = unwritableReason(error);
      const path = keyFile();
      if (why && path) keyProblem = `${nodePath.dirname(path)} is not writable here (${why}); set XDG_STATE_HOME to a writable folder to keep one`;
      return undefined;
    });
    return key;
  };
  // The caches live next to the key: private to this account (0700, as the
  // key's directory), outside every folder.
  let caches: Promise<string | undefined> | undefined;
  const cacheDir = (): Promise<string | undefined> => {
    caches ??= (async () => {
      const path = keyFile();
      const dir = path && nodePath.join(nodePath.dirname(path), 'validate');
      if (!dir || !mayUse(dir) || !(await checkpointKey())) return undefined;
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    })().catch(() => undefined);
    return caches;
  };
  return {
    fs: nodeFs,
    now: () => new Date(),
    pid: proc?.pid ?? 0,
    get hostname() {
      return readHostname();
    },
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
    get identity() {
      return readIdentity();
    },
    processStartTime: (pid) => (Number.isSafeInteger(pid) && pid > 0 && procIsOurs() ? startTime(pid) : undefined),
    checkpointKey,
    stateUnavailable: () => keyProblem,
    cacheDir,
    get keyring() {
      const where = options.signingKeys === undefined ? defaultKeyring(proc?.env, granted) : options.signingKeys;
      const path = where && ('file' in where ? where.file : where.dir);
      return where && path && mayUse(path) ? fileKeyring(fs, where, !('Deno' in globalThis) && (proc as { platform?: string } | undefined)?.platform !== 'win32') : undefined;
    },
    resolvePath: (path) => {
      if (lossy && hasLoneSurrogate(path)) throw refuseLossy(path);
      return resolveLikePython(path);
    },
    userHome: (name) => userHome(fs, name, granted({ name: 'read', path: '/etc/passwd' } as { name: string }), name === undefined && !granted({ name: 'sys', kind: 'uid' }) ? undefined : proc),
  };
}

/** `$XDG_STATE_HOME/acp/checkpoint.key` or `$HOME/.local/state/acp/checkpoint.key`, when readable without a prompt. */
function defaultKeyFile(env: Record<string, string | undefined> | undefined, granted: (d: { name: string; variable?: string }) => boolean): string | undefined {
  if (!env || !granted({ name: 'env', variable: 'XDG_STATE_HOME' }) || !granted({ name: 'env', variable: 'HOME' })) return undefined;
  const state = env.XDG_STATE_HOME;
  if (state && nodePath.isAbsolute(state)) return nodePath.join(state, 'acp', 'checkpoint.key');
  return env.HOME && nodePath.isAbsolute(env.HOME) ? nodePath.join(env.HOME, '.local', 'state', 'acp', 'checkpoint.key') : undefined;
}

/** The signing keys' default place (see {@link NodeHostOptions.signingKeys}), when readable without a prompt. */
function defaultKeyring(env: Record<string, string | undefined> | undefined, granted: (d: { name: string; variable?: string }) => boolean): { dir: string } | { file: string } | undefined {
  const read = (variable: string): string | undefined => (env && granted({ name: 'env', variable }) ? env[variable] : undefined);
  const file = read('ACP_SIGNING_KEY_FILE');
  if (file && nodePath.isAbsolute(file)) return { file };
  const dir = read('ACP_SIGNING_KEY_DIR');
  if (dir && nodePath.isAbsolute(dir)) return { dir };
  const checkpointKey = defaultKeyFile(env, granted);
  return checkpointKey ? { dir: nodePath.join(nodePath.dirname(checkpointKey), 'keys') } : undefined;
}

/**
 * The 32-byte key in `path`, created on first use: written to a private
 * temporary file and linked into place, so a racing process reads either
 * no key or a whole one, and two racers end up with the same key.
 */
async function loadOrCreateKey(fs: typeof import('node:fs'), path: string): Promise<Uint8Array | undefined> {
  const parse = (text: string): Uint8Array | undefined => {
    const hex = text.trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) return undefined;
    // A loop, not Uint8Array.from(…, map): an append reads the key once per
    // process, and JavaScriptCore's first Uint8Array.from compiles that
    // builtin (~0.3 ms of the binary's append).
    const key = new Uint8Array(32);
    for (let i = 0; i < 32; i++) key[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return key;
  };
  try {
    return parse(fs.readFileSync(path, 'utf8'));
  } catch (error) {
    // ENOTDIR: a parent is a file; making the folder then fails and says so.
    if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') return undefined;
  }
  fs.mkdirSync(nodePath.dirname(path), { recursive: true, mode: 0o700 });
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const hex = (b: Uint8Array): string => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  const temp = `${path}.${hex(crypto.getRandomValues(new Uint8Array(6)))}.tmp`;
  fs.writeFileSync(temp, `${hex(bytes)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temp, path);
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return parse(fs.readFileSync(path, 'utf8'));
}

/**
 * A user's home folder from /etc/passwd (`name`), or the current user's
 * (by uid) when `name` is undefined: what Python's `pwd` module answers
 * for `~user` and for `~` without HOME, as far as /etc/passwd holds it
 * (other NSS sources, such as LDAP, are not asked). `undefined` when the
 * user is unknown or the file is not readable (Deno: without the grant).
 */
function userHome(fs: typeof import('node:fs'), name: string | undefined, mayRead: boolean, proc: { getuid?(): number } | undefined): string | undefined {
  const uid = name === undefined ? proc?.getuid?.() : undefined;
  if (!mayRead || (name === undefined && uid === undefined)) return undefined;
  let text: string;
  try {
    text = decodeSurrogateEscape(fs.readFileSync('/etc/passwd'));
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length < 7) continue;
    if (name !== undefined ? fields[0] === name : fields[2] === String(uid)) return fields[5];
  }
  return undefined;
}
