// One served collaboration: watches its folder so that every new event — the
// server's own appends, the CLI's, the Python tools', an agent editing files —
// is noticed the moment it lands, replays it into the derived state, and hands
// it to the subscribers. It also caches task/status between changes.

import * as nodePath from 'node:path';
import type { AcpCore, DerivedState, Host, JsonObject, Registry } from './core.ts';
import type { FolderFollower } from '../../runtime/types.ts';
import { withJsonText } from './jsonrpc.ts';

/** The state carried by notifications: what `wait` and `next` look at. */
export interface StateSnapshot {
  phase: string | null;
  proposalOwner: string | null;
  waitingFor: string[];
}

/** What a subscriber is told. */
export type CollabUpdate =
  | { kind: 'event'; event: JsonObject; state: StateSnapshot }
  | { kind: 'state'; state: StateSnapshot; reset: boolean }
  /** The collaboration folder was removed (no protocol.json, no events.jsonl): the subscription ends. */
  | { kind: 'deleted' };

/** task/status's answer (without the task id). */
export interface TaskStatus {
  phase: unknown;
  proposalOwner: unknown;
  waitingFor: unknown;
  lastEvent: JsonObject | null;
  validation: { ok: boolean; errors: string[]; warnings: string[] };
}

/** task/status's answer: the task id, then the status. */
export type TaskStatusResult = Readonly<{ task: string } & TaskStatus>;

/**
 * A status older than this is recomputed even without a change notification:
 * the safety net for hosts without file-change notifications and for files
 * outside the watched folders (the collaboration folder and the folders of
 * the documents its events name, such as deliverables/).
 */
const STATUS_MAX_AGE_MS = 1000;
/** How long a held folder lock may postpone reading new events (a writer is between appending the line and replacing protocol.json). */
const LOCK_GRACE_MS = 1000;

function snapshot(state: DerivedState): StateSnapshot {
  return { phase: state.phase, proposalOwner: state.proposalOwner, waitingFor: [...state.waitingFor] };
}


/**
 * An extra source of change notifications for a watched collaboration folder
 * (the git plugin fetches the remote, for one): started when the server
 * starts watching `folder`, it calls `changed()` when the folder may have
 * new events; the function it returns stops it when the watch ends.
 */
export type FolderWatcher = (folder: string, changed: () => void) => () => void;

/** A watched collaboration folder. */
export class Collab {
  readonly task: string;
  readonly folder: string;
  /** Events seen so far (complete lines only), and the state after each. */
  readonly events: JsonObject[] = [];
  readonly states: StateSnapshot[] = [];
  private state: DerivedState;
  private size = 0;
  private protocolKey = '';
  private cachedState: StateSnapshot = { phase: null, proposalOwner: null, waitingFor: [] };
  /** protocol.json as of the last scan (undefined until read, or when unreadable). */
  protocol: JsonObject | undefined;
  /** The last protocol.json that could be read (the state announced while it is being rewritten). */
  private lastProtocol: JsonObject | undefined;
  private version = 0;
  private statusCache: { version: number; at: number; value: TaskStatus; result?: TaskStatusResult } | undefined;
  private statusInflight: { version: number; promise: Promise<TaskStatus> } | undefined;
  private scanning = false;
  private dirty = false;
  private lockSeenAt: number | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The core's folder follower (the one `wait` uses): change notifications, with the poll as fallback. */
  private readonly follower: FolderFollower;
  private readonly stopWatchers: Array<() => void>;
  /** Watches of the subfolders holding documents the events name (relative dir → stop). */
  private readonly docWatches = new Map<string, () => void>();
  private pollKey = '';
  private readonly listeners = new Set<(update: CollabUpdate) => void>();
  /** The folder is gone and subscribers were told (see wasDeleted). */
  private deleted = false;
  private closed = false;
  /** Resolves after the first full read. */
  readonly ready: Promise<void>;

  private readonly core: AcpCore;
  private readonly host: Host;
  private readonly registry: Registry;

