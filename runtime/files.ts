/**
 * Reading and writing the folder's files safely ([beyond]): regular files
 * only, each read capped by what that file can legitimately hold, and the
 * folder lock with its lease that every write of the protocol's state goes
 * under (the lock's holder identity survives PID namespaces and machines).
 * acp.ts re-exports the public part; this module imports nothing from it.
 * @module
 */
import * as nodePath from 'node:path';
import type { FileReader, FileSystem, Host } from './host.ts';
import { AcpAbortError, AcpError } from './errors.ts';
import { readOnlyView } from './guarded-host.ts';
import { errorCode, isInside, isObject, joinBytes, sleep } from './util.ts';
import type { FolderLockState, FolderLockOptions, FolderLock, LockTicket, WriteAtomicOptions } from './types.ts';
export type { FolderLockState, FolderLockOptions, FolderLock, LockTicket, WriteAtomicOptions } from './types.ts';

/** Bytes in a mebibyte. */
export const MiB = 1 << 20;
/**
 * The most each kind of file can legitimately hold: a larger one is refused
 * unread (a symlink to a huge file must not exhaust memory).
 */
export const READ_LIMITS = { protocol: 16 * MiB, log: 512 * MiB, document: 64 * MiB, checkpoint: 256 * MiB } as const;
/** The most a lock file (or its breaker's) is read of: its holder's facts are a few hundred bytes. */
export const LOCK_MAX_BYTES = 64 * 1024;

/**
 * Read a regular file of at most `maxBytes`; a FIFO, device or socket, or a
 * larger file, is refused with an {@link AcpError} naming it (exit 2).
 */
export async function readCapped(host: Host, path: string, maxBytes: number, name: string): Promise<Uint8Array> {
  try {
    return await host.fs.readFile(path, { maxBytes });
  } catch (error) {
    throw cappedReadError(error, maxBytes, name);
  }
}

/**
 * {@link readCapped}, in pieces where the host can (`FileSystem.openRead`),
 * else over the whole file read at once.
 */
export async function openCapped(host: Host, path: string, maxBytes: number, name: string): Promise<FileReader> {
  if (!host.fs.openRead) {
    const bytes = await readCapped(host, path, maxBytes, name);
    return { size: bytes.length, read: async (position, length) => bytes.subarray(position, position + length), close: async () => undefined };
  }
  try {
    return await host.fs.openRead(path, { maxBytes });
  } catch (error) {
    throw cappedReadError(error, maxBytes, name);
  }
}

/**
 * Read `file` from `start` in pieces of `pieceBytes` and hand `onLines`
 * runs of whole lines (cut after a `\n` byte: it never occurs inside a UTF-8
 * sequence, and a `\r\n` pair stays in one piece), in order; the run that
 * ends the file (`last`) may end without a newline. `seen` is shown every
 * piece read. Returns the position reached (the file's size, unless it
 * shrank meanwhile).
 */
export async function readWholeLines(
  file: FileReader,
  start: number,
  pieceBytes: number,
  onLines: (lines: Uint8Array, last: boolean) => Promise<void>,
  seen?: (piece: Uint8Array, position: number) => void,
): Promise<number> {
  // The bytes after the last `\n` read so far (copies: the reader reuses its buffer).
  const pending: Uint8Array[] = [];
  let position = start;
  for (let last = false; !last; ) {
    const piece = await file.read(position, pieceBytes);
    seen?.(piece, position);
    position += piece.length;
    last = piece.length === 0 || position >= file.size;
    const cut = last ? piece.length : piece.lastIndexOf(0x0a) + 1;
    if (!cut && !last) {
      pending.push(piece.slice());
      continue;
    }
    // A line carried over from earlier pieces is joined with its own end only, not with the whole piece.
    const head = pending.length ? Math.min(cut, piece.indexOf(0x0a) + 1 || cut) : 0;
    if (pending.length) await onLines(joinBytes([...pending.splice(0), piece.subarray(0, head)]), last && head === cut);
    if (head < cut) await onLines(piece.subarray(head, cut), last);
    if (cut < piece.length) pending.push(piece.slice(cut));
  }
  return position;
}

function cappedReadError(error: unknown, maxBytes: number, name: string): unknown {
  // A confined file system's refusal (FileSystem.beneath): a symlink on the way.
  if (errorCode(error) === 'ELOOP' && String((error as Error).message).includes('not followed beneath')) return new AcpError(`${name}: refused: ${(error as Error).message} (acp never reads through a symlink there)`, 2, 'invalid_folder');
  if (errorCode(error) === 'EFTYPE') return new AcpError(`${name} is not a regular file (a FIFO, device or socket); acp reads only regular files`, 2, 'invalid_folder');
  if (errorCode(error) === 'EFBIG') return new AcpError(`${name} is larger than ${maxBytes / MiB >= 1 ? `${maxBytes / MiB} MiB` : `${maxBytes / 1024} KiB`}, more than it can legitimately hold; refusing to read it`, 2, 'invalid_folder');
  return error;
}


