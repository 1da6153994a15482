/**
 * The dashboard's HTML: one row per collaboration (a page of them at a
 * time), the page around the rows and the selected collaboration's live
 * view (the report's own sections), and the page's one script. Everything
 * shown comes from folders other agents write: every value goes through the
 * report's escaping, and the script, allowed by a per-response nonce,
 * inserts only HTML the server rendered. Every piece is bounded in size
 * whatever the folder holds (issue 38): a row clips long text (the full text
 * is in the live view), the timeline is paged, and a section too large to
 * push live says so instead.
 * @module
 */
import type { HumansApi } from '../context.ts';
import { REPORT_CSS } from '../report-css.ts';
import { reportSections, since, turn, verdictBadge, type ReportSection } from '../report.ts';
import type { Snapshot } from '../snapshot.ts';
import { escapeHtml as h, formatDuration } from '../text.ts';

/** A collaboration as the dashboard lists it. */
export interface Listed {
  /** Its folder relative to the root (`.` for the root itself). */
  id: string;
  snapshot?: Snapshot;
  /** Why it cannot be read now (shown in its row). */
  problem?: string;
  /** When it was noticed gone (it is no longer under the root). */
  gone?: string;
}

/** Rows per page of the index. */
export const PAGE_SIZE = 50;
/** Events per page of a live view's timeline. */
export const TIMELINE_PAGE = 200;
/** A row shows this many characters of a title or summary (the rest: the title attribute, the live view). */
const ROW_TEXT = 300;
/** …and its title attribute this many. */
const ROW_TITLE = 2000;
/** The live view's sections together stay under this size (with a page of rows, under the 1 MiB a stream may buffer). */
const MAX_DETAIL_BYTES = 640 * 1024;

/** The link to a collaboration's live view (the token rides along: every request needs it). */
export function collabHref(id: string, token: string, extra = ''): string {
  return `/c/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}${extra}`;
}

/** Long untrusted text for a row: clipped, the longer version in a title attribute. */
function clipped(text: string, className: string, tag = 'span'): string {
  const shown = text.length > ROW_TEXT ? `${text.slice(0, ROW_TEXT)}…` : text;
  const title = text.length > ROW_TEXT ? ` title="${h(text.length > ROW_TITLE ? `${text.slice(0, ROW_TITLE)}…` : text)}"` : '';
  return `<${tag} class="${className}"${title}>${h(shown)}</${tag}>`;
}

/** One `<tr>`: title, phase and for how long, whose turn and for how long, the last event, the verdict (each cell labelled for the stacked layout). */
export function renderRow(item: Listed, token: string): string {
  const link = (text: string): string => `<a href="${h(collabHref(item.id, token))}">${text}</a>`;
  const s = item.snapshot;
  const where = `<div class="muted small">${h(item.id)}</div>`;
  if (item.gone !== undefined) return `<tr data-id="${h(item.id)}" class="gone"><td class="title">${h(item.id)}</td><td colspan="4" class="problem"><span class="badge bad">gone</span> no longer under the root (noticed ${h(item.gone)})</td></tr>`;
  if (!s) return `<tr data-id="${h(item.id)}"><td class="title">${link(h(item.id))}</td><td colspan="4" class="problem"><span class="badge bad">unreadable</span> ${h(item.problem ?? '')}</td></tr>`;
  const phase = s.phase ?? 'none';
  const last = s.lastEvent;
  const lastCell = last
    ? `seq ${h(last.seq)} <code>${h(last.event)}</code> by <span class="participant">${h(last.from)}</span> ${since(s, last.at)} ago${clipped(String(last.summary ?? ''), 'summary', 'div')}`
    : '<span class="muted">no event</span>';
  return `<tr data-id="${h(item.id)}" data-phase="${h(phase)}">
<td class="title">${link(clipped(s.objective, 'objective'))}${where}</td>
<td class="phase" data-label="Phase"><span class="badge phase-${h(phase)}">${h(phase)}</span>${s.phaseSince ? ` <span class="muted">for ${since(s, s.phaseSince)}</span>` : ''}</td>
<td class="turn" data-label="Whose turn">${turn(s)}</td>
<td class="last" data-label="Last event">${lastCell}</td>
<td class="verdict" data-label="Verdict">${verdictBadge(s)}</td>
</tr>`;
}

/** The number of index pages for `count` collaborations (at least one). */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / PAGE_SIZE));
}

