/**
 * Capabilities, not trust ([beyond]): the host plugins and doors hold can
 * read everything but cannot write a collaboration folder's own files —
 * `events.jsonl`, `protocol.json`, the lock and its tickets (`.acp.lock*`),
 * the append checkpoint, init's journal — nor the signing keys or this
 * machine's caches. The unguarded host behind it is reachable only through
 * {@link writerHost}, which the core's writers call (`transact`, `init`, a
 * store, the lock); acp.ts never hands it to a plugin.
 *
 * Every refused write is checked on the path the write actually opens:
 * the path is normalised (`./`, `..`, a trailing `/`), its directory
 * resolved through symlinks, a symlink as last component followed to what
 * it names (a dangling one is refused), names compared case- and
 * Unicode-normalisation-insensitively (macOS and Windows volumes), and the
 * write then opened beneath that resolved directory without following a
 * symlink, so a link swapped in after the check is refused, not written
 * through. Out of scope, and said so in docs/plugins.md: hard links (a
 * second name of the log made by someone else is an ordinary file to the
 * guard) and code that imports a file API of its own (a plugin runs in
 * the same process: this is a capability discipline, not a sandbox).
 * @module
 */
import * as nodePath from 'node:path';
import type { FileSystem, Host } from './host.ts';
import { AcpError } from './errors.ts';
import { errorCode, fsError, isInside, realpathOfExistingAncestor } from './util.ts';

/** The names a collaboration folder keeps for itself (compared folded, see {@link foldName}). */
const OWN_FILES = new Set(['events.jsonl', 'protocol.json', '.acp.checkpoint.json', '.acp.init.json']);
/** The lock, its breaker and its waiting-line tickets, wherever they are (a git store locks `.git` too). */
const LOCK_PREFIX = '.acp.lock';

/** Guarded host → the host it guards. Module-private: the only way back to the write capability. */
const writers = new WeakMap<Host, Host>();
/**
 * A guarded file system carries an opaque token under this key, which a
 * spread copy keeps (`confineHost` copies the confined file system so); the
 * token leads to the file system it guards only through this module's map.
 */
const GUARDED_FS = Symbol('acp.guardedFileSystem');
const guardedFileSystems = new WeakMap<object, FileSystem>();

/**
 * `host` as plugins and doors get it: reads as before, writes to a
 * folder's own files, the keys and the caches refused with an
 * {@link AcpError} (exit 2, code `own_file`), and no keyring. Guarding a
 * guarded host returns it unchanged.
 */
export function guardHost(host: Host): Host {
  if (writers.has(host) || writerHost(host) !== host) return host;
  // Every other member read through from the host when asked (its lazy getters — hostname, identity — stay lazy),
  // and enumerable, so that a plugin's `{ ...ctx.host, resolvePath }` is a whole host, still guarded.
  const guarded = {} as Record<string, unknown>;
  for (const key of memberNames(host)) Object.defineProperty(guarded, key, { get: () => (host as unknown as Record<string, unknown>)[key], enumerable: true });
  Object.defineProperty(guarded, 'fs', { value: guardFileSystem(host, host.fs), enumerable: true });
  Object.defineProperty(guarded, 'keyring', { value: undefined, enumerable: true });
  writers.set(guarded as unknown as Host, host);
  return guarded as unknown as Host;
}

/** The names of an object's members, its prototypes' included (a confined host is made with `Object.create`). */
function memberNames(value: object): Set<string> {
  const names = new Set<string>();
  for (let at: object | null = value; at && at !== Object.prototype; at = Object.getPrototypeOf(at)) for (const name of Object.getOwnPropertyNames(at)) names.add(name);
  names.delete('fs');
  names.delete('keyring');
  return names;
}

/**
 * The host that may write: the one `host` guards, or `host` itself. A host
 * made from a guarded one (`confineHost(guarded, bases)`, an `Object.create`
 * of it) gets its own file system's unguarded twin, so a confinement stays
 * a confinement. For the core's writers only.
 */
