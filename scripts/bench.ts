// The benchmark suite: `npm run bench` (builds dist/, then runs this file
// with the local bun). By default it measures issue 42's table, every row
// in one run (section `table`, scripts/bench-table.ts: start-up per command
// and runtime with its trace, validate and append at 100k events against
// the Python tools, the dashboard's push and the git handoff; a few
// minutes), and writes it into docs/benchmarks.md between its markers. The
// older, longer suite (issue 19's targets and the results table: medians,
// p95) runs with BENCH_ONLY=all or by section, and writes its own part.
//
//   BENCH_QUICK=1          fast smoke mode (fewer runs, 1k/10k logs, 3 s idle wait)
//   BENCH_ONLY=a,b         only these sections: table (the default), targets, runtimes, logs, handoff, idle, concurrent,
//                          memory, rpc; `all`: every one; `start`: only the Node start rows of targets
//   BENCH_RPC_RUNTIMES=a,b the server runtimes of the rpc section (default node,bun,deno,binary)
//   BENCH_IDLE_SECONDS=N   length of the idle-wait measurement (default 30; quick 3)
//   BENCH_NO_WRITE=1       print the table but do not write docs/benchmarks.md
//   BENCH_KEEP=1           keep the generated folders (their path is printed)
//
// Logs are generated with the library (scripts/long-log.ts), and
// every generated folder is checked to validate before it is measured.
// Timing figures live here only: `npm test` makes no timing assertions.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Host, type Registry, createNodeHost, createRegistry, init } from '../acp.ts';
import { type BenchRpcResult, type BenchRpcRuntime, benchRpc } from './bench-rpc.ts';
import { benchTable, tableMarkdown } from './bench-table.ts';
import { benchTargets, copyFolder, type TargetRow } from './bench-targets.ts';
import { writeLongLog } from './long-log.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'dist', 'acp');
/** The package's bin: the CLI on Node (it turns on the compile cache, then imports dist/core.mjs). */
const MJS = join(ROOT, 'dist', 'acp.mjs');
const ACP_TS = join(ROOT, 'acp.ts');
const LOCAL_BIN = join(ROOT, 'node_modules', '.bin');
const env = process.env;
const QUICK = env.BENCH_QUICK === '1';
const ONLY = new Set((env.BENCH_ONLY || 'table').split(','));
/** The whole suite (BENCH_ONLY=all): what `npm run bench` ran before issue 42's table, and the table. */
const ALL = ONLY.has('all');
const IDLE_SECONDS = Number(env.BENCH_IDLE_SECONDS ?? (QUICK ? 3 : 30));
const want = (section: string): boolean => (ALL ? section !== 'start' : ONLY.has(section));

// ------------------------------------------------------------------ helpers

interface Row {
  what: string;
  runtime: string;
  median: string;
  p95: string;
  target: string;
  met: string;
}
const rows: Row[] = [];
const notes: string[] = [];
/** Issue 19's targets with their same-run baselines (scripts/bench-targets.ts). */
const targetRows: TargetRow[] = [];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');

function record(what: string, runtime: string, samples: number[], target?: { max: number; text: string; p95?: boolean }): void {
  const median = quantile(samples, 0.5);
  const p95 = quantile(samples, 0.95);
  const value = target?.p95 ? p95 : median;
  rows.push({
    what,
    runtime,
    median: ms(median),
    p95: samples.length >= 5 ? ms(p95) : '',
    target: target?.text ?? '',
    met: target ? (value <= target.max ? 'yes' : 'NO') : '',
  });
  console.log(`  ${what.padEnd(44)} ${runtime.padEnd(8)} median ${ms(median).padStart(10)}  p95 ${ms(p95).padStart(10)}  (n=${samples.length})`);
}

function recordValue(what: string, runtime: string, value: string, target = '', met = ''): void {
  rows.push({ what, runtime, median: value, p95: '', target, met });
  console.log(`  ${what.padEnd(44)} ${runtime.padEnd(8)} ${value}`);
}

interface Cli {
  name: string;
  prefix: (folder: string) => string[];
  env?: Record<string, string>;
}