/** One page of the index: the rows' table body, and the line above it (count, page, the scan's warning). */
export function renderIndexPage(items: Listed[], page: number, token: string, scanStopped?: string): { rows: string; summary: string } {
  const pages = pageCount(items.length);
  const shown = items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const rows = items.length
    ? shown.map((item) => renderRow(item, token)).join('\n')
    : '<tr><td colspan="5" class="muted">No collaboration under this root yet (a folder holding protocol.json).</td></tr>';
  const gone = items.filter((item) => item.gone !== undefined).length;
  const pageLink = (n: number, text: string): string => `<a href="${h(`/?token=${encodeURIComponent(token)}&page=${n}`)}">${text}</a>`;
  const pager = pages > 1 ? ` — page ${page} of ${pages}${page > 1 ? ` ${pageLink(page - 1, '← previous')}` : ''}${page < pages ? ` ${pageLink(page + 1, 'next →')}` : ''}` : '';
  const count = `${items.length - gone} collaboration${items.length - gone === 1 ? '' : 's'}${gone ? ` (${gone} gone)` : ''}`;
  const warning = scanStopped ? `<p class="warning"><span class="badge warn">incomplete</span> ${h(scanStopped)}: collaborations further on in the tree are not listed (give a narrower --root).</p>` : '';
  return { rows, summary: `<p>${count}${pager}</p>${warning}` };
}

/** Section names for a notice that stands in for a section (its heading). */
const SECTION_TITLES: Record<string, string> = { summary: 'Summary', phases: 'Phases', timeline: 'Timeline', decisions: 'Decisions', gates: 'Gates', deliverable: 'Primary deliverable', conclusion: 'Conclusion', validation: 'Validation' };

/**
 * A collaboration's live view as the report's sections, bounded: the
 * timeline shows one page of events (`upto`: the page ending there, else the
 * latest) with links to the others, and while the whole is over the bound
 * the largest section is replaced by a note saying `acp report` writes it.
 */
export function detailSections(item: Listed, token: string, api: HumansApi, upto?: number): ReportSection[] {
  const s = item.snapshot;
  if (!s) {
    const why = item.gone !== undefined ? '<span class="badge bad">gone</span> no longer under the root' : `<span class="badge bad">unreadable</span> ${h(item.problem ?? '')}`;
    return [{ id: 'summary', html: `<header id="summary"><h1>${h(item.id)}</h1><p class="errors">${why}</p></header>` }];
  }
  const paging = { limit: TIMELINE_PAGE, upto, href: (n: number) => collabHref(item.id, token, `&upto=${n}`) };
  const sections = reportSections(s, api, paging);
  const size = (section: ReportSection): number => section.html.length * 3;
  let total = sections.reduce((sum, section) => sum + size(section), 0);
  while (total > MAX_DETAIL_BYTES) {
    const largest = sections.reduce((a, b) => (size(b) > size(a) ? b : a));
    const note = { id: largest.id, html: `<section id="${largest.id}"><h2>${SECTION_TITLES[largest.id] ?? largest.id}</h2><p class="muted">This part is too large to show live (${Math.round(largest.html.length / 1024)} KiB): <code>acp report</code> writes it whole.</p></section>` };
    total += size(note) - size(largest);
    sections[sections.indexOf(largest)] = note;
  }
  return sections;
}

/** The dashboard's stylesheet, after the report's: a table on wide screens, stacked cards on narrow ones; long text never widens the page. */
const DASHBOARD_CSS = `
body { max-width: 1280px; }
header.site { margin-bottom: 1em; }
table.board { table-layout: fixed; }
table.board th:nth-child(1) { width: 30%; } table.board th:nth-child(2) { width: 14%; } table.board th:nth-child(3) { width: 16%; } table.board th:nth-child(5) { width: 14%; }
table.board td { vertical-align: top; overflow-wrap: anywhere; }
table.board tr.selected { background: var(--accent-soft); }
table.board tr.gone td { color: var(--muted); }
table.board .summary { color: var(--muted); }
table.board .objective, table.board .summary { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; overflow: hidden; }
.small { font-size: 0.85em; }
#live { float: right; font-size: 0.85em; }
#live.on { color: var(--ok); }
#live.off { color: var(--bad); }
#detail { border-top: 3px solid var(--line); margin-top: 2em; }
/* A very long title is clipped in the live view (the whole is its title attribute; the report file wraps it all). */
#detail h1, #detail td.summary .text { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 4; overflow: hidden; }
/* On a narrow screen the timeline scrolls in its box rather than squeezing its columns to a letter. */
#detail .scroll table { min-width: 640px; }
#gone-notice { border: 2px solid var(--bad); border-radius: 6px; padding: 8px 12px; color: var(--bad); font-weight: 600; }
#detail.gone > :not(#gone-notice) { opacity: 0.5; }
.warning { color: var(--warn); }
@media (max-width: 760px) {
  body { padding: 12px; }
  table.board, table.board tbody, table.board tr, table.board td { display: block; width: 100%; }
  table.board thead { display: none; }
  table.board tr { border: 1px solid var(--line); border-radius: 6px; margin-bottom: 10px; padding: 6px 8px; }
  table.board td { border: none; padding: 2px 0; }
  table.board td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
}
`;

