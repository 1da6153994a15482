// Where the start-up of each command goes, per runtime (issue 42): for
// `--version`, `next`, `status`, a small `append`, `validate` and `report` on
// a small folder, on Node 20, 22, 24 and 26 (`node dist/acp.mjs`, as the
// installed `acp` runs; the versions other than this machine's are the npm
// registry's binaries, test/node-versions.ts), on Bun (`bun dist/acp.mjs`)
// and the compiled binary (dist/acp):
//
//   timed   interleaved rounds of the runtime's own `-e 0` and each command;
//           medians of CPU time (user + system, from the process's rusage:
//           the machine is shared) and wall time, both as ratios to `-e 0`
//   trace   per command, what it loads and where its CPU goes:
//           - the dist/ modules it loads (Node: NODE_DEBUG=esm, which also
//             names the Node built-ins imported; Bun: the .mjs files it
//             opens, by strace; the binary embeds one module per lazily imported part);
//           - Node and Bun, in one process (scripts/bench-start-inproc.mjs,
//             medians of 3): importing dist/lib.mjs (and core.mjs), the command's first run
//             (cold: each function it calls compiled and warmed up on the
//             way) and the same command again (warm: the work itself);
//           - the binary, from its --cpu-prof (100 µs, through BUN_OPTIONS;
//             means of 3): the bundle's module evaluation, acp's code after
//             it, and the runtime's own work (profiler overhead included).
//
// The tracing flags are the bench's, never the runtime's: acp itself is run
// as a user runs it. `npm run bench` (scripts/bench.ts) calls benchStart;
// alone:
//
//   node scripts/build.mjs && bun scripts/bench-start.ts [--rounds 21] [--runtimes node22,bun,binary] [--commands next,status]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNodeVersions, NODE_MAJORS, nodeBinary } from '../test/node-versions.ts';

/** The commands measured, by name. */
export const START_COMMANDS = ['--version', 'next', 'status', 'append', 'validate', 'report'] as const;
export type StartCommand = (typeof START_COMMANDS)[number];

/** A way to run the CLI, and the runtime's own empty start it is compared with. */
export interface StartRuntime {
  /** `node22`, `bun`, `binary`… */
  name: string;
  /** Its version, as printed. */
  version: string;
  /** The command line that runs acp, before the command's arguments. */
  cli: string[];
  /** The runtime's own empty program (`node -e 0`, `bun -e 0`). */
  baseline: string[];
  /** How a trace of it is taken. */
  trace: 'node' | 'bun' | 'binary';
}

/** Medians of one command on one runtime, and of its baseline in the same rounds. */
export interface StartFigure {
  runtime: string;
  command: StartCommand;
  cpuMs: number;
  wallMs: number;
  baselineCpuMs: number;
  baselineWallMs: number;
}

/** Where one command's start-up goes (see the header). */
export interface StartTrace {
  runtime: string;
  command: StartCommand;
  /** The dist/ modules it loaded, in load order (undefined: not observable here). */
  modules?: string[];
  /** Node built-in modules it imported (ES imports; Node only). */
  builtins?: string[];
  /** Node and Bun, in one process: CPU ms of importing the library, of the first run and of a second run. */
  inProcess?: { load: number; first: number; again: number };
  /** The binary's sampled profile, ms: the bundle's module evaluation, acp's code after it, the runtime's own. */
  profile?: { module: number; acp: number; runtime: number; total: number };
}

/** What a run measured: figures, traces, and the machine's load around them. */
export interface StartResult {
  figures: StartFigure[];
  traces: StartTrace[];
  load: { before: number[]; after: number[] };
  notes: string[];
}

/** Options of {@link benchStart}. */
export interface StartOptions {
  root: string;
  /** A scratch directory the folders go in. */
  work: string;
  rounds: number;
  /** Runtime names to measure (default: all that are installed). */
  runtimes?: readonly string[];
  commands?: readonly StartCommand[];
  log?(line: string): void;
}