function runtimes(): Cli[] {
  const list: Cli[] = [];
  if (existsSync(BIN)) list.push({ name: 'binary', prefix: () => [BIN] });
  if (existsSync(MJS)) list.push({ name: 'node', prefix: () => ['node', MJS] });
  list.push({ name: 'bun', prefix: () => [join(LOCAL_BIN, 'bun'), ACP_TS] });
  if (existsSync(join(LOCAL_BIN, 'deno'))) {
    list.push({
      name: 'deno',
      prefix: (folder) => [join(LOCAL_BIN, 'deno'), 'run', '--no-prompt', '--quiet', `--allow-read=${ROOT},${folder}`, `--allow-write=${folder}`, '--allow-env', ACP_TS],
      env: { DENO_NO_UPDATE_CHECK: '1' },
    });
  }
  return list;
}

const binary: Cli = { name: 'binary', prefix: () => [BIN] };

/**
 * The environment of the measured commands: this one without
 * NODE_EXTRA_CA_CERTS, which makes every Node start read a CA bundle (~80 ms
 * here) — the machine's set-up, not acp's start-up (said in the notes).
 */
const { NODE_EXTRA_CA_CERTS, ...childEnv } = env;

/** Run a command to completion; returns wall milliseconds (spawn to exit). */
function timed(argv: string[], extraEnv?: Record<string, string>, allowed: number[] = [0]): { ms: number; stdout: string; stderr: string; maxRss: number } {
  const start = performance.now();
  const result = Bun.spawnSync(argv, { env: { ...childEnv, ...extraEnv }, stdout: 'pipe', stderr: 'pipe' });
  const elapsed = performance.now() - start;
  const stdout = result.stdout.toString();
  const stderr = result.stderr.toString();
  if (!allowed.includes(result.exitCode ?? -1)) throw new Error(`${argv.join(' ')} exited ${result.exitCode}\n${stdout}${stderr}`);
  return { ms: elapsed, stdout, stderr, maxRss: result.resourceUsage?.maxRSS ?? Number.NaN };
}

function cli(runtime: Cli, folder: string, args: string[], allowed?: number[]): ReturnType<typeof timed> {
  return timed([...runtime.prefix(folder), ...args], runtime.env, allowed);
}

const work = mkdtempSync(join(os.tmpdir(), 'acp-bench-'));
let host: Host;
let registry: Registry;

async function newFolder(name: string): Promise<string> {
  const folder = join(work, name);
  await init(host, folder, { participants: ['alice', 'bob'], objective: 'Benchmark the runtime', completion: ['Benchmarks recorded'], primaryType: 'adr' }, registry);
  return folder;
}

/** A valid log of `total` events (scripts/long-log.ts's shape), checked by the binary's validate before any figure is taken from it. */
async function generateLog(total: number): Promise<string> {
  const folder = join(work, `log-${total}`);
  await writeLongLog(host, registry, folder, total);
  const check = cli(binary, folder, ['validate', '--folder', folder], [0, 1, 2]);
  if (!check.stdout.startsWith('ACP validation passed')) throw new Error(`generated ${total}-event log does not validate:\n${check.stdout.slice(0, 2000)}`);
  return folder;
}

/** Pristine generated logs by size: each is generated once and handed out as copies. */
const pristineLogs = new Map<number, string>();

/** A fresh copy, named `name`, of a valid generated log of `size` events. */
async function logCopy(size: number, name: string): Promise<string> {
  let pristine = pristineLogs.get(size);
  if (!pristine) {
    pristine = copyFolder(await generateLog(size), join(work, `pristine-${size}`));
    pristineLogs.set(size, pristine);
  }
  return copyFolder(pristine, join(work, name));
}

/** The Node server's figures, measured once and shared by the targets and rpc sections. */
let nodeRpc: Promise<BenchRpcResult> | undefined;
const rpcOnNode = (): Promise<BenchRpcResult> =>
  (nodeRpc ??= benchRpc({ runtime: 'node', seconds: QUICK ? 1 : 2, windows: QUICK ? 3 : 5, appends: QUICK ? 10 : 20, log: (line) => console.log(`    ${line}`) }));

// ----------------------------------------------------------------- sections

