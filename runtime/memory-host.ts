/**
 * The in-memory host adapter: a file system in a `Map`, for tests and for
 * sandboxes that mediate file access themselves. acp.ts re-exports it.
 * @module
 */
import * as nodePath from 'node:path';
import type { FileSystem, Host, Keyring } from './host.ts';
import { memoryKeyring } from './keyring.ts';
import { errorCode, fsError } from './util.ts';
import type { MemoryHostOptions, MemoryFileSystem } from './types.ts';
export type { MemoryHostOptions, MemoryFileSystem } from './types.ts';

type MemoryNode = { kind: 'file'; data: Uint8Array; mtimeMs: number } | { kind: 'dir'; mtimeMs: number } | { kind: 'link'; target: string; mtimeMs: number };

/**
 * A file system that lives in a `Map`: for tests, and for sandboxes that
 * mediate file access themselves. POSIX-like semantics (missing parents →
 * ENOENT, exclusive create → EEXIST, atomic rename, symlinks); paths must be
 * absolute. Watchers of a directory are called synchronously after every
 * change to it or to one of its entries, so `waitForTurn` wakes at once.
 */
export function createMemoryFileSystem(options: { files?: Record<string, string | Uint8Array>; now?: () => number } = {}): MemoryFileSystem {
  const now = options.now ?? (() => Date.now());
  const nodes = new Map<string, MemoryNode>();
  const watchers = new Map<string, Set<() => void>>();
  const isRoot = (p: string): boolean => nodePath.dirname(p) === p;
  const norm = (p: string): string => {
    if (!nodePath.isAbsolute(p)) throw fsError('EINVAL', `path must be absolute: ${p}`);
    const n = nodePath.normalize(p);
    return isRoot(n) ? n : n.replace(/[\\/]+$/, '');
  };
  const get = (p: string): MemoryNode | undefined => (isRoot(p) ? { kind: 'dir', mtimeMs: 0 } : nodes.get(p));
  // The path with every symlink resolved (the last component only when `followLast`).
  const real = (path: string, followLast = true, hops = 0): string => {
    const p = norm(path);
    if (isRoot(p)) return p;
    const parent = real(nodePath.dirname(p), true, hops);
    const here = nodePath.join(parent, nodePath.basename(p));
    const node = nodes.get(here);
    if (node?.kind !== 'link' || !followLast) return here;
    if (hops >= 40) throw fsError('ELOOP', path);
    return real(nodePath.resolve(parent, node.target), true, hops + 1);
  };
  const changed = (p: string): void => {
    for (const dir of new Set([p, nodePath.dirname(p)])) {
      for (const fn of [...(watchers.get(dir) ?? [])]) {
        try {
          fn();
        } catch {
          // A watcher's failure is its own business, never the writer's.
        }
      }
    }
  };
  const parentDir = (p: string, path: string): void => {
    const parent = get(nodePath.dirname(p));
    if (!parent) throw fsError('ENOENT', path);
    if (parent.kind !== 'dir') throw fsError('ENOTDIR', path);
  };
  const fileAt = (path: string): { p: string; node: MemoryNode & { kind: 'file' } } => {
    const p = real(path);
    const node = get(p);
    if (!node) throw fsError('ENOENT', path);
    if (node.kind !== 'file') throw fsError('EISDIR', path);
    return { p, node };
  };
  const put = (path: string, data: Uint8Array | string, mode: 'w' | 'wx' | 'a'): void => {
    if (mode === 'wx' && get(real(path, false))) throw fsError('EEXIST', path);
    const p = real(path);
    parentDir(p, path);
    const old = get(p);
    if (old?.kind === 'dir') throw fsError('EISDIR', path);
    const add = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    const base = mode === 'a' && old?.kind === 'file' ? old.data : new Uint8Array();
    const next = new Uint8Array(base.length + add.length);
    next.set(base);
    next.set(add, base.length);
    nodes.set(p, { kind: 'file', data: next, mtimeMs: now() });
    changed(p);
  };
  const mkdirs = (path: string): void => {
    const p = real(path);
    const node = get(p);
    if (node) {
      if (node.kind !== 'dir') throw fsError('EEXIST', path);
      return;
    }
    mkdirs(nodePath.dirname(p));
    nodes.set(p, { kind: 'dir', mtimeMs: now() });
    changed(p);
  };
  const inside = (key: string, dir: string): boolean => key === dir || key.startsWith(dir.endsWith(nodePath.sep) ? dir : dir + nodePath.sep);
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirs(nodePath.dirname(norm(path)));
    put(path, text, 'w');
  }
  /**
   * `path` below the base it lies beneath (or as given, outside every base),
   * every directory on the way checked to be one and not a symlink, made
   * when `create`; the last component too unless `reach` is `parent`, where
   * a symlink raises ELOOP only when `refuseLink`. Synchronous, as every
   * operation here: nothing changes between this check and the use.
   */
  const confine = (bases: readonly string[], path: string, reach: 'parent' | 'whole' | 'create', refuseLink: boolean): string => {
    const p = norm(path);
    const base = bases.map(norm).sort((a, b) => b.length - a.length).find((root) => root !== p && inside(p, root));
    if (base === undefined) return p;
    if (reach === 'create' && !get(real(base))) mkdirs(base);
    let at = real(base);
    const parts = nodePath.relative(base, p).split(nodePath.sep);
    const last = reach === 'parent' ? parts.pop()! : undefined;
    for (const part of parts) {
      at = nodePath.join(at, part);
      const node = get(at);
      if (!node && reach === 'create') mkdirs(at);
      else if (!node) throw fsError('ENOENT', `${nodePath.join(base, ...parts)} does not exist`);
      else if (node.kind === 'link') throw fsError('ELOOP', `${at} is a symbolic link: not followed beneath ${base}`);
      else if (node.kind !== 'dir') throw fsError('ENOTDIR', `${at} is not a directory`);
    }
    if (last === undefined) return at;
    at = nodePath.join(at, last);
    if (refuseLink && get(at)?.kind === 'link') throw fsError('ELOOP', `${at} is a symbolic link: not followed beneath ${base}`);
    return at;
  };
  const files: MemoryFileSystem = {
    readFile: async (path, opts) => {
      // Only regular files exist here; the size cap is the node host's.
      const data = fileAt(path).node.data;
      if (opts?.maxBytes !== undefined && data.length > opts.maxBytes) throw fsError('EFBIG', `${path} holds ${data.length} bytes, more than ${opts.maxBytes}`);
      return data.slice();
    },
    writeFile: async (path, data, opts) => put(path, data, opts?.exclusive ? 'wx' : 'w'),
    appendFile: async (path, data) => put(path, data, 'a'),
    rename: async (from, to) => {
      const src = real(from, false);
      const dst = real(to, false);
      const node = get(src);
      if (!node) throw fsError('ENOENT', from);
      parentDir(dst, to);
      if (src === dst) return;
      if (inside(dst, src)) throw fsError('EINVAL', `cannot move ${from} into itself`);
      const target = get(dst);
      if (target?.kind === 'dir') {
        if (node.kind !== 'dir') throw fsError('EISDIR', to);
        if ([...nodes.keys()].some((k) => k !== dst && inside(k, dst))) throw fsError('ENOTEMPTY', to);
      } else if (target && node.kind === 'dir') throw fsError('ENOTDIR', to);
      for (const [key, value] of [...nodes]) {
        if (!inside(key, src)) continue;
        nodes.delete(key);
        nodes.set(dst + key.slice(src.length), value);
      }
      changed(src);
      changed(dst);
    },
    remove: async (path) => {
      const p = real(path, false);
      const node = get(p);
      if (!node) return;
      if (node.kind === 'dir') throw fsError('EISDIR', path);
      nodes.delete(p);
      changed(p);
    },
    mkdir: async (path) => mkdirs(path),
    stat: async (path) => {
      let link: MemoryNode | undefined;
      let target: MemoryNode | undefined;
      try {
        link = get(real(path, false));
        target = link?.kind === 'link' ? get(real(path)) : link;
      } catch (error) {
        if (errorCode(error) !== 'ELOOP') throw error;
      }
      if (!link) return null;
      const size = target?.kind === 'file' ? target.data.length : 0;
      return { isFile: target?.kind === 'file', isDirectory: target?.kind === 'dir', isSymlink: link.kind === 'link', size, mtimeMs: (target ?? link).mtimeMs };
    },
    realpath: async (path) => {
      const p = real(path);
      if (!get(p)) throw fsError('ENOENT', path);
      return p;
    },
    readDir: async (path) => {
      const p = real(path);
      const node = get(p);
      if (!node) throw fsError('ENOENT', path);
      if (node.kind !== 'dir') throw fsError('ENOTDIR', path);
      return [...nodes.keys()].filter((k) => k !== p && nodePath.dirname(k) === p).map((k) => nodePath.basename(k)).sort();
    },
    truncate: async (path, size) => {
      const { p, node } = fileAt(path);
      const data = new Uint8Array(size);
      data.set(node.data.subarray(0, size));
      nodes.set(p, { kind: 'file', data, mtimeMs: now() });
      changed(p);
    },
    symlink: async (target, path) => {
      const p = real(path, false);
      parentDir(p, path);
      if (get(p)) throw fsError('EEXIST', path);
      nodes.set(p, { kind: 'link', target, mtimeMs: now() });
      changed(p);
    },
    beneath: (bases) => {
      const open = (path: string): string => confine(bases, path, 'parent', true);
      const stays = (path: string): string => confine(bases, path, 'parent', false);
      const fail = (error: unknown): Promise<never> => Promise.reject(error);
      const guard = <T>(run: () => Promise<T>): Promise<T> => {
        try {
          return run();
        } catch (error) {
          return fail(error);
        }
      };
      return {
        readFile: (path, o) => guard(() => files.readFile(open(path), o)),
        writeFile: (path, data, o) => guard(() => files.writeFile(open(path), data, o)),
        appendFile: (path, data) => guard(() => files.appendFile(open(path), data)),
        rename: (from, to) => guard(() => files.rename(stays(from), stays(to))),
        remove: (path) => guard(() => files.remove(stays(path))),
        // Made on the way beneath a base; the base itself, or a path outside every base, as the plain mkdir makes it.
        mkdir: (path) => guard(() => files.mkdir(confine(bases, path, 'create', true))),
        stat: (path) =>
          guard(async () => {
            let at: string;
            try {
              at = stays(path);
            } catch {
              return null;
            }
            const node = get(at);
            return node?.kind === 'link' ? { isFile: false, isDirectory: false, isSymlink: true, size: 0, mtimeMs: node.mtimeMs } : files.stat(at);
          }),
        realpath: (path) => files.realpath(path),
        readDir: (path) => guard(() => files.readDir(confine(bases, path, 'whole', true))),
        truncate: (path, size) => guard(() => files.truncate(open(path), size)),
        watch: (path, onChange) => files.watch(path, onChange),
      };
    },
    snapshot: () => new Map([...nodes].flatMap(([k, v]) => (v.kind === 'file' ? [[k, v.data.slice()] as const] : []))),
    watch: (path, onChange) => {
      let key: string;
      try {
        key = real(path);
      } catch {
        key = path;
      }
      const set = watchers.get(key) ?? new Set();
      watchers.set(key, set);
      const fn = (): void => onChange();
      set.add(fn);
      return () => void set.delete(fn);
    },
  };
  return files;
}

/**
 * A host whose files live in memory: nothing touches disk, no permission is
 * needed. `openCollaboration(folder, { host: createMemoryHost() })` runs a
 * whole collaboration in-process.
 */
export function createMemoryHost(options: MemoryHostOptions = {}): Host & { fs: MemoryFileSystem } {
  const now = options.now ?? (() => new Date());
  const cwd = options.cwd ?? '/';
  // The memory lives in this process: a key of its own is out of reach of
  // anything that only writes the (in-memory) folder.
  const key = options.checkpointKey ?? crypto.getRandomValues(new Uint8Array(32));
  return {
    fs: options.fs ?? createMemoryFileSystem({ files: options.files, now: () => now().getTime() }),
    now,
    pid: options.pid ?? 1,
    checkpointKey: async () => key,
    keyring: options.keyring ?? memoryKeyring(),
    // Every "process" sharing this file system lives in this one: a lock
    // left behind is abandoned by age (lock holders release in `finally`).
    isProcessAlive: () => undefined,
    resolvePath: (path) => nodePath.resolve(cwd, path),
  };
}