export function writerHost(host: Host): Host {
  const direct = writers.get(host);
  // The guarded host may itself be made from a guarded one (a server's confined host handed to a command).
  if (direct) return writerHost(direct);
  let guarded: object | null = Object.getPrototypeOf(host);
  while (guarded && !writers.has(guarded as Host)) guarded = Object.getPrototypeOf(guarded);
  const token = (host.fs as unknown as Record<symbol, unknown>)[GUARDED_FS];
  const fs = typeof token === 'object' && token !== null ? guardedFileSystems.get(token) : undefined;
  if (!guarded || !fs) return host;
  // One writer per host: the folder lock keeps its in-process queue per host object.
  let writer = derivedWriters.get(host);
  if (!writer) derivedWriters.set(host, (writer = Object.create(host, { fs: { value: fs, enumerable: true }, keyring: { value: writers.get(guarded as Host)!.keyring, enumerable: true } }) as Host));
  return writer;
}

const derivedWriters = new WeakMap<Host, Host>();

type Opening = 'follow' | 'entry';

function guardFileSystem(host: Host, fs: FileSystem): FileSystem {
  // Open `path` where the check found it: beneath its resolved directory, its last component not followed.
  const at = async (path: string, opening: Opening): Promise<{ fs: FileSystem; path: string }> => {
    const opened = await checkedPath(host, fs, path, opening);
    return { fs: fs.beneath ? fs.beneath([nodePath.dirname(opened)]) : fs, path: opened };
  };
  const guarded: FileSystem = {
    readFile: (path, options) => fs.readFile(path, options),
    stat: (path) => fs.stat(path),
    realpath: (path) => fs.realpath(path),
    readDir: (path) => fs.readDir(path),
    writeFile: async (path, data, options) => {
      const target = await at(path, 'follow');
      return target.fs.writeFile(target.path, data, options);
    },
    appendFile: async (path, data) => {
      const target = await at(path, 'follow');
      return target.fs.appendFile(target.path, data);
    },
    truncate: async (path, size) => {
      const target = await at(path, 'follow');
      return target.fs.truncate(target.path, size);
    },
    rename: async (from, to) => {
      // A rename moves the entry itself (a symlink is moved, not followed), and both names count.
      const source = await checkedPath(host, fs, from, 'entry');
      const target = await checkedPath(host, fs, to, 'entry');
      return (fs.beneath ? fs.beneath([nodePath.dirname(source), nodePath.dirname(target)]) : fs).rename(source, target);
    },
    remove: async (path) => {
      const target = await at(path, 'entry');
      return target.fs.remove(target.path);
    },
    mkdir: async (path) => {
      await checkMissingAncestors(host, fs, path);
      return fs.mkdir(path);
    },
  };
  if (fs.readTail) guarded.readTail = (path, length) => fs.readTail!(path, length);
  if (fs.openRead) guarded.openRead = (path, options) => fs.openRead!(path, options);
  if (fs.watch) guarded.watch = (path, onChange) => fs.watch!(path, onChange);
  if (fs.beneath) guarded.beneath = (bases) => guardFileSystem(host, fs.beneath!(bases));
  const token = Object.freeze({});
  guardedFileSystems.set(token, fs);
  Object.defineProperty(guarded, GUARDED_FS, { value: token, enumerable: true });
  return guarded;
}

/**
 * A read-only view of `host` confined beneath `roots` (the dashboard's,
 * which serves to a browser what others wrote): beneath a root a path is
 * opened as {@link FileSystem.beneath} opens it, no symlink followed on the
 * way or at its end, so what is read is the file actually opened there and
 * a link planted at any time leads nowhere (`ELOOP`; `stat` answers it
 * missing when the link is on the way). A path outside every root is not
 * read (`EACCES`; `stat` null, `readDir` `ENOENT`), and nothing is written
 * (`EROFS`). The core's writers ({@link writerHost}: validate) get one
 * exception, which the view's holder does not: the host's own validation
 * cache, private to this account and outside every folder, so that a
 * change costs validate the appended events, not the whole log.
 */
