/**
 * Built-in plugin `doctor`: the `acp doctor [--fix]` command. This module
 * only describes the command; the diagnosis (plugins/doctor/diagnose.ts)
 * loads when it runs. It is written exactly as a user's plugin would be:
 * types from runtime/types.ts, the library from the context.
 * @module
 */
import type { AcpPlugin, CommandSpec, PluginContext } from '../runtime/types.ts';

const doctorCommand: CommandSpec = {
  name: 'doctor',
  description: 'Diagnose a folder (lock, torn log line, cached state, files, frozen deliverables); --fix repairs what is safe',
  options: {
    folder: { type: 'string', required: true, description: 'Collaboration folder' },
    fix: { type: 'boolean', description: 'Repair what loses nothing (keeps a copy of events.jsonl before cutting a torn line)' },
    json: { type: 'boolean', description: 'Print {ok, folder, findings, changes}' },
  },
  async run(ctx) {
    const { doctor, formatDoctorReport } = await import('./doctor/diagnose.ts');
    const fix = ctx.options.fix === true;
    const folder = ctx.folder();
    // Repairs are transactions of the run's store (--git, the configuration): published like an append.
    const report = await doctor(ctx.api, ctx.host, folder, { fix, registry: ctx.registry, signal: ctx.signal, store: fix ? await ctx.store(folder) : undefined });
    const exitCode = report.healthy ? 0 : 1;
    if (!ctx.json) ctx.out(formatDoctorReport(report, fix));
    return { exitCode, json: { ok: report.healthy, exitCode, ...report } };
  },
};

/** The `doctor` plugin. */
export default (context: PluginContext): AcpPlugin => context.definePlugin({ name: 'doctor', commands: [doctorCommand] });
