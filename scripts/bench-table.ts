// Issue 42's table, every row in one run (`npm run bench`, scripts/bench.ts):
//
//   start     `next` and `status` on Node 20/22/24/26 against that Node's
//             `node -e 0`, the binary's `next` and `--version` against
//             `bun -e 0` (scripts/bench-start.ts, which also traces where
//             each command's start goes)
//   append    the binary's small append against the Python tools' (the
//             reference tool set beside the repository, interleaved)
//   scale     on a generated strict-valid log of 100k events
//             (scripts/bench-append.ts, which says how): the first validate
//             and a re-validate (binary, Node) against the Python tools'; a
//             strict append (after a validate, and on a folder never
//             validated) against a plain append; the first append right
//             after a validate and a later one against the Python tools'
//   keep      the dashboard's push delay (scripts/dashboard-load.mjs) and
//             the git handoff (scripts/git-race.ts), spawned as they are
//   signing   issue 36's rows (scripts/bench-signing.ts): a signed append
//             against an unsigned one, and a first validate and a
//             re-validate of a signed 100k log against the unsigned log
//
// Every ratio compares runs of the same batch, interleaved; CPU time (user +
// system) is given beside wall time because the machine may be shared.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pythonTool, referenceMissing } from '../test/python/reference.ts';
import { benchValidateAppend } from './bench-append.ts';
import { benchSigning, SIGNING_GOALS } from './bench-signing.ts';
import { benchStart, figureTable, markdownTable, measuredEnv, median, type StartResult, smallFolder, timedRun, traceTable } from './bench-start.ts';

/** One row of the table. */
export interface TableRow {
  measure: string;
  runtime: string;
  value: string;
  baseline: string;
  /** Wall-time ratio (the measure). */
  ratio: string;
  cpuRatio: string;
  goal: string;
  met: string;
}

/** What bench.ts lends this section. */
export interface TableContext {
  root: string;
  work: string;
  quick: boolean;
  log(line: string): void;
}

interface Series {
  cpu: number[];
  wall: number[];
}

const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`);
const x = (ratio: number): string => `${ratio.toFixed(2)}×`;
const series = (): Series => ({ cpu: [], wall: [] });
const push = (s: Series, r: { cpu: number; wall: number }): void => {
  s.cpu.push(r.cpu);
  s.wall.push(r.wall);
};

/**
 * A row comparing `value` with `base` (medians of interleaved series). Met
 * when both the wall ratio (the measure) and the CPU ratio are
 * within `limit`: on a loaded machine one of them can pass by the load alone.
 */
function compared(measure: string, runtime: string, value: Series, base: Series, baseLabel: string, limit: number, goal = `≤ ${limit}×`): TableRow {
  const wall = median(value.wall) / median(base.wall);
  const cpu = median(value.cpu) / median(base.cpu);
  const met = wall <= limit && cpu <= limit ? 'yes' : wall <= limit ? 'wall only' : cpu <= limit ? 'CPU only' : 'NO';
  return { measure, runtime, value: `${ms(median(value.wall))} (CPU ${ms(median(value.cpu))})`, baseline: `${baseLabel} ${ms(median(base.wall))} (CPU ${ms(median(base.cpu))})`, ratio: x(wall), cpuRatio: x(cpu), goal, met };
}

/** The start rows, from scripts/bench-start.ts (which runs every runtime and command, and traces them). */
async function startRows(ctx: TableContext, rows: TableRow[]): Promise<StartResult> {
  const start = await benchStart({ root: ctx.root, work: ctx.work, rounds: ctx.quick ? 5 : 21, log: ctx.log });
  const row = (runtime: string, command: string, limit: number): void => {
    const f = start.figures.find((figure) => figure.runtime === runtime && figure.command === command);
    if (!f) return;
    const base = runtime.startsWith('node') ? 'node -e 0' : 'bun -e 0';
    rows.push(compared(`\`${command}\` × \`${base}\``, runtime, { cpu: [f.cpuMs], wall: [f.wallMs] }, { cpu: [f.baselineCpuMs], wall: [f.baselineWallMs] }, base, limit));
  };
  for (const node of ['node22', 'node24', 'node26']) row(node, 'next', 1.3);
  for (const node of ['node22', 'node24', 'node26']) row(node, 'status', 1.4);
  row('node20', 'next', 1.8);
  row('binary', 'next', 1.5);
  row('binary', '--version', 1.5);
  return start;
}

/** The events a long log's appends alternate (each hands the turn over): alice's proposal, bob's review. */
function alternating(folder: string, firstSeq: number): () => string[] {
  let seq = firstSeq;
  return () => {
    const [who, event, doc] = seq % 2 === firstSeq % 2 ? ['alice', 'proposal_submitted', 'proposal.md'] : ['bob', 'review_submitted', 'review.md'];
    seq++;
    return ['--folder', folder, '--participant', who!, '--event', event!, '--summary', 'bench', '--reply-to', String(seq - 2), '--doc', doc!];
  };
}