async function benchTargetsSection(): Promise<void> {
  console.log('\nissue 19 targets');
  const result = await benchTargets({
    quick: QUICK,
    startOnly: !want('targets'),
    work,
    root: ROOT,
    timed: (argv, allowed) => timed(argv, undefined, allowed),
    newFolder: (name) => newFolder(name),
    logCopy,
    env: childEnv,
    dropValidateCache: (folder) => rmSync(validateCache(folder), { force: true }),
    serverRatio: async () => {
      const r = await rpcOnNode();
      return { ratio: r.statusRatio, acp: r.statusCallsPerSecond, echo: r.echoCallsPerSecond, replyBytes: r.replyBytes };
    },
  });
  targetRows.push(...result.rows);
  notes.push(...result.notes);
}

async function benchRuntimes(): Promise<void> {
  console.log('\none append and one validate on a small folder, per runtime');
  const runs = QUICK ? 5 : 21;
  for (const runtime of runtimes()) {
    const folder = await newFolder(`small-${runtime.name}`);
    const appendArgs = ['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'];
    const validateArgs = ['validate', '--folder', folder];
    cli(runtime, folder, appendArgs); // warm the page cache and the deno module cache
    cli(runtime, folder, validateArgs);
    const appends: number[] = [];
    const validates: number[] = [];
    for (let i = 0; i < runs; i++) {
      appends.push(cli(runtime, folder, appendArgs).ms);
      validates.push(cli(runtime, folder, validateArgs).ms);
    }
    const isBinary = runtime.name === 'binary';
    record('append, small folder', runtime.name, appends, isBinary ? { max: 25, text: '≤ 25 ms median' } : undefined);
    record('validate, small folder', runtime.name, validates);
  }
}

/** Where validate keeps the validation checkpoint of `folder` (runtime/validate-checkpoint.ts, the node host's default). */
function validateCache(folder: string): string {
  const state = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(os.homedir(), '.local', 'state');
  return join(state, 'acp', 'validate', `${new Bun.CryptoHasher('sha256').update(folder).digest('hex')}.json`);
}