/**
 * The page's script. It follows the server's event stream (no polling):
 * `rows` replaces the index page, `row` one row, `detail` one section of the
 * live view, `view` all of it (when its sections change), `gone` says the collaboration shown is no longer there; the
 * "for …" durations count on between events. `formatDuration` is the
 * server's own, serialised, so both sides say durations the same way.
 */
function clientScript(): string {
  return `"use strict";
const formatDuration = (${formatDuration.toString()});
const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
const collab = document.body.dataset.collab;
const paged = params.has("upto");
const live = document.getElementById("live");
function mark() {
  for (const row of document.querySelectorAll("#rows tr")) row.classList.toggle("selected", row.dataset.id === collab);
}
function tick() {
  for (const el of document.querySelectorAll(".elapsed[data-since]")) {
    const then = Date.parse(el.dataset.since);
    if (!Number.isNaN(then)) el.textContent = formatDuration(Date.now() - then);
  }
}
function fragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content;
}
function replace(target, html) {
  if (!target) return;
  const content = fragment(html);
  if (target.id === "rows" || target.id === "count") target.replaceChildren(content);
  else target.replaceWith(content);
  mark();
  tick();
}
const byId = (id) => document.getElementById(id);
const rowOf = (id) => [...document.querySelectorAll("#rows tr[data-id]")].find((row) => row.dataset.id === id);
function on(name, handle) {
  source.addEventListener(name, (e) => handle(JSON.parse(e.data)));
}
mark();
const source = new EventSource("/events?token=" + encodeURIComponent(token) + (collab ? "&c=" + encodeURIComponent(collab) : "") + "&page=" + encodeURIComponent(document.body.dataset.page || "1"));
on("rows", (m) => { replace(byId("rows"), m.rows); replace(byId("count"), m.summary); });
on("row", (m) => replace(rowOf(m.id), m.html));
on("detail", (m) => { if (!(paged && m.id === "timeline")) replace(byId(m.id), m.html); });
on("view", (m) => { const detail = byId("detail"); if (detail) { detail.replaceChildren(fragment(m.html)); tick(); } });
on("gone", () => {
  const detail = byId("detail");
  if (!detail || byId("gone-notice")) return;
  detail.classList.add("gone");
  detail.prepend(fragment('<p id="gone-notice" role="alert">This collaboration is gone: its folder is no longer under the dashboard\\u2019s root. What follows is its last view.</p>'));
});
source.addEventListener("open", () => { live.textContent = "live"; live.className = "on"; });
source.addEventListener("error", () => { live.textContent = "reconnecting…"; live.className = "off"; });
setInterval(tick, 10000);
`;
}

/** What one page shows: a page of the index, and the selected collaboration's sections when one is chosen. */
export interface PageContent {
  index: { rows: string; summary: string };
  page: number;
  detail?: ReportSection[];
  collab?: string;
  nonce: string;
  rootName: string;
}

/**
 * The whole page, with landmarks and one `<h1>`: the index is the page's
 * main content (its heading the `<h1>`), or, with a collaboration chosen,
 * navigation beside its live view (whose header holds the `<h1>`). The
 * regions the server pushes into are `aria-live="polite"`.
 */
export function renderPage(options: PageContent): string {
  const { nonce, collab } = options;
  const heading = collab === undefined ? 'h1' : 'h2';
  const index = `<${heading} id="index-title">Collaborations under ${h(options.rootName)}</${heading}>
<div id="count" aria-live="polite">${options.index.summary}</div>
<table class="board" aria-labelledby="index-title"><thead><tr><th>Collaboration</th><th>Phase</th><th>Whose turn</th><th>Last event</th><th>Verdict</th></tr></thead>
<tbody id="rows" aria-live="polite">
${options.index.rows}
</tbody></table>`;
  const body = collab === undefined
    ? `<main id="index">${index}</main>`
    : `<main id="detail" aria-live="polite">${(options.detail ?? []).map((section) => section.html).join('\n')}</main>\n<nav aria-label="Collaborations">${index}</nav>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>ACP dashboard: ${h(options.rootName)}</title>
<style nonce="${h(nonce)}">${REPORT_CSS}${DASHBOARD_CSS}</style>
</head>
<body data-page="${options.page}"${collab !== undefined ? ` data-collab="${h(collab)}"` : ''}>
<header class="site"><p class="kicker">Agent Collaboration Protocol — dashboard <span id="live" class="off" role="status">connecting…</span></p></header>
${body}
<script nonce="${h(nonce)}">${clientScript()}</script>
</body>
</html>
`;
}
