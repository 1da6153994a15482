/**
 * The dashboard's HTML: one row per collaboration, the page around the rows
 * and the selected collaboration's live view (the report's own content), and
 * the page's one script. Everything shown comes from folders other agents
 * write: every value goes through the report's escaping, and the script,
 * allowed by a per-response nonce, inserts only HTML the server rendered.
 * @module
 */
import { REPORT_CSS } from '../report-css.ts';
import { since, turn, verdictBadge } from '../report.ts';
import type { Snapshot } from '../snapshot.ts';
import { escapeHtml as h, formatDuration } from '../text.ts';

/** A collaboration as the dashboard lists it. */
export interface Listed {
  /** Its folder relative to the root (`.` for the root itself). */
  id: string;
  snapshot?: Snapshot;
  /** Why it cannot be read now (shown in its row). */
  problem?: string;
}

/** The link to a collaboration's live view (the token rides along: every request needs it). */
export function collabHref(id: string, token: string): string {
  return `/c/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;
}

/** One `<tr>`: title, phase and for how long, whose turn and for how long, the last event, the verdict. */
export function renderRow(item: Listed, token: string): string {
  const link = (text: string): string => `<a href="${h(collabHref(item.id, token))}">${text}</a>`;
  const s = item.snapshot;
  const where = `<div class="muted small">${h(item.id)}</div>`;
  if (!s) return `<tr data-id="${h(item.id)}"><td>${link(h(item.id))}</td><td colspan="4" class="problem"><span class="badge bad">unreadable</span> ${h(item.problem ?? '')}</td></tr>`;
  const phase = s.phase ?? 'none';
  const last = s.timeline.at(-1)?.event;
  const lastCell = last
    ? `seq ${h(last.seq)} <code>${h(last.event)}</code> by <span class="participant">${h(last.from)}</span> ${since(s, last.at)} ago<div class="summary">${h(last.summary)}</div>`
    : '<span class="muted">no event</span>';
  return `<tr data-id="${h(item.id)}" data-phase="${h(phase)}">
<td class="title">${link(h(s.objective))}${where}</td>
<td class="phase"><span class="badge phase-${h(phase)}">${h(phase)}</span>${s.phaseSince ? ` <span class="muted">for ${since(s, s.phaseSince)}</span>` : ''}</td>
<td class="turn">${turn(s)}</td>
<td class="last">${lastCell}</td>
<td class="verdict">${verdictBadge(s)}</td>
</tr>`;
}

/** The rows' table body, the same for every page (the `rows` event replaces it whole; the page marks its own selection). */
export function renderRows(items: Listed[], token: string): string {
  if (!items.length) return '<tr><td colspan="5" class="muted">No collaboration under this root yet (a folder holding protocol.json).</td></tr>';
  return items.map((item) => renderRow(item, token)).join('\n');
}

/** The dashboard's stylesheet, after the report's. */
const DASHBOARD_CSS = `
body { max-width: 1280px; }
table.board td { vertical-align: top; }
table.board tr.selected { background: var(--accent-soft); }
table.board .summary { color: var(--muted); overflow-wrap: anywhere; }
.small { font-size: 0.85em; }
#live { float: right; font-size: 0.85em; }
#live.on { color: var(--ok); }
#live.off { color: var(--bad); }
#detail { border-top: 3px solid var(--line); margin-top: 2em; }
`;

/**
 * The page's script. It follows the server's event stream (no polling):
 * `rows` replaces the table body, `detail` the live view; the "for …"
 * durations count on between events. `formatDuration` is the server's own,
 * serialised, so both sides say durations the same way.
 */
function clientScript(): string {
  return `"use strict";
const formatDuration = (${formatDuration.toString()});
const token = new URLSearchParams(location.search).get("token") || "";
const collab = document.body.dataset.collab;
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
function swap(id, html) {
  const target = document.getElementById(id);
  const template = document.createElement("template");
  template.innerHTML = html;
  target.replaceChildren(template.content);
  mark();
  tick();
}
mark();
const source = new EventSource("/events?token=" + encodeURIComponent(token) + (collab ? "&c=" + encodeURIComponent(collab) : ""));
source.addEventListener("rows", (e) => swap("rows", e.data));
source.addEventListener("detail", (e) => swap("detail", e.data));
source.addEventListener("open", () => { live.textContent = "live"; live.className = "on"; });
source.addEventListener("error", () => { live.textContent = "reconnecting…"; live.className = "off"; });
setInterval(tick, 10000);
`;
}

/** The whole page: the rows, and the selected collaboration's live view when one is chosen. */
export function renderPage(options: { rows: string; detail?: string; collab?: string; nonce: string; rootName: string }): string {
  const { nonce } = options;
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
<body${options.collab !== undefined ? ` data-collab="${h(options.collab)}"` : ''}>
<p class="kicker">Agent Collaboration Protocol — dashboard <span id="live" class="off">connecting…</span></p>
<h1>Collaborations under ${h(options.rootName)}</h1>
<table class="board"><thead><tr><th>Collaboration</th><th>Phase</th><th>Whose turn</th><th>Last event</th><th>Verdict</th></tr></thead>
<tbody id="rows">
${options.rows}
</tbody></table>
<div id="detail">${options.detail ?? '<p class="muted">Choose a collaboration to follow it live.</p>'}</div>
<script nonce="${h(nonce)}">${clientScript()}</script>
</body>
</html>
`;
}