/** The median of `values`. */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The measured commands' environment: this one without NODE_EXTRA_CA_CERTS,
 * which makes every Node start read a certificate bundle (the machine's
 * set-up, not acp's start), and without NODE_OPTIONS and BUN_OPTIONS.
 */
export function measuredEnv(env: Record<string, string | undefined> = process.env): Record<string, string | undefined> {
  const { NODE_EXTRA_CA_CERTS: _ca, NODE_OPTIONS: _node, BUN_OPTIONS: _bun, ...rest } = env;
  return rest;
}

/** One spawned run to its exit: CPU (user + system, ms, from wait4's rusage: microseconds) and wall (ms); an exit code not `allowed` throws (`'any'`: none does). */
export function timedRun(argv: string[], env: Record<string, string | undefined>, allowed: readonly number[] | 'any' = [0]): { cpu: number; wall: number; stdout: string; stderr: string; exitCode: number } {
  const start = performance.now();
  const result = Bun.spawnSync(argv, { env, stdout: 'pipe', stderr: 'pipe' });
  const wall = performance.now() - start;
  const stdout = result.stdout.toString();
  const stderr = result.stderr.toString();
  const exitCode = result.exitCode ?? -1;
  if (allowed !== 'any' && !allowed.includes(exitCode)) throw new Error(`${argv.join(' ')} exited ${exitCode}\n${stdout}${stderr}`);
  const cpu = result.resourceUsage ? Number(result.resourceUsage.cpuTime.total) / 1000 : Number.NaN;
  return { cpu, wall, stdout, stderr, exitCode };
}

/** The runtimes installed here: Node 20–26, Bun, the binary. */
export function startRuntimes(root: string, notes: string[]): StartRuntime[] {
  const versionOf = (argv: string[]): string => spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' }).stdout.trim();
  const bin = join(root, 'dist', 'acp.mjs');
  const bun = join(root, 'node_modules', '.bin', 'bun');
  const list: StartRuntime[] = [];
  const problem = installNodeVersions();
  if (problem) notes.push(`Only this machine's Node was measured: ${problem}.`);
  for (const major of NODE_MAJORS) {
    const node = !problem && existsSync(nodeBinary(major)) ? nodeBinary(major) : major === machineNodeMajor() ? 'node' : undefined;
    if (node) list.push({ name: `node${major}`, version: `node ${versionOf([node, '--version'])}`, cli: [node, bin], baseline: [node, '-e', '0'], trace: 'node' });
  }
  list.push({ name: 'bun', version: `bun ${versionOf([bun, '--version'])}`, cli: [bun, bin], baseline: [bun, '-e', '0'], trace: 'bun' });
  const binary = join(root, 'dist', 'acp');
  if (existsSync(binary)) list.push({ name: 'binary', version: `binary (bun ${versionOf([bun, '--version'])})`, cli: [binary], baseline: [bun, '-e', '0'], trace: 'binary' });
  return list;
}

/** The major version of the `node` on PATH (0 if none). */
function machineNodeMajor(): number {
  const out = spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout ?? '';
  return Number(out.split('.')[0]) || 0;
}

/** The arguments of `command` on `folder`. */
function commandArgs(command: StartCommand, folder: string, work: string, runtime: string): string[] {
  switch (command) {
    case '--version':
      return ['--version'];
    case 'next':
      return ['next', '--folder', folder, '--participant', 'bob'];
    case 'status':
      return ['status', '--folder', folder];
    case 'append':
      // Repeatable: a primary draft may be appended again while drafting.
      return ['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'];
    case 'validate':
      return ['validate', '--folder', folder];
    case 'report':
      return ['report', '--folder', folder, '--out', join(work, `report-${runtime}.html`)];
  }
}

/** A fresh small folder (init: alice, bob, an adr), made by the Node bin. */
export function smallFolder(root: string, folder: string, env: Record<string, string | undefined>): string {
  rmSync(folder, { recursive: true, force: true });
  const args = ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'Benchmark the start', '--completion', 'Figures recorded', '--primary-deliverable-type', 'adr'];
  timedRun(['node', join(root, 'dist', 'acp.mjs'), ...args], env);
  return folder;
}

/**
 * Interleaved rounds on one runtime: its `-e 0`, then each command. Each
 * command runs twice first (on Node >= 22.1 the first run writes the compile
 * cache, the second reads it; the page cache is warm).
 */
function timeRuntime(runtime: StartRuntime, commands: readonly StartCommand[], folder: string, options: StartOptions, env: Record<string, string | undefined>): StartFigure[] {
  const argvOf = (command: StartCommand): string[] => [...runtime.cli, ...commandArgs(command, folder, options.work, runtime.name)];
  for (let i = 0; i < 2; i++) for (const command of commands) timedRun(argvOf(command), env);
  const base = { cpu: [] as number[], wall: [] as number[] };
  const samples = new Map(commands.map((command) => [command, { cpu: [] as number[], wall: [] as number[] }]));
  for (let round = 0; round < options.rounds; round++) {
    const b = timedRun(runtime.baseline, env);
    base.cpu.push(b.cpu);
    base.wall.push(b.wall);
    for (const command of commands) {
      const r = timedRun(argvOf(command), env);
      samples.get(command)!.cpu.push(r.cpu);
      samples.get(command)!.wall.push(r.wall);
    }
  }
  const baselineCpuMs = median(base.cpu);
  const baselineWallMs = median(base.wall);
  return commands.map((command) => ({ runtime: runtime.name, command, cpuMs: median(samples.get(command)!.cpu), wallMs: median(samples.get(command)!.wall), baselineCpuMs, baselineWallMs }));
}