  constructor(core: AcpCore, host: Host, registry: Registry, task: string, folder: string, pollIntervalMs: number, watchers: readonly FolderWatcher[] = []) {
    this.core = core;
    this.host = host;
    this.registry = registry;
    this.task = task;
    this.folder = folder;
    this.state = core.emptyState();
    this.follower = core.followFolder(host, folder);
    this.stopWatchers = watchers.map((watch) => watch(folder, () => this.touch()));
    void this.watchDocumentDir('deliverables');
    // The poll's baseline is taken before the first read, not at its first
    // tick: when the only change notification of a non-atomic write arrives
    // mid-write (Bun coalesces the truncate and the write into one), the read
    // sees the old or a torn file and the poll is the only safety net — a
    // baseline taken after the write would swallow the change for good.
    this.ready = this.poll().then(() => this.runScans());
    void this.follow(pollIntervalMs);
  }

  /**
   * Scan on every change the follower reports; when a whole interval passes
   * without one, poll (the fallback when change notifications are missing:
   * network file systems, some runtimes, a coalesced notification).
   */
  private async follow(pollIntervalMs: number): Promise<void> {
    while (!this.closed) {
      const changed = await this.follower.next(pollIntervalMs);
      this.follower.settle();
      if (this.closed) return;
      if (changed) this.touch();
      else await this.poll();
    }
  }

  /** Follow every update; returns the function that stops following. */
  listen(listener: (update: CollabUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Number of listeners (subscriptions). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Whose turn it is, by the rule of every door (what `next` and `wait` answer; runtime/turn.ts). */
  get turn(): StateSnapshot {
    return this.cachedState;
  }

  /** The state derived from the events seen so far. */
  get derived(): StateSnapshot {
    return snapshot(this.state);
  }

  /** The turn against `protocol`, from the snapshots this watcher keeps (the rule needs only the last few). */
  private turnOf(protocol: JsonObject): StateSnapshot {
    const from = Math.max(0, this.events.length - this.core.TURN_HISTORY);
    const recent = this.states.slice(from).map((state, i) => ({ ...state, event: this.events[from + i]! }));
    const turn = this.core.decideTurn(protocol, recent);
    return { phase: typeof turn.phase === 'string' ? turn.phase : null, proposalOwner: typeof turn.proposalOwner === 'string' ? turn.proposalOwner : null, waitingFor: turn.waitingFor };
  }

  /** Something in the folder changed (or may have): read it again. */
  touch(): void {
    if (this.closed) return;
    this.version++;
    void this.runScans();
  }

  /**
   * Watch a subfolder holding documents (deliverables/ …): an edit there
   * changes validate's verdict but not the event log, so it only invalidates
   * the task/status cache (no scan, nothing to tell subscribers). A folder
   * that does not exist yet is tried again when another event names it.
   */
  private async watchDocumentDir(dir: string): Promise<void> {
    if (!this.host.fs.watch || this.docWatches.has(dir) || this.closed) return;
    const path = nodePath.join(this.folder, dir);
    if (!(await this.host.fs.stat(path).catch(() => undefined))?.isDirectory || this.docWatches.has(dir) || this.closed) return;
    this.docWatches.set(
      dir,
      this.host.fs.watch(path, () => {
        this.version++;
      }),
    );
  }

  /** The subfolders (relative, inside the collaboration) of the documents some events name. */
  private watchDocumentDirs(events: JsonObject[]): void {
    for (const event of events) {
      if (typeof event.doc !== 'string') continue;
      const dir = nodePath.normalize(nodePath.dirname(event.doc));
      // Only inside the folder: a doc path outside it is refused by the core anyway.
      if (dir === '.' || dir === '..' || dir.startsWith(`..${nodePath.sep}`) || nodePath.isAbsolute(dir)) continue;
      void this.watchDocumentDir(dir);
    }
  }

  /** Stop watching. */
  close(): void {
    this.closed = true;
    this.follower.close();
    for (const stop of this.stopWatchers) stop();
    for (const stop of this.docWatches.values()) stop();
    this.docWatches.clear();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.listeners.clear();
  }

  private async poll(): Promise<void> {
    try {
      const [events, protocol] = await Promise.all([
        this.host.fs.stat(nodePath.join(this.folder, 'events.jsonl')),
        this.host.fs.stat(nodePath.join(this.folder, 'protocol.json')),
      ]);
      const key = `${events?.size}:${events?.mtimeMs}:${protocol?.size}:${protocol?.mtimeMs}`;
      if (key !== this.pollKey) {
        const first = this.pollKey === '';
        this.pollKey = key;
        if (!first) this.touch();
      }
    } catch {
      // a vanished folder: nothing to report
    }
  }

  /** Scans never overlap; a change during a scan causes one more. */
  private async runScans(): Promise<void> {
    if (this.scanning) {
      this.dirty = true;
      return;
    }
    this.scanning = true;
    try {
      do {
        this.dirty = false;
        await this.scan().catch(() => undefined);
      } while (this.dirty && !this.closed);
    } finally {
      this.scanning = false;
    }
  }

  private retrySoon(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.touch();
    }, 25);
    (this.retryTimer as { unref?(): void }).unref?.();
  }

