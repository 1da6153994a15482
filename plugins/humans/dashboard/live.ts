/**
 * What the dashboard pushes: the changed parts of a view, not the view.
 * When a collaboration changes, every page gets its one row (a page that
 * does not show it ignores it) and the pages watching it get the sections
 * of its live view that changed; when the list changes, each page gets its
 * own page of rows. Live views are rendered only for collaborations a page
 * watches, once for all the pages that do, and forgotten when none does:
 * the server's memory follows the pages open, not the folders' size.
 * @module
 */
import type { ServerResponse } from 'node:http';
import type { HumansApi } from '../context.ts';
import type { ReportSection } from '../report.ts';
import type { Board, BoardChange } from './board.ts';
import { detailSections, PAGE_SIZE, pageCount, renderIndexPage, renderRow, type Listed } from './page.ts';

/** An open event stream: the index page and the collaboration (and timeline slice) its page shows. */
export interface Stream {
  res: ServerResponse;
  page: number;
  collab?: string;
  /** The page shows an older slice of the timeline: pushed timelines would replace it. */
  paged: boolean;
}

/** One Server-Sent Event carrying a JSON message (one `data:` line: JSON has no raw line breaks). */
export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The views of a board, rendered for the pages and kept only while a page shows them. */
export class LiveViews {
  private readonly board: Board;
  private readonly token: string;
  private readonly api: HumansApi;
  /** The sections last sent for each watched collaboration (the base of the next difference). */
  private readonly watched = new Map<string, ReportSection[]>();
  /** Rendered index pages, until the next change. */
  private readonly pages = new Map<number, { rows: string; summary: string }>();

  constructor(board: Board, token: string, api: HumansApi) {
    this.board = board;
    this.token = token;
    this.api = api;
  }

  /** A page of the index (clamped to the pages there are). */
  index(page: number): { rows: string; summary: string } {
    const list = this.board.list();
    const shown = Math.min(Math.max(page, 1), pageCount(list.length));
    let rendered = this.pages.get(shown);
    if (!rendered) this.pages.set(shown, (rendered = renderIndexPage(list, shown, this.token, this.board.scanStopped)));
    return rendered;
  }

  /** The index page that lists `collab` (the first without one). */
  pageOf(collab: string | undefined): number {
    const at = collab === undefined ? -1 : this.board.list().findIndex((item) => item.id === collab);
    return at < 0 ? 1 : Math.floor(at / PAGE_SIZE) + 1;
  }

  /** A collaboration's live view (its latest events). */
  sections(collab: string): ReportSection[] {
    return detailSections(this.item(collab), this.token, this.api);
  }

  /** A collaboration's live view showing the page of its timeline that ends at `upto` (read from the log when not kept). */
  async pageSections(collab: string, upto: number): Promise<ReportSection[]> {
    return detailSections(await this.board.withPage(this.item(collab), upto), this.token, this.api, upto);
  }

  /** A page starts watching `collab`: its current sections (kept as the base of later differences). */
  watch(collab: string): ReportSection[] {
    let sections = this.watched.get(collab);
    if (!sections) this.watched.set(collab, (sections = this.sections(collab)));
    return sections;
  }

  /** A page stopped watching `collab`: forget its view when no other page watches it. */
  forgetUnwatched(collab: string, streams: Iterable<Stream>): void {
    for (const stream of streams) if (stream.collab === collab) return;
    this.watched.delete(collab);
  }

  /** The messages a change makes, each with the stream it goes to. */
  *messages(change: BoardChange, streams: Iterable<Stream>): Generator<[Stream, string]> {
    this.pages.clear();
    if (change.kind === 'list') {
      for (const stream of streams) yield [stream, sse('rows', this.index(stream.page))];
      return;
    }
    if (change.kind === 'gone') {
      this.watched.delete(change.id);
      for (const stream of streams) if (stream.collab === change.id) yield [stream, sse('gone', { id: change.id })];
      return;
    }
    const row = sse('row', { id: change.id, html: renderRow(this.item(change.id), this.token) });
    const { all, changed } = this.difference(change.id);
    for (const stream of streams) {
      yield [stream, row];
      if (stream.collab !== change.id) continue;
      if (all !== undefined && !stream.paged) yield [stream, all];
      for (const section of changed) if (!(stream.paged && section.id === 'timeline')) yield [stream, sse('detail', section)];
    }
  }

  /** What changed in a watched collaboration's view: the whole (`view`) when its sections are not the same ones, else the sections that differ. */
  private difference(collab: string): { all?: string; changed: ReportSection[] } {
    const before = this.watched.get(collab);
    if (!before) return { changed: [] };
    const after = this.sections(collab);
    this.watched.set(collab, after);
    if (after.map((s) => s.id).join() !== before.map((s) => s.id).join()) return { all: sse('view', { html: after.map((s) => s.html).join('\n') }), changed: [] };
    return { changed: after.filter((section, i) => section.html !== before[i]!.html) };
  }

  /** A collaboration as listed: followed, or gone. */
  private item(collab: string): Listed {
    const since = this.board.gone.get(collab);
    return this.board.entries.get(collab) ?? { id: collab, ...(since === undefined ? {} : { gone: since }) };
  }
}
