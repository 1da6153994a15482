/**
 * The default host adapter: files through `node:fs`, which Node, Bun and Deno
 * all provide (Deno maps it onto its permission system, so only the folders
 * granted are reachable). acp.ts re-exports it; this module imports nothing
 * but types from runtime/types.ts (see docs/architecture.md: no value import circle).
 * @module
 */
import * as nodePath from 'node:path';
import { AcpError } from './errors.ts';
import type { FileReader, FileStat, FileSystem, Host } from './host.ts';
import { fileKeyring } from './keyring.ts';
import { decodeSurrogateEscape, encodeSurrogateEscape, hasLoneSurrogate, type LinkReader, purePosixPath, pyRealpath, pyRepr } from './pytext.ts';
import { builtinModule, errorCode, fsError, getBuiltin, isInside, unwritableReason } from './util.ts';
import type { NodeHostOptions } from './types.ts';
export type { NodeHostOptions } from './types.ts';

type NodeFs = typeof import('node:fs');
type NodeStats = import('node:fs').Stats;
/** The part of `process` the host uses (absent where the runtime has none). */
interface Proc {
  pid?: number;
  platform?: string;
  getuid?(): number;
  kill?(pid: number, signal: number): void;
  env?: Record<string, string | undefined>;
}
/** A Deno permission the host asks about before touching what it guards. */
interface Permission {
  name: string;
  kind?: string;
  variable?: string;
  path?: string;
}
/** Deno's permission API, as far as the host queries it. */
interface DenoPermissions {
  permissions?: { querySync?(descriptor: Permission): { state: string } };
}

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

/** Descriptor-level calls, synchronous or through callbacks (see NodeHostOptions.syncFs); a Promise either way. */
interface Descriptors {
  open(path: string, flags: number): Promise<number>;
  fstat(fd: number): Promise<NodeStats>;
  write(fd: number, bytes: Uint8Array, offset: number): Promise<number>;
  read(fd: number, bytes: Uint8Array, length: number, position: number): Promise<number>;
  datasync(fd: number): Promise<void>;
  truncate(fd: number, size: number): Promise<void>;
  close(fd: number): Promise<void>;
}
/** A regular file opened by {@link openRegular}, with what its one fstat said. */
interface Opened {
  handle: number;
  stat: NodeStats;
}

/**
 * What the host's functions share: node:fs, the mode, the descriptor calls
 * and the permissions read once when the host is made; below, what is
 * read on first use and kept for the host's life. The host's methods are
 * top-level functions of this context, not closures of `createNodeHost`:
 * a function's closures are all parsed on its first call, which every
 * command paid (~0.5 ms, docs/performance.md).
 */
interface NodeContext {
  readonly fs: NodeFs;
  readonly sync: boolean;
  readonly fd: Descriptors;
  readonly proc: Proc | undefined;
  /** Deno's permissions; undefined elsewhere, where everything is granted. */
  readonly deno: DenoPermissions | undefined;
  readonly options: NodeHostOptions;
  readonly mayKill: boolean;
  readonly mayReadProc: boolean;
  /** Whether /proc/self/fd/N opens the directory handle N holds (see {@link procFdWorks}). */
  procFd?: boolean;
  /** null: not read yet. */
  hostname: string | undefined | null;
  procOurs?: boolean;
  identity?: Host['identity'];
  key?: Promise<Uint8Array | undefined>;
  /** Why the key could not be made (a sandbox's read-only home), for validate to say once. */
  keyProblem?: string;
  caches?: Promise<string | undefined>;
}

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
  const sync = options.syncFs === true;
  const proc = (globalThis as { process?: Proc }).process;
  // Deno asks interactively for sys/run permissions unless granted; never
  // prompt from a lock check: without them the lock falls back to its age.
  const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
  const fd = sync ? syncDescriptors(fs) : callbackDescriptors(fs);
  const ctx: NodeContext = { fs, sync, fd, proc, deno, options, mayKill: granted(deno, { name: 'run' }), mayReadProc: granted(deno, { name: 'read', path: '/proc' }), hostname: null };
  const nodeFs = withoutNul(makeFs(ctx, direct));
  nodeFs.beneath = (bases) => withoutNul(makeFs(ctx, beneathPlace(ctx, bases)));
  return {
    fs: nodeFs,
    now: () => new Date(),
    pid: proc?.pid ?? 0,
    get hostname() {
      return readHostname(ctx);
    },
    isProcessAlive: (pid) => isProcessAlive(ctx, pid),
    get identity() {
      return readIdentity(ctx);
    },
    processStartTime: (pid) => (Number.isSafeInteger(pid) && pid > 0 && procIsOurs(ctx) ? startTime(ctx, pid) : undefined),
    checkpointKey: () => checkpointKey(ctx),
    stateUnavailable: () => ctx.keyProblem,
    cacheDir: () => cacheDir(ctx),
    get keyring() {
      return keyringOf(ctx);
    },
    resolvePath: (path) => {
      const lossy = hasLoneSurrogate(path) ? lossyRuntime() : undefined;
      if (lossy) throw refuseLossy(lossy, path);
      return resolveLikePython(ctx, path);
    },
    userHome: (name) => userHome(fs, name, granted(deno, { name: 'read', path: '/etc/passwd' }), name === undefined && !granted(deno, { name: 'sys', kind: 'uid' }) ? undefined : proc),
  };
}

