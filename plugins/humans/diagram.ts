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

const NODE_W = 128;
const NODE_H = 40;
const STEP = 220;
const ROW_Y = 90;
const LEFT = 70;

/** Render the phase graph as an SVG element, with `path` highlighted. */
export function phaseDiagramSvg(graph: PhaseGraph, path: PhasePath): string {
  const visited = new Set(path.phases);
  const taken = new Map<string, number>();
  for (let i = 1; i < path.phases.length; i++) {
    const [a, b] = [path.phases[i - 1]!, path.phases[i]!];
    if (a !== b) taken.set(`${a}\u0000${b}`, (taken.get(`${a}\u0000${b}`) ?? 0) + 1);
  }
  const anyTargets = graph.fromAny.map((a) => a.to);
  const main = graph.phases.filter((p) => !anyTargets.includes(p));
  const pos = new Map<string, { x: number; y: number }>();
  main.forEach((p, i) => pos.set(p, { x: LEFT + i * STEP, y: ROW_Y }));
  const width = LEFT + main.length * STEP;
  anyTargets.forEach((p, i) => pos.set(p, { x: LEFT + ((main.length - 1) * STEP) / 2 + i * STEP, y: ROW_Y + 150 }));
  const parts: string[] = [];
  const marker = (id: string, cls: string) => `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="${cls}" d="M0,0L10,5L0,10z"/></marker>`;
  parts.push(`<defs>${marker('arrow', 'arrow-head')}${marker('arrow-taken', 'arrow-head taken')}</defs>`);
  const first = pos.get(graph.start)!;
  const startTaken = path.phases.length > 0;
  parts.push(`<g class="edge${startTaken ? ' taken' : ''}" data-from="start" data-to="${escapeHtml(graph.start)}"><circle class="start" cx="${first.x - 48}" cy="${first.y + NODE_H / 2}" r="7"/><path d="M${first.x - 40},${first.y + NODE_H / 2}H${first.x - 2}" marker-end="url(#${startTaken ? 'arrow-taken' : 'arrow'})"/></g>`);
  for (const edge of graph.edges) parts.push(edgeSvg(edge, pos, taken.get(`${edge.from}\u0000${edge.to}`) ?? 0));
  for (const any of graph.fromAny) {
    const to = pos.get(any.to)!;
    for (const from of main) {
      const count = taken.get(`${from}\u0000${any.to}`) ?? 0;
      const a = pos.get(from)!;
      const d = `M${a.x + NODE_W / 2},${a.y + NODE_H}L${to.x + NODE_W / 2},${to.y - 2}`;
      parts.push(`<g class="edge any${count ? ' taken' : ''}" data-from="${escapeHtml(from)}" data-to="${escapeHtml(any.to)}"><path d="${d}" marker-end="url(#${count ? 'arrow-taken' : 'arrow'})"/></g>`);
    }
    parts.push(`<text class="edge-label" x="${to.x + NODE_W + 12}" y="${to.y + NODE_H / 2 + 4}">${escapeHtml(any.events.join(', '))} (from any phase)</text>`);
  }
  for (const phase of graph.phases) {
    const { x, y } = pos.get(phase)!;
    const cls = ['phase', visited.has(phase) ? 'visited' : '', phase === path.current ? 'current' : ''].filter(Boolean).join(' ');
    const current = phase === path.current ? ' aria-current="step"' : '';
    parts.push(`<g class="${cls}" data-phase="${escapeHtml(phase)}"${current}><rect x="${x}" y="${y}" width="${NODE_W}" height="${NODE_H}" rx="8"/><text x="${x + NODE_W / 2}" y="${y + NODE_H / 2 + 5}" text-anchor="middle">${escapeHtml(phase)}</text></g>`);
  }
  const height = ROW_Y + 150 + NODE_H + 20;
  const label = `Phase diagram of the protocol; current phase: ${path.current ?? 'none'}`;
  return `<svg class="phase-diagram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}">${parts.join('')}</svg>`;
}

function edgeSvg(edge: PhaseEdge, pos: Map<string, { x: number; y: number }>, count: number): string {
  const a = pos.get(edge.from)!;
  const b = pos.get(edge.to)!;
  const label = `${edge.events.join(' / ')}${count > 1 ? ` ×${count}` : ''}`;
  let d: string;
  let lx: number;
  let ly: number;
  if (b.x > a.x && b.x - a.x === STEP) {
    // Forward to the next phase: a straight arrow, its label above.
    d = `M${a.x + NODE_W},${a.y + NODE_H / 2}H${b.x - 2}`;
    lx = (a.x + NODE_W + b.x) / 2;
    ly = a.y + NODE_H / 2 - 8;
  } else {
    // Back (or skipping ahead): an arc over the row.
    const [x1, x2] = [a.x + NODE_W / 2 + (b.x < a.x ? -20 : 20), b.x + NODE_W / 2 + (b.x < a.x ? 20 : -20)];
    const top = a.y - 30 - Math.abs(b.x - a.x) / 12;
    d = `M${x1},${a.y}C${x1},${top} ${x2},${top} ${x2},${b.y - 2}`;
    lx = (x1 + x2) / 2;
    ly = top + 12;
  }
  const cls = `edge${count ? ' taken' : ''}`;
  return `<g class="${cls}" data-from="${escapeHtml(edge.from)}" data-to="${escapeHtml(edge.to)}"><path d="${d}" marker-end="url(#${count ? 'arrow-taken' : 'arrow'})"/><text class="edge-label" x="${lx}" y="${ly}" text-anchor="middle">${escapeHtml(label)}</text></g>`;
}
