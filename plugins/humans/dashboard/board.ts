/**
 * The collaborations under a root, kept current: found by a bounded scan of
 * the root (again when the root changes), each followed by the core's
 * folder follower (file-system notifications; a cheap stat check as the
 * fallback) and read again through the report's snapshot when its files
 * change, whoever wrote them — acp, or the Python tools that append a line
 * and rewrite protocol.json without a lock. Listeners hear which
 * collaboration changed; nothing here depends on how many pages watch.
 * @module
 */
import { isAbsolute, join, relative } from 'node:path';
import type { Registry } from '../../../runtime/types.ts';
import type { Host } from '../../../runtime/host.ts';
import type { HumansApi } from '../context.ts';
import { LogModel } from '../log-model.ts';
import { loadSnapshot, withTimelinePage } from '../snapshot.ts';
import { TIMELINE_PAGE, type Listed } from './page.ts';

/** How deep below the root a collaboration folder may sit. */
const MAX_DEPTH = 3;
/**
 * Bounds of one scan: a huge tree costs a bounded walk, not a stall. The
 * index says so when a bound stopped the scan, so no collaboration is
 * hidden silently (issue 38).
 */
const MAX_COLLABS = 5000;
const MAX_DIRS = 50_000;
/** How many collaborations that disappeared the index keeps showing as gone. */
const MAX_GONE = 100;
/** Let a writer's burst (the log line, then protocol.json) land before reading. */
const DEBOUNCE_MS = 30;
/** A folder caught mid-write (half a line, an empty protocol.json) is read again this soon… */
const RETRY_MS = 100;
/** …this many times, before what it shows is published as it is. */
const MAX_RETRIES = 20;
/** Without a notification, a stat check this often (a file system without notifications). */
const FALLBACK_MS = 5000;
/** The root is scanned again this often at the latest (collaborations created deeper than its watch sees). */
const RESCAN_MS = 30_000;

/** The files whose change means a collaboration must be read again. */
const WATCHED_FILES = ['protocol.json', 'events.jsonl', 'decisions.md', 'readiness.md', 'conclusion.md', 'proposal.md'];

/** A followed collaboration: its row's facts (its snapshot, or why it cannot be read). */
export interface BoardEntry extends Listed {
  folder: string;
  stop: AbortController;
  /** Settled once the first view is published (or the board closed). */
  ready: Promise<void>;
  /** Its log as last read (a page of events): the next read takes only what was appended. */
  model: LogModel;
}

/** What reading needs: the library, a (confined) host, the registry for validate. */
export interface BoardSources {
  api: HumansApi;
  host: Host;
  registry: Registry;
}

/** Where a scan stops: after this many collaborations found, or folders visited. */
export interface ScanLimits {
  collaborations: number;
  folders: number;
}

/** What changed: the list (a collaboration came or went, the scan's note), one collaboration, or one that is gone. */
export type BoardChange = { kind: 'list' } | { kind: 'entry'; id: string } | { kind: 'gone'; id: string };

/** The collaborations under a root, followed live. */
export class Board {
  readonly root: string;
  readonly entries = new Map<string, BoardEntry>();
  /** Collaborations that were followed and disappeared, with when that was noticed (the latest {@link MAX_GONE}). */
  readonly gone = new Map<string, string>();
  /** Why the last scan stopped before the end of the tree, if it did (the index warns). */
  scanStopped: string | undefined;
  private readonly sources: BoardSources;
  private readonly signal: AbortSignal;
  private readonly listeners = new Set<(change: BoardChange) => void>();

  private readonly limits: ScanLimits;

  constructor(sources: BoardSources, root: string, signal: AbortSignal, limits: ScanLimits = { collaborations: MAX_COLLABS, folders: MAX_DIRS }) {
    this.sources = sources;
    this.root = root;
    this.signal = signal;
    this.limits = limits;
  }

  /** Scan the root and read every collaboration once; then keep following them and the root. */
  async start(): Promise<void> {
    await this.rescan();
    await Promise.all([...this.entries.values()].map((entry) => entry.ready));
    void this.watchRoot();
  }

  /**
   * A collaboration as listed, with the page of its timeline ending at
   * `upto` (read from its log when older than the page kept).
   */
  async withPage(item: Listed, upto: number): Promise<Listed> {
    const entry = this.entries.get(item.id);
    if (!entry || !item.snapshot) return item;
    return { ...item, snapshot: await withTimelinePage(this.sources, item.snapshot, upto, TIMELINE_PAGE) };
  }