/** The binary's small append against the Python tools', interleaved, each on its own small folder. */
function smallAppendRow(ctx: TableContext, rows: TableRow[], notes: string[]): void {
  const env = measuredEnv();
  const python = pythonTool('append_event.py');
  if (!python) {
    notes.push(`The Python rows are missing: ${referenceMissing()}.`);
    return;
  }
  const request = ['--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'];
  const ours = smallFolder(ctx.root, join(ctx.work, 'table-append-binary'), env);
  const theirs = smallFolder(ctx.root, join(ctx.work, 'table-append-python'), env);
  const binary = series();
  const reference = series();
  for (let i = 0; i < (ctx.quick ? 5 : 21) + 1; i++) {
    const b = timedRun([join(ctx.root, 'dist', 'acp'), 'append', '--folder', ours, ...request], env);
    const p = timedRun([...python, '--folder', theirs, ...request], env);
    if (i === 0) continue; // the first of each warms the page cache
    push(binary, b);
    push(reference, p);
  }
  rows.push(compared('small `append` × the Python tools', 'binary', binary, reference, 'Python', 0.2));
}

/** The 100k-event rows (validate, strict append, append), from scripts/bench-append.ts: one generated strict-valid folder, interleaved rounds. */
async function scaleRows(ctx: TableContext, rows: TableRow[], notes: string[]): Promise<void> {
  const table = await benchValidateAppend({ events: ctx.quick ? 10_000 : 100_000, rounds: ctx.quick ? 3 : 7, root: ctx.root, log: ctx.log });
  for (const r of table.rows) {
    const { cpuRatio, wallRatio, limit } = r.figures;
    const met = limit === undefined ? '' : wallRatio <= limit && cpuRatio <= limit ? 'yes' : wallRatio <= limit ? 'wall only' : cpuRatio <= limit ? 'CPU only' : 'NO';
    rows.push({ measure: r.what, runtime: r.runtime, value: `${r.wall} (CPU ${r.cpu})`, baseline: r.baseline, ratio: x(wallRatio), cpuRatio: x(cpuRatio), goal: r.goal, met });
  }
  notes.push(...table.notes, `Load during the scale rows: ${table.load}.`);
}

