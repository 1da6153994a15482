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
import type { AcpPlugin, CommandSpec, PluginContext } from '../runtime/types.ts';
import { dashboardOptions, folder, freezeOptions, logOptions, reportOptions } from './humans/options.ts';

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