/**
 * The host with its file system confined beneath `bases` (see
 * {@link FileSystem.beneath}): below them no symlink is followed, so a path
 * checked there cannot be redirected out between the check and the use.
 * The same host object for the same host and bases (the in-process lock
 * queue is kept per host). A host without `beneath` is returned as it is:
 * its callers' checks are all it has. With `readOnly`, a read-only view
 * that reads nothing outside the bases either ({@link ConfineOptions}).
 */
export function confineHost(host: Host, bases: readonly string[], options: ConfineOptions = {}): Host {
  if (options.readOnly) return readOnlyView(host, bases, confinedResolvePath(host, bases));
  if (!host.fs.beneath) return host;
  const key = bases.map((base) => nodePath.resolve(base)).join('\0');
  let byBases = confinedHosts.get(host);
  if (!byBases) confinedHosts.set(host, (byBases = new Map()));
  let confined = byBases.get(key);
  if (!confined) {
    // The prototype keeps the host's lazy getters (hostname, identity) lazy.
    // realpath and watch only look: the host's own (perhaps wrapped) ones.
    const fs: FileSystem = { ...host.fs.beneath(bases), realpath: (path) => host.fs.realpath(path) };
    if (host.fs.watch) fs.watch = (path, onChange) => host.fs.watch!(path, onChange);
    else delete fs.watch;
    confined = Object.create(host, { fs: { value: fs, enumerable: true }, resolvePath: { value: confinedResolvePath(host, bases), enumerable: true } }) as Host;
    byBases.set(key, confined);
  }
  return confined;
}

const confinedHosts = new WeakMap<Host, Map<string, Host>>();

/** Options of {@link confineHost}. */
export interface ConfineOptions {
  /**
   * A read-only view (the dashboard's): paths outside every base are not
   * read either, and nothing is written (see `readOnlyView`,
   * runtime/guarded-host.ts). A host without `beneath` is still confined,
   * by the path's name alone.
   */
  readOnly?: boolean;
}

/**
 * A confined host's `resolvePath`: a path beneath a base keeps its own
 * name. Resolving it as Python does (symlinks followed) would name where a
 * symlink there leads, outside the confinement, and the walk would never
 * see the link to refuse it.
 */
function confinedResolvePath(host: Host, bases: readonly string[]): (path: string) => string {
  const roots = bases.map((base) => nodePath.resolve(base));
  return (path) => {
    const lexical = nodePath.isAbsolute(path) ? nodePath.resolve(path) : nodePath.resolve(host.resolvePath('.'), path);
    return roots.some((root) => isInside(lexical, root)) ? lexical : host.resolvePath(path);
  };
}


/** The folder lock's file name; other readers (the RPC server) wait while it exists. */
export const LOCK_NAME = '.acp.lock';
/** The breaker lock's file name (taken while breaking an abandoned lock). */
export const LOCK_BREAKER = '.acp.lock.break';
/**
 * The lease of a lock: its holder rewrites the lock file (fresh mtime) every
 * quarter of it, so a lock whose holder cannot be judged (another machine,
 * another PID namespace, a host without a process table) is held while its
 * lease is fresh, and abandoned once the holder stopped renewing it.
 */
const LOCK_LEASE_MS = 10_000;
/** Kept for the breaker's shorter lease (see {@link LOCK_BREAKER_STALE_MS}). */
const LOCK_ABANDON_MS = LOCK_LEASE_MS;
/**
 * No append holds the lock this long; a lock this old whose holder is alive
 * and renewing is stuck (a hook past its deadline is stopped long before).
 */
const LOCK_MAX_HOLD_MS = 10 * 60_000;
/** A breaker is held for about a millisecond; older than this and unjudgeable, it is abandoned. */
const LOCK_BREAKER_STALE_MS = 2000;

interface LockInfo {
  pid: number;
  hostname?: string;
  token: string;
  at: number;
  /** See {@link ProcessIdentity}; absent in locks of older versions. */
  bootId?: string;
  pidNs?: string;
  start?: string;
  leaseMs?: number;
}

/** The text of this process's lock (or breaker) file. */
function lockContent(host: Host, token: string, at = host.now().getTime()): string {
  const id = host.identity;
  return JSON.stringify({ pid: host.pid, hostname: host.hostname, token, at, bootId: id?.bootId, pidNs: id?.pidNamespace, start: id?.startTime, leaseMs: LOCK_LEASE_MS });
}