  /** Hear about changes. */
  subscribe(listener: (change: BoardChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The collaborations, by folder, with the ones that disappeared (shown as gone). */
  list(): Listed[] {
    const gone: Listed[] = [...this.gone].map(([id, since]) => ({ id, gone: since }));
    return [...this.entries.values(), ...gone].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private emit(change: BoardChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Find the collaboration folders (the core's one walk: a folder holding protocol.json; no symbolic link followed), by id. */
  private async scan(): Promise<{ found: Map<string, string>; stopped?: string }> {
    const { api, host } = this.sources;
    const limits = { depth: MAX_DEPTH, maxFolders: this.limits.collaborations, maxDirs: this.limits.folders, signal: this.signal };
    const { folders, stopped } = await api.findCollaborations(host, this.root, limits);
    const found = new Map(folders.map((dir) => [relative(this.root, dir) || '.', dir]));
    if (!stopped) return { found };
    return { found, stopped: stopped === 'maxFolders' ? `the scan stopped at ${this.limits.collaborations} collaborations` : `the scan stopped after ${this.limits.folders} folders` };
  }

  /** Start following new collaborations and stop following gone ones. */
  private async rescan(): Promise<void> {
    const { found, stopped } = await this.scan();
    let changed = stopped !== this.scanStopped;
    this.scanStopped = stopped;
    for (const [id, entry] of this.entries) {
      // A scan cut short by a bound has not seen every folder: it removes nothing.
      if (found.has(id) || stopped) continue;
      entry.stop.abort();
      this.entries.delete(id);
      this.markGone(id);
      changed = true;
    }
    for (const [id, folder] of found) {
      if (this.entries.has(id)) continue;
      const entry = { id, folder, stop: new AbortController(), problem: 'not read yet', model: new LogModel(this.sources.api, TIMELINE_PAGE) } as BoardEntry;
      entry.ready = new Promise<void>((ready) => void this.follow(entry, ready));
      this.entries.set(id, entry);
      this.gone.delete(id);
      changed = true;
    }
    if (changed) this.emit({ kind: 'list' });
  }

  /** Remember a collaboration that disappeared (the oldest forgotten past the bound) and tell its watchers. */
  private markGone(id: string): void {
    this.gone.set(id, this.sources.api.formatTimestamp(this.sources.host.now()));
    for (const old of this.gone.keys()) if (this.gone.size > MAX_GONE) this.gone.delete(old);
    this.emit({ kind: 'gone', id });
  }

  private async watchRoot(): Promise<void> {
    const { api, host } = this.sources;
    const follower = api.followFolder(host, this.root, this.signal);
    try {
      while (!this.signal.aborted) {
        if (await follower.next(RESCAN_MS)) await api.sleep(DEBOUNCE_MS);
        follower.settle();
        await this.rescan();
      }
    } finally {
      follower.close();
    }
  }

  /**
   * Follow one collaboration until it is gone or the board closes: read it
   * again whenever its files' sizes, times or inodes change. `ready` is
   * called once its first view is published.
   */
  private async follow(entry: BoardEntry, ready: () => void): Promise<void> {
    const { api, host } = this.sources;
    const stop = AbortSignal.any([this.signal, entry.stop.signal]);
    // Watching before the first read: a change made while it reads is not missed.
    const follower = api.followFolder(host, entry.folder, stop);
    let seen: string | undefined;
    let tries = 0;
    try {
      while (!stop.aborted) {
        follower.settle();
        const key = await this.stateKey(entry);
        // protocol.json is gone (the folder removed): scan again, which stops following it and shows it as gone.
        if (key.startsWith('-|')) {
          await this.rescan();
          if (stop.aborted) break;
        }
        if (key !== seen || tries) {
          const refs = this.refsOf(entry).join('\u0000');
          if (await this.refresh(entry, ++tries >= MAX_RETRIES)) {
            // A read that named other deliverables (the first one does) adds their files to the key now: not a change to read again for.
            seen = refs === this.refsOf(entry).join('\u0000') ? key : `${key.slice(0, key.indexOf('#'))}#${await this.statKey(entry.folder, this.refsOf(entry))}`;
            tries = 0;
            ready();
          }
        }
        if (await follower.next(tries ? RETRY_MS : FALLBACK_MS)) await api.sleep(DEBOUNCE_MS);
      }
    } finally {
      follower.close();
      ready();
    }
  }

  /** Sizes, times and inodes of the files a view is made of: the folder's, `#`, its deliverables'. */
  private async stateKey(entry: BoardEntry): Promise<string> {
    return `${await this.statKey(entry.folder, WATCHED_FILES)}#${await this.statKey(entry.folder, this.refsOf(entry))}`;
  }

  /** The deliverables the last read named. */
  private refsOf(entry: BoardEntry): string[] {
    return [entry.snapshot?.primary?.ref, ...(entry.snapshot?.supporting ?? []).map((d) => d.ref)].filter((r): r is string => typeof r === 'string');
  }

  private async statKey(folder: string, names: string[]): Promise<string> {
    const paths = names.map((name) => (isAbsolute(name) ? name : join(folder, name)));
    const stats = await Promise.all(paths.map((path) => this.sources.host.fs.stat(path).catch(() => null)));
    return stats.map((st) => (st ? `${st.size}:${st.mtimeMs}:${st.ino ?? ''}` : '-')).join('|');
  }

  /**
   * Read a collaboration and publish it. A read that fails or meets a bad
   * log line is most likely a writer caught mid-write: unless `final`, it
   * returns false (read again shortly) and the last good view stays up.
   */
  private async refresh(entry: BoardEntry, final: boolean): Promise<boolean> {
    const { api } = this.sources;
    try {
      const snapshot = await loadSnapshot(this.sources, entry.folder, { model: entry.model });
      if (snapshot.logErrors.length && !final) return false;
      entry.snapshot = snapshot;
      entry.problem = undefined;
    } catch (error) {
      if (!final) return false;
      const described = api.describeError(error);
      entry.snapshot = undefined;
      entry.problem = described?.message ?? (error instanceof Error ? error.message : String(error));
    }
    this.emit({ kind: 'entry', id: entry.id });
    return true;
  }
}
