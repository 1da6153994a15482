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
 * command is used. Written as a user's plugin is: types from acp.ts, the
 * library from the context.
 * @module
 */
import type { AcpPlugin, CommandSpec, OptionValuesOf, PluginContext } from '../acp.ts';

const folder = { type: 'string', required: true, description: 'Collaboration folder' } as const;

/** The options of `acp log`: the parser hands `run` `--since` as a number (Python's `int()`, argparse's words). */
const logOptions = {
  folder,
  follow: { type: 'boolean', description: 'Keep printing new events (until the collaboration is completed or blocked, or Ctrl-C)' },
  since: { type: 'int', description: 'Only the events after this seq', valueName: 'seq' },
  json: { type: 'boolean', description: 'Print the events as JSON lines' },
} as const;

/** The options of `acp dashboard`: `--port` arrives as a number. */
const dashboardOptions = {
  root: { type: 'string', description: 'Directory holding the collaborations (default: the working directory)', valueName: 'dir' },
  host: { type: 'string', description: 'Address to listen on (default 127.0.0.1; another one is reachable by others: use TLS)', valueName: 'address' },
  port: { type: 'int', description: 'Port (default 0: a free one)', valueName: 'port' },
  'tls-cert': { type: 'string', description: 'PEM certificate: serve HTTPS', valueName: 'file' },
  'tls-key': { type: 'string', description: 'PEM private key of --tls-cert', valueName: 'file' },
} as const;

/** The options of `acp report`. */
const reportOptions = {
  folder,
  out: { type: 'string', description: 'Output file (default report.html; - for stdout)', valueName: 'file' },
  json: { type: 'boolean', description: 'Print {ok, path, bytes}' },
} as const;

/** The options of `acp freeze`. */
const freezeOptions = {
  folder,
  participant: { type: 'string', required: true, description: 'Who freezes (it must be their turn)', valueName: 'id' },
  doc: { type: 'string', description: 'A declared supporting deliverable (default: the primary one)', valueName: 'ref' },
  summary: { type: 'string', description: 'Summary of the event (default: names the file and hash)', valueName: 'text' },
  strict: { type: 'boolean', description: 'Refuse, changing nothing, when the folder would then fail `validate --strict` (default: the strict: key of acp.config.yaml)' },
  json: { type: 'boolean', description: 'Print one JSON object' },
} as const;

/** What `run` of `acp log` gets as options. */
export type LogOptions = OptionValuesOf<typeof logOptions>;
/** What `run` of `acp dashboard` gets as options. */
export type DashboardOptions = OptionValuesOf<typeof dashboardOptions>;
/** What `run` of `acp report` gets as options. */
export type ReportOptions = OptionValuesOf<typeof reportOptions>;
/** What `run` of `acp freeze` gets as options. */
export type FreezeOptions = OptionValuesOf<typeof freezeOptions>;

/** The five commands, typed from their option data by `defineCommand` (the parser converts and checks every value). */
export function humansCommands(defineCommand: PluginContext['defineCommand']): CommandSpec[] {
  return [
    defineCommand({
      name: 'status',
      description: 'The collaboration at a glance: phase, whose turn, gates, deliverables, recent events, what validate says',
      options: { folder, json: { type: 'boolean', description: 'Print one JSON object' } },
      run: async (ctx) => (await import('./humans/status.ts')).runStatus(ctx),
    }),
    defineCommand({
      name: 'log',
      description: 'The timeline, one line per event; --follow prints new events as they land',
      options: logOptions,
      run: async (ctx) => (await import('./humans/log.ts')).runLog(ctx),
    }),
    defineCommand({
      name: 'report',
      description: 'Write a self-contained HTML report: phase diagram, timeline, decisions, gates, deliverable, verdict',
      options: reportOptions,
      run: async (ctx) => (await import('./humans/report.ts')).runReport(ctx),
    }),
    defineCommand({
      name: 'dashboard',
      description: 'A live, read-only web page of every collaboration under a root (127.0.0.1, a token in the printed URL); Ctrl-C stops',
      options: dashboardOptions,
      run: async (ctx) => (await import('./humans/dashboard/command.ts')).runDashboard(ctx),
    }),
    defineCommand({
      name: 'freeze',
      description: 'Freeze a deliverable: Status: Frozen, its SHA-256 in readiness.md, deliverable_frozen appended, under the folder lock',
      store: true,
      options: freezeOptions,
      run: async (ctx) => (await import('./humans/freeze.ts')).runFreeze(ctx),
    }),
  ];
}

/** The `humans` plugin. */
export default (context: PluginContext): AcpPlugin => context.definePlugin({ name: 'humans', commands: humansCommands(context.defineCommand) });