/** Whether Deno grants `descriptor` without asking (everything is granted elsewhere). */
function granted(deno: DenoPermissions | undefined, descriptor: Permission): boolean {
  if (!deno) return true;
  try {
    return deno.permissions?.querySync?.(descriptor).state === 'granted';
  } catch {
    return false;
  }
}

/** A Promise of what a node:fs callback call gives. */
function callback<T>(run: (done: (error: Error | null, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
}

/** The descriptor calls of a synchronous host (the CLI's: one command, nothing to overlap). */
function syncDescriptors(fs: NodeFs): Descriptors {
  return {
    open: async (path, flags) => fs.openSync(osPath(path), flags, 0o666),
    fstat: async (fd) => fs.fstatSync(fd),
    write: async (fd, bytes, offset) => fs.writeSync(fd, bytes, offset),
    read: async (fd, bytes, length, position) => fs.readSync(fd, bytes, 0, length, position),
    datasync: async (fd) => fs.fdatasyncSync(fd),
    truncate: async (fd, size) => fs.ftruncateSync(fd, size),
    close: async (fd) => fs.closeSync(fd),
  };
}

/** The descriptor calls through node:fs callbacks (a server's host: other requests run meanwhile). */
function callbackDescriptors(fs: NodeFs): Descriptors {
  return {
    open: (path, flags) => callback<number>((done) => fs.open(osPath(path), flags, 0o666, done)),
    fstat: (fd) => callback<NodeStats>((done) => fs.fstat(fd, done)),
    write: (fd, bytes, offset) => callback<number>((done) => fs.write(fd, bytes, offset, bytes.length - offset, null, done)),
    read: (fd, bytes, length, position) => callback<number>((done) => fs.read(fd, bytes, 0, length, position, done)),
    datasync: (fd) => callback<void>((done) => fs.fdatasync(fd, done)),
    truncate: (fd, size) => callback<void>((done) => fs.ftruncate(fd, size, done)),
    close: (fd) => callback<void>((done) => fs.close(fd, done)),
  };
}

// A name given with surrogate escapes (from argv bytes that are not UTF-8,
// as Python decodes them) is addressed by its bytes, as Python's os
// functions do; names read back are decoded the same way. Node takes
// Buffer paths exactly. Deno's node:fs turns a Buffer path into text with
// U+FFFD, and Bun's node:path functions (native, UTF-8 only) do the same
// to every path they join or resolve: either would create another name,
// so there such a name is refused (see docs/spec-notes.md).

/** The runtime that cannot address a name by its bytes, or undefined (Node). Asked only of a name that needs it. */
function lossyRuntime(): string | undefined {
  const g = globalThis as { Deno?: unknown; Bun?: unknown; Buffer?: unknown };
  return g.Deno !== undefined ? 'Deno' : g.Bun !== undefined ? 'Bun' : g.Buffer ? undefined : 'this runtime';
}

/** A name no file can have is the caller's mistake, refused as such (exit 2), not a file system failure. */
function refuseLossy(lossy: string, path: string): Error {
  return new AcpError(`${lossy} cannot address a file name that is not UTF-8 (acp on Node can): ${pyRepr(path)}`, 2, 'usage');
}

/** The path node:fs is given: `path` itself, or the bytes its surrogate escapes stand for. */
function osPath(path: string): string {
  if (!hasLoneSurrogate(path)) return path;
  const bytes = encodeSurrogateEscape(path);
  if (!bytes) throw new AcpError(`no file name can hold a lone surrogate: ${pyRepr(path)}`, 2, 'usage');
  const lossy = lossyRuntime();
  const Bytes = (globalThis as { Buffer?: { from(bytes: Uint8Array): Uint8Array } }).Buffer;
  if (lossy || !Bytes) throw refuseLossy(lossy ?? 'this runtime', path);
  // node:fs takes the Buffer for a path; typed as the string it stands for.
  return Bytes.from(bytes) as unknown as string;
}

/**
 * `Path(path).resolve()`: symbolic links resolved as Python does (messages
 * name the resolved folder; `L/../X` is where the OS puts it). A symlink
 * loop is Python's RuntimeError, here an error (ELOOP). Under Deno, a
 * component it may not read counts as no link (as an lstat Python cannot
 * make does), so nothing prompts.
 */
function resolveLikePython(ctx: NodeContext, path: string): string {
  const { fs, deno } = ctx;
  const links: LinkReader = {
    isLink: (p) => {
      if (!granted(deno, { name: 'read', path: p })) return false;
      try {
        return fs.lstatSync(osPath(p), { throwIfNoEntry: false })?.isSymbolicLink() === true;
      } catch {
        return false;
      }
    },
    readlink: (p) => decodeSurrogateEscape(fs.readlinkSync(osPath(p), { encoding: 'buffer' })),
  };
  // pathlib first normalises the text (`a//b/.` is `a/b`), then realpath walks it.
  const resolved = pyRealpath(purePosixPath(path), nodePath.resolve('.'), links);
  try {
    if (granted(deno, { name: 'read', path: resolved })) fs.statSync(osPath(resolved), { throwIfNoEntry: false });
  } catch (error) {
    if (errorCode(error) === 'ELOOP') throw fsError('ELOOP', `Symlink loop from ${pyRepr(resolved)}`);
  }
  return resolved;
}

/**
 * Open a regular file. Every file is opened without blocking (a FIFO with
 * no writer, or no reader, must not hang the command) and checked to be a
 * regular file before a byte moves: a FIFO, a device (/dev/zero) or a
 * socket is refused. The check's fstat is returned: it is the size a read
 * is bounded by, so no second fstat is needed.
 */
async function openRegular(ctx: NodeContext, path: string, flags: number, name = path): Promise<Opened> {
  const handle = await ctx.fd.open(path, flags | (ctx.fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = await ctx.fd.fstat(handle);
    if (stat.isDirectory()) throw fsError('EISDIR', `${name} is a directory`);
    if (!stat.isFile()) throw fsError('EFTYPE', `${name} is not a regular file (a FIFO, device or socket); acp reads only regular files`);
    return { handle, stat };
  } catch (error) {
    await ctx.fd.close(handle);
    throw error;
  }
}

/** Write all of `bytes` at the handle's offset (EIO when the OS takes none). */
async function writeAll(ctx: NodeContext, handle: number, bytes: Uint8Array, path: string): Promise<number> {
  let written = 0;
  while (written < bytes.length) {
    const n = await ctx.fd.write(handle, bytes, written);
    if (n <= 0) throw fsError('EIO', `short write to ${path}`);
    written += n;
  }
  return written;
}

/** Write `bytes` to a new file at `path` (O_EXCL: EEXIST when the name is taken; a symlink is never followed). */
async function writeNew(ctx: NodeContext, path: string, bytes: Uint8Array): Promise<void> {
  const c = ctx.fs.constants;
  const handle = await ctx.fd.open(path, c.O_WRONLY | c.O_CREAT | c.O_EXCL);
  try {
    await writeAll(ctx, handle, bytes, path);
  } finally {
    await ctx.fd.close(handle);
  }
}

/**
 * Unlink a file; a missing one is not an error. Not fs.rm: for one file it
 * runs Node's recursive-removal code (an lstat and ~0.3 ms of JavaScript
 * in a cold process), twice per append.
 */
async function removeFile(ctx: NodeContext, path: string): Promise<void> {
  try {
    if (ctx.sync) ctx.fs.unlinkSync(osPath(path));
    else await ctx.fs.promises.unlink(osPath(path));
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/**
 * Create `path` with its content in one step: write a temporary sibling,
 * then hard-link it into place (EEXIST when taken) — an O_EXCL open would
 * leave an empty file (a lock without its holder) if the process were
 * killed between the open and the write. The temporary name is one
 * `doctor` recognises as a leftover.
 */
async function createExclusive(ctx: NodeContext, path: string, bytes: Uint8Array): Promise<void> {
  const { fs } = ctx;
  const temp = nodePath.join(nodePath.dirname(path), `${nodePath.basename(path)}.${ctx.proc?.pid ?? 0}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  await writeNew(ctx, temp, bytes);
  try {
    if (ctx.sync) fs.linkSync(osPath(temp), osPath(path));
    else await fs.promises.link(osPath(temp), osPath(path));
  } catch (error) {
    // A file system without hard links: the plain exclusive create.
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(errorCode(error) ?? '')) throw error;
    await writeNew(ctx, path, bytes);
  } finally {
    await removeFile(ctx, temp);
  }
}

/**
 * No file name holds a NUL character: such a path (from a hostile
 * protocol.json or argument) names nothing, rather than making node:fs
 * throw a TypeError.
 */
function withoutNul(files: FileSystem): FileSystem {
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
}

/**
 * The file system over `place`, which says where each path is opened: the
 * path itself (the plain host, {@link direct}), or, beneath a confinement
 * base, a path relative to a directory handle reached without following a
 * symlink (see {@link beneathPlace}); `noFollow` is added to every open.
 */
function makeFs(ctx: NodeContext, place: Place): FileSystem {
  return {
    readFile: (path, options) => placed(place, path, (where) => readWhole(ctx, where, path, options?.maxBytes)),
    openRead: (path, options) => openReader(ctx, place, path, options?.maxBytes),
    writeFile: (path, data, options) => placed(place, path, (where) => writeWhole(ctx, where, path, data, options)),
    appendFile: (path, data) => placed(place, path, (where) => appendWhole(ctx, where, path, data)),
    rename: (from, to) => placed(place, from, ({ path: src }) => placed(place, to, ({ path: dst }) => renamePath(ctx, src, dst))),
    remove: (path) => placed(place, path, ({ path: at }) => removeFile(ctx, at)),
    mkdir: (path) => placed(place, path, (where) => makeDirectory(ctx, where), 'create'),
    stat: (path) => placed(place, path, ({ path: at, noFollow }) => statPath(ctx, at, noFollow !== 0)).catch(nullWhenAbsent),
    readTail: (path, length) => placed(place, path, (where) => readTail(ctx, where, path, length)).catch(nullWhenMissing),
    realpath: (path) => nativeRealpath(ctx, path),
    readDir: (path) => placed(place, path, ({ path: at }) => readDirectory(ctx, at), 'whole'),
    truncate: (path, size) => placed(place, path, (where) => truncateFile(ctx, where, path, size)),
    watch: (path, onChange) => watchPath(ctx, path, onChange),
  };
}

/** Run `run` where `place` opens `path`, then release the place; messages name `path`. */
async function placed<T>(place: Place, path: string, run: (where: Placed) => Promise<T>, reach: Reach = 'parent'): Promise<T> {
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
}

/** The bytes of `path`, opened at `at`: {@link FileSystem.readFile}. */
async function readWhole(ctx: NodeContext, { path: at, noFollow }: Placed, path: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<Uint8Array> {
  const { handle, stat } = await openRegular(ctx, at, ctx.fs.constants.O_RDONLY | noFollow, path);
  try {
    const size = stat.size;
    if (size > maxBytes) throw fsError('EFBIG', `${path} holds ${size} bytes, more than ${maxBytes}`);
    // Read what fstat announced: a snapshot, bounded even if the file
    // grows meanwhile (an append in progress is not half-read).
    const bytes = new Uint8Array(size);
    let length = 0;
    while (length < size) {
      const n = await ctx.fd.read(handle, bytes.subarray(length), size - length, length);
      if (n <= 0) break;
      length += n;
    }
    // A view, not a copy: events.jsonl can be tens of megabytes.
    return bytes.subarray(0, length);
  } finally {
    await ctx.fd.close(handle);
  }
}

/** {@link FileSystem.openRead}: the file open, read piece by piece up to the size its fstat announced. */
async function openReader(ctx: NodeContext, place: Place, path: string, maxBytes: number | undefined): Promise<FileReader> {
  const { handle, stat } = await placed(place, path, ({ path: at, noFollow }) => openRegular(ctx, at, ctx.fs.constants.O_RDONLY | noFollow, path));
  const size = stat.size;
  if (size > (maxBytes ?? Number.MAX_SAFE_INTEGER)) {
    await ctx.fd.close(handle);
    throw fsError('EFBIG', `${path} holds ${size} bytes, more than ${maxBytes}`);
  }
  // One buffer, reused: each piece is consumed before the next read (a
  // long log is never held whole, nor zero-filled and paged in at once).
  let buffer = new Uint8Array(0);
  return {
    size,
    read: async (position, length) => {
      const want = Math.max(0, Math.min(length, size - position));
      if (buffer.length < want) buffer = new Uint8Array(want);
      const n = want ? await ctx.fd.read(handle, buffer, want, position) : 0;
      return buffer.subarray(0, Math.max(0, n));
    },
    close: () => ctx.fd.close(handle),
  };
}

/** {@link FileSystem.writeFile} at `at`: replaced in place, or created whole when `exclusive`. */
async function writeWhole(ctx: NodeContext, { path: at, noFollow }: Placed, path: string, data: string | Uint8Array, options: Parameters<FileSystem['writeFile']>[2]): Promise<void> {
  const c = ctx.fs.constants;
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  if (options?.exclusive) return options.temporary ? writeNew(ctx, at, bytes) : createExclusive(ctx, at, bytes);
  const { handle } = await openRegular(ctx, at, c.O_WRONLY | c.O_CREAT | noFollow, path);
  try {
    await ctx.fd.truncate(handle, 0);
    await writeAll(ctx, handle, bytes, path);
  } finally {
    await ctx.fd.close(handle);
  }
}

/** {@link FileSystem.appendFile} at `at`: the whole line, made durable, or nothing of it. */
async function appendWhole(ctx: NodeContext, { path: at, noFollow }: Placed, path: string, data: string | Uint8Array): Promise<void> {
  const c = ctx.fs.constants;
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const { handle, stat } = await openRegular(ctx, at, c.O_WRONLY | c.O_APPEND | c.O_CREAT | noFollow, path);
  try {
    // The size at open: what a failed write rolls back to.
    const start = stat.size;
    let written = 0;
    try {
      // One write call carries the whole line, so a process killed mid-append
      // leaves at most a torn final line (which readers detect); the loop only
      // runs again when the OS accepted part of it.
      while (written < bytes.length) {
        const bytesWritten = await ctx.fd.write(handle, bytes, written);
        if (bytesWritten <= 0) throw fsError('EIO', `short write to ${path}`);
        written += bytesWritten;
      }
      await ctx.fd.datasync(handle);
    } catch (error) {
      // A failed write (disk full…) must not leave a partial line behind;
      // roll back unless someone else appended meanwhile.
      try {
        if (written > 0 && (await ctx.fd.fstat(handle)).size === start + written) await ctx.fd.truncate(handle, start);
      } catch {
        // the original error is what matters
      }
      throw error;
    }
  } finally {
    await ctx.fd.close(handle);
  }
}

/** rename(2) of two placed paths. */
async function renamePath(ctx: NodeContext, from: string, to: string): Promise<void> {
  if (ctx.sync) ctx.fs.renameSync(osPath(from), osPath(to));
  else await ctx.fs.promises.rename(osPath(from), osPath(to));
}

/** {@link FileSystem.mkdir}: the directory and its missing parents (already made when placed with `create`). */
async function makeDirectory(ctx: NodeContext, { path: at, created }: Placed): Promise<void> {
  if (created) return;
  const { fs } = ctx;
  try {
    if (ctx.sync) fs.mkdirSync(osPath(at), { recursive: true });
    else await fs.promises.mkdir(osPath(at), { recursive: true });
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
}

/** A stat's failure that says the name is nothing that exists (as Python's os.path.exists sees it): null. */
function nullWhenAbsent(error: unknown): null {
  if (['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP'].includes(errorCode(error) ?? '')) return null;
  throw error;
}

/** A tail read's failure that says there is no file: null. */
function nullWhenMissing(error: unknown): null {
  if (['ENOENT', 'ENOTDIR'].includes(errorCode(error) ?? '')) return null;
  throw error;
}

/** {@link FileSystem.readTail} at `at`: the last `length` bytes and the file's stat, or null when it is no log. */
async function readTail(ctx: NodeContext, { path: at, noFollow }: Placed, path: string, length: number): Promise<{ stat: FileStat; bytes: Uint8Array } | null> {
  let opened: Opened;
  try {
    opened = await openRegular(ctx, at, ctx.fs.constants.O_RDONLY | noFollow, path);
  } catch (error) {
    // Not a log tail: missing, a directory, a FIFO or a device.
    if (['ENOENT', 'ENOTDIR', 'EISDIR', 'EFTYPE'].includes(errorCode(error) ?? '')) return null;
    throw error;
  }
  const { handle, stat: st } = opened;
  try {
    const want = Math.max(0, Math.min(length, st.size));
    const bytes = new Uint8Array(want);
    const bytesRead = want ? await ctx.fd.read(handle, bytes, want, st.size - want) : 0;
    const stat = { isFile: st.isFile(), isDirectory: st.isDirectory(), isSymlink: false, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
    return { stat, bytes: bytes.subarray(0, bytesRead) };
  } finally {
    await ctx.fd.close(handle);
  }
}

/**
 * The native realpath(3), as fs.promises.realpath uses (realpathSync alone
 * is a JS re-implementation). Always the plain path: a check only, never
 * where a byte is read or written.
 */
async function nativeRealpath(ctx: NodeContext, path: string): Promise<string> {
  const { fs } = ctx;
  return decodeSurrogateEscape(ctx.sync ? (fs.realpathSync.native ?? fs.realpathSync)(osPath(path), { encoding: 'buffer' }) : await fs.promises.realpath(osPath(path), { encoding: 'buffer' }));
}

/** The names in a directory, decoded as Python decodes them. */
async function readDirectory(ctx: NodeContext, at: string): Promise<string[]> {
  const { fs } = ctx;
  return (ctx.sync ? fs.readdirSync(osPath(at), { encoding: 'buffer' }) : await fs.promises.readdir(osPath(at), { encoding: 'buffer' })).map(decodeSurrogateEscape);
}

/** {@link FileSystem.truncate} at `at`. */
async function truncateFile(ctx: NodeContext, { path: at, noFollow }: Placed, path: string, size: number): Promise<void> {
  const { handle } = await openRegular(ctx, at, ctx.fs.constants.O_WRONLY | noFollow, path);
  try {
    await ctx.fd.truncate(handle, size);
  } finally {
    await ctx.fd.close(handle);
  }
}

/** {@link FileSystem.watch}: a function that stops watching (one that does nothing where the runtime cannot watch). */
function watchPath(ctx: NodeContext, path: string, onChange: () => void): () => void {
  try {
    const watcher = ctx.fs.watch(osPath(path), { persistent: true }, () => onChange());
    watcher.on('error', () => undefined);
    return () => watcher.close();
  } catch {
    return () => undefined;
  }
}

/** lstat, then (unless `noFollow`) stat through a symlink: the host's {@link FileSystem.stat}. */
async function statPath(ctx: NodeContext, path: string, noFollow: boolean): Promise<FileStat | null> {
  const { fs, sync } = ctx;
  // Synchronously, a missing name is answered without an exception:
  // building one costs ~0.1 ms, and the config search stats ~4 names
  // per ancestor directory.
  const link = sync ? fs.lstatSync(osPath(path), { throwIfNoEntry: false }) : await fs.promises.lstat(osPath(path));
  if (link === undefined) return null;
  let target: typeof link | null = link;
  if (link.isSymbolicLink()) {
    try {
      target = noFollow ? null : sync ? (fs.statSync(osPath(path), { throwIfNoEntry: false }) ?? null) : await fs.promises.stat(osPath(path));
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
}

/** Nothing to release: the plain host opens the path itself. */
async function releaseNothing(): Promise<void> {}

/** The plain host's place: the path itself, symlinks followed. */
async function direct(path: string): Promise<Placed> {
  return { path, noFollow: 0, release: releaseNothing };
}

// Confinement (FileSystem.beneath). Node has no openat(2); on Linux the
// magic link /proc/self/fd/N/name is one: the kernel resolves `name` in
// the directory the handle N holds, whatever its path has become.

/** The flags that open a directory handle. */
function directoryFlags(ctx: NodeContext): number {
  return ctx.fs.constants.O_RDONLY | (ctx.fs.constants.O_DIRECTORY ?? 0);
}

/** Whether /proc/self/fd/N opens the directory handle N holds (Linux; on Deno only with read and write grants of /proc). Asked once per host. */
function procFdWorks(ctx: NodeContext): boolean {
  if (ctx.procFd !== undefined) return ctx.procFd;
  ctx.procFd = false;
  if (!granted(ctx.deno, { name: 'read', path: '/proc/self/fd' }) || !granted(ctx.deno, { name: 'write', path: '/proc/self/fd' })) return ctx.procFd;
  const { fs } = ctx;
  try {
    const handle = fs.openSync('/', directoryFlags(ctx));
    try {
      ctx.procFd = fs.statSync(`/proc/self/fd/${handle}`).ino === fs.fstatSync(handle).ino;
    } finally {
      fs.closeSync(handle);
    }
  } catch {
    ctx.procFd = false;
  }
  return ctx.procFd;
}

/** Why the walk stopped at `at` (shown as `shown`): a symlink is named as one. */
function walkError(ctx: NodeContext, error: unknown, at: string, shown: string, base: string): unknown {
  if (!['ENOTDIR', 'ELOOP'].includes(errorCode(error) ?? '')) {
    // Name the path asked for, never the /proc/self/fd one (a directory removed meanwhile: ENOENT).
    if (error instanceof Error) error.message = error.message.split(at).join(shown);
    return error;
  }
  let link = false;
  try {
    link = ctx.fs.lstatSync(osPath(at)).isSymbolicLink();
  } catch {
    link = false;
  }
  return link ? fsError('ELOOP', `${shown} is a symbolic link: not followed beneath ${base}`) : fsError('ENOTDIR', `${shown} is not a directory`);
}

/**
 * The handle of `base`'s directory `parts` below, each component opened
 * relative to the previous one's handle without following a symlink
 * (missing ones made when `create`).
 */
async function openBeneath(ctx: NodeContext, base: string, parts: string[], create: boolean): Promise<number> {
  const { fs, fd } = ctx;
  const DIRECTORY = directoryFlags(ctx);
  const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
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
        if (!create || errorCode(error) !== 'ENOENT') throw walkError(ctx, error, at, shown, base);
        try {
          fs.mkdirSync(osPath(at));
        } catch (made) {
          if (errorCode(made) !== 'EEXIST') throw made;
        }
        next = await fd.open(at, DIRECTORY | NOFOLLOW).catch((again) => Promise.reject(walkError(ctx, again, at, shown, base)));
      }
      await fd.close(dir);
      dir = next;
    }
    return dir;
  } catch (error) {
    await fd.close(dir);
    throw error;
  }
}

/**
 * Without /proc (macOS, a Deno without its grant): every component is
 * checked by lstat to be a directory, not a symlink, and the last one is
 * opened with O_NOFOLLOW. This narrows the window between check and use
 * to the walk's; only the handle walk above closes it.
 */
function checkBeneath(fs: NodeFs, base: string, parts: string[], create: boolean): void {
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
}

/** Where a path beneath one of `bases` is opened: relative to a handle of its directory, reached without following a symlink. */
function beneathPlace(ctx: NodeContext, bases: readonly string[]): Place {
  const roots = bases.map((base) => nodePath.resolve(base)).sort((a, b) => b.length - a.length);
  const NOFOLLOW = ctx.fs.constants.O_NOFOLLOW ?? 0;
  return async (path, reach) => {
    const base = roots.find((root) => root !== path && isInside(path, root));
    if (base === undefined) return direct(path);
    const parts = nodePath.relative(base, path).split(nodePath.sep);
    const last = reach === 'parent' ? parts.pop()! : undefined;
    if (!procFdWorks(ctx)) {
      checkBeneath(ctx.fs, base, parts, reach === 'create');
      return { path, noFollow: NOFOLLOW, created: reach === 'create', release: releaseNothing };
    }
    const dir = await openBeneath(ctx, base, parts, reach === 'create');
    const at = last === undefined ? `/proc/self/fd/${dir}` : `/proc/self/fd/${dir}/${last}`;
    return { path: at, noFollow: NOFOLLOW, created: reach === 'create', release: () => ctx.fd.close(dir) };
  };
}

/**
 * The host name recorded in the lock, so a lock taken on another machine
 * (shared folder) is never judged by this machine's process table. Read
 * on first use, on Linux from /proc (the UTS name os.hostname() returns):
 * loading node:os costs ~0.8 ms of an append.
 */
function readHostname(ctx: NodeContext): string | undefined {
  if (ctx.hostname === null) {
    try {
      const os = granted(ctx.deno, { name: 'sys', kind: 'hostname' }) ? () => getBuiltin('node:os') as typeof import('node:os') | undefined : undefined;
      ctx.hostname = os ? readProc(ctx, '/proc/sys/kernel/hostname') || os()?.hostname() || undefined : undefined;
    } catch {
      ctx.hostname = undefined;
    }
  }
  return ctx.hostname;
}

/** {@link Host.isProcessAlive}: signal 0; undefined when this runtime may not or cannot tell. */
function isProcessAlive(ctx: NodeContext, pid: number): boolean | undefined {
  const { proc } = ctx;
  if (!proc?.kill || !ctx.mayKill || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    proc.kill(pid, 0);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
    if (errorCode(error) === 'EPERM') return true;
    return undefined;
  }
}

/** A /proc file's text, trimmed; undefined when unreadable, empty or not granted. */
function readProc(ctx: NodeContext, path: string): string | undefined {
  if (!ctx.mayReadProc) return undefined;
  try {
    return ctx.fs.readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A process's start time (field 22 of /proc/PID/stat), what tells a PID reused from its first holder. */
function startTime(ctx: NodeContext, pid: number | 'self'): string | undefined {
  // Field 22 counted after the command name, which may hold spaces and parentheses.
  const stat = readProc(ctx, `/proc/${pid}/stat`);
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields?.[19];
}

/**
 * Whether /proc numbers processes as this process's PID namespace does.
 * srt's sandbox starts its command in a new PID namespace under a /proc of
 * another one: there /proc/<pid> is some other process, and a lock holder's
 * start time read from it would make a live holder look replaced.
 */
function procIsOurs(ctx: NodeContext): boolean {
  return (ctx.procOurs ??= readProc(ctx, '/proc/self/stat')?.split(' ')[0] === String(ctx.proc?.pid));
}

/** The lock's process identity, read on first use (three /proc reads). */
function readIdentity(ctx: NodeContext): Host['identity'] {
  if (ctx.identity === undefined) {
    let pidNamespace: string | undefined;
    try {
      pidNamespace = ctx.mayReadProc ? String(ctx.fs.statSync('/proc/self/ns/pid').ino) : undefined;
    } catch {
      pidNamespace = undefined;
    }
    ctx.identity = { bootId: readProc(ctx, '/proc/sys/kernel/random/boot_id'), pidNamespace, startTime: startTime(ctx, 'self') };
  }
  return ctx.identity;
}

/** Where the checkpoint key lives: the option's file, or the default one (undefined: none). */
function keyFile(ctx: NodeContext): string | undefined {
  const given = ctx.options.checkpointKeyFile;
  return given === undefined ? defaultKeyFile(ctx.proc?.env, ctx.deno) : (given ?? undefined);
}

/** Whether Deno grants reading and writing `path` without asking. */
function mayUse(ctx: NodeContext, path: string): boolean {
  return granted(ctx.deno, { name: 'read', path }) && granted(ctx.deno, { name: 'write', path });
}

/** {@link Host.checkpointKey}: loaded or made once per host; undefined (and the reason kept) when it cannot be. */
function checkpointKey(ctx: NodeContext): Promise<Uint8Array | undefined> {
  ctx.key ??= (async () => {
    const path = keyFile(ctx);
    return path && mayUse(ctx, path) ? loadOrCreateKey(ctx.fs, path) : undefined;
  })().catch((error) => {
    const why = unwritableReason(error);
    const path = keyFile(ctx);
    if (why && path) ctx.keyProblem = `${nodePath.dirname(path)} is not writable here (${why}); set XDG_STATE_HOME to a writable folder to keep one`;
    return undefined;
  });
  return ctx.key;
}

/**
 * {@link Host.cacheDir}. The caches live next to the key: private to this
 * account (0700, as the key's directory), outside every folder.
 */
function cacheDir(ctx: NodeContext): Promise<string | undefined> {
  ctx.caches ??= (async () => {
    const path = keyFile(ctx);
    const dir = path && nodePath.join(nodePath.dirname(path), 'validate');
    if (!dir || !mayUse(ctx, dir) || !(await checkpointKey(ctx))) return undefined;
    ctx.fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  })().catch(() => undefined);
  return ctx.caches;
}

/** {@link Host.keyring}: the signing keys where the options or the environment put them, when this runtime may use them. */
function keyringOf(ctx: NodeContext): Host['keyring'] {
  const { options, proc } = ctx;
  const where = options.signingKeys === undefined ? defaultKeyring(proc?.env, ctx.deno) : options.signingKeys;
  const path = where && ('file' in where ? where.file : where.dir);
  return where && path && mayUse(ctx, path) ? fileKeyring(ctx.fs, where, !('Deno' in globalThis) && proc?.platform !== 'win32') : undefined;
}

/** `$XDG_STATE_HOME/acp/checkpoint.key` or `$HOME/.local/state/acp/checkpoint.key`, when readable without a prompt. */
function defaultKeyFile(env: Record<string, string | undefined> | undefined, deno: DenoPermissions | undefined): string | undefined {
  if (!env || !granted(deno, { name: 'env', variable: 'XDG_STATE_HOME' }) || !granted(deno, { name: 'env', variable: 'HOME' })) return undefined;
  const state = env.XDG_STATE_HOME;
  if (state && nodePath.isAbsolute(state)) return nodePath.join(state, 'acp', 'checkpoint.key');
  return env.HOME && nodePath.isAbsolute(env.HOME) ? nodePath.join(env.HOME, '.local', 'state', 'acp', 'checkpoint.key') : undefined;
}

/** The signing keys' default place (see {@link NodeHostOptions.signingKeys}), when readable without a prompt. */
function defaultKeyring(env: Record<string, string | undefined> | undefined, deno: DenoPermissions | undefined): { dir: string } | { file: string } | undefined {
  const read = (variable: string): string | undefined => (env && granted(deno, { name: 'env', variable }) ? env[variable] : undefined);
  const file = read('ACP_SIGNING_KEY_FILE');
  if (file && nodePath.isAbsolute(file)) return { file };
  const dir = read('ACP_SIGNING_KEY_DIR');
  if (dir && nodePath.isAbsolute(dir)) return { dir };
  const checkpointKey = defaultKeyFile(env, deno);
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
