/**
 * The protocol's phase diagram as inline SVG, generated from the phase
 * machine itself: every event is applied (with the library's `applyEvent`)
 * to a probe state in every phase, and each accepted event that changes the
 * phase becomes an edge. The path a collaboration took and its current
 * phase are highlighted. No drawing is hand-written per phase, so a change
 * of the state machine shows in the report.
 * @module
 */
import type { HumansApi } from './context.ts';
import { escapeHtml } from './text.ts';

type Api = Pick<HumansApi, 'applyEvent' | 'emptyState' | 'readReadiness' | 'PHASES' | 'EVENT_NAMES'>;

/** A phase change the machine allows. */
export interface PhaseEdge {
  from: string;
  to: string;
  /** Events that make it, in the protocol's order. */
  events: string[];
}

/** The phase machine as a graph. */
export interface PhaseGraph {
  /** The first phase (entered by `initialized`). */
  start: string;
  /** Phases in the order of a first walk from `start` (the main line), then the others. */
  phases: string[];
  edges: PhaseEdge[];
  /** Phases every other phase can move to (e.g. `blocked`), with the event. */
  fromAny: { to: string; events: string[] }[];
}

/** Probe the phase machine: which events move which phase where. */
export function phaseGraph(api: Api): PhaseGraph {
  const participants = ['owner', 'other'];
  const readiness = api.readReadiness('');
  const first = api.emptyState();
  api.applyEvent(first, { seq: 1, from: 'owner', event: 'initialized', at: '2000-01-01T00:00:00Z', summary: '' }, participants, readiness);
  const start = first.phase!;
  const found = new Map<string, PhaseEdge>();
  for (const phase of api.PHASES) {
    for (const name of api.EVENT_NAMES) {
      if (name === 'initialized') continue;
      for (const from of participants) {
        // A state in which the event's preconditions hold: drafted, classified after the latest decision input, one reviewer/acceptor due.
        const state: ReturnType<Api['emptyState']> = {
          ...api.emptyState(),
          phase: phase as ReturnType<Api['emptyState']>['phase'],
          proposalOwner: 'owner',
          waitingFor: ['owner'],
          reviewersDue: ['other'],
          acceptorsDue: ['other'],
          latestDecisionInput: 1,
          latestClassification: 2,
          primaryDrafted: true,
          primaryFrozen: name !== 'deliverable_frozen',
          readinessPassed: true,
        };
        const event = { seq: 3, from, event: name, at: '2000-01-01T00:00:00Z', summary: '', reply_to: 2, role: 'primary', doc: name === 'completed' ? 'conclusion.md' : 'doc.md' };
        api.applyEvent(state, event, participants, readiness);
        if (state.errors.length || state.phase === phase || state.phase === null) continue;
        const key: string = `${phase}\u0000${state.phase}`;
        const edge: PhaseEdge = found.get(key) ?? { from: phase, to: state.phase, events: [] };
        if (!edge.events.includes(name)) edge.events.push(name);
        found.set(key, edge);
      }
    }
  }
  const edges = [...found.values()];
  // A target reached from every other phase is drawn once, as "from any phase".
  const fromAny = [...new Set(edges.map((e) => e.to))]
    .filter((to) => api.PHASES.every((p) => p === to || edges.some((e) => e.from === p && e.to === to)))
    .map((to) => ({ to, events: [...new Set(edges.filter((e) => e.to === to).flatMap((e) => e.events))] }));
  const anyTargets = new Set(fromAny.map((a) => a.to));
  const main: string[] = [start];
  for (let i = 0; i < main.length; i++) {
    for (const e of edges) if (e.from === main[i] && !anyTargets.has(e.to) && !main.includes(e.to)) main.push(e.to);
  }
  const phases = [...main, ...api.PHASES.filter((p) => !main.includes(p))];
  return { start, phases, edges: edges.filter((e) => !anyTargets.has(e.to)), fromAny };
}

/** The path a collaboration took: phases after each event, in order. */
export interface PhasePath {
  /** Phase after each event (nulls dropped). */
  phases: string[];
  current: string | null;
}

// A vertical layout: the main line top to bottom (arrows labelled on their
// right), moves back as arcs on the left, the "from any phase" targets in a
// column on the right. It stays narrow, so labels stay legible on screen and
// on a portrait page.
const NODE_W = 150;
const NODE_H = 36;
const STEP = 84;
const LEFT = 190;
const TOP = 52;
const SIDE = 210;