async function benchLogs(): Promise<void> {
  console.log('\nvalidate and append on long logs (binary)');
  const sizes = QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  for (const size of sizes) {
    const t0 = performance.now();
    // A copy: the appends below change the folder.
    const folder = await logCopy(size, `logs-${size}`);
    const bytes = readFileSync(join(folder, 'events.jsonl')).length;
    console.log(`  (${size} events, ${(bytes / 1e6).toFixed(1)} MB, ready in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    const label = size >= 1000 ? `${size / 1000}k` : String(size);
    const runs = QUICK ? 3 : 15;
    // "first run": the validation checkpoint (docs/performance.md) is deleted before it; "re-validate": it is current.
    for (const runtime of size === 100_000 && existsSync(MJS) ? [binary, { name: 'node', prefix: () => ['node', MJS] }] : [binary]) {
      const first: number[] = [];
      const again: number[] = [];
      for (let i = 0; i < runs; i++) {
        rmSync(validateCache(folder), { force: true });
        first.push(cli(runtime, folder, ['validate', '--folder', folder]).ms);
        again.push(cli(runtime, folder, ['validate', '--folder', folder]).ms);
      }
      record(`validate, ${label} events (first run)`, runtime.name, first, size === 100_000 && runtime === binary ? { max: 300, text: '≤ 300 ms median' } : undefined);
      record(`validate, ${label} events (re-validate)`, runtime.name, again, size === 100_000 ? { max: 158, text: '≤ 158 ms (0.15× Python)' } : undefined);
    }

    // Appends alternate proposal_submitted (alice) and review_submitted
    // (bob): every one hands the turn over and changes the phase.
    let next = size + 1;
    const appendOnce = (): number => {
      const [who, event] = next % 2 === (size + 1) % 2 ? ['alice', 'proposal_submitted'] : ['bob', 'review_submitted'];
      const r = cli(binary, folder, ['append', '--folder', folder, '--participant', who, '--event', event, '--summary', 'bench', '--reply-to', String(next - 1)]);
      next++;
      return r.ms;
    };
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      rmSync(join(folder, '.acp.checkpoint.json'), { force: true });
      cold.push(appendOnce());
      warm.push(appendOnce());
    }
    record(`append, ${label} events (checkpoint current)`, 'binary', warm, size === 100_000 ? { max: 60, text: '≤ 60 ms median' } : undefined);
    record(`append, ${label} events (full replay)`, 'binary', cold);
  }
}

function lineReader(child: ChildProcess, onLine: (line: string, at: number) => void): void {
  let buffer = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    const at = performance.timeOrigin + performance.now(); // wall clock, comparable with file times
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      onLine(buffer.slice(0, nl), at);
      buffer = buffer.slice(nl + 1);
    }
  });
}

function spawnWaiter(folder: string, participant: string, extra: string[] = []): { child: ChildProcess; waiting: Promise<void>; ready: Promise<number>; exited: Promise<number | null> } {
  const child = spawn(BIN, ['wait', '--folder', folder, '--participant', participant, '--timeout', '0', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let onWaiting!: () => void;
  let onReady!: (at: number) => void;
  const waiting = new Promise<void>((r) => (onWaiting = r));
  const ready = new Promise<number>((r) => (onReady = r));
  lineReader(child, (line, at) => {
    if (line.startsWith('waiting:')) onWaiting();
    if (line.startsWith('ready:')) onReady(at);
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, waiting, ready, exited };
}

async function benchHandoff(): Promise<void> {
  console.log('\nturn handoff: end of the append → the waiter’s `wait` returns (binary appender and waiter)');
  const runs = QUICK ? 5 : 25;
  const folder = await newFolder('handoff');
  cli(binary, folder, ['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'draft', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md']);
  let seq = 2;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    // alice hands over to bob (proposal_submitted), bob back to alice (review_submitted).
    const [from, to, event] = i % 2 === 0 ? ['alice', 'bob', 'proposal_submitted'] : ['bob', 'alice', 'review_submitted'];
    const waiter = spawnWaiter(folder, to);
    await waiter.waiting;
    await new Promise((r) => setTimeout(r, 100)); // let the waiter settle into its idle wait
    await new Promise<void>((resolveRun, reject) => {
      const child = spawn(BIN, ['append', '--folder', folder, '--participant', from, '--event', event, '--summary', 'handoff', '--reply-to', String(seq)], { stdio: 'ignore' });
      child.on('exit', (code) => (code === 0 ? resolveRun() : reject(new Error(`append exited ${code}`))));
    });
    seq++;
    // The turn is handed over when protocol.json is replaced: its mtime (the
    // temporary file's last write, just before the rename) is the start.
    const handedOver = Number(statSync(join(folder, 'protocol.json'), { bigint: true }).mtimeNs) / 1e6;
    const readyAt = await waiter.ready;
    await waiter.exited;
    samples.push(readyAt - handedOver);
  }
  record('turn handoff (append → wait returns)', 'binary', samples, { max: 30, text: 'p50 ≤ 30 ms' });
  notes.push(
    `Handoff: \`dist/acp wait\` (spawned, already idle) and \`dist/acp append\` (spawned); from the mtime of the protocol.json the append wrote (the handover) to the arrival of the waiter's \`ready:\` line, on the same wall clock (${runs} runs).`,
  );
}

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
}

async function benchIdle(): Promise<void> {
  console.log(`\nCPU time of an idle \`wait\` over ${IDLE_SECONDS} s (binary)`);
  if (!existsSync('/proc/self/stat')) {
    recordValue(`idle wait CPU over ${IDLE_SECONDS} s`, 'binary', 'n/a (no /proc)');
    return;
  }
  const folder = await newFolder('idle');
  const waiter = spawnWaiter(folder, 'bob');
  await waiter.waiting;
  await new Promise((r) => setTimeout(r, 200));
  const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  const before = cpuTicks(waiter.child.pid!);
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const after = cpuTicks(waiter.child.pid!);
  waiter.child.kill('SIGTERM');
  await waiter.exited;
  const cpuMs = ((after - before) * 1000) / ticksPerSecond;
  recordValue(`idle wait CPU over ${IDLE_SECONDS} s`, 'binary', `${cpuMs.toFixed(0)} ms (${((cpuMs / (IDLE_SECONDS * 1000)) * 100).toFixed(2)} %)`, '≈ 0', cpuMs <= IDLE_SECONDS * 2 ? 'yes' : 'NO');
  notes.push(`Idle wait: utime+stime of the waiter from /proc/<pid>/stat (${ticksPerSecond} ticks/s), measured after it printed its first \`waiting:\` line.`);
}