  /**
   * The part of events.jsonl that may hold new lines: with the host's
   * `readTail`, only the bytes after those already read (a long log is not
   * re-read on every change — an append alone causes several notifications);
   * the whole file when the log shrank (a repair) or grew again between the
   * stat and the read, or when the host cannot read a tail.
   */
  private async readNewBytes(): Promise<{ offset: number; bytes: Uint8Array }> {
    const { host } = this;
    const path = nodePath.join(this.folder, 'events.jsonl');
    if (host.fs.readTail && this.size > 0) {
      const stat = await host.fs.stat(path);
      if (stat?.isFile && stat.size >= this.size) {
        const read = await host.fs.readTail(path, stat.size - this.size);
        if (read && read.stat.size - read.bytes.length === this.size) return { offset: this.size, bytes: read.bytes };
      }
    }
    try {
      return { offset: 0, bytes: await host.fs.readFile(path) };
    } catch (error) {
      if (this.core.errorCode(error) !== 'ENOENT') throw error;
      return { offset: 0, bytes: new Uint8Array(0) };
    }
  }

  private async scan(): Promise<void> {
    const { core, host } = this;
    // An append writes its line, then replaces protocol.json, then releases
    // the lock: wait for the release (its own change notification wakes us),
    // so that what we announce and what `next` then reads agree.
    if (await host.fs.stat(nodePath.join(this.folder, core.LOCK_NAME))) {
      const now = Date.now();
      this.lockSeenAt ??= now;
      if (now - this.lockSeenAt < LOCK_GRACE_MS) {
        this.retrySoon();
        return;
      }
    } else this.lockSeenAt = undefined;

    if (await this.wasDeleted()) return;
    const log = await this.readNewBytes();
    let protocol: JsonObject | undefined;
    try {
      protocol = await core.readProtocol(host, this.folder);
    } catch {
      protocol = undefined;
    }
    this.protocol = protocol;
    // Unreadable after having been read: most likely a writer that does not
    // replace protocol.json atomically (an editor, a hand edit, a script) is
    // in the middle of writing it — another process can read it truncated.
    // Keep what was last read rather than announce a bogus state; the
    // finished write brings its own change notification (the poll is the
    // safety net).
    const effective = protocol ?? this.lastProtocol;
    if (protocol) this.lastProtocol = protocol;
    const participants = effective ? core.participantIds(effective) : [];
    // Only complete lines: a line being written is read on the next change.
    const bytes = log.bytes;
    const end = log.offset + bytes.lastIndexOf(10) + 1;
    let reset = false;
    if (log.offset === 0 && end < this.size) {
      // The log was rewritten (a repair truncated a torn tail …): start over.
      reset = this.size > 0;
      this.size = 0;
      this.events.length = 0;
      this.states.length = 0;
      this.state = core.emptyState();
    }
    const fresh: JsonObject[] = [];
    if (end > this.size) {
      let text = '';
      try {
        text = core.decodeText(bytes.subarray(this.size - log.offset, end - log.offset), 'events.jsonl');
      } catch {
        text = '';
      }
      this.size = end;
      const empty = core.readReadiness('');
      for (const event of core.parseEventLog(text).events) {
        core.applyEvent(this.state, event, participants, empty);
        this.events.push(event);
        this.states.push(snapshot(this.state));
        fresh.push(event);
      }
    }
    this.watchDocumentDirs(fresh);
    const cached = effective ? this.turnOf(effective) : { phase: null, proposalOwner: null, waitingFor: [] };
    const key = JSON.stringify(cached);
    const stateChanged = key !== this.protocolKey;
    const initial = this.protocolKey === '';
    this.protocolKey = key;
    this.cachedState = cached;
    if (initial && !reset) return;
    const first = this.events.length - fresh.length;
    for (let i = 0; i < fresh.length; i++) this.emit({ kind: 'event', event: fresh[i]!, state: this.states[first + i]! });
    // protocol.json changed with no new event (edited by hand, repaired …): say so.
    if (reset || (stateChanged && fresh.length === 0)) this.emit({ kind: 'state', state: cached, reset });
  }