export function readOnlyView(host: Host, roots: readonly string[], resolvePath: (path: string) => string): Host {
  const bases = roots.map((root) => nodePath.resolve(root));
  const confined = host.fs.beneath ? host.fs.beneath(bases) : host.fs;
  const inside = (path: string): boolean => bases.some((base) => isInside(nodePath.resolve(path), base));
  const view = Object.create(host, { fs: { value: viewFileSystem(host, confined, inside), enumerable: true }, resolvePath: { value: resolvePath, enumerable: true } }) as Host;
  let cacheDir: Promise<string | undefined> | undefined;
  const holds = async (path: string): Promise<boolean> => {
    const dir = await (cacheDir ??= host.cacheDir ? host.cacheDir().catch(() => undefined) : Promise.resolve(undefined));
    // Resolved first: `cache/../elsewhere` is not in the cache.
    return dir !== undefined && isInside(nodePath.resolve(path), dir);
  };
  const writer = Object.create(view, { fs: { value: viewFileSystem(host, confined, inside, { fs: writerHost(host).fs, holds }), enumerable: true } }) as Host;
  writers.set(view, writer);
  return view;
}

/** The view's file system: reads beneath the roots, nothing outside them, no write; with `cache`, the validation cache read and written through its file system. */
function viewFileSystem(host: Host, confined: FileSystem, inside: (path: string) => boolean, cache?: { fs: FileSystem; holds(path: string): Promise<boolean> }): FileSystem {
  const inCache = async (path: string): Promise<boolean> => cache !== undefined && (await cache.holds(path));
  const refuse = (what: string) => (path: string): Promise<never> => Promise.reject(fsError('EROFS', `${what} ${path}: refused, a read-only view writes nothing`));
  const outside = (path: string): Error => fsError('EACCES', `${path} is outside the read-only view's roots: not read`);
  // A read: from the cache (the core's writer only), beneath a root, or refused.
  const read = <A extends unknown[], T>(run: (fs: FileSystem, path: string, ...rest: A) => Promise<T>, elsewhere: (path: string) => Promise<T>) =>
    async (path: string, ...rest: A): Promise<T> => ((await inCache(path)) ? run(cache!.fs, path, ...rest) : inside(path) ? run(confined, path, ...rest) : elsewhere(path));
  const write = <A extends unknown[]>(what: string, run: (fs: FileSystem, path: string, ...rest: A) => Promise<void>) =>
    async (path: string, ...rest: A): Promise<void> => ((await inCache(path)) ? run(cache!.fs, path, ...rest) : refuse(what)(path));
  const fs: FileSystem = {
    readFile: read((at, path, options?: { maxBytes?: number }) => at.readFile(path, options), (path) => Promise.reject(outside(path))),
    // A symlinked directory on the way is not in the view: missing, as a path outside it is.
    stat: read((at, path) => at.stat(path).catch((error: unknown) => (errorCode(error) === 'ELOOP' ? null : Promise.reject(error))), async () => null),
    readDir: read((at, path) => at.readDir(path), (path) => Promise.reject(fsError('ENOENT', `${path} is outside the read-only view's roots`))),
    realpath: (path) => host.fs.realpath(path),
    writeFile: write('write', (at, path, data: Uint8Array | string, options?: { exclusive?: boolean; temporary?: boolean }) => at.writeFile(path, data, options)),
    appendFile: write('append to', (at, path, data: Uint8Array | string) => at.appendFile(path, data)),
    truncate: write('truncate', (at, path, size: number) => at.truncate(path, size)),
    remove: write('remove', (at, path) => at.remove(path)),
    mkdir: write('create', (at, path) => at.mkdir(path)),
    rename: async (from, to) => ((await inCache(from)) && (await inCache(to)) ? cache!.fs.rename(from, to) : refuse('rename')(from)),
  };
  if (confined.readTail) fs.readTail = read((at, path, length: number) => at.readTail ? at.readTail(path, length) : Promise.resolve(null), async () => null);
  if (confined.openRead) fs.openRead = read((at, path, options?: { maxBytes?: number }) => (at.openRead ? at.openRead(path, options) : Promise.reject(fsError('ENOTSUP', `${path}: no piecewise reads here`))), (path) => Promise.reject(outside(path)));
  if (host.fs.watch) fs.watch = (path, onChange) => host.fs.watch!(path, onChange);
  return fs;
}

