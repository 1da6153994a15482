/**
 * Built-in plugin `humans`: the people's view of a collaboration.
 *
 * - `acp status`: the collaboration at a glance (`--json` for tools);
 * - `acp log [--follow] [--since SEQ]`: the timeline, one line per event;
 * - `acp report [--out report.html]`: one self-contained HTML file;
 * - `acp freeze --participant P [--doc REF]`: freeze a deliverable in one step.
 *
 * This module only declares the commands, so every run of `acp` can list
 * them cheaply; each `run` imports its implementation (plugins/humans/) when
 * the command is used.
 * @module
 */
import type { HumansCommandSpec } from './humans/context.ts';

const folder = { type: 'string', description: 'Collaboration folder', valueName: 'folder' } as const;
const json = { type: 'boolean', description: 'Print JSON' } as const;

/** The four commands. */
export const humansCommands: HumansCommandSpec[] = [
  {
    name: 'status',
    description: 'The collaboration at a glance: phase, whose turn, gates, deliverables, recent events, validation',
    options: { folder, json: { ...json, description: 'Print one JSON object' } },
    run: async (ctx) => (await import('./humans/status.ts')).runStatus(ctx),
  },
  {
    name: 'log',
    description: 'The timeline, one line per event; --follow prints new events as they land',
    options: {
      folder,
      follow: { type: 'boolean', description: 'Keep printing new events (stops when the collaboration is completed or blocked, or on Ctrl-C)' },
      since: { type: 'string', description: 'Only events after this seq', valueName: 'seq' },
      json: { ...json, description: 'Print the events as JSON lines' },
    },
    run: async (ctx) => (await import('./humans/log.ts')).runLog(ctx),
  },
  {
    name: 'report',
    description: 'Write a self-contained HTML report (phase diagram, timeline, decisions, gates, deliverable, verdict)',
    options: {
      folder,
      out: { type: 'string', description: 'Output file (default report.html; - for stdout)', valueName: 'file' },
      json: { ...json, description: 'Print {ok, path, bytes}' },
    },
    run: async (ctx) => (await import('./humans/report.ts')).runReport(ctx),
  },
  {
    name: 'freeze',
    description: 'Freeze a deliverable: Status: Frozen, its SHA-256 in readiness.md, and deliverable_frozen appended, under the folder lock',
    options: {
      folder,
      participant: { type: 'string', description: 'Who freezes (it must be their turn)', valueName: 'id' },
      doc: { type: 'string', description: 'A declared supporting deliverable (default: the primary one)', valueName: 'ref' },
      summary: { type: 'string', description: 'Summary of the event (default: names the file and hash)', valueName: 'text' },
      json: { ...json, description: 'Print one JSON object' },
    },
    run: async (ctx) => (await import('./humans/freeze.ts')).runFreeze(ctx),
  },
];

/** The plugin (registered at start-up with the other built-in plugins). */
export default { name: 'humans', commands: humansCommands };