async function readLockInfo(host: Host, path: string, maxBytes = LOCK_MAX_BYTES): Promise<{ info: LockInfo | undefined; raw: string; mtimeMs: number } | undefined> {
  const stat = await host.fs.stat(path);
  if (!stat) return undefined;
  if (!stat.isFile) throw new AcpError(`${path} is not a lock file (a ${stat.isDirectory ? 'directory' : 'special file'}); remove it`);
  let raw = '';
  try {
    raw = new TextDecoder().decode(await readCapped(host, path, maxBytes, nodePath.basename(path)));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  let info: LockInfo | undefined;
  try {
    const parsed = JSON.parse(raw);
    if (isObject(parsed) && typeof parsed.pid === 'number') info = parsed as unknown as LockInfo;
  } catch {
    info = undefined;
  }
  return { info, raw, mtimeMs: stat.mtimeMs };
}

/**
 * Whether this process can judge the lock's holder by its pid: same machine,
 * same boot, same PID namespace. Fields a side could not read are taken as
 * equal only when the lock predates them (older versions wrote pid and host).
 */
function holderVisible(host: Host, info: LockInfo): boolean {
  if (info.hostname !== undefined && info.hostname !== host.hostname) return false;
  const id = host.identity;
  if (info.bootId !== undefined && info.bootId !== id?.bootId) return false;
  if (info.pidNs !== undefined && info.pidNs !== id?.pidNamespace) return false;
  // A lock of this version without a namespace, read by a host that has one
  // (or the reverse): the writer could not read it, so cannot be placed.
  if (info.leaseMs !== undefined && (info.pidNs === undefined) !== (id?.pidNamespace === undefined)) return false;
  return true;
}

/**
 * Whether a lock's holder is gone: dead (or its pid reused) in this PID
 * namespace, or, when it cannot be judged from here, silent past its lease.
 * A fresh lease is never broken unless the holder is provably gone.
 */
function isLockAbandoned(host: Host, lock: { info: LockInfo | undefined; mtimeMs: number }, abandonMs = LOCK_ABANDON_MS): boolean {
  const age = host.now().getTime() - lock.mtimeMs;
  // A torn lock file (holder died while writing it) gets a short grace period.
  if (!lock.info) return age > Math.min(1000, abandonMs);
  const lease = Math.min(abandonMs, typeof lock.info.leaseMs === 'number' && lock.info.leaseMs > 0 ? lock.info.leaseMs : abandonMs);
  if (!holderVisible(host, lock.info)) return age > lease;
  const alive = host.isProcessAlive(lock.info.pid);
  if (alive === false) return true;
  if (alive === undefined) return age > lease;
  // Alive: the holder itself, or an unrelated process that got its pid.
  const start = typeof lock.info.start === 'string' ? host.processStartTime?.(lock.info.pid) : undefined;
  if (start !== undefined) return start !== lock.info.start || age > LOCK_MAX_HOLD_MS;
  // No start time to compare (an older lock, a host without /proc): the
  // holder renews its lease, so a lock past it names a dead or reused pid.
  return age > lease;
}

/**
 * Look at a folder's lock without taking it (for `acp doctor`). Raises an
 * {@link AcpError} when `.acp.lock` is not a regular file.
 */
export async function inspectFolderLock(host: Host, folder: string): Promise<FolderLockState> {
  const lock = await readLockInfo(host, nodePath.join(folder, LOCK_NAME));
  const breaker = await readLockInfo(host, nodePath.join(folder, LOCK_BREAKER)).catch(() => undefined);
  const now = host.now().getTime();
  const state: FolderLockState = { status: 'free' };
  if (breaker) state.breaker = { ageMs: now - breaker.mtimeMs, abandoned: isLockAbandoned(host, breaker, LOCK_BREAKER_STALE_MS), raw: breaker.raw };
  if (!lock) return state;
  state.status = isLockAbandoned(host, lock) ? 'abandoned' : 'held';
  state.ageMs = now - lock.mtimeMs;
  state.raw = lock.raw;
  if (lock.info) {
    state.pid = lock.info.pid;
    if (typeof lock.info.hostname === 'string') state.hostname = lock.info.hostname;
    if (holderVisible(host, lock.info)) state.alive = host.isProcessAlive(lock.info.pid);
  }
  return state;
}

/** "pid 12 on host-a (another PID namespace), held 3 s": the holder, for a waiter. */
function describeHolder(host: Host, lock: { info: LockInfo | undefined; mtimeMs: number; raw: string } | undefined): string {
  if (!lock) return 'a holder that just left';
  if (!lock.info) return `a torn lock file (${JSON.stringify(lock.raw.slice(0, 80))})`;
  const info = lock.info;
  const where = info.hostname ? ` on ${info.hostname}` : '';
  const hidden = holderVisible(host, info) ? '' : ' (another machine, boot or PID namespace: judged by its lease)';
  const age = Math.max(0, Math.round((host.now().getTime() - (typeof info.at === 'number' ? info.at : lock.mtimeMs)) / 1000));
  return `pid ${info.pid}${where}${hidden}, held ${age} s`;
}

/**
 * Hold the folder's exclusive lock while `fn` runs, renewing its lease. A
 * lock whose holder is gone is broken under a second "breaker" lock, so two
 * processes never both break it and steal a live holder's lock. With
 * `options.held` (the handle of a lock the caller holds on this folder), `fn`
 * runs at once: the lock is not taken twice.
 */
export async function withFolderLock<T>(host: Host, folder: string, fn: (lock: FolderLock) => Promise<T>, options: FolderLockOptions = {}): Promise<T> {
  const lockPath = nodePath.join(folder, LOCK_NAME);
  if (options.held) {
    // Checked against the lock file: a stale or foreign handle must not let a write in unlocked.
    const current = await readLockInfo(host, lockPath);
    if (options.held.folder !== folder || current?.info?.token !== options.held.token) throw new AcpError(`the lock on ${folder} passed in is not held`);
    return fn(options.held);
  }
  const token = `${host.pid}-${Math.random().toString(36).slice(2)}`;
  const started = host.now().getTime();
  const deadline = started + (options.timeoutMs ?? 60_000);
  let told = false;
  const leaveQueue = await localTurn(host, lockPath, deadline, async () => {
    told = true;
    options.onWait?.(`waiting for the lock on ${folder}: held by ${describeHolder(host, await readLockInfo(host, lockPath).catch(() => undefined))}`);
  });
  try {
    return await holdFolderLock(host, folder, fn, { ...options, onWait: told ? undefined : options.onWait, token, started, deadline });
  } finally {
    leaveQueue();
  }
}

/**
 * Writers of this process queued for a folder's lock, by host and lock path.
 * Without it, in-process writers (the RPC server appending for many agents,
 * an embedding) would poll the lock file with back-off while a neighbour
 * holds it: 16 concurrent library appends managed ~80/s. The file lock is
 * still taken by each, against other processes.
 */
const localQueues = new WeakMap<Host, Map<string, Promise<void>>>();

/**
 * Wait until the writers of this process queued before us on `lockPath` are
 * done, or until `deadline` (then the file lock's own wait reports the
 * timeout, naming the holder); after a second of waiting, `tell` says who
 * holds the lock, as the file lock's wait does. Returns the call that lets
 * the next one in.
 */
async function localTurn(host: Host, lockPath: string, deadline: number, tell: () => Promise<void>): Promise<() => void> {
  let queues = localQueues.get(host);
  if (!queues) localQueues.set(host, (queues = new Map()));
  const before = queues.get(lockPath);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = (before ?? Promise.resolve()).then(() => mine);
  queues.set(lockPath, tail);
  const leave = (): void => {
    release();
    if (queues.get(lockPath) === tail) queues.delete(lockPath);
  };
  if (before) {
    const waitUntil = async (until: number): Promise<boolean> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, until - host.now().getTime()))));
      return Promise.race([before.then(() => true), expired]).finally(() => clearTimeout(timer));
    };
    if (!(await waitUntil(Math.min(deadline, host.now().getTime() + 1000)))) {
      await tell().catch(() => undefined);
      await waitUntil(deadline);
    }
  }
  return leave;
}