/**
 * The path a write of `path` opens, once checked: its directory's real
 * path joined with its name, or (`follow`, a write through a symlink) the
 * real path the link names. Throws the refusal.
 */
async function checkedPath(host: Host, fs: FileSystem, path: string, opening: Opening): Promise<string> {
  const normal = nodePath.resolve(path);
  await refuseOwn(host, fs, normal, path);
  const directory = await realpathOfExistingAncestor(host, nodePath.dirname(normal));
  let opened = nodePath.join(directory, nodePath.basename(normal));
  if (opening === 'follow' && (await fs.stat(opened).catch(() => null))?.isSymlink) {
    try {
      opened = await fs.realpath(opened);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      throw refusal(path, 'it is a symbolic link to nothing that exists (a write would create its target unchecked)');
    }
  }
  if (opened !== normal) await refuseOwn(host, fs, opened, path);
  return opened;
}

/** `mkdir` makes every missing ancestor: none of them may be a folder's own name, nor inside the keys or caches. */
async function checkMissingAncestors(host: Host, fs: FileSystem, path: string): Promise<void> {
  for (let current = nodePath.resolve(path); nodePath.dirname(current) !== current; current = nodePath.dirname(current)) {
    if (await fs.stat(current).catch(() => null)) return;
    await checkedPath(host, fs, current, 'entry');
  }
}

/** Refuse `candidate` (as the write would open it) when it is a folder's own file, a lock file, a key or a cache. */
async function refuseOwn(host: Host, fs: FileSystem, candidate: string, asked: string): Promise<void> {
  const name = foldName(nodePath.basename(candidate));
  if (name.startsWith(LOCK_PREFIX)) throw refusal(asked, "it is a folder lock's file (only the lock itself writes it)");
  const directory = nodePath.dirname(candidate);
  if (OWN_FILES.has(name) && (await isCollaborationFolder(fs, directory))) throw refusal(asked, `${nodePath.basename(candidate)} is the collaboration's own file (only the transaction writes it: append, freeze, api.transact)`);
  for (const [what, place] of await privatePlaces(host)) {
    if (isInside(candidate, place) || candidate.startsWith(`${place}.`)) throw refusal(asked, `it is inside ${what} (${place})`);
  }
}

/**
 * A directory is a collaboration folder when it holds protocol.json or
 * events.jsonl (a new, empty one holds nothing to protect), and is not
 * inside a git directory (git's own storage: `doctor --git` keeps its
 * copies of a log there).
 */
async function isCollaborationFolder(fs: FileSystem, directory: string): Promise<boolean> {
  if (directory.split(/[\\/]/).some((part) => foldName(part) === '.git')) return false;
  for (const name of ['protocol.json', 'events.jsonl']) if (await fs.stat(nodePath.join(directory, name)).catch(() => null)) return true;
  return false;
}

/**
 * The signing keys (their directory, or the one key file a host was given,
 * with its staged and retired neighbours) and this machine's validation
 * caches, as the host names them (the host's own memoised answers, which
 * the core asks for too), resolved.
 */
async function privatePlaces(host: Host): Promise<[string, string][]> {
  const places: [string, string][] = [];
  const keyOf = (participant: string): string | undefined => {
    try {
      return host.keyring?.where(participant);
    } catch {
      return undefined;
    }
  };
  const [one, other] = [keyOf('a'), keyOf('b')];
  if (one !== undefined && nodePath.isAbsolute(one)) places.push(['the signing keys', one === other ? one : nodePath.dirname(one)]);
  const cache = await host.cacheDir?.().catch(() => undefined);
  if (cache !== undefined) places.push(["this machine's acp caches", cache]);
  const resolved: [string, string][] = [];
  for (const [what, place] of places) resolved.push([what, await realpathOfExistingAncestor(host, place)]);
  return resolved;
}

/** A name as case-insensitive, normalising volumes (macOS, Windows) compare it. */
function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

function refusal(path: string, reason: string): AcpError {
  return new AcpError(`refused to write ${path}: ${reason}`, 2, 'own_file');
}