/** The dist/ modules and Node built-ins one run imports (NODE_DEBUG=esm names each module it translates). */
function nodeModules(argv: string[], env: Record<string, string | undefined>, dist: string): { modules: string[]; builtins: string[] } {
  const r = timedRun(argv, { ...env, NODE_DEBUG: 'esm' });
  const modules: string[] = [];
  const builtins: string[] = [];
  for (const [, kind, url] of r.stderr.matchAll(/Translating (\w+) (\S+)/g)) {
    if (kind === 'BuiltinModule' && !builtins.includes(url!)) builtins.push(url!);
    else if (url!.startsWith('file:')) {
      const name = relative(dist, fileURLToPath(url!));
      if (!modules.includes(name)) modules.push(name);
    }
  }
  return { modules, builtins };
}

/** The dist/ .mjs files one run opens (strace), for runtimes without Node's module debug output; undefined without strace. */
function openedModules(argv: string[], env: Record<string, string | undefined>, dist: string, work: string): string[] | undefined {
  if (spawnSync('strace', ['-V']).status !== 0) return undefined;
  const out = join(work, 'strace.txt');
  const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=openat', '-o', out, ...argv], { env, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(out)) return undefined;
  const modules: string[] = [];
  for (const [, path] of readFileSync(out, 'utf8').matchAll(/openat\([^"]*"([^"]+\.mjs)"[^)]*\) = \d/g)) {
    const name = relative(dist, resolve(path!));
    if (!name.startsWith('..') && !modules.includes(name)) modules.push(name);
  }
  return modules;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The binary's profile split: samples under the bundle's top level alone, in acp's functions, and the rest. */
export function profileSplit(profile: CpuProfile): NonNullable<StartTrace['profile']> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const split = { module: 0, acp: 0, runtime: 0, total: 0 };
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(profile.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    split.total += ms;
    const ours: string[] = [];
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (frame.url.includes('$bunfs') || frame.url.includes('/dist/')) ours.push(frame.functionName);
    }
    if (ours.length === 0) split.runtime += ms;
    else if (ours.every((name) => name === '(module)')) split.module += ms;
    else split.acp += ms;
  }
  return split;
}

/** The mean split of 3 profiled runs of the binary (its --cpu-prof, through BUN_OPTIONS). */
function binaryProfile(runtime: StartRuntime, args: string[], env: Record<string, string | undefined>, work: string): StartTrace['profile'] {
  const dir = join(work, 'prof-binary');
  const splits: NonNullable<StartTrace['profile']>[] = [];
  for (let i = 0; i < 3; i++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const r = spawnSync(runtime.cli[0]!, [...runtime.cli.slice(1), ...args], { env: { ...env, BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=100` }, encoding: 'utf8' });
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (r.status !== 0 || !file) return undefined;
    splits.push(profileSplit(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile));
  }
  const mean = (key: keyof NonNullable<StartTrace['profile']>): number => splits.reduce((sum, s) => sum + s[key], 0) / splits.length;
  return { module: mean('module'), acp: mean('acp'), runtime: mean('runtime'), total: mean('total') };
}

/** Medians of 3 in-process runs (scripts/bench-start-inproc.mjs) under the runtime of `runtime`. */
function inProcess(runtime: StartRuntime, args: string[], env: Record<string, string | undefined>, root: string): StartTrace['inProcess'] {
  const runs: { load: number; first: number; again: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const r = spawnSync(runtime.cli[0]!, [join(root, 'scripts', 'bench-start-inproc.mjs'), join(root, 'dist'), ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) return undefined;
    runs.push(JSON.parse(r.stdout.trim().split('\n').at(-1)!));
  }
  return { load: median(runs.map((r) => r.load)), first: median(runs.map((r) => r.first)), again: median(runs.map((r) => r.again)) };
}

/** The trace of each command on one runtime. */
function traceRuntime(runtime: StartRuntime, commands: readonly StartCommand[], folder: string, options: StartOptions, env: Record<string, string | undefined>): StartTrace[] {
  const dist = join(options.root, 'dist');
  return commands.map((command) => {
    const args = commandArgs(command, folder, options.work, runtime.name);
    const argv = [...runtime.cli, ...args];
    const trace: StartTrace = { runtime: runtime.name, command };
    if (runtime.trace === 'node') Object.assign(trace, nodeModules(argv, env, dist));
    if (runtime.trace === 'bun') trace.modules = openedModules(argv, env, dist, options.work);
    if (runtime.trace === 'binary') trace.profile = binaryProfile(runtime, args, env, options.work);
    // --version never loads the library (the bin answers it).
    else if (command !== '--version') trace.inProcess = inProcess(runtime, args, env, options.root);
    return trace;
  });
}

/** Measure every command on every runtime (see the header). */
export async function benchStart(options: StartOptions): Promise<StartResult> {
  const notes: string[] = [];
  const env = measuredEnv();
  const commands = options.commands ?? START_COMMANDS;
  const runtimes = startRuntimes(options.root, notes).filter((runtime) => !options.runtimes || options.runtimes.includes(runtime.name));
  const figures: StartFigure[] = [];
  const traces: StartTrace[] = [];
  const before = loadavg();
  for (const runtime of runtimes) {
    const folder = smallFolder(options.root, join(options.work, `start-${runtime.name}`), env);
    options.log?.(`${runtime.version}: ${options.rounds} interleaved rounds of ${runtime.baseline.slice(1).join(' ')} and ${commands.join(', ')} (load ${loadavg()[0]!.toFixed(2)})`);
    const timed = timeRuntime(runtime, commands, folder, options, env);
    figures.push(...timed);
    for (const f of timed) options.log?.(`  ${f.command.padEnd(10)} cpu ${f.cpuMs.toFixed(1).padStart(6)} ms ${(f.cpuMs / f.baselineCpuMs).toFixed(2)}×   wall ${f.wallMs.toFixed(1).padStart(6)} ms ${(f.wallMs / f.baselineWallMs).toFixed(2)}×`);
    traces.push(...traceRuntime(runtime, commands, folder, options, env));
  }
  notes.push(...runtimes.map((runtime) => `${runtime.name}: ${runtime.version}`));
  return { figures, traces, load: { before, after: loadavg() }, notes };
}

const fmt = (ms: number | undefined): string => (ms === undefined || Number.isNaN(ms) ? 'n/a' : `${ms.toFixed(1)} ms`);

/** The timed table: command × runtime, CPU and wall medians with their ratios to the runtime's `-e 0`. */
export function figureTable(result: StartResult): string[] {
  const rows = result.figures.map((f) => [f.runtime, f.command, fmt(f.cpuMs), `${(f.cpuMs / f.baselineCpuMs).toFixed(2)}×`, fmt(f.wallMs), `${(f.wallMs / f.baselineWallMs).toFixed(2)}×`, `${fmt(f.baselineCpuMs)} / ${fmt(f.baselineWallMs)}`]);
  return markdownTable(['Runtime', 'Command', 'CPU', 'CPU × -e 0', 'Wall', 'Wall × -e 0', '-e 0 (CPU / wall)'], rows);
}

/** The trace table: what each command loads and where its CPU goes. */
export function traceTable(result: StartResult): string[] {
  const baseline = new Map(result.figures.map((f) => [`${f.runtime} ${f.command}`, f]));
  const rows = result.traces.map((t) => {
    const measured = baseline.get(`${t.runtime} ${t.command}`);
    const modules = t.modules === undefined ? (t.runtime === 'binary' ? 'embedded modules (split)' : 'n/a') : t.modules.join(', ');
    const builtins = t.builtins?.length ? ` (+ ${t.builtins.join(', ')})` : '';
    const p = t.profile;
    const i = t.inProcess;
    const load = i ? fmt(i.load) : p ? `${fmt(p.module)} (profile: module evaluation)` : '';
    const first = i ? fmt(i.first) : p ? `${fmt(p.acp)} (profile: acp code; runtime ${fmt(p.runtime)})` : '';
    return [t.runtime, t.command, modules + builtins, fmt(measured?.baselineCpuMs), load, first, i ? fmt(i.again) : '', fmt(measured?.cpuMs)];
  });
  return markdownTable(['Runtime', 'Command', 'Modules loaded (dist/)', 'Start: -e 0', 'Loading the library', 'Command, first run', 'Same, warm', 'Measured (CPU)'], rows);
}

/** A Markdown table. */
export function markdownTable(head: string[], rows: string[][]): string[] {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)];
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const work = mkdtempSync(join(tmpdir(), 'acp-bench-start-'));
  try {
    const result = await benchStart({
      root,
      work,
      rounds: Number(option('rounds') ?? 21),
      runtimes: option('runtimes')?.split(','),
      commands: option('commands')?.split(',') as StartCommand[] | undefined,
      log: (line) => console.log(line),
    });
    const load = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' / ');
    console.log(`\nload average (1/5/15 min) before ${load(result.load.before)}, after ${load(result.load.after)}\n`);
    console.log([...figureTable(result), '', ...traceTable(result), '', ...result.notes.map((n) => `- ${n}`)].join('\n'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