/**
 * The waiting line's tickets: `.acp.lock.wait.{n}`, one per process waiting
 * for a folder's lock (its writers queue in-process first), holding the
 * waiter's identity like the lock file and renewed like its lease. Only the
 * lowest numbers may take the lock; a newcomer that finds tickets queues
 * behind them instead of taking a lock just released, so no writer waits
 * forever while others keep arriving (first come, first served).
 */
export const LOCK_TICKET_PREFIX = '.acp.lock.wait.';
/**
 * The first two in line may take the lock: a hand-over to exactly one
 * waiter costs a wake-up of that process (tens of ms on a loaded machine);
 * with two, whichever runs first takes it, and the other is first next time.
 */
const LINE_FRONT = 2;
/** How often the front of the line tries the lock, and how often the others look whether they are in front. */
const HEAD_POLL_MS = 2;
const LINE_POLL_MS = 15;
/** How often a waiter looks whether the ticket ahead of it was abandoned (its holder killed). */
const HEAD_CHECK_MS = 250;

/** A ticket holds a waiter's identity (~250 bytes); anything larger is not one. */
const TICKET_MAX_BYTES = 4096;
/** How many taken numbers a newcomer steps over (files that are not tickets) before it waits without a ticket. */
const TICKET_TRIES = 64;

/**
 * The number of a ticket's file name, or `undefined` when the name is not a
 * ticket's: canonical decimal only (no `01`, `1e3`, ` 7`, `+5`: one number,
 * one name) within the safe integer range, so that the next number is
 * always one more.
 */
export function ticketNumber(name: string): number | undefined {
  if (!name.startsWith(LOCK_TICKET_PREFIX)) return undefined;
  const digits = name.slice(LOCK_TICKET_PREFIX.length);
  if (!/^[1-9][0-9]{0,15}$/.test(digits)) return undefined;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Judge one file of the line. Trusted only for its liveness proof: a
 * regular file (a symlink is not followed: `stat` says what the name is),
 * small, holding a waiter's identity, renewed within its lease (waiters
 * rewrite their ticket every quarter lease, so a fresh one that names a
 * live process still expires once nobody renews it), and neither dated in
 * the future nor naming a dead process.
 */