async function benchConcurrent(): Promise<void> {
  const workers = 16;
  const perWorker = QUICK ? 3 : 10;
  console.log(`\n${workers} concurrent appenders × ${perWorker} appends each (binary, one process per append)`);
  const folder = await newFolder('concurrent');
  const start = performance.now();
  const one = (): Promise<void> =>
    new Promise((resolveRun, reject) => {
      const child = spawn(BIN, ['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'concurrent', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      child.on('exit', (code) => (code === 0 ? resolveRun() : reject(new Error(`append exited ${code}: ${stderr}`))));
    });
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = 0; i < perWorker; i++) await one();
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const total = workers * perWorker;
  const lines = readFileSync(join(folder, 'events.jsonl'), 'utf8').trim().split('\n');
  const check = cli(binary, folder, ['validate', '--folder', folder], [0, 1, 2]);
  const ok = lines.length === total + 1 && check.stdout.startsWith('ACP validation passed');
  recordValue(`${workers} concurrent appenders`, 'binary', `${(total / elapsed).toFixed(0)} appends/s (${total} in ${elapsed.toFixed(2)} s${ok ? ', log valid' : ', LOG INVALID'})`);
  if (!ok) notes.push(`Concurrent appenders: expected ${total + 1} lines, found ${lines.length}; validate said: ${check.stdout.split('\n').slice(0, 3).join(' / ')}`);
}

async function benchMemory(): Promise<void> {
  console.log('\npeak memory of validate at 100k events');
  const size = QUICK ? 10_000 : 100_000;
  const folder = await logCopy(size, `memory-${size}`);
  // GNU time reports the peak RSS of that one process; Bun's own figure is the fallback.
  const gnuTime = existsSync('/usr/bin/time') && spawnSync('/usr/bin/time', ['-f', '%M', 'true'], { encoding: 'utf8' }).status === 0;
  const peakMb = (runtime: Cli): number => {
    if (!gnuTime) return cli(runtime, folder, ['validate', '--folder', folder]).maxRss / 1e6;
    const r = timed(['/usr/bin/time', '-f', 'peak-kb %M', ...runtime.prefix(folder), 'validate', '--folder', folder], runtime.env);
    return (Number(/peak-kb (\d+)/.exec(r.stderr)?.[1]) * 1024) / 1e6;
  };
  for (const runtime of [binary, ...(existsSync(MJS) ? [{ name: 'node', prefix: () => ['node', MJS] }] : [])]) {
    for (const run of ['first run', 're-validate']) {
      const samples: number[] = [];
      for (let i = 0; i < 3; i++) {
        if (run === 'first run') rmSync(validateCache(folder), { force: true });
        samples.push(peakMb(runtime));
      }
      const peak = quantile(samples, 0.5);
      const limit = size === 100_000 ? 100 : undefined;
      recordValue(`validate peak RSS, ${size / 1000}k events (${run})`, runtime.name, `${peak.toFixed(0)} MB`, limit ? `≤ ${limit} MB` : '', limit ? (peak <= limit ? 'yes' : 'NO') : '');
    }
  }
}

// ------------------------------------------------------------ acp serve

/**
 * The JSON-RPC server (scripts/bench-rpc.ts) under each runtime: task/status
 * throughput with 50 concurrent loopback clients, and the delay from an
 * append to its notification at 1 000 subscribers.
 */
async function benchServer(): Promise<void> {
  console.log('acp serve (JSON-RPC over loopback TCP)');
  const wanted = (env.BENCH_RPC_RUNTIMES ?? 'node,bun,deno,binary').split(',').filter(Boolean) as BenchRpcRuntime[];
  for (const runtime of wanted) {
    const r = runtime === 'node' ? await rpcOnNode() : await benchRpc({ runtime, seconds: QUICK ? 1 : 2, windows: 3, appends: QUICK ? 10 : 20, log: (line) => console.log(`    ${line}`) });
    const echo = r.statusRatio === undefined ? '' : `; ${r.statusRatio}× a bare echo server's ${r.echoCallsPerSecond?.toLocaleString('en-US')} calls/s, echo CPU ${r.echoCpuPerCallUs ?? '?'} µs per call`;
    const rates = `${r.statusCallsPerSecond.toLocaleString('en-US')} calls/s (windows ${r.windowRates.map((x) => x.toLocaleString('en-US')).join(' / ')}; server CPU ${r.serverCpuPerCallUs ?? '?'} µs per call${echo})`;
    recordValue(`task/status, ${r.clients} concurrent clients`, runtime, rates, '≥ 10 000 calls/s', r.statusCallsPerSecond >= 10_000 ? 'yes' : 'NO');
    const n = r.notify;
    rows.push({
      what: `append → notification, ${n.subscribers.toLocaleString('en-US')} subscribers`,
      runtime,
      median: ms(n.p50Ms),
      p95: ms(n.p95Ms),
      target: 'p95 ≤ 100 ms',
      met: n.p95Ms <= 100 ? 'yes' : 'NO',
    });
    console.log(`  ${'append → notification'.padEnd(44)} ${runtime.padEnd(8)} median ${ms(n.p50Ms).padStart(10)}  p95 ${ms(n.p95Ms).padStart(10)}  (${n.delivered} deliveries)`);
  }
  // A long-running collaboration: the server must not re-read the whole log for each change.
  const longLog = QUICK ? 10_000 : 100_000;
  const long = await benchRpc({ runtime: 'node', seconds: 1, windows: 1, appends: QUICK ? 10 : 20, logEvents: longLog, log: (line) => console.log(`    ${line}`) });
  rows.push({
    what: `append → notification, 1,000 subscribers, ${longLog / 1000}k-event log`,
    runtime: 'node',
    median: ms(long.notify.p50Ms),
    p95: ms(long.notify.p95Ms),
    target: 'p95 ≤ 100 ms',
    met: long.notify.p95Ms <= 100 ? 'yes' : 'NO',
  });
  notes.push(
    'acp serve: the server runs in its own process (node `dist/acp.mjs`, bun and deno `acp.ts`, the binary); the clients run in the benchmark process, on the same 2 cores. task/status: 50 connections authenticated with a token, each sending its next call when the previous one is answered; rate = median of 3 back-to-back windows. Notification delay: 1 000 TCP connections each subscribed to the collaboration; the appends are made by the benchmark process through the library (like any other writer of the folder); the delay runs from just before each append starts to the arrival of the `agent/event` notification on each connection, over every (append, subscriber) pair.',
  );
}

// --------------------------------------------------------------- the report

function version(argv: string[]): string {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n')[0]! : 'n/a';
}

function machine(loadBefore: number[], loadAfter: number[]): string[] {
  const cpus = os.cpus();
  const fmtLoad = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' / ');
  return [
    `- Date: ${new Date().toISOString().slice(0, 19)}Z`,
    `- CPU: ${cpus[0]?.model ?? 'unknown'}, ${cpus.length} logical cores (${os.availableParallelism?.() ?? cpus.length} available)`,
    `- Memory: ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${os.type()} ${os.release()} (${os.arch()})`,
    `- Runtimes: node ${version(['node', '--version'])}, bun ${Bun.version} (also runs this script), ${version([join(LOCAL_BIN, 'deno'), '--version'])}`,
    `- Load average (1/5/15 min) before: ${fmtLoad(loadBefore)}; after: ${fmtLoad(loadAfter)}`,
    `- Mode: ${QUICK ? 'BENCH_QUICK (smoke run: fewer runs, smaller logs)' : 'full'}`,
  ];
}

