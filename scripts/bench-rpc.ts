// Benchmarks of `acp serve` (loopback only):
//
//   1. task/status calls per second with 50 concurrent clients over TCP
//      (each client sends its next call when the previous one is answered);
//      goal ≥ 10 000/s. In the same run the same clients (a second pool)
//      call a bare Node echo server (scripts/bench-echo.mjs: the same
//      Content-Length framing, one JSON.parse per message, the real
//      task/status result as a fixed string, so the replies have the same
//      bytes). Each window measures both servers in alternating slices of
//      0.25 s, so both see the same load of a shared machine; goal: acp ≥
//      0.9× the echo's rate (the median of the windows' ratios). CPU per
//      call of each server process comes from /proc/PID/stat (utime +
//      stime) over its slices; the reply's size is read off a bare socket
//      (what the server writes).
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
// figures in docs/benchmarks.md.
//
//   node_modules/.bin/bun scripts/bench-rpc.ts [--runtime node|bun|deno|binary] [--seconds 2]
//       [--windows 3] [--clients 50] [--subscribers 1000] [--appends 20] [--log-events 1] [--no-echo] [--json]
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
import { append, createNodeHost, createRegistry, formatEventLine, init, type Host, type Registry } from '../acp.ts';
import { RpcClient } from '../plugins/rpc/client.ts';
import { optionOf } from './options.ts';

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
  /** Measure the echo baseline (scripts/bench-echo.mjs) in the same run (default true). */
  echo?: boolean;
  log?(line: string): void;
}