async function judgeTicket(host: Host, folder: string, name: string): Promise<LockTicket> {
  const number = ticketNumber(name);
  const garbage = (why: string): LockTicket => ({ name, ...(number === undefined ? {} : { number }), kind: 'garbage', why });
  if (number === undefined) return garbage('not a ticket name (canonical decimal numbers only)');
  const path = nodePath.join(folder, name);
  const stat = await host.fs.stat(path).catch(() => null);
  if (!stat) return garbage('gone');
  if (stat.isSymlink) return garbage('a symbolic link');
  if (!stat.isFile) return garbage(stat.isDirectory ? 'a directory' : 'not a regular file (a FIFO, device or socket)');
  if (stat.size > TICKET_MAX_BYTES) return garbage(`larger than ${TICKET_MAX_BYTES} bytes`);
  const ticket = await readLockInfo(host, path, TICKET_MAX_BYTES).catch(() => undefined);
  if (!ticket) return garbage('unreadable');
  if (!ticket.info || typeof ticket.info.token !== 'string' || !Number.isSafeInteger(ticket.info.pid)) return garbage('does not hold a waiter\'s identity');
  const ageMs = host.now().getTime() - ticket.mtimeMs;
  const found = { name, number, pid: ticket.info.pid, raw: ticket.raw, ageMs, ...(typeof ticket.info.hostname === 'string' ? { hostname: ticket.info.hostname } : {}) };
  if (ageMs < -LOCK_LEASE_MS) return { ...found, kind: 'stale', why: 'dated in the future' };
  if (ageMs > LOCK_LEASE_MS) return { ...found, kind: 'stale', why: `not renewed for ${Math.round(ageMs / 1000)} s (its waiter is gone or stopped)` };
  if (isLockAbandoned(host, ticket)) return { ...found, kind: 'stale', why: 'its waiter is gone' };
  // Every waiter of this machine records its start time where the host reads one: a ticket without it names a process that did not write it.
  if (holderVisible(host, ticket.info) && typeof ticket.info.start !== 'string' && host.processStartTime?.(ticket.info.pid) !== undefined) {
    return { ...found, kind: 'stale', why: `names pid ${ticket.info.pid} without its start time (not a ticket that process wrote)` };
  }
  return { ...found, kind: 'live', why: 'a waiter renewing its ticket', liveUntil: ticket.mtimeMs + LOCK_LEASE_MS };
}

/**
 * The files of the waiting line (names beginning with the ticket prefix,
 * but not the `.stale` files of removeIfUnchanged), each judged once: a
 * name judged before (`known`) is not read again, so N files cost O(N)
 * reads over the whole wait, not per attempt.
 */
async function lineFiles(host: Host, folder: string, known: Map<string, LockTicket> = new Map()): Promise<Map<string, LockTicket>> {
  const names = (await host.fs.readDir(folder)).filter((name) => name.startsWith(LOCK_TICKET_PREFIX) && !ASIDE_NAME.test(name));
  const present = new Set(names);
  for (const name of known.keys()) if (!present.has(name)) known.delete(name);
  for (const name of names) if (!known.has(name)) known.set(name, await judgeTicket(host, folder, name));
  return known;
}

/** The numbers of the live tickets, lowest first. */
function liveNumbers(line: Map<string, LockTicket>): number[] {
  return [...line.values()].filter((t) => t.kind === 'live').map((t) => t.number!).sort((a, b) => a - b);
}

/** Judge again the ticket in front of `ahead` and those whose lease ended, and clear the stale ones. */
async function rejudgeAhead(host: Host, folder: string, line: Map<string, LockTicket>, ahead: readonly number[], now: number): Promise<void> {
  for (const [index, n] of ahead.entries()) {
    const name = `${LOCK_TICKET_PREFIX}${n}`;
    if (index === 0 || (line.get(name)?.liveUntil ?? 0) <= now) line.set(name, await judgeTicket(host, folder, name));
  }
  await clearStaleTickets(host, folder, line);
}

/** Clear the stale tickets judged so far (each once: a cleared one is forgotten). */
async function clearStaleTickets(host: Host, folder: string, line: Map<string, LockTicket>): Promise<void> {
  for (const ticket of line.values()) {
    if (ticket.kind !== 'stale') continue;
    await removeIfUnchanged(host, nodePath.join(folder, ticket.name), ticket.raw!).catch(() => undefined);
    line.delete(ticket.name);
  }
}

/**
 * Every file of a folder's waiting line, judged (for `acp doctor`); with
 * `clear`, remove what is not live (a directory, which `remove` cannot
 * take, stays, and is reported). Returns the tickets found.
 */
export async function inspectLockLine(host: Host, folder: string, clear = false): Promise<{ tickets: LockTicket[]; cleared: LockTicket[] }> {
  const tickets = [...(await lineFiles(host, folder)).values()].sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity) || (a.name < b.name ? -1 : 1));
  const cleared: LockTicket[] = [];
  if (!clear) return { tickets, cleared };
  for (const ticket of tickets) {
    if (ticket.kind === 'live') continue;
    const path = nodePath.join(folder, ticket.name);
    try {
      if (ticket.raw !== undefined) await removeIfUnchanged(host, path, ticket.raw);
      else await host.fs.remove(path);
      cleared.push(ticket);
    } catch {
      // A directory (or a file this user cannot remove): left for a person; writers ignore it.
    }
  }
  return { tickets, cleared };
}

