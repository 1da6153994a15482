/**
 * The report's stylesheet (inlined in the HTML: no external file, no web
 * font). System fonts, readable on screen, black on white when printed.
 * @module
 */

/** CSS of `acp report`. */
export const REPORT_CSS = `
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; --accent-soft: #ddf4ff; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px 32px 48px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.8em; margin: 0.2em 0 0.6em; line-height: 1.25; overflow-wrap: anywhere; }
h2 { font-size: 1.3em; border-bottom: 1px solid var(--line); padding-bottom: 0.25em; margin-top: 2em; }
h3 { font-size: 1.05em; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa; padding: 0.1em 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
pre { background: #f6f8fa; padding: 12px; border-radius: 6px; overflow-x: auto; }
pre code { padding: 0; background: none; }
.kicker { color: var(--muted); text-transform: uppercase; letter-spacing: 0.06em; font-size: 0.8em; margin: 0; }
.muted { color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 16px; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
/* A wide table scrolls in its own box: long text never widens the page. */
.scroll { overflow-x: auto; }
ul.inline { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 4px 16px; }
.badge { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: 0.85em; font-weight: 600; border: 1px solid currentColor; }
.badge.ok, .outcome-proceed, .phase-completed { color: var(--ok); }
.badge.warn, .outcome-defer { color: var(--warn); }
.badge.bad, .outcome-blocked, .outcome-do_not_proceed, .phase-blocked { color: var(--bad); }
.badge.in-progress { color: var(--accent); }
.reason { font-weight: 600; }
figure { margin: 0; }
figcaption { color: var(--muted); font-size: 0.85em; margin-top: 4px; }
svg.phase-diagram { max-width: 100%; height: auto; display: block; }
.phase-diagram text { font: 13px system-ui, sans-serif; fill: var(--ink); }
.phase-diagram .phase rect { fill: #fff; stroke: #8c959f; stroke-width: 1.5; }
.phase-diagram .phase.visited rect { fill: var(--accent-soft); stroke: var(--accent); }
.phase-diagram .phase.current rect { fill: var(--accent); stroke: #033d8b; stroke-width: 3; }
.phase-diagram .phase.current text { fill: #fff; font-weight: 700; }
/* The end states in their own colours: a blocked box must not look like success. */
.phase-diagram .phase.current[data-phase="completed"] rect { fill: var(--ok); stroke: #116329; }
.phase-diagram .phase.current[data-phase="blocked"] rect { fill: var(--bad); stroke: #82071e; }
.phase-diagram .edge path { fill: none; stroke: #afb8c1; stroke-width: 1.5; }
.phase-diagram .edge.any path { stroke-dasharray: 4 4; }
.phase-diagram .edge.taken path { stroke: var(--accent); stroke-width: 2.5; }
.phase-diagram .edge-label { font-size: 12px; fill: var(--muted); paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
.phase-diagram .edge.taken .edge-label { fill: var(--accent); font-weight: 600; }
.phase-diagram .arrow-head { fill: #afb8c1; }
.phase-diagram .arrow-head.taken { fill: var(--accent); }
.phase-diagram .start { fill: var(--ink); }
table { border-collapse: collapse; width: 100%; font-size: 0.9em; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { background: #f6f8fa; }
td.num { text-align: right; }
.nowrap { white-space: nowrap; }
td.summary { overflow-wrap: anywhere; }
td code { white-space: nowrap; }
.participant { font-weight: 600; }
ul.gates { list-style: none; padding-left: 0; }
ul.gates .box { font-size: 1.1em; }
ul.gates .checked .box { color: var(--ok); }
ul.gates .unchecked .box { color: var(--bad); }
.doc, article.deliverable { border: 1px solid var(--line); border-radius: 6px; padding: 4px 20px; margin-top: 12px; overflow-wrap: anywhere; }
/* Headings of rendered documents sit below the report's own (their # is an <h3>). */
.doc h3 { font-size: 1.2em; margin-top: 0.6em; }
.doc h4 { font-size: 1.05em; margin-top: 1.2em; }
.doc h5, .doc h6 { font-size: 1em; }
.image-ref { color: var(--muted); font-style: italic; }
.verdict .error, .errors li { color: var(--bad); }
.verdict .warning { color: var(--warn); }
footer { margin-top: 3em; color: var(--muted); font-size: 0.85em; border-top: 1px solid var(--line); padding-top: 8px; }
@media print {
  @page { margin: 16mm 14mm; }
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2, h3 { break-after: avoid; }
  figure, tr, li, dl.facts { break-inside: avoid; }
  svg.phase-diagram { max-width: 140mm; }
  .doc, article.deliverable { break-inside: auto; border: none; padding: 0; }
  a { color: inherit; }
  a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.85em; color: var(--muted); }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;