  /**
   * A collaboration seen before whose protocol.json and events.jsonl are both
   * gone was deleted: say so once, instead of announcing the old state as new.
   */
  private async wasDeleted(): Promise<boolean> {
    const { host } = this;
    const [protocol, log] = await Promise.all(['protocol.json', 'events.jsonl'].map((name) => host.fs.stat(nodePath.join(this.folder, name))));
    if (protocol || log) {
      this.deleted = false;
      return false;
    }
    if (this.protocolKey === '' || this.deleted) return true;
    this.deleted = true;
    this.emit({ kind: 'deleted' });
    return true;
  }

  private emit(update: CollabUpdate): void {
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch {
        // one broken subscriber must not starve the others
      }
    }
  }

  /** The cached status, when no change was seen since it was computed and it is younger than the safety net. */
  private freshCache(): { version: number; at: number; value: TaskStatus; result?: TaskStatusResult } | undefined {
    const cache = this.statusCache;
    return cache && cache.version === this.version && Date.now() - cache.at < STATUS_MAX_AGE_MS ? cache : undefined;
  }

  /** task/status, cached until the folder changes (and for at most a second). */
  status(): Promise<TaskStatus> {
    const version = this.version;
    const cache = this.freshCache();
    if (cache) return Promise.resolve(cache.value);
    if (this.statusInflight && this.statusInflight.version === version) return this.statusInflight.promise;
    const promise = this.computeStatus().then(
      (value) => {
        if (this.statusInflight?.promise === promise) this.statusInflight = undefined;
        this.statusCache = { version, at: Date.now(), value };
        return value;
      },
      (error: unknown) => {
        if (this.statusInflight?.promise === promise) this.statusInflight = undefined;
        throw error;
      },
    );
    this.statusInflight = { version, promise };
    return promise;
  }

  /**
   * task/status's whole answer (`{task, ...status}`), synchronously, while
   * the cached status is fresh; undefined when it must be computed
   * ({@link status}). The answer is built and serialised once per cached
   * status: it is frozen (nothing edits a cached status) and carries its
   * JSON text (withJsonText), so a thousand calls between two changes cost
   * one JSON.stringify.
   */
  statusResult(): TaskStatusResult | undefined {
    const cache = this.freshCache();
    if (!cache) return undefined;
    if (!cache.result) {
      const result = Object.freeze({ task: this.task, ...cache.value });
      cache.result = withJsonText(result, JSON.stringify(result));
    }
    return cache.result;
  }

  private async computeStatus(): Promise<TaskStatus> {
    const { core, host } = this;
    const protocol = await core.readProtocol(host, this.folder);
    const log = await core.readEventLog(host, this.folder);
    const last = log.events.at(-1);
    const validation = await core.validate(host, this.folder, this.registry);
    const turn = core.turnOf(protocol, log.events);
    return {
      phase: turn.phase ?? null,
      proposalOwner: turn.proposalOwner ?? null,
      waitingFor: turn.waitingFor,
      lastEvent: last ? { seq: last.seq, event: last.event, from: last.from, at: last.at, summary: last.summary } : null,
      validation: { ok: validation.ok, errors: validation.errors, warnings: validation.warnings },
    };
  }
}