/**
 * Take a ticket behind the last live one. A number taken by something else
 * (a file that is not a live ticket) is stepped over, a bounded number of
 * times and within the safe range; `undefined` when no number could be had
 * (the line is full of such files): the caller waits without a ticket.
 */
async function takeTicket(host: Host, folder: string, token: string, line: Map<string, LockTicket>): Promise<number | undefined> {
  let n = (liveNumbers(line).at(-1) ?? 0) + 1;
  for (let tries = 0; tries < TICKET_TRIES && Number.isSafeInteger(n); tries++, n++) {
    try {
      await host.fs.writeFile(nodePath.join(folder, `${LOCK_TICKET_PREFIX}${n}`), lockContent(host, token), { exclusive: true });
      return n;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
  return undefined;
}

/** Try to create the lock file: true when taken, false when someone holds it. */
async function tryLock(host: Host, folder: string, token: string): Promise<boolean> {
  try {
    await host.fs.writeFile(nodePath.join(folder, LOCK_NAME), lockContent(host, token), { exclusive: true });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') throw new AcpError(`missing protocol.json in ${folder}`, 2, 'invalid_folder');
    if (['EACCES', 'EPERM', 'EROFS'].includes(errorCode(error) ?? '')) {
      throw new AcpError(`cannot write in ${folder} (${errorCode(error)}): appending needs write access to the folder`);
    }
    throw error;
  }
}

/** Take the lock file (waiting in line while another holds it), run `fn` under it, release it. */
async function holdFolderLock<T>(
  host: Host,
  folder: string,
  fn: (lock: FolderLock) => Promise<T>,
  options: FolderLockOptions & { token: string; started: number; deadline: number },
): Promise<T> {
  const { token } = options;
  const lockPath = nodePath.join(folder, LOCK_NAME);
  // Nobody in line and the lock free: taken at once (the common case).
  const line = await lineFiles(host, folder).catch(() => new Map<string, LockTicket>());
  const lineEmpty = liveNumbers(line).length === 0;
  if (!lineEmpty || !(await tryLock(host, folder, token))) await waitInLine(host, folder, line, options);
  const lease = renewLease(host, lockPath, token);
  try {
    return await fn({ folder, token });
  } finally {
    await lease.stop();
    const current = await readLockInfo(host, lockPath).catch(() => undefined);
    if (current?.info?.token === token) await host.fs.remove(lockPath);
  }
}

/**
 * Wait in line for the lock: take a ticket, and once it is in front, take
 * the lock as soon as it is free (breaking it when its holder is gone);
 * meanwhile clear the tickets of waiters that are gone. Only live tickets
 * (see {@link judgeTicket}) are waited for; each file of the line is read
 * once, and the one in front again every {@link HEAD_CHECK_MS}. The timeout
 * is a last resort against a holder that never lets go: it counts from the
 * last time the line moved (a writer ahead served, the lock changing
 * hands), so a long line on a loaded machine is waited out however long it
 * takes; then the ticket is withdrawn and `lock_timeout` raised, naming the
 * holder and the line. An aborted `signal` withdraws it too.
 */
async function waitInLine(host: Host, folder: string, line: Map<string, LockTicket>, options: FolderLockOptions & { token: string; started: number; deadline: number }): Promise<void> {
  const { token, started, deadline } = options;
  const patience = deadline - started;
  let movedAt = host.now().getTime();
  let lastAhead = Number.POSITIVE_INFINITY;
  let lastHolder: string | undefined;
  const lockPath = nodePath.join(folder, LOCK_NAME);
  await clearStaleTickets(host, folder, line);
  const ticket = new OwnTicket(host, folder, token);
  await ticket.take(line);
  let told = !options.onWait;
  let checkedHead = host.now().getTime();
  try {
    for (;;) {
      if (options.signal?.aborted) throw new AcpAbortError();
      await lineFiles(host, folder, line);
      // Our ticket was cleared as abandoned (this process stalled past its lease): back in line.
      if (ticket.lost(line)) await ticket.take(line);
      const ahead = liveNumbers(line).filter((n) => n < ticket.number);
      const now = host.now().getTime();
      if (ahead.length < lastAhead) [lastAhead, movedAt] = [ahead.length, now];
      if (ahead.length < LINE_FRONT) {
        if (await tryLock(host, folder, token)) return;
        const lock = await readLockInfo(host, lockPath);
        if (lock && isLockAbandoned(host, lock)) {
          // Broken (or someone else broke it): try again at once, nobody to wait for.
          await breakLock(host, folder, lock.raw);
          continue;
        }
        const holder = lock?.info?.token ?? lock?.raw;
        if (holder !== lastHolder) [lastHolder, movedAt] = [holder, now];
      }
      if (ahead.length && now - checkedHead >= HEAD_CHECK_MS) {
        // The waiter in front may have been killed meanwhile, and any ticket
        // ahead past its lease may not have been renewed: judged again (each
        // at most once a lease), cleared if so.
        checkedHead = now;
        await rejudgeAhead(host, folder, line, ahead, now);
      }
      if (now - movedAt > patience) {
        const holder = describeHolder(host, await readLockInfo(host, lockPath).catch(() => undefined));
        const queue = ahead.length ? `; ${ahead.length} writer(s) ahead in line` : '';
        throw new AcpError(`timed out waiting for the lock on ${folder} after ${Math.round((now - started) / 1000)} s (held by ${holder}${queue}); it did not change hands for ${Math.round((now - movedAt) / 1000)} s: retry, or see acp doctor`, 2, 'lock_timeout');
      }
      const current = !told && now - started >= 1000 ? await readLockInfo(host, lockPath).catch(() => undefined) : undefined;
      if (current) {
        told = true;
        const holder = describeHolder(host, current);
        options.onWait!(`waiting for the lock on ${folder}: held by ${holder}${ahead.length ? `; ${ahead.length} writer(s) ahead in line` : ''}`);
      }
      await sleep(ahead.length < LINE_FRONT ? HEAD_POLL_MS : LINE_POLL_MS);
    }
  } finally {
    await ticket.withdraw();
  }
}

/**
 * This process's ticket in the line, renewed while it waits. Without a
 * number (every number tried was taken by files that are not tickets) it
 * waits behind every live ticket, ticketless, and still within the bound.
 */
class OwnTicket {
  number = Number.POSITIVE_INFINITY;
  #lease: { stop(): Promise<void> } | undefined;
  readonly #host: Host;
  readonly #folder: string;
  readonly #token: string;

  constructor(host: Host, folder: string, token: string) {
    this.#host = host;
    this.#folder = folder;
    this.#token = token;
  }

  get #path(): string {
    return nodePath.join(this.#folder, `${LOCK_TICKET_PREFIX}${this.number}`);
  }

  /** Take a ticket behind the live ones (after withdrawing one held). */
  async take(line: Map<string, LockTicket>): Promise<void> {
    await this.#lease?.stop();
    this.number = (await takeTicket(this.#host, this.#folder, this.#token, line)) ?? Number.POSITIVE_INFINITY;
    this.#lease = Number.isFinite(this.number) ? renewLease(this.#host, this.#path, this.#token) : undefined;
    // Ours is live: no need to read it back.
    if (Number.isFinite(this.number)) line.set(`${LOCK_TICKET_PREFIX}${this.number}`, { name: `${LOCK_TICKET_PREFIX}${this.number}`, number: this.number, kind: 'live', why: 'this process' });
  }

  /** Whether the ticket taken is no longer in the line (cleared by another writer). */
  lost(line: Map<string, LockTicket>): boolean {
    return Number.isFinite(this.number) && !line.has(`${LOCK_TICKET_PREFIX}${this.number}`);
  }

  /** Stop renewing, and remove the ticket if it is still ours. */
  async withdraw(): Promise<void> {
    await this.#lease?.stop();
    if (!Number.isFinite(this.number)) return;
    const current = await readLockInfo(this.#host, this.#path, TICKET_MAX_BYTES).catch(() => undefined);
    if (current?.info?.token === this.#token) await this.#host.fs.remove(this.#path);
  }
}

/**
 * Rewrite the lock (same token, fresh mtime) every quarter lease while it is
 * held, atomically (rename over it: the lock never disappears meanwhile).
 * The renewal timer is armed only if the holder is still at work after this
 * turn of the event loop: an append under the lock usually finishes before
 * (its file access is synchronous), and a process's first timer costs ~0.4
 * ms of a ~40 ms command. A quarter lease later than the lock is ample.
 */
function renewLease(host: Host, lockPath: string, token: string): { stop(): Promise<void> } {
  let pending: Promise<void> = Promise.resolve();
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const renew = (): void => {
    pending = pending.then(async () => {
      if (stopped) return;
      const current = await readLockInfo(host, lockPath).catch(() => undefined);
      if (current?.info?.token === token && !stopped) await writeFileAtomic(host, lockPath, lockContent(host, token, current.info.at));
    }).catch(() => undefined);
  };
  const later = globalThis.setImmediate ?? ((fn: () => void) => setTimeout(fn, 0));
  const cancel = globalThis.clearImmediate ?? clearTimeout;
  const arming = later(() => {
    if (!stopped) timer = setInterval(renew, LOCK_LEASE_MS / 4);
  });
  return {
    async stop() {
      stopped = true;
      cancel(arming as never);
      clearInterval(timer);
      await pending;
    },
  };
}

async function breakLock(host: Host, folder: string, staleRaw: string): Promise<void> {
  const lockPath = nodePath.join(folder, LOCK_NAME);
  const breakerPath = nodePath.join(folder, LOCK_BREAKER);
  const mine = lockContent(host, Math.random().toString(36).slice(2));
  try {
    await host.fs.writeFile(breakerPath, mine, { exclusive: true });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    // A breaker is held for a millisecond; one whose holder died (killed
    // while breaking) is cleared, by its recorded pid or else by its age.
    const breaker = await readLockInfo(host, breakerPath).catch(() => undefined);
    if (breaker && isLockAbandoned(host, breaker, LOCK_BREAKER_STALE_MS)) await removeIfUnchanged(host, breakerPath, breaker.raw);
    await sleep(2);
    return;
  }
  try {
    const again = await readLockInfo(host, lockPath);
    if (again && again.raw === staleRaw) await host.fs.remove(lockPath);
  } finally {
    await host.fs.remove(breakerPath);
  }
}

/** The name {@link removeIfUnchanged} moves a file aside under (`{name}.{pid}.{random}.stale`). */
const ASIDE_NAME = /\.[0-9]+\.[a-z0-9]*\.stale$/;

/**
 * Remove `path` only if it still holds `raw`: move it aside atomically,
 * check, and put back a file that changed meanwhile (someone else's).
 */
async function removeIfUnchanged(host: Host, path: string, raw: string): Promise<void> {
  const aside = `${path}.${host.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    await host.fs.rename(path, aside);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  const moved = await readLockInfo(host, aside).catch(() => undefined);
  if (moved && moved.raw !== raw) await host.fs.writeFile(path, moved.raw, { exclusive: true }).catch(() => undefined);
  await host.fs.remove(aside);
}

/**
 * Replace a file atomically: write a temporary sibling, then rename it over.
 * `throughLink`: when `path` is a symbolic link, replace what it resolves to
 * and keep the link, as Python's `write_text` (which the other tools rewrite
 * protocol.json with) writes through it.
 */
export async function writeFileAtomic(host: Host, path: string, text: string | Uint8Array, options: WriteAtomicOptions = {}): Promise<void> {
  if (options.throughLink && (await host.fs.stat(path))?.isSymlink) path = await host.fs.realpath(path);
  const temp = `${nodePath.join(nodePath.dirname(path), `.${nodePath.basename(path)}.${host.pid}.${Math.random().toString(36).slice(2)}.tmp`)}`;
  try {
    await host.fs.writeFile(temp, text, { exclusive: true, temporary: true });
    await host.fs.rename(temp, path);
  } catch (error) {
    await host.fs.remove(temp).catch(() => undefined);
    throw error;
  }
}

/** The error for an events.jsonl that is not UTF-8 (`error`: the decoder's). */
export function logDecodeError(bytes: Uint8Array, error: unknown): unknown {
  // A writer killed mid-append can cut a multi-byte character: say so when
  // only the unterminated last line is undecodable.
  const end = Math.max(bytes.lastIndexOf(0x0a), bytes.lastIndexOf(0x0d)) + 1;
  let headValid = false;
  try {
    headValid = end < bytes.length && new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end)) !== undefined;
  } catch {
    headValid = false;
  }
  if (headValid) return new AcpError('events.jsonl is not valid UTF-8 (the last line is incomplete: a writer was interrupted; `acp doctor --fix` repairs it)');
  return error;
}

/** How much of events.jsonl is read at a time to find its first line. */
const FIRST_LINE_PIECE = 16 * 1024;

/**
 * seq 1 of `folder`'s log as an object (undefined: none, or not JSON): an
 * append that did not read the log (the append checkpoint stood in for it)
 * reads its first line only, to know whether the collaboration is signed.
 */
export async function readFirstEvent(host: Host, folder: string): Promise<Record<string, unknown> | undefined> {
  const file = await openCapped(host, nodePath.join(folder, 'events.jsonl'), READ_LIMITS.log, 'events.jsonl');
  try {
    const pieces: Uint8Array[] = [];
    for (let position = 0; position < file.size; ) {
      const piece = (await file.read(position, FIRST_LINE_PIECE)).slice();
      if (!piece.length) break;
      const end = piece.indexOf(0x0a);
      pieces.push(end < 0 ? piece : piece.subarray(0, end));
      if (end >= 0) break;
      position += piece.length;
    }
    const event: unknown = JSON.parse(new TextDecoder().decode(joinBytes(pieces)));
    return isObject(event) ? event : undefined;
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

/**
 * Where protocol.json is written when it is a symbolic link to nothing: its
 * target, created as the Python tools create it (to them such a link is no
 * protocol.json: `Path.exists()` is false). A target outside the folder is
 * refused: init writes nothing out of the collaboration folder through a
 * link another writer of the folder could have planted.
 */
export async function danglingLinkTarget(host: Host, folder: string, protocolPath: string): Promise<string | undefined> {
  if (!(await host.fs.stat(protocolPath))?.isSymlink) return undefined;
  try {
    await host.fs.realpath(protocolPath);
    return undefined;
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  const target = host.resolvePath(protocolPath);
  const realFolder = host.resolvePath(folder);
  if (!isInside(target, realFolder)) {
    throw new AcpError(`protocol.json is a symbolic link to ${target}, outside the folder: init does not create a file there (the Python tools would)`);
  }
  return target;
}