function targetTable(): string[] {
  const head = ['Target', 'Runtime', 'Measured', 'Baseline (same run)', 'Ratio', 'Goal', 'Met'];
  const body = targetRows.map((r) => [r.what, r.runtime, r.value, r.baseline, r.ratio, r.target, r.met]);
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)];
}

function table(): string[] {
  const head = ['What', 'Runtime', 'Median', 'p95', 'Target', 'Met'];
  const body = rows.map((r) => [r.what, r.runtime, r.median, r.p95, r.target, r.met]);
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)];
}

/** Issue 42's table (scripts/bench-table.ts), printed; returns its part of docs/benchmarks.md. */
async function benchTableSection(loadBefore: number[]): Promise<string[]> {
  console.log("\nissue 42's table");
  const started = performance.now();
  const result = await benchTable({ root: ROOT, work, quick: QUICK, log: (line) => console.log(`  ${line}`) });
  const seconds = (performance.now() - started) / 1000;
  const block = tableMarkdown(result, { machine: machine(loadBefore, os.loadavg()), seconds, quick: QUICK });
  console.log(`\n${block.join('\n')}`);
  return block;
}

/**
 * docs/benchmarks.md with the part between `<!-- bench:NAME:start -->` and
 * its end marker replaced by `lines` (a part not there yet goes before the
 * Signing section, which scripts/bench-signing.ts's figures keep).
 */
