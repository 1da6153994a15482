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
import { reportBody } from '../report.ts';
import { loadSnapshot } from '../snapshot.ts';
import { escapeHtml as h } from '../text.ts';
import type { Listed } from './page.ts';

/** How deep below the root a collaboration folder may sit. */
const MAX_DEPTH = 3;
/** Bounds of one scan: a huge tree costs a bounded walk, not a stall. */
const MAX_COLLABS = 500;
const MAX_DIRS = 5000;
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

/** A followed collaboration: its row's facts and its live view. */
export interface BoardEntry extends Listed {
  folder: string;
  /** The live view's HTML (the report's content). */
  detail: string;
  stop: AbortController;
  /** Settled once the first view is published (or the board closed). */
  ready: Promise<void>;
}

/** What reading needs: the library, a (confined) host, the registry for validate. */
export interface BoardSources {
  api: HumansApi;
  host: Host;
  registry: Registry;
}

/** The collaborations under a root, followed live. */
export class Board {
  readonly root: string;
  readonly entries = new Map<string, BoardEntry>();
  private readonly sources: BoardSources;
  private readonly signal: AbortSignal;
  private readonly listeners = new Set<(id: string | undefined) => void>();

  constructor(sources: BoardSources, root: string, signal: AbortSignal) {
    this.sources = sources;
    this.root = root;
    this.signal = signal;
  }

  /** Scan the root and read every collaboration once; then keep following them and the root. */
  async start(): Promise<void> {
    await this.rescan();
    await Promise.all([...this.entries.values()].map((entry) => entry.ready));
    void this.watchRoot();
  }

  /** Hear about changes: the id of the collaboration that changed, `undefined` when the list did. */
  subscribe(listener: (id: string | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The collaborations, by folder. */
  list(): BoardEntry[] {
    return [...this.entries.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private emit(id: string | undefined): void {
    for (const listener of this.listeners) listener(id);
  }

  /** Find the collaboration folders (the core's one walk: a folder holding protocol.json; no symbolic link followed), by id. */
  private async scan(): Promise<Map<string, string>> {
    const { api, host } = this.sources;
    const folders = await api.findCollaborations(host, this.root, { depth: MAX_DEPTH, maxFolders: MAX_COLLABS, maxDirs: MAX_DIRS, signal: this.signal });
    return new Map(folders.map((dir) => [relative(this.root, dir) || '.', dir]));
  }

  /** Start following new collaborations and stop following gone ones. */
  private async rescan(): Promise<void> {
    const found = await this.scan();
    let changed = false;
    for (const [id, entry] of this.entries) {
      if (found.has(id)) continue;
      entry.stop.abort();
      this.entries.delete(id);
      changed = true;
    }
    for (const [id, folder] of found) {
      if (this.entries.has(id)) continue;
      const entry = { id, folder, detail: '', stop: new AbortController(), problem: 'not read yet' } as BoardEntry;
      entry.ready = new Promise<void>((ready) => void this.follow(entry, ready));
      this.entries.set(id, entry);
      changed = true;
    }
    if (changed) this.emit(undefined);
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
        if (key !== seen || tries) {
          if (await this.refresh(entry, ++tries >= MAX_RETRIES)) {
            seen = key;
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

  /** Sizes, times and inodes of the files a view is made of. */
  private async stateKey(entry: BoardEntry): Promise<string> {
    const refs = [entry.snapshot?.primary?.ref, ...(entry.snapshot?.supporting ?? []).map((d) => d.ref)].filter((r): r is string => typeof r === 'string');
    const paths = [...WATCHED_FILES, ...refs].map((name) => (isAbsolute(name) ? name : join(entry.folder, name)));
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
      const snapshot = await loadSnapshot(this.sources, entry.folder);
      if (snapshot.logErrors.length && !final) return false;
      entry.snapshot = snapshot;
      entry.problem = undefined;
      entry.detail = reportBody(snapshot, api);
    } catch (error) {
      if (!final) return false;
      const described = api.describeError(error);
      entry.snapshot = undefined;
      entry.problem = described?.message ?? (error instanceof Error ? error.message : String(error));
      entry.detail = `<h2>${h(entry.id)}</h2><p class="errors"><span class="badge bad">unreadable</span> ${h(entry.problem)}</p>`;
    }
    this.emit(entry.id);
    return true;
  }
}
