/**
 * The dashboard's view of the disk: a host that reads only inside its root
 * and writes nothing. The dashboard serves what it reads to a browser, and
 * everything in a collaboration folder was written by someone else: a
 * `decisions.md` that is a symbolic link to `~/.ssh/id_ed25519` must not be
 * rendered. So a read opens the file first and then checks the file it
 * opened (its device and inode are those of a path inside the root with no
 * symbolic link left in it), not the name it was asked for: a link swapped
 * in between a check and the open cannot lead outside.
 * @module
 */
import { sep } from 'node:path';
import type { AcpApi } from '../../../runtime/types.ts';
import type { FileStat, FileSystem, Host } from '../../../runtime/host.ts';

type NodeFs = typeof import('node:fs');

/**
 * A read-only host confined to `root` (a real path): reads outside it fail
 * with EACCES, stats outside it answer "missing", writes fail with EROFS.
 * The one exception is the base host's validation cache (private to this
 * account, outside every folder, its files authenticated with the
 * checkpoint key): there validate keeps its checkpoint, so that a change
 * costs the appended events, not the whole log (issue 38). Nothing is
 * written under the root.
 */
export async function confinedHost(api: AcpApi, base: Host, root: string): Promise<Host> {
  const { fsError, isInside, realpathOfExistingAncestor } = api;
  const fs: NodeFs = await import('node:fs');
  const inside = async (path: string): Promise<boolean> => isInside(await realpathOfExistingAncestor(base, path), root);
  const cache = await base.cacheDir?.();
  // Only validate's own cache paths (built by acp from the cache directory, never from a folder's content) reach the base host.
  const inCache = (path: string): boolean => cache !== undefined && (path === cache || (path.startsWith(cache + sep) && !path.slice(cache.length).includes(`${sep}..`)));
  const readOnly = (name: string) => async (path: string): Promise<never> => {
    throw fsError('EROFS', `${name} ${path}: the dashboard is read-only`);
  };
  const confined: FileSystem = {
    readFile: (path, options) => (inCache(path) ? base.fs.readFile(path, options) : readInside(api, fs, base, root, path, options?.maxBytes)),
    writeFile: (path, data, options) => (inCache(path) ? base.fs.writeFile(path, data, options) : readOnly('write')(path)),
    appendFile: readOnly('append to'),
    rename: (from, to) => (inCache(from) && inCache(to) ? base.fs.rename(from, to) : readOnly('rename')(from)),
    remove: (path) => (inCache(path) ? base.fs.remove(path) : readOnly('remove')(path)),
    mkdir: (path) => (inCache(path) ? base.fs.mkdir(path) : readOnly('create')(path)),
    truncate: readOnly('truncate'),
    stat: async (path): Promise<FileStat | null> => ((inCache(path) || (await inside(path))) ? base.fs.stat(path) : null),
    realpath: (path) => base.fs.realpath(path),
    readDir: async (path) => {
      if (!(await inside(path))) throw fsError('ENOENT', `${path} is outside the dashboard's root`);
      return base.fs.readDir(path);
    },
    ...(base.fs.watch ? { watch: base.fs.watch } : {}),
  };
  const checkpoint = cache === undefined ? {} : { cacheDir: async () => cache, checkpointKey: () => base.checkpointKey!() };
  return { fs: confined, now: () => base.now(), pid: base.pid, isProcessAlive: (pid) => base.isProcessAlive(pid), resolvePath: (path) => base.resolvePath(path), ...checkpoint };
}

/**
 * Read a regular file inside `root`, checking the opened file: after the
 * open, the path's real path must lie inside the root and name the same
 * device and inode as the open handle. O_NONBLOCK: a FIFO put in a
 * document's place must not hang the reader (it is refused as EFTYPE).
 */
async function readInside(api: AcpApi, fs: NodeFs, base: Host, root: string, path: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<Uint8Array> {
  const { errorCode, fsError, isInside } = api;
  // A NUL names nothing (node:fs would throw a TypeError), as in the host.
  if (path.includes('\0')) throw fsError('ENOENT', `no file name holds a NUL character: ${JSON.stringify(path)}`);
  const handle = await fs.promises.open(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0));
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw fsError('EFTYPE', `${path} is not a regular file`);
    let real: string;
    try {
      real = await base.fs.realpath(path);
    } catch (error) {
      throw errorCode(error) === 'ENOENT' ? fsError('EACCES', `${path} changed while it was read`) : error;
    }
    const named = isInside(real, root) ? await fs.promises.stat(real) : undefined;
    if (!named || named.ino !== opened.ino || named.dev !== opened.dev) throw fsError('EACCES', `${path} resolves outside the dashboard's root (refused)`);
    if (opened.size > maxBytes) throw fsError('EFBIG', `${path} holds ${opened.size} bytes, more than ${maxBytes}`);
    // What fstat announced, as the host reads: an append in progress is not half-read.
    const bytes = new Uint8Array(opened.size);
    let length = 0;
    while (length < bytes.length) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead <= 0) break;
      length += bytesRead;
    }
    return bytes.subarray(0, length);
  } finally {
    await handle.close();
  }
}
