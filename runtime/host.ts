/**
 * The host capabilities the core takes as parameters (the only door to the
 * outside world): file access, the clock, process identity. One small
 * adapter per runtime implements them (node-host.ts for Node, Bun and Deno;
 * memory-host.ts in memory). Types only; acp.ts re-exports them.
 * @module
 */


/** What {@link FileSystem.stat} reports. */
export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtimeMs: number;
  /** Status-change time, when the host knows it (append checkpoint). */
  ctimeMs?: number;
  /** Inode number, when the host knows it (append checkpoint). */
  ino?: number;
  /** Owner's user id, when the host knows it (the plugin loader's ownership check). */
  uid?: number;
  /** Permission bits (`mode & 0o7777`), when the host knows them (the plugin loader's ownership check). */
  mode?: number;
}

/** A regular file opened for reading in pieces ({@link FileSystem.openRead}). */
export interface FileReader {
  /** The size fstat gave at open: what the reader reads (a snapshot, bounded even if the file grows). */
  size: number;
  /** Up to `length` bytes at `position` (fewer at the end); a view valid until the next `read`. */
  read(position: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * The file access the core needs. Paths are absolute. Missing files raise an
 * error whose `code` is `'ENOENT'`; an exclusive create of an existing file
 * raises `'EEXIST'`.
 */
export interface FileSystem {
  /**
   * Read a whole regular file as bytes. A FIFO, device or socket raises
   * `'EFTYPE'` (without blocking or reading it); a file larger than
   * `maxBytes` raises `'EFBIG'`.
   */
  readFile(path: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
  /**
   * Write a whole file; with `exclusive` fail with EEXIST if it exists, and
   * the content appears at once (a reader never sees it partly written: a
   * lock). With `temporary` too, only the EEXIST part: a fresh temporary
   * file nobody reads before it is renamed into place.
   */
  writeFile(path: string, data: Uint8Array | string, options?: { exclusive?: boolean; temporary?: boolean }): Promise<void>;
  /** Append bytes to a file (created if missing) and flush them to storage. */
  appendFile(path: string, data: Uint8Array | string): Promise<void>;
  /** Atomically replace `to` with `from`. */
  rename(from: string, to: string): Promise<void>;
  /** Remove a file; missing files are not an error. */
  remove(path: string): Promise<void>;
  /** Create a directory and its parents. */
  mkdir(path: string): Promise<void>;
  /** Stat a path, following symlinks (`lstat` semantics for `isSymlink`); `null` when missing. */
  stat(path: string): Promise<FileStat | null>;
  /** Resolve symlinks; raises ENOENT for missing paths. */
  realpath(path: string): Promise<string>;
  /** Names in a directory. */
  readDir(path: string): Promise<string[]>;
  /** Truncate a file to `size` bytes. */
  truncate(path: string, size: number): Promise<void>;
  /**
   * Watch a directory; `onChange` runs (possibly spuriously) after something
   * in it changed. Returns a function that stops watching. Optional: without
   * it `wait` polls.
   */
  watch?(path: string, onChange: () => void): () => void;
  /**
   * Stat a file and read its last `length` bytes through one open handle
   * (`null` when missing). Optional: the append checkpoint falls back to
   * `stat` + `readFile`.
   */
  readTail?(path: string, length: number): Promise<{ stat: FileStat; bytes: Uint8Array } | null>;
  /**
   * Open a regular file to read it in pieces, refusing what `readFile`
   * refuses (`EFTYPE`, `EFBIG` beyond `maxBytes`). Optional: without it the
   * log is read whole (validate then holds all of it at once).
   */
  openRead?(path: string, options?: { maxBytes?: number }): Promise<FileReader>;
  /**
   * The same file system confined beneath `bases`: a path below one of them
   * is opened relative to a handle of its directory, reached from the base
   * one component at a time without following a symlink, and its last
   * component is not followed either (a symlink there is reported by `stat`
   * as a symlink that is neither file nor directory; opening it raises
   * `ELOOP`, as a symlinked directory on the way does). So a path checked
   * beneath a base cannot be redirected out of it between the check and the
   * use: there is nothing to redirect. The bases themselves, and paths
   * outside every base, are opened as the plain file system opens them;
   * `realpath` and `watch` (checks, never a byte read or written) too.
   * Optional: a host without it cannot confine (`confineHost` returns it
   * unchanged). A wrapper that replaces methods of a file system (a test
   * injecting a full disk) wraps what `beneath` returns too: the confined
   * file system does not call the outer one's methods.
   */
  beneath?(bases: readonly string[]): FileSystem;
}

/** What identifies a process beyond its pid; absent fields could not be read. */
export interface ProcessIdentity {
  /** `/proc/sys/kernel/random/boot_id`: changes at every boot. */
  bootId?: string;
  /** The PID namespace (`/proc/self/ns/pid` inode): pids of another one are not ours to judge. */
  pidNamespace?: string;
  /** This process's start time (`/proc/self/stat` field 22), telling a reused pid from the holder. */
  startTime?: string;
}

/** Host capabilities handed to the core. One small adapter per runtime. */
export interface Host {
  fs: FileSystem;
  /** Current time. */
  now(): Date;
  /** This process's id (lock ownership). */
  pid: number;
  /** This machine's name, when readable without extra permissions (lock ownership). */
  hostname?: string;
  /** Whether a process of this machine is alive; `undefined` when the host cannot tell. */
  isProcessAlive(pid: number): boolean | undefined;
  /**
   * Who this process is beyond its pid, as far as the host can read it
   * (lock ownership across PID namespaces, reboots and sandboxes).
   */
  identity?: ProcessIdentity;
  /** Start time of a process of this PID namespace (Linux: `/proc/{pid}/stat` field 22); `undefined` when unknown. */
  processStartTime?(pid: number): string | undefined;
  /**
   * The secret (32 bytes) that authenticates the append checkpoint, kept
   * where a writer of the collaboration folder alone cannot read it;
   * `undefined` when there is none. Optional: without it every append reads
   * and replays the whole log.
   */
  checkpointKey?(): Promise<Uint8Array | undefined>;
  /**
   * Why {@link checkpointKey} found no key although this host would keep one
   * (a read-only home): where it could not write and the setting that fixes
   * it; `undefined` otherwise. Optional.
   */
  stateUnavailable?(): string | undefined;
  /**
   * A directory of this machine's caches that must not live in a
   * collaboration folder (validate is read-only there): the validation
   * checkpoints, next to the checkpoint key; `undefined` when there is none.
   * Optional: without it every validate reads and checks the whole log.
   */
  cacheDir?(): Promise<string | undefined>;
  /**
   * Where this account keeps its participants' private signing keys, outside
   * every collaboration folder (docs/signing.md). Optional: without it a
   * signed collaboration cannot be appended to (its events are refused, not
   * written unsigned).
   */
  keyring?: Keyring;
  /**
   * Resolve a possibly relative path against the working directory, as
   * Python's `Path.resolve()` does where the host has symbolic links.
   */
  resolvePath(path: string): string;
  /**
   * The home folder of user `name` (`~name`), or of this process's user
   * when `name` is undefined (`~` without HOME); `undefined` when unknown.
   * Optional: without it only `~` with HOME expands.
   */
  userHome?(name?: string): string | undefined;
}

/**
 * Private signing keys (Ed25519 JWKs), one per participant id, kept where a
 * writer of the folder cannot read them (docs/signing.md). Keys are opaque
 * JSON here: runtime/signing.ts makes and checks them.
 */
export interface Keyring {
  /** Where `participant`'s key lives, for messages (a path). */
  where(participant: string): string;
  /** The participant's key; made by `create` (and stored) when there is none and `create` is given. */
  load(participant: string, create?: () => Promise<object>): Promise<object | undefined>;
  /** Keep `key` as the participant's next key (a rotation), until {@link promote}. */
  stage(participant: string, key: object): Promise<void>;
  /** The staged next key, if any. */
  staged(participant: string): Promise<object | undefined>;
  /** Make the staged key the current one (the old one is kept beside it). */
  promote(participant: string): Promise<void>;
  /**
   * The participant's record of the last line it signed in collaboration
   * `id` (docs/signing.md), kept beside its key where no other participant
   * writes: its next append checks that line is still in the log. Absent:
   * an append verifies the log from seq 1.
   */
  recall?(participant: string, id: string): Promise<unknown>;
  /** Keep `record` as {@link recall}'s answer (replaced whole). */
  remember?(participant: string, id: string, record: object): Promise<void>;
}
