// Benchmarks of `acp serve` (loopback only):
//
//   1. task/status calls per second with 50 concurrent clients over TCP
//      (each client sends its next call when the previous one is answered);
//      goal ≥ 10 000/s.
//   2. The delay from an append to its agent/event notification at 1 000
//      subscribers (1 000 TCP connections), p50/p95/max over every
//      (append, subscriber) pair; goal p95 ≤ 100 ms. Measured from just
//      before the append starts (so it includes the append's own work) to
//      the notification's arrival, on one clock (the appends run in this
//      process, through the library, like any other writer of the folder).
//
// The server runs in its own process: `node dist/acp.mjs serve` (default),
// `--runtime bun` (`bun acp.ts serve`), `--runtime deno` (`deno run` with the
// permissions README documents) or `--runtime binary` (`dist/acp serve`);
// build first (`npm run build`). The throughput is measured in `--windows`
// consecutive windows of `--seconds` each and the median window is reported
// (with the slowest and fastest), so one hiccup of a shared machine does not
// become the figure. `npm run bench` runs this for every runtime and puts the
// figures in BENCHMARKS.md.
//
//   node_modules/.bin/bun scripts/bench-rpc.ts [--runtime node|bun|deno|binary] [--seconds 2]
//       [--windows 3] [--clients 50] [--subscribers 1000] [--appends 20] [--log-events 1] [--json]
//
// --log-events N starts from a collaboration whose log already holds N events.
//
// BENCH_RPC_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p" passes flags to the server's runtime (profiling).
// scripts/bench.ts may import `benchRpc()` and put the figures in its table.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { append, createNodeHost, createRegistry, formatEventLine, init } from '../acp.ts';
import { RpcClient } from '../plugins/rpc/client.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOKEN = 'bench-token-0123456789abcdef';

/** The runtimes the server can be benchmarked under. */
export type BenchRpcRuntime = 'node' | 'bun' | 'deno' | 'binary';

/** Options of {@link benchRpc}. */
export interface BenchRpcOptions {
  runtime?: BenchRpcRuntime;
  /** Length of one throughput window (s). */
  seconds?: number;
  /** Number of throughput windows; the median one is reported. */
  windows?: number;
  clients?: number;
  subscribers?: number;
  appends?: number;
  /** Events to put in the collaboration's log before the server starts (a long-running collaboration). */
  logEvents?: number;
  log?(line: string): void;
}