/** The figures. */
export interface BenchRpcResult {
  runtime: string;
  /** The median window's rate. */
  statusCallsPerSecond: number;
  /** Every window's rate, slowest first. */
  windowRates: number[];
  /** Server CPU per task/status call (µs, over every window), when /proc can tell. */
  serverCpuPerCallUs: number | undefined;
  /** The echo baseline's median window (undefined with `echo: false`). */
  echoCallsPerSecond: number | undefined;
  /** Every echo window's rate, slowest first. */
  echoWindowRates: number[];
  /** The echo process's CPU per call (µs), when /proc can tell. */
  echoCpuPerCallUs: number | undefined;
  /** acp's rate / the echo's, the median of the windows' ratios (target ≥ 0.9). */
  statusRatio: number | undefined;
  /** Bytes of the task/status reply's JSON text as the server writes it (the echo answers with as many). */
  replyBytes: number;
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

/** Spawn a server process and wait for its `listening on tcp://127.0.0.1:<port>` line on stderr. */
async function spawnListening(command: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on tcp:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) resolvePort(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${command.join(' ')} exited (${code}):\n${err}`)));
  });
  return { child, port };
}

async function startServer(root: string, runtime: BenchRpcRuntime): Promise<{ child: ChildProcess; port: number }> {
  const config = join(root, 'acp-server.yaml');
  writeFileSync(config, `root: .\ntcp: 127.0.0.1:0\ntokens:\n  ${TOKEN}: alice\nlimits:\n  maxConnections: 20000\n`);
  const command = serveCommand(runtime);
  const extra = runtime === 'node' ? (process.env.BENCH_RPC_NODE_ARGS?.split(' ').filter(Boolean) ?? []) : [];
  return spawnListening([command[0]!, ...extra, ...command.slice(1), 'serve', '--config', config]);
}

/** The echo baseline (scripts/bench-echo.mjs) under the real node, answering with `resultJson`. */
async function startEcho(root: string, resultJson: string): Promise<{ child: ChildProcess; port: number }> {
  const file = join(root, 'echo-result.json');
  writeFileSync(file, resultJson);
  const node = process.execPath.endsWith('bun') ? 'node' : process.execPath;
  return spawnListening([node, join(ROOT, 'scripts', 'bench-echo.mjs'), file]);
}

/**
 * The body of the server's reply to one task/status call, exactly as it
 * crossed the wire (read from a bare socket, so whitespace and field order
 * are what the server wrote), with the number of bytes of its frame.
 */
async function rawStatusReply(port: number): Promise<{ body: string; frameBytes: number }> {
  const net = await import('node:net');
  const socket = net.connect(port, '127.0.0.1');
  const frame = (value: unknown): string => {
    const json = JSON.stringify(value);
    return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
  };
  let buf = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    waiting?.();
  });
  /** The next whole frame: its body and its size in bytes. */
  const next = (): Promise<{ body: string; frameBytes: number }> =>
    new Promise((resolveFrame, reject) => {
      const timer = setTimeout(() => reject(new Error('no reply within 10 s')), 10_000);
      socket.once('error', reject);
      const look = (): void => {
        const end = buf.indexOf('\r\n\r\n');
        const length = end < 0 ? NaN : Number(/Content-Length: (\d+)/.exec(buf.toString('latin1', 0, end))?.[1]);
        if (end < 0 || buf.length < end + 4 + length) return;
        clearTimeout(timer);
        waiting = undefined;
        const frame = { body: buf.toString('utf8', end + 4, end + 4 + length), frameBytes: end + 4 + length };
        buf = buf.subarray(end + 4 + length);
        resolveFrame(frame);
      };
      waiting = look;
      look();
    });
  try {
    // One after the other: a call sent before authenticate has answered would be refused.
    socket.write(frame({ jsonrpc: '2.0', id: 1, method: 'authenticate', params: { token: TOKEN } }));
    await next();
    socket.write(frame({ jsonrpc: '2.0', id: 2, method: 'task/status', params: { task: 'bench' } }));
    return await next();
  } finally {
    socket.destroy();
  }
}

interface Slice {
  calls: number;
  ms: number;
  cpuMs: number | undefined;
}

/** Every client of `pool` loops on task/status for `seconds`; the calls answered, the time and the server's CPU (ms) meanwhile. */
async function throughputSlice(pool: RpcClient[], seconds: number, pid: number | undefined): Promise<Slice> {
  let calls = 0;
  let running = true;
  const cpuBefore = processCpuMs(pid);
  const at = performance.now();
  const loops = pool.map(async (c) => {
    while (running) {
      await c.call('task/status', { task: 'bench' });
      calls++;
    }
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const counted = calls;
  const ms = performance.now() - at;
  const cpuAfter = processCpuMs(pid);
  running = false;
  await Promise.all(loops);
  return { calls: counted, ms, cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

/** Slices of one window: short, so that the servers measured in turn see the same load of a shared machine. */
const SLICE_SECONDS = 0.25;

/**
 * One window of `seconds` per server, measured in alternating slices
 * (server 1, server 2, server 1, …); each server's rate is its calls over its
 * own time.
 */
async function throughputWindow(sides: Array<{ pool: RpcClient[]; pid: number | undefined }>, seconds: number): Promise<Array<Slice & { rate: number }>> {
  const totals: Slice[] = sides.map(() => ({ calls: 0, ms: 0, cpuMs: 0 }));
  const slices = Math.max(1, Math.round(seconds / SLICE_SECONDS));
  for (let k = 0; k < slices; k++) {
    for (const [i, side] of sides.entries()) {
      const slice = await throughputSlice(side.pool, seconds / slices, side.pid);
      const total = totals[i]!;
      total.calls += slice.calls;
      total.ms += slice.ms;
      total.cpuMs = total.cpuMs === undefined || slice.cpuMs === undefined ? undefined : total.cpuMs + slice.cpuMs;
    }
  }
  return totals.map((t) => ({ ...t, rate: Math.round(t.calls / (t.ms / 1000)) }));
}

/** The options of one run, defaults filled in. */
interface BenchRun {
  runtime: BenchRpcRuntime;
  seconds: number;
  windows: number;
  clients: number;
  subscribers: number;
  appends: number;
  logEvents: number;
  echo: boolean;
  log(line: string): void;
}

/** A collaboration folder the server serves and this process appends to, through the library. */
interface BenchFolder {
  host: Host;
  registry: Registry;
  folder: string;
}

/** A server process and where it listens. */
interface Listening {
  child: ChildProcess;
  port: number;
}

type MeasuredWindow = Slice & { rate: number };

/** Run both measurements; resolves with the figures. */
export async function benchRpc(options: BenchRpcOptions = {}): Promise<BenchRpcResult> {
  const run: BenchRun = {
    runtime: options.runtime ?? 'node',
    seconds: options.seconds ?? 2,
    windows: Math.max(1, options.windows ?? 3),
    clients: options.clients ?? 50,
    subscribers: options.subscribers ?? 1000,
    appends: options.appends ?? 20,
    logEvents: Math.max(1, options.logEvents ?? 1),
    echo: options.echo !== false,
    log: options.log ?? (() => undefined),
  };
  const root = mkdtempSync(join(tmpdir(), 'acp-bench-rpc-'));
  const bench = await prepareFolder(root, run.logEvents);
  const server = await startServer(root, run.runtime);
  const echo: { server?: Listening } = {};
  try {
    const status = await measureThroughput(run, root, server, echo);
    const notify = await measureNotify(run, bench, server);
    return { runtime: run.runtime, ...status, clients: run.clients, notify };
  } finally {
    if (echo.server && echo.server.child.exitCode === null) echo.server.child.kill('SIGTERM');
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(root, { recursive: true, force: true });
  }
}

/** The collaboration of the run, its log `logEvents` events long. */
async function prepareFolder(root: string, logEvents: number): Promise<BenchFolder> {
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
  return { host, registry, folder };
}

/** The task/status figures of {@link BenchRpcResult}. */
type ThroughputFigures = Pick<BenchRpcResult, 'statusCallsPerSecond' | 'windowRates' | 'serverCpuPerCallUs' | 'echoCallsPerSecond' | 'echoWindowRates' | 'echoCpuPerCallUs' | 'statusRatio' | 'replyBytes'>;

/**
 * 1. task/status throughput, acp and the echo baseline in alternating windows (the same clients' code, the same
 *    machine load), so that their ratio holds even on a shared machine. The echo server started is put in `echo`
 *    (the caller stops it if this fails) and stopped here when done.
 */
async function measureThroughput(run: BenchRun, root: string, server: Listening, echo: { server?: Listening }): Promise<ThroughputFigures> {
  const reply = await rawStatusReply(server.port);
  const resultJson = /^\{"jsonrpc":"2\.0","id":2,"result":(.*)\}$/s.exec(reply.body)?.[1];
  if (resultJson === undefined) throw new Error(`unexpected task/status reply: ${reply.body.slice(0, 200)}`);
  const replyBytes = Buffer.byteLength(reply.body);
  echo.server = run.echo ? await startEcho(root, resultJson) : undefined;
  const connectPool = (port: number): Promise<RpcClient[]> => Promise.all(Array.from({ length: run.clients }, () => RpcClient.connect(`tcp://127.0.0.1:${port}`, { token: TOKEN, heartbeatMs: 0, reconnect: false })));
  const pool = await connectPool(server.port);
  const echoPool = echo.server ? await connectPool(echo.server.port) : [];
  // Warm the status cache and both JITs.
  const sides = [{ pool, pid: server.child.pid }, ...(echo.server ? [{ pool: echoPool, pid: echo.server.child.pid }] : [])];
  await throughputWindow(sides, Math.min(1, run.seconds));
  const selfBefore = process.cpuUsage();
  const started = performance.now();
  const acpWindows: MeasuredWindow[] = [];
  const echoWindows: MeasuredWindow[] = [];
  for (let w = 0; w < run.windows; w++) {
    const [own, other] = await throughputWindow(sides, run.seconds);
    acpWindows.push(own!);
    if (other) echoWindows.push(other);
  }
  const elapsed = (performance.now() - started) / 1000;
  const calls = acpWindows.reduce((sum, x) => sum + x.calls, 0);
  const self = process.cpuUsage(selfBefore);
  const pairRatios = pairRatiosOf(acpWindows, echoWindows);
  const figures = throughputFigures(acpWindows, echo.server ? { windows: echoWindows, pairRatios } : undefined);
  // Only the acp windows' client CPU is of interest; the echo windows' share is the same work.
  const clientCpuPerCallUs = Math.round((self.user + self.system) / (calls + echoWindows.reduce((sum, x) => sum + x.calls, 0)));
  logThroughput(run, figures, { calls, elapsed, clientCpuPerCallUs, replyBytes, frameBytes: reply.frameBytes, pairRatios });
  for (const c of [...pool, ...echoPool]) c.close();
  echo.server?.child.kill('SIGTERM');
  return { ...figures, replyBytes };
}

/** The median of sorted rates (the lower of the two middle ones). */
function medianRate(xs: number[]): number {
  return xs[Math.floor((xs.length - 1) / 2)]!;
}

/** Server CPU per call (µs) over windows, when /proc told each window's. */
function cpuPerCall(ws: MeasuredWindow[]): number | undefined {
  if (!ws.length || ws.some((x) => x.cpuMs === undefined)) return undefined;
  return Number(((ws.reduce((sum, x) => sum + x.cpuMs!, 0) * 1000) / ws.reduce((sum, x) => sum + x.calls, 0)).toFixed(1));
}

/**
 * Each window's acp and echo rates come from interleaved slices (the same moments' machine load): the median of the
 * windows' ratios is steadier on a shared machine than the ratio of the two medians.
 */
function pairRatiosOf(acpWindows: MeasuredWindow[], echoWindows: MeasuredWindow[]): number[] {
  return echoWindows.map((e, w) => acpWindows[w]!.rate / e.rate).sort((x, y) => x - y);
}

/** The figures of the windows (`echo` undefined: no echo baseline was measured). */
function throughputFigures(acpWindows: MeasuredWindow[], echo: { windows: MeasuredWindow[]; pairRatios: number[] } | undefined): Omit<ThroughputFigures, 'replyBytes'> {
  const windowRates = acpWindows.map((x) => x.rate).sort((x, y) => x - y);
  const echoWindowRates = (echo?.windows ?? []).map((x) => x.rate).sort((x, y) => x - y);
  return {
    statusCallsPerSecond: medianRate(windowRates),
    windowRates,
    serverCpuPerCallUs: cpuPerCall(acpWindows),
    echoCallsPerSecond: echo ? medianRate(echoWindowRates) : undefined,
    echoWindowRates,
    echoCpuPerCallUs: cpuPerCall(echo?.windows ?? []),
    statusRatio: echo ? Number(medianRate(echo.pairRatios).toFixed(2)) : undefined,
  };
}

/** The throughput part of the report. */
function logThroughput(run: BenchRun, figures: Omit<ThroughputFigures, 'replyBytes'>, facts: { calls: number; elapsed: number; clientCpuPerCallUs: number; replyBytes: number; frameBytes: number; pairRatios: number[] }): void {
  const { windowRates, echoWindowRates, serverCpuPerCallUs } = figures;
  run.log(`task/status: ${figures.statusCallsPerSecond} calls/s, median of ${run.windows} windows of ${run.seconds} s (slowest ${windowRates[0]}, fastest ${windowRates.at(-1)}; ${run.clients} clients, ${facts.calls} calls, server on ${run.runtime}; ${facts.elapsed.toFixed(1)} s with the echo windows)`);
  if (figures.echoCallsPerSecond !== undefined) {
    run.log(
      `  echo baseline (bare node, same framing, same reply bytes): ${figures.echoCallsPerSecond} calls/s (slowest ${echoWindowRates[0]}, fastest ${echoWindowRates.at(-1)}); acp/echo ${figures.statusRatio} (median of the ${facts.pairRatios.length} windows' ratios, ${facts.pairRatios.map((r) => r.toFixed(2)).join(' / ')})`,
    );
  }
  run.log(
    `  CPU per call: server ${serverCpuPerCallUs ?? '?'} µs, echo ${figures.echoCpuPerCallUs ?? '-'} µs, clients ${facts.clientCpuPerCallUs} µs (with a free core each, about ${serverCpuPerCallUs ? Math.round(1e6 / serverCpuPerCallUs) : '?'} calls/s); reply ${facts.replyBytes} bytes of JSON (${facts.frameBytes} framed)`,
  );
}

/** `subscribers` clients subscribed to the task, 100 at a time; each notification's arrival time goes to `arrivals` under its seq. */
async function subscribeAll(endpoint: string, subscribers: number, arrivals: Map<number, number[]>): Promise<RpcClient[]> {
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
  return subs;
}

/** 2. append → notification delay at N subscribers. */
async function measureNotify(run: BenchRun, bench: BenchFolder, server: Listening): Promise<BenchRpcResult['notify']> {
  const { subscribers, appends } = run;
  const arrivals = new Map<number, number[]>();
  const subs = await subscribeAll(`tcp://127.0.0.1:${server.port}`, subscribers, arrivals);
  const notifyCpuBefore = processCpuMs(server.child.pid);
  const notifySelfBefore = process.cpuUsage();
  const delays: number[] = [];
  const appendMs: number[] = [];
  const spread: number[] = [];
  let seq = run.logEvents;
  for (let i = 0; i < appends; i++) {
    const next = seq + 1;
    const times: number[] = [];
    arrivals.set(next, times);
    const t0 = performance.now();
    await append(bench.host, bench.folder, { participant: 'alice', event: 'blocked', summary: `bench ${i}`, replyTo: seq }, bench.registry);
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
  run.log(`append → agent/event at ${subscribers} subscribers: p50 ${notify.p50Ms} ms, p95 ${notify.p95Ms} ms, max ${notify.maxMs} ms (${notify.delivered}/${subscribers * appends} delivered)`);
  const notifyCpuAfter = processCpuMs(server.child.pid);
  const notifySelf = process.cpuUsage(notifySelfBefore);
  const perNotification = (ms: number | undefined): string => (ms === undefined ? '?' : ((ms * 1000) / Math.max(1, delays.length)).toFixed(1));
  run.log(
    `  CPU per delivered notification: server ${notifyCpuBefore === undefined || notifyCpuAfter === undefined ? '?' : perNotification(notifyCpuAfter - notifyCpuBefore)} µs, subscribers ${perNotification((notifySelf.user + notifySelf.system) / 1000)} µs`,
  );
  const median = (xs: number[]): string => percentile([...xs].sort((a, b) => a - b), 50).toFixed(1);
  run.log(`  of which: the append itself (lock, write, fsync) median ${median(appendMs)} ms; first to last subscriber median ${median(spread)} ms`);
  for (const c of subs) c.close();
  return notify;
}

const isMain = (import.meta as ImportMeta & { main?: boolean }).main ?? process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => optionOf(args, name);
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
    echo: !args.includes('--no-echo'),
    log: json ? undefined : (line) => console.log(line),
  });
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`goal task/status ≥ 10000/s: ${result.statusCallsPerSecond >= 10_000 ? 'met' : 'NOT met'}`);
    if (result.statusRatio !== undefined) console.log(`goal task/status ≥ 0.9× the echo baseline: ${result.statusRatio >= 0.9 ? 'met' : 'NOT met'} (${result.statusRatio})`);
    console.log(`goal p95 ≤ 100 ms: ${result.notify.p95Ms <= 100 ? 'met' : 'NOT met'}`);
  }
}