/** Render the phase graph as an SVG element, with `path` highlighted. */
export function phaseDiagramSvg(graph: PhaseGraph, path: PhasePath): string {
  const visited = new Set(path.phases);
  const taken = new Map<string, number>();
  for (let i = 1; i < path.phases.length; i++) {
    const key = `${path.phases[i - 1]}\u0000${path.phases[i]}`;
    if (path.phases[i - 1] !== path.phases[i]) taken.set(key, (taken.get(key) ?? 0) + 1);
  }
  const anyTargets = graph.fromAny.map((a) => a.to);
  const main = graph.phases.filter((p) => !anyTargets.includes(p));
  const pos = new Map<string, { x: number; y: number }>();
  main.forEach((p, i) => pos.set(p, { x: LEFT, y: TOP + i * STEP }));
  const middle = TOP + ((main.length - 1) * STEP) / 2;
  anyTargets.forEach((p, i) => pos.set(p, { x: LEFT + NODE_W + SIDE, y: middle + i * STEP }));
  const width = LEFT + NODE_W + SIDE + NODE_W + 20;
  const height = TOP + main.length * STEP;
  const parts: string[] = [];
  const marker = (id: string, cls: string) => `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="${cls}" d="M0,0L10,5L0,10z"/></marker>`;
  parts.push(`<defs>${marker('arrow', 'arrow-head')}${marker('arrow-taken', 'arrow-head taken')}</defs>`);
  const first = pos.get(graph.start)!;
  const started = path.phases.length > 0;
  const cx = first.x + NODE_W / 2;
  parts.push(`<g class="edge${started ? ' taken' : ''}" data-from="start" data-to="${escapeHtml(graph.start)}"><circle class="start" cx="${cx}" cy="${first.y - 38}" r="7"/><path d="M${cx},${first.y - 30}V${first.y - 2}" marker-end="url(#${started ? 'arrow-taken' : 'arrow'})"/><text class="edge-label" x="${cx + 10}" y="${first.y - 12}">initialized</text></g>`);
  for (const any of graph.fromAny) {
    const to = pos.get(any.to)!;
    for (const from of main) {
      const count = taken.get(`${from}\u0000${any.to}`) ?? 0;
      const a = pos.get(from)!;
      const d = `M${a.x + NODE_W},${a.y + NODE_H / 2}L${to.x - 2},${to.y + NODE_H / 2}`;
      parts.push(`<g class="edge any${count ? ' taken' : ''}" data-from="${escapeHtml(from)}" data-to="${escapeHtml(any.to)}"><path d="${d}" marker-end="url(#${count ? 'arrow-taken' : 'arrow'})"/></g>`);
    }
    parts.push(`<text class="edge-label" x="${to.x + NODE_W / 2}" y="${to.y + NODE_H + 16}" text-anchor="middle">${escapeHtml(any.events.join(', '))} (from any phase)</text>`);
  }
  for (const edge of graph.edges) parts.push(edgeSvg(edge, pos, taken.get(`${edge.from}\u0000${edge.to}`) ?? 0));
  for (const phase of graph.phases) {
    const { x, y } = pos.get(phase)!;
    const cls = ['phase', visited.has(phase) ? 'visited' : '', phase === path.current ? 'current' : ''].filter(Boolean).join(' ');
    const current = phase === path.current ? ' aria-current="step"' : '';
    parts.push(`<g class="${cls}" data-phase="${escapeHtml(phase)}"${current}><rect x="${x}" y="${y}" width="${NODE_W}" height="${NODE_H}" rx="8"/><text x="${x + NODE_W / 2}" y="${y + NODE_H / 2 + 5}" text-anchor="middle">${escapeHtml(phase)}</text></g>`);
  }
  const label = `Phase diagram of the protocol; current phase: ${path.current ?? 'none'}`;
  return `<svg class="phase-diagram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" role="img" aria-label="${escapeHtml(label)}">${parts.join('')}</svg>`;
}

function edgeSvg(edge: PhaseEdge, pos: Map<string, { x: number; y: number }>, count: number): string {
  const a = pos.get(edge.from)!;
  const b = pos.get(edge.to)!;
  const label = `${edge.events.join(' / ')}${count > 1 ? ` ×${count}` : ''}`;
  let d: string;
  let text: string;
  if (b.y - a.y === STEP) {
    // Down to the next phase: a straight arrow, labelled on its right.
    const x = a.x + NODE_W / 2;
    d = `M${x},${a.y + NODE_H}V${b.y - 2}`;
    text = `<text class="edge-label" x="${x + 10}" y="${(a.y + NODE_H + b.y) / 2 + 4}">${escapeHtml(label)}</text>`;
  } else {
    // Back up (or skipping ahead): an arc on the left, labelled beside it.
    const bulge = a.x - 40 - Math.abs(b.y - a.y) / 6;
    d = `M${a.x},${a.y + NODE_H / 2}C${bulge},${a.y + NODE_H / 2} ${bulge},${b.y + NODE_H / 2} ${a.x - 2},${b.y + NODE_H / 2}`;
    text = `<text class="edge-label" x="${bulge + 14}" y="${(a.y + b.y + NODE_H) / 2 + 4}" text-anchor="end">${escapeHtml(label)}</text>`;
  }
  const cls = `edge${count ? ' taken' : ''}`;
  return `<g class="${cls}" data-from="${escapeHtml(edge.from)}" data-to="${escapeHtml(edge.to)}"><path d="${d}" marker-end="url(#${count ? 'arrow-taken' : 'arrow'})"/>${text}</g>`;
}