/** The figures. */
export interface BenchRpcResult {
  runtime: string;
  /** The median window's rate. */
  statusCallsPerSecond: number;
  /** Every window's rate, slowest first. */
  windowRates: number[];
  /** Server CPU per task/status call (µs), when /proc can tell. */
  serverCpuPerCallUs: number | undefined;
  clients: number;
  notify: { subscribers: number; appends: number; p50Ms: number; p95Ms: number; maxMs: number; delivered: number };
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux); undefined elsewhere. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 (1-based) of the whole line, in clock ticks (100/s on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The command that starts `acp serve` under a runtime (no arguments after `serve`). */
function serveCommand(runtime: BenchRpcRuntime): string[] {
  const bin = (name: string): string => join(ROOT, 'node_modules', '.bin', name);
  switch (runtime) {
    case 'node':
      // This script usually runs under bun: the server must get the real node.
      return [process.execPath.endsWith('bun') ? 'node' : process.execPath, join(ROOT, 'dist', 'acp.mjs')];
    case 'bun':
      return [bin('bun'), join(ROOT, 'acp.ts')];
    case 'deno':
      // The permissions README documents for `acp serve` under Deno.
      return [bin('deno'), 'run', '--quiet', '--no-prompt', '--allow-read', '--allow-write', '--allow-net', '--allow-env=LOG_TOKENS,LOG_STREAM', join(ROOT, 'acp.ts')];
    case 'binary':
      return [join(ROOT, 'dist', 'acp')];
  }
}

async function startServer(root: string, runtime: BenchRpcRuntime): Promise<{ child: ChildProcess; port: number }> {
  const config = join(root, 'acp-server.yaml');
  writeFileSync(config, `root: .\ntcp: 127.0.0.1:0\ntokens:\n  ${TOKEN}: alice\nlimits:\n  maxConnections: 20000\n`);
  const command = serveCommand(runtime);
  const extra = runtime === 'node' ? (process.env.BENCH_RPC_NODE_ARGS?.split(' ').filter(Boolean) ?? []) : [];
  const child = spawn(command[0]!, [...extra, ...command.slice(1), 'serve', '--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on tcp:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) resolvePort(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`acp serve exited (${code}):\n${err}`)));
  });
  return { child, port };
}

/** Run both measurements; resolves with the figures. */
export async function benchRpc(options: BenchRpcOptions = {}): Promise<BenchRpcResult> {
  const runtime = options.runtime ?? 'node';
  const seconds = options.seconds ?? 2;
  const windows = Math.max(1, options.windows ?? 3);
  const clients = options.clients ?? 50;
  const subscribers = options.subscribers ?? 1000;
  const appends = options.appends ?? 20;
  const logEvents = Math.max(1, options.logEvents ?? 1);
  const log = options.log ?? (() => undefined);
  const root = mkdtempSync(join(tmpdir(), 'acp-bench-rpc-'));
  const host = await createNodeHost();
  const registry = await createRegistry();
  const folder = join(root, 'bench');
  await init(host, folder, { participants: ['alice', 'bob'], objective: 'Benchmark the server', completion: ['Measured'], primaryType: 'adr' }, registry);
  if (logEvents > 1) {
    // A long log, written directly (as the Python tools would have): blocked events replying to each other, then one
    // library append so that protocol.json matches it.
    const lines: string[] = [];
    for (let s = 2; s < logEvents; s++) lines.push(formatEventLine({ seq: s, from: 'alice', event: 'blocked', at: '2026-01-01T00:00:00Z', summary: `history ${s}`, reply_to: s - 1 }));
    appendFileSync(join(folder, 'events.jsonl'), lines.join(''));
    await append(host, folder, { participant: 'alice', event: 'blocked', summary: 'history end', replyTo: logEvents - 1 }, registry);
  }
  const { child, port } = await startServer(root, runtime);
  const endpoint = `tcp://127.0.0.1:${port}`;
  try {
    // 1. task/status throughput.
    const pool = await Promise.all(Array.from({ length: clients }, () => RpcClient.connect(endpoint, { token: TOKEN, heartbeatMs: 0, reconnect: false })));
    for (const c of pool) await c.call('task/status', { task: 'bench' }); // warm the status cache and the JIT
    let calls = 0;
    let running = true;
    const cpuBefore = processCpuMs(child.pid);
    const selfBefore = process.cpuUsage();
    const started = performance.now();
    const loops = pool.map(async (c) => {
      while (running) {
        await c.call('task/status', { task: 'bench' });
        calls++;
      }
    });
    // Windows back to back while the 50 loops keep running: each rate is calls answered in that window.
    const windowRates: number[] = [];
    for (let w = 0; w < windows; w++) {
      const callsAt = calls;
      const at = performance.now();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      windowRates.push(Math.round((calls - callsAt) / ((performance.now() - at) / 1000)));
    }
    running = false;
    await Promise.all(loops);
    const elapsed = (performance.now() - started) / 1000;
    windowRates.sort((a, b) => a - b);
    const statusCallsPerSecond = windowRates[Math.floor((windowRates.length - 1) / 2)]!;
    const cpuAfter = processCpuMs(child.pid);
    const self = process.cpuUsage(selfBefore);
    const serverCpuPerCallUs = cpuBefore === undefined || cpuAfter === undefined ? undefined : Math.round(((cpuAfter - cpuBefore) * 1000) / calls);
    const clientCpuPerCallUs = Math.round((self.user + self.system) / calls);
    log(`task/status: ${statusCallsPerSecond} calls/s, median of ${windows} windows of ${seconds} s (slowest ${windowRates[0]}, fastest ${windowRates.at(-1)}; ${clients} clients, ${calls} calls in ${elapsed.toFixed(1)} s, server on ${runtime})`);
    log(`  CPU per call: server ${serverCpuPerCallUs ?? '?'} µs, clients ${clientCpuPerCallUs} µs (with a free core each, about ${serverCpuPerCallUs ? Math.round(1e6 / serverCpuPerCallUs) : '?'} calls/s)`);
    for (const c of pool) c.close();

    // 2. append → notification delay at N subscribers.
    const arrivals = new Map<number, number[]>();
    const subs: RpcClient[] = [];
    for (let i = 0; i < subscribers; i += 100) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(100, subscribers - i) }, async () => {
          const c = await RpcClient.connect(endpoint, { token: TOKEN, heartbeatMs: 0, reconnect: false });
          await c.subscribe({ task: 'bench' }, (n) => {
            const seq = n.event?.seq;
            if (typeof seq === 'number') arrivals.get(seq)?.push(performance.now());
          });
          return c;
        }),
      );
      subs.push(...batch);
    }
    const notifyCpuBefore = processCpuMs(child.pid);
    const notifySelfBefore = process.cpuUsage();
    const delays: number[] = [];
    const appendMs: number[] = [];
    const spread: number[] = [];
    let seq = logEvents;
    for (let i = 0; i < appends; i++) {
      const next = seq + 1;
      const times: number[] = [];
      arrivals.set(next, times);
      const t0 = performance.now();
      await append(host, folder, { participant: 'alice', event: 'blocked', summary: `bench ${i}`, replyTo: seq }, registry);
      appendMs.push(performance.now() - t0);
      const deadline = performance.now() + 10_000;
      while (times.length < subscribers && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      for (const t of times) delays.push(t - t0);
      if (times.length) spread.push(Math.max(...times) - Math.min(...times));
      seq = next;
      await new Promise((r) => setTimeout(r, 20));
    }
    delays.sort((a, b) => a - b);
    const notify = {
      subscribers,
      appends,
      p50Ms: Number(percentile(delays, 50).toFixed(1)),
      p95Ms: Number(percentile(delays, 95).toFixed(1)),
      maxMs: Number((delays.at(-1) ?? NaN).toFixed(1)),
      delivered: delays.length,
    };
    log(`append → agent/event at ${subscribers} subscribers: p50 ${notify.p50Ms} ms, p95 ${notify.p95Ms} ms, max ${notify.maxMs} ms (${notify.delivered}/${subscribers * appends} delivered)`);
    const notifyCpuAfter = processCpuMs(child.pid);
    const notifySelf = process.cpuUsage(notifySelfBefore);
    const perNotification = (ms: number | undefined): string => (ms === undefined ? '?' : ((ms * 1000) / Math.max(1, delays.length)).toFixed(1));
    log(
      `  CPU per delivered notification: server ${notifyCpuBefore === undefined || notifyCpuAfter === undefined ? '?' : perNotification(notifyCpuAfter - notifyCpuBefore)} µs, subscribers ${perNotification((notifySelf.user + notifySelf.system) / 1000)} µs`,
    );
    const median = (xs: number[]): string => percentile([...xs].sort((a, b) => a - b), 50).toFixed(1);
    log(`  of which: the append itself (lock, write, fsync) median ${median(appendMs)} ms; first to last subscriber median ${median(spread)} ms`);
    for (const c of subs) c.close();
    return { runtime, statusCallsPerSecond, windowRates, serverCpuPerCallUs, clients, notify };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(root, { recursive: true, force: true });
  }
}

const isMain = (import.meta as ImportMeta & { main?: boolean }).main ?? process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const i = args.indexOf(`--${name}`);
    return i === -1 ? undefined : args[i + 1];
  };
  const num = (name: string): number | undefined => (value(name) === undefined ? undefined : Number(value(name)));
  const json = args.includes('--json');
  const runtime = value('runtime') ?? 'node';
  if (!['node', 'bun', 'deno', 'binary'].includes(runtime)) {
    console.error(`error: --runtime must be node, bun, deno or binary, not '${runtime}'`);
    process.exit(2);
  }
  const result = await benchRpc({
    runtime: runtime as BenchRpcRuntime,
    seconds: num('seconds'),
    windows: num('windows'),
    clients: num('clients'),
    subscribers: num('subscribers'),
    appends: num('appends'),
    logEvents: num('log-events'),
    log: json ? undefined : (line) => console.log(line),
  });
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`goal task/status ≥ 10000/s: ${result.statusCallsPerSecond >= 10_000 ? 'met' : 'NOT met'}`);
    console.log(`goal p95 ≤ 100 ms: ${result.notify.p95Ms <= 100 ? 'met' : 'NOT met'}`);
  }
}
