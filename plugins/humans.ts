/**
 * Built-in plugin `humans`: the people's view of a collaboration.
 *
 * - `acp status`: the collaboration at a glance (`--json` for tools);
 * - `acp log [--follow] [--since SEQ]`: the timeline, one line per event;
 * - `acp report [--out report.html]`: one self-contained HTML file;
 * - `acp freeze --participant P [--doc REF]`: freeze a deliverable in one step;
 * - `acp dashboard --root DIR`: every collaboration under a root, live, in a browser.
 *
 * This module only describes the commands, so every run of `acp` lists them
 * cheaply; each `run` imports its implementation (plugins/humans/) when the
 * command is used. Written as a user's plugin is: types from runtime/types.ts, the
 * library from the context.
 * @module
 */
import type { AcpPlugin, CommandOptionSpec, CommandSpec, PluginContext } from '../runtime/types.ts';

const folder: CommandOptionSpec = { type: 'string', required: true, description: 'Collaboration folder' };

/** The five commands. */
export const humansCommands: CommandSpec[] = [
  {
    name: 'status',
    description: 'The collaboration at a glance: phase, whose turn, gates, deliverables, recent events, what validate says',
    options: { folder, json: { type: 'boolean', description: 'Print one JSON object' } },
    run: async (ctx) => (await import('./humans/status.ts')).runStatus(ctx),
  },
  {
    name: 'log',
    description: 'The timeline, one line per event; --follow prints new events as they land',
    options: {
      folder,
      follow: { type: 'boolean', description: 'Keep printing new events (until the collaboration is completed or blocked, or Ctrl-C)' },
      since: { type: 'string', description: 'Only the events after this seq', valueName: 'seq' },
      json: { type: 'boolean', description: 'Print the events as JSON lines' },
    },
    run: async (ctx) => (await import('./humans/log.ts')).runLog(ctx),
  },
  {
    name: 'report',
    description: 'Write a self-contained HTML report: phase diagram, timeline, decisions, gates, deliverable, verdict',
    options: {
      folder,
      out: { type: 'string', description: 'Output file (default report.html; - for stdout)', valueName: 'file' },
      json: { type: 'boolean', description: 'Print {ok, path, bytes}' },
    },
    run: async (ctx) => (await import('./humans/report.ts')).runReport(ctx),
  },
  {
    name: 'dashboard',
    description: 'A live, read-only web page of every collaboration under a root (127.0.0.1, a token in the printed URL); Ctrl-C stops',
    options: {
      root: { type: 'string', description: 'Directory holding the collaborations (default: the working directory)', valueName: 'dir' },
      host: { type: 'string', description: 'Address to listen on (default 127.0.0.1; another one is reachable by others: use TLS)', valueName: 'address' },
      port: { type: 'string', description: 'Port (default 0: a free one)', valueName: 'port' },
      'tls-cert': { type: 'string', description: 'PEM certificate: serve HTTPS', valueName: 'file' },
      'tls-key': { type: 'string', description: 'PEM private key of --tls-cert', valueName: 'file' },
    },
    run: async (ctx) => (await import('./humans/dashboard/command.ts')).runDashboard(ctx),
  },
  {
    name: 'freeze',
    description: 'Freeze a deliverable: Status: Frozen, its SHA-256 in readiness.md, deliverable_frozen appended, under the folder lock',
    store: true,
    options: {
      folder,
      participant: { type: 'string', required: true, description: 'Who freezes (it must be their turn)', valueName: 'id' },
      doc: { type: 'string', description: 'A declared supporting deliverable (default: the primary one)', valueName: 'ref' },
      summary: { type: 'string', description: 'Summary of the event (default: names the file and hash)', valueName: 'text' },
      strict: { type: 'boolean', description: 'Refuse, changing nothing, when the folder would then fail `validate --strict` (default: the strict: key of acp.config.yaml)' },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    run: async (ctx) => (await import('./humans/freeze.ts')).runFreeze(ctx),
  },
];

/** The `humans` plugin. */
export default (context: PluginContext): AcpPlugin => context.definePlugin({ name: 'humans', commands: humansCommands });