/** The two figures the issue keeps: the dashboard's push delay and the git handoff, from their own scripts. */
function keepRows(ctx: TableContext, rows: TableRow[], notes: string[]): void {
  const env = measuredEnv();
  const dashboard = spawnSync('node', [join(ctx.root, 'scripts', 'dashboard-load.mjs'), 'latency', '--rounds', ctx.quick ? '5' : '21'], { cwd: ctx.root, env, encoding: 'utf8' });
  const push = /"pushMs":\{"median":([\d.]+)/.exec(dashboard.stdout)?.[1];
  rows.push({ measure: 'dashboard: append exit → the event on the page', runtime: 'node', value: push === undefined ? 'n/a' : ms(Number(push)), baseline: '', ratio: '', cpuRatio: '', goal: 'keep ≤ 100 ms', met: push !== undefined && Number(push) <= 100 ? 'yes' : 'NO' });
  if (push === undefined) notes.push(`dashboard-load.mjs failed: ${(dashboard.stderr || dashboard.stdout).trim().split('\n').slice(-2).join(' | ')}`);
  const bun = join(ctx.root, 'node_modules', '.bin', 'bun');
  const git = spawnSync(bun, [join(ctx.root, 'scripts', 'git-race.ts')], { cwd: ctx.root, env: { ...env, GIT_RACE_ONLY: 'handoff', GIT_RACE_HANDOFFS: ctx.quick ? '3' : '9' }, encoding: 'utf8' });
  const handoff = /handoff .*?median ([\d.]+) s/.exec(git.stdout)?.[1];
  rows.push({ measure: 'git handoff (append --git → the other clone’s wait returns)', runtime: 'bun', value: handoff === undefined ? 'n/a' : `${handoff} s`, baseline: '', ratio: '', cpuRatio: '', goal: 'keep ≤ 1.5 s', met: handoff !== undefined && Number(handoff) <= 1.5 ? 'yes' : 'NO' });
  if (handoff === undefined) notes.push(`git-race.ts failed: ${(git.stderr || git.stdout).trim().split('\n').slice(-2).join(' | ')}`);
}

/** Issue 36's rows: signing's cost on Node and the binary, signed against unsigned, medians of interleaved runs. */
function signingRows(ctx: TableContext, rows: TableRow[]): void {
  const events = ctx.quick ? 10_000 : 100_000;
  const figures = benchSigning({ events, appends: ctx.quick ? 5 : 21, validates: ctx.quick ? 1 : 3 });
  for (const f of figures) {
    const measure = f.what === 'append' ? 'signed append, small folder, × unsigned' : `signed ${f.what} of ${events / 1000}k events × unsigned`;
    rows.push(compared(measure, f.runtime, { wall: [f.signed.wall], cpu: [f.signed.cpu] }, { wall: [f.unsigned.wall], cpu: [f.unsigned.cpu] }, 'unsigned', SIGNING_GOALS[f.what]));
  }
}

/** Every row of issue 42's table (see the header); the start-up figures and traces come along. */
export async function benchTable(ctx: TableContext): Promise<{ rows: TableRow[]; start: StartResult; notes: string[] }> {
  const rows: TableRow[] = [];
  const notes: string[] = [];
  ctx.log('start-up per command and runtime (scripts/bench-start.ts)');
  const start = await startRows(ctx, rows);
  ctx.log('the binary\'s small append against the Python tools\'');
  smallAppendRow(ctx, rows, notes);
  ctx.log(`validate and append at ${ctx.quick ? '10k' : '100k'} events`);
  await scaleRows(ctx, rows, notes);
  ctx.log('the dashboard\'s push delay and the git handoff');
  keepRows(ctx, rows, notes);
  ctx.log(`signing: append, and validate at ${ctx.quick ? '10k' : '100k'} events (scripts/bench-signing.ts)`);
  signingRows(ctx, rows);
  return { rows, start, notes: [...notes, ...start.notes] };
}

/**
 * The startup work per command (command → modules loaded → time): on Node
 * 22 the modules, the CPU against `node -e 0` and its parts; Bun and the
 * binary's CPU against `bun -e 0`.
 */
function startupWork(start: StartResult): string[] {
  const figure = (runtime: string, command: string) => start.figures.find((f) => f.runtime === runtime && f.command === command);
  const cpu = (runtime: string, command: string): string => {
    const f = figure(runtime, command);
    return f ? `${ms(f.cpuMs)} (${x(f.cpuMs / f.baselineCpuMs)})` : 'n/a';
  };
  const commands = [...new Set(start.figures.map((f) => f.command))];
  const rows = commands.map((command) => {
    const trace = start.traces.find((t) => t.runtime === 'node22' && t.command === command);
    const i = trace?.inProcess;
    const parts = i ? `${ms(i.load)} / ${ms(i.first)} / ${ms(i.again)}` : 'the bin alone';
    return [`\`${command}\``, trace?.modules?.join(', ') ?? 'n/a', cpu('node22', command), parts, cpu('bun', command), cpu('binary', command)];
  });
  return markdownTable(['Command', 'Modules loaded (dist/, Node)', 'Node 22: CPU (× node -e 0)', 'Node 22: library import / first run / warm run', 'Bun: CPU (× bun -e 0)', 'binary: CPU (× bun -e 0)'], rows);
}

/** The table's part of docs/benchmarks.md. */
export function tableMarkdown(result: { rows: TableRow[]; start: StartResult; notes: string[] }, meta: { machine: string[]; seconds: number; quick: boolean }): string[] {
  const rows = result.rows.map((r) => [r.measure, r.runtime, r.value, r.baseline, r.ratio, r.cpuRatio, r.goal, r.met]);
  return [
    "## Issue 42's table",
    '',
    `Measured by \`npm run bench\` (scripts/bench-table.ts${meta.quick ? ', BENCH_QUICK: fewer runs, a 10k log' : ''}) in ${(meta.seconds / 60).toFixed(1)} min. The wall-time ratio is the issue's measure, the CPU ratio (user + system) the steadier one on a shared machine; "Met" asks both ("wall only" or "CPU only" when one passes).`,
    '',
    ...meta.machine,
    '',
    ...markdownTable(['Measure', 'Runtime', 'Measured (wall; CPU)', 'Baseline, same batch', 'Ratio (wall)', 'Ratio (CPU)', 'Goal', 'Met'], rows),
    '',
    '### Startup work per command',
    '',
    'Small folder; medians. The library import, first run and warm run are CPU in one process (scripts/bench-start-inproc.mjs): the first run of a command compiles each function it calls (Node\'s compile cache holds only the modules\' top-level code), the warm run is the work itself. Where the rest goes, and why: docs/performance.md#start-up.',
    '',
    ...startupWork(result.start),
    '',
    '#### Every command on every runtime (scripts/bench-start.ts)',
    '',
    ...figureTable(result.start),
    '',
    ...traceTable(result.start),
    '',
    ...result.notes.map((note) => `- ${note}`),
  ];
}