function withPart(doc: string, name: string, lines: string[]): string {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const part = [start, ...lines, end].join('\n');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) return doc.slice(0, from) + part + doc.slice(to + end.length);
  const signing = doc.indexOf('\n## Signing');
  return signing >= 0 ? `${doc.slice(0, signing + 1)}${part}\n\n${doc.slice(signing + 1)}` : `${doc}\n${part}\n`;
}

/** The older suite's part of docs/benchmarks.md (BENCH_ONLY=all). */
function suiteReport(loadBefore: number[]): string[] {
  return [
    '## Machine',
    '',
    ...machine(loadBefore, os.loadavg()),
    '',
    ...(targetRows.length ? ['## Targets (issue 19)', '', ...targetTable(), ''] : []),
    '## Results',
    '',
    ...table(),
    '',
    '## Notes',
    '',
    '- Small folder: a fresh `init` folder (two participants, an `adr`); the append is a primary `deliverable_drafted`.',
    '- Long logs are generated with the library: `initialized`, a primary draft, then rounds of `proposal_submitted` / `review_submitted` (with review.md headings), each followed by supporting-deliverable revisions; each validates cleanly before it is measured. The appends on them alternate `proposal_submitted` and `review_submitted` (each hands the turn over). "checkpoint current": the previous append was made by the runtime, so `.acp.checkpoint.json` matches the log; "full replay": the checkpoint was deleted first, so the whole log is read and replayed.',
    '- Concurrent appenders: 16 loops, each spawning `dist/acp append` one after another; all appends go through the folder lock. The log is checked afterwards (every append present, the folder validates).',
    '- Peak memory: maximum resident set of the `validate` process (GNU `time -f %M`), median of 3 runs.',
    '- `validate` on a long log spends about a third of its CPU in the JIT compiler, which runs on a second thread: on a 2-core machine shared with other work its wall time varies with the load (see the load average above).',
    ...notes.map((n) => `- ${n}`),
  ];
}

async function main(): Promise<void> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`node scripts/build.mjs\` first (npm run bench does)`);
  host = await createNodeHost();
  registry = await createRegistry();
  if (NODE_EXTRA_CA_CERTS !== undefined) {
    notes.push("NODE_EXTRA_CA_CERTS was set in this shell and is removed from the measured commands' environment: with it, every Node start reads that certificate bundle first (~80 ms on this machine).");
  }
  const loadBefore = os.loadavg();
  console.log(`acp benchmarks${QUICK ? ' (quick)' : ''}; work folder ${work}; load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')}`);
  let tablePart: string[] | undefined;
  try {
    if (want('table')) tablePart = await benchTableSection(loadBefore);
    if (want('targets') || want('start')) await benchTargetsSection();
    if (want('runtimes')) await benchRuntimes();
    if (want('logs')) await benchLogs();
    if (want('handoff')) await benchHandoff();
    if (want('idle')) await benchIdle();
    if (want('concurrent')) await benchConcurrent();
    if (want('memory')) await benchMemory();
    if (want('rpc')) await benchServer();
  } finally {
    if (env.BENCH_KEEP === '1') console.log(`(kept ${work})`);
    else rmSync(work, { recursive: true, force: true });
  }
  if (rows.length || targetRows.length) console.log(`\n${targetTable().join('\n')}\n\n${table().join('\n')}`);
  if (env.BENCH_NO_WRITE === '1') return;
  const file = join(ROOT, 'docs', 'benchmarks.md');
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  if (tablePart) doc = withPart(doc, 'table', tablePart);
  if (ALL) doc = withPart(doc, 'suite', suiteReport(loadBefore));
  if (tablePart || ALL) {
    writeFileSync(file, doc);
    console.log('\nwrote docs/benchmarks.md');
  } else console.log('\n(docs/benchmarks.md is written by the table section or BENCH_ONLY=all)');
}

await main();
