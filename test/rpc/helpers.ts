// Shared helpers of the rpc-*.test.ts files: collaboration roots, the server
// started on each runtime it claims (in-process, or spawned under Node, Bun,
// Deno or as the compiled binary), the CLI run on each runtime, and a raw
// framed connection that decodes answers with its own tiny parser
// (independent of plugins/rpc/framing.ts).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import * as acp from '../../acp.ts';
import { RpcServer, type RpcServerOptions } from '../../plugins/rpc/server.ts';
import { configCandidates } from '../deno-grants.ts';
import { runtimesOfRun } from '../runtime-matrix.ts';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distCli = join(repo, 'dist', 'acp.mjs');
/** The compiled binary (`bun build --compile`), built by `npm test` before the suites run. */
export const distBinary = join(repo, 'dist', 'acp');
export const bunBin = join(repo, 'node_modules', '.bin', 'bun');
export const denoBin = join(repo, 'node_modules', '.bin', 'deno');

/**
 * Where the server (and the CLI) can run: `inproc` is an RpcServer inside the
 * test process; the others spawn `acp serve` — `node dist/acp.mjs`, `bun
 * acp.ts`, `deno run … acp.ts` and the compiled `dist/acp`.
 */
export type RpcRuntime = 'inproc' | 'node' | 'bun' | 'deno' | 'binary';
/** A runtime that runs as a separate process. */
export type SpawnRuntime = Exclude<RpcRuntime, 'inproc'>;
const ALL_RUNTIMES: readonly RpcRuntime[] = ['inproc', 'node', 'bun', 'deno', 'binary'];

/** ACP_RPC_RUNTIMES (a comma list) when it is set; an unknown name throws. */
function listedRpcRuntimes(): RpcRuntime[] | undefined {
  const text = process.env.ACP_RPC_RUNTIMES?.trim();
  if (!text) return undefined;
  const names = text.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !ALL_RUNTIMES.includes(name as RpcRuntime));
  if (unknown.length) throw new Error(`ACP_RPC_RUNTIMES: unknown runtime(s) ${unknown.join(', ')} (known: ${ALL_RUNTIMES.join(', ')})`);
  return names as RpcRuntime[];
}

/**
 * The runtimes a suite runs on in this run (test/runtime-matrix.ts):
 * ACP_RPC_RUNTIMES when set; all five under ACP_FULL=1; in `npm test`
 * in-process and the spawned runtimes the file names (each file names
 * others, so the quick run as a whole serves from every runtime). A
 * runtime whose binary is missing fails its tests rather than skipping
 * them, so a broken install cannot pass as green.
 */
export function rpcRuntimes(...quick: SpawnRuntime[]): RpcRuntime[] {
  return runtimesOfRun(ALL_RUNTIMES, ['inproc', ...quick], listedRpcRuntimes());
}

/** The spawned runtimes among {@link rpcRuntimes} (those a CLI client can run on). */
export function spawnRuntimes(...quick: SpawnRuntime[]): SpawnRuntime[] {
  return rpcRuntimes(...quick).filter((r): r is SpawnRuntime => r !== 'inproc');
}

/**
 * Deno permissions: the server's are those README "Runtimes" documents for
 * `acp serve` (the YAML parser reads LOG_TOKENS/LOG_STREAM); a client gets
 * only `--allow-net`, plus read/write on a Unix socket it connects to, read
 * access to files it is given and the two variables it may read.
 */
const DENO_SERVER = ['--allow-read', '--allow-write', '--allow-net', '--allow-env=LOG_TOKENS,LOG_STREAM'];
function denoClient(options: { socket?: string; files?: string[] }): string[] {
  // The CLI runs in `repo`: the config search looks there and above (see test/deno-grants.ts).
  const read = [...(options.socket ? [options.socket] : []), ...(options.files ?? []), join(repo, 'acp.config.yaml'), join(repo, '.git'), ...configCandidates(repo)];
  return ['--allow-net', '--allow-env=ACP_SERVER,ACP_TOKEN', `--allow-read=${read.join(',')}`, ...(options.socket ? [`--allow-write=${options.socket}`] : [])];
}

/** `path`, which `runtime` needs: a listed runtime that is not installed fails the test instead of skipping it. */
export function needRuntimeFile(path: string, runtime: string): string {
  if (!existsSync(path)) throw new Error(`runtime ${runtime} is listed (ACP_RPC_RUNTIMES) but ${path} is missing; run npm ci / npm run build`);
  return path;
}

/** The command line that runs the CLI on `runtime` (throws when the runtime's binary is missing). */
export function acpCommand(runtime: SpawnRuntime, deno: { server?: boolean; socket?: string; files?: string[] } = {}): string[] {
  const need = (path: string): string => needRuntimeFile(path, runtime);
  switch (runtime) {
    case 'node':
      return [process.execPath, need(distCli)];
    case 'bun':
      return [need(bunBin), join(repo, 'acp.ts')];
    case 'deno':
      return [need(denoBin), 'run', '--quiet', '--no-prompt', ...(deno.server ? DENO_SERVER : denoClient(deno)), join(repo, 'acp.ts')];
    case 'binary':
      return [need(distBinary)];
  }
}

/** Tokens used by the tests (token → participant). */
export const TOKENS = { 'alice-token-0123456789': 'alice', 'bob-token-0123456789ab': 'bob' } as const;
export const ALICE_TOKEN = 'alice-token-0123456789';
export const BOB_TOKEN = 'bob-token-0123456789ab';

/** A fresh temporary directory. */
export function tempDir(prefix = 'acp-rpc-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A root folder holding one collaboration per name (alice owns the proposal, bob reviews). */
export async function makeRoot(names: string[] = ['demo']): Promise<string> {
  const root = tempDir();
  const host = await acp.createNodeHost();
  const registry = await acp.createRegistry({ builtIns: true });
  for (const name of names) {
    await acp.init(host, join(root, name), { participants: ['alice', 'bob'], objective: `Objective of ${name}`, completion: ['The design is agreed'], primaryType: 'adr' }, registry);
    // The ADR written, as the tests' deliverable_drafted says: the server's appends are strict.
    const adr = join(root, name, 'deliverables', 'adr.md');
    writeFileSync(adr, readFileSync(adr, 'utf8').replace(/^(## .+)\n(\s*\n)*/gm, (_, heading: string) => `${heading}\n\nThe ${heading.slice(3)} of this ADR.\n\n`));
  }
  return root;
}

/** Every file under a folder with its bytes (to prove a folder did not change). */
export function snapshotFolder(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = readFileSync(path).toString('base64');
    }
  };
  walk(folder, '');
  return out;
}

/** An in-process server on TCP (`port`, default a free one) and a Unix socket. */
export async function startServer(root: string, options: Partial<RpcServerOptions> & { port?: number } = {}): Promise<{ server: RpcServer; port: number; socket: string; close(): Promise<void> }> {
  const host = await acp.createNodeHost();
  const registry = await acp.createRegistry({ builtIns: true });
  const { port: wanted = 0, ...rest } = options;
  const server = new RpcServer({ core: acp, host, registry, root, tokens: { ...TOKENS }, version: 'test', pollIntervalMs: 200, ...rest });
  const { port } = await server.listenTcp('127.0.0.1', wanted);
  const socket = join(tempDir('acp-sock-'), 'acp.sock');
  await server.listenUnix(socket);
  const close = async (): Promise<void> => {
    await server.close();
    // The socket's own temporary folder (the server removed the socket itself).
    rmSync(dirname(socket), { recursive: true, force: true });
  };
  return { server, port, socket, close };
}

/** Server options a test may set (the server's own, by name); each maps to a config key for a spawned server. */
export type ServeOptions = Pick<RpcServerOptions, 'stallTimeoutMs' | 'messageTimeoutMs' | 'idleTimeoutMs' | 'authTimeoutMs' | 'maxConnections' | 'forwardTimeoutMs' | 'pollIntervalMs' | 'limits'> & {
  /** TCP port (default: a free one). */
  port?: number;
};

/** A running server, wherever it runs. */
export interface RunningServer {
  runtime: RpcRuntime;
  port: number;
  /** The Unix socket's path. */
  socket: string;
  /** What `acp` reports as its version (`test` in-process; the package version when spawned). */
  version: string;
  /** The server object (in-process only). */
  server?: RpcServer;
  /** The server process's id (spawned only). */
  pid?: number;
  /** Open client connections: the server's own count in-process; its sockets connected on its port or socket path otherwise (Linux /proc). */
  connections(): number;
  /** What a spawned server printed on stderr. */
  stderr(): string;
  /** Stop it; a spawned server must exit 0 and remove its socket. */
  close(): Promise<void>;
}

const live = new Set<ChildProcess>();
// A test that fails before its own cleanup must not leave servers running.
// vitest ends a worker with a signal (no 'exit' handlers run), so this hook
// — registered on the suite of each file importing this module — kills
// whatever is left once that file's tests are done.
afterAll(() => {
  for (const child of live) child.kill('SIGKILL');
});

function seconds(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : ms / 1000;
}

/**
 * The client connections a server process holds (Linux): its sockets
 * (/proc/<pid>/fd) that are connections on its TCP port or on its Unix
 * listener (/proc/<pid>/net/tcp, tcp6, unix), not its listeners nor the
 * runtime's own sockets, whose number a runtime may change at any time.
 * A connection the peer closed but the server still holds (CLOSE_WAIT)
 * counts: the server has not let it go.
 */
function clientConnections(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed while we looked
    }
  }
  const rows = (table: string) =>
    readFileSync(`/proc/${pid}/net/${table}`, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/));
  const LISTEN = '0A';
  const tcp = [...rows('tcp'), ...rows('tcp6')].filter((f) => f.length >= 10 && Number.parseInt(f[1]!.split(':')[1]!, 16) === port && f[3] !== LISTEN && inodes.has(f[9]!));
  // Num RefCount Protocol Flags Type St Inode Path. A connection accepted on
  // a listener carries the address the listener was bound to, which is not
  // `socketPath` (acp binds beside it and renames into place): so the
  // process's listeners (flag __SO_ACCEPTCON) name the paths to count.
  const own = rows('unix').filter((f) => f.length >= 8 && inodes.has(f[6]!));
  const listening = new Set(own.filter((f) => f[3] === '00010000').map((f) => f[7]));
  const unix = own.filter((f) => f[5] === '03' && listening.has(f[7]));
  return tcp.length + unix.length;
}

/**
 * The server on `runtime`, listening on TCP (127.0.0.1, a free port) and a
 * Unix socket, serving `root` with {@link TOKENS}. A spawned server gets a
 * YAML config written outside `root` (so it is not mistaken for a task).
 */
export async function startServerOn(runtime: RpcRuntime, root: string, options: ServeOptions = {}): Promise<RunningServer> {
  const pollIntervalMs = options.pollIntervalMs ?? 200;
  if (runtime === 'inproc') {
    const srv = await startServer(root, { ...options, pollIntervalMs });
    return { runtime, port: srv.port, socket: srv.socket, version: 'test', server: srv.server, connections: () => srv.server.connectionCount, stderr: () => '', close: srv.close };
  }
  const dir = tempDir('acp-serve-');
  const socket = join(dir, 'acp.sock');
  const config = join(dir, 'acp-server.yaml');
  const limits = {
    maxHeaderBytes: options.limits?.maxHeaderBytes,
    maxBodyBytes: options.limits?.maxBodyBytes,
    stallTimeoutSeconds: seconds(options.stallTimeoutMs),
    messageTimeoutSeconds: seconds(options.messageTimeoutMs),
    idleTimeoutSeconds: seconds(options.idleTimeoutMs),
    authTimeoutSeconds: seconds(options.authTimeoutMs),
    maxConnections: options.maxConnections,
    forwardTimeoutSeconds: seconds(options.forwardTimeoutMs),
  };
  const defined = Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
  // JSON is YAML: no quoting questions for tokens or paths.
  writeFileSync(config, JSON.stringify({ tokens: TOKENS, pollIntervalSeconds: pollIntervalMs / 1000, ...(Object.keys(defined).length ? { limits: defined } : {}) }, null, 2));
  const served = await spawnServe(['--config', config, '--root', root, '--tcp', `127.0.0.1:${options.port ?? 0}`, '--unix', socket], { runtime });
  const pid = served.child.pid!;
  const port = Number(served.tcp!.split(':').at(-1));
  const version = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
  return {
    runtime,
    port,
    socket: served.unix!,
    version,
    pid,
    connections: () => clientConnections(pid, port),
    stderr: served.stderr,
    async close() {
      const code = await served.stop();
      const leftover = existsSync(socket);
      rmSync(dir, { recursive: true, force: true });
      // Stopped by SIGTERM: 143, as every stopped command (README), and no error line.
      if (code !== 143 || /^error:/m.test(served.stderr())) throw new Error(`acp serve (${runtime}) exited ${code}:\n${served.stderr()}`);
      if (leftover) throw new Error(`acp serve (${runtime}) left its socket ${socket} behind`);
    },
  };
}

/** `Content-Length` framing of a JSON text (or raw bytes). */
export function frame(body: string | Uint8Array): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`, 'ascii'), bytes]);
}

interface Writable {
  write(data: Uint8Array): unknown;
  end(): unknown;
}

/** A raw framed connection: send bytes, read decoded answers in order. */
export class RawConn {
  private buffer = Buffer.alloc(0);
  private readonly messages: unknown[] = [];
  /** The body each received message was parsed from: JSON.parse hides number lexemes (`1.0`, `12345678901234567890`). */
  private readonly bodies = new WeakMap<object, string>();
  private waiters: Array<() => void> = [];
  isClosed = false;
  readonly closed: Promise<void>;
  private readonly out: Writable;
  private readonly destroyFn: () => void;

  constructor(input: NodeJS.ReadableStream, out: Writable, destroy: () => void) {
    this.out = out;
    this.destroyFn = destroy;
    input.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    this.closed = new Promise((resolve) => {
      const done = (): void => {
        this.isClosed = true;
        resolve();
        this.wake();
      };
      input.on('end', done);
      input.on('close', done);
      input.on('error', done);
    });
  }

  static tcp(port: number): Promise<RawConn> {
    return RawConn.socket(net.connect(port, '127.0.0.1'));
  }

  static unix(path: string): Promise<RawConn> {
    return RawConn.socket(net.connect(path));
  }

  private static socket(socket: net.Socket): Promise<RawConn> {
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(new RawConn(socket, socket, () => socket.destroy())));
      socket.once('error', reject);
    });
  }

  /** Talk to a spawned `acp serve --stdio`. */
  static stdio(child: ChildProcess): RawConn {
    // Closing ends stdin; the server is expected to exit by itself.
    return new RawConn(child.stdout!, child.stdin!, () => undefined);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private parse(): void {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const m = /Content-Length: (\d+)/i.exec(header);
      if (!m) throw new Error(`bad header from server: ${header}`);
      const length = Number(m[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      const message: unknown = JSON.parse(body);
      if (typeof message === 'object' && message !== null) this.bodies.set(message, body);
      this.messages.push(message);
      this.wake();
    }
  }

  /** Send raw bytes or text (no framing added). */
  sendRaw(data: string | Uint8Array): void {
    this.out.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  /** Frame and send a JSON text or value. */
  send(body: string | Uint8Array | object): void {
    this.out.write(frame(typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body)));
  }

  /** The next message (rejects after `timeoutMs`, or when the connection closed with nothing left). */
  async next(timeoutMs = 10_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    while (!this.messages.length) {
      if (this.isClosed) throw new Error('connection closed');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no message in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.messages.shift();
  }

  /** The exact body text a received message (an object or array) was parsed from. */
  rawOf(message: unknown): string | undefined {
    return typeof message === 'object' && message !== null ? this.bodies.get(message) : undefined;
  }

  /** Messages received so far (without waiting). */
  drain(): unknown[] {
    return this.messages.splice(0);
  }

  /** Send a request and wait for the answer with its id (other messages are kept for later). */
  async request(method: string, params?: unknown, id: string | number = `r${Math.random()}`): Promise<Record<string, unknown>> {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => (m as { id?: unknown }).id === id && !('method' in (m as object))) as Promise<Record<string, unknown>>;
  }

  /** Wait for the first message matching `test`; earlier non-matching ones stay queued. */
  async waitFor(test: (m: unknown) => boolean, timeoutMs = 10_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex(test);
      if (index !== -1) return this.messages.splice(index, 1)[0];
      if (this.isClosed) throw new Error('connection closed');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no matching message in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Everything answered before a ping barrier: sends `ping` with a unique id
   * and returns the messages that arrived before its answer.
   */
  async before(): Promise<unknown[]> {
    const id = `barrier-${Math.random()}`;
    this.send({ jsonrpc: '2.0', id, method: 'ping' });
    const got: unknown[] = [];
    for (;;) {
      const m = (await this.next()) as { id?: unknown; method?: unknown };
      if (m.id === id && m.method === undefined) return got;
      got.push(m);
    }
  }

  close(): void {
    try {
      this.out.end();
    } catch {
      // gone
    }
    this.destroyFn();
  }
}

/** Spawn `acp serve` (dist by default); resolves once it says where it listens. */
export async function spawnServe(
  args: string[],
  options: { runtime?: SpawnRuntime; cwd?: string } = {},
): Promise<{ child: ChildProcess; stderr: () => string; tcp?: string; unix?: string; stop(): Promise<number | null>; exited: Promise<number | null> }> {
  const command = acpCommand(options.runtime ?? 'node', { server: true });
  const child = spawn(command[0]!, [...command.slice(1), 'serve', ...args], { cwd: options.cwd ?? repo, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let err = '';
  const ready = new Promise<{ tcp?: string; unix?: string }>((resolve, reject) => {
    const found: { tcp?: string; unix?: string } = {};
    const wantTcp = args.includes('--tcp');
    const wantUnix = args.includes('--unix');
    const wantStdio = args.includes('--stdio');
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const tcp = /listening on tcp:\/\/(\S+)/.exec(err);
      const unix = /listening on unix:(\S+)/.exec(err);
      if (tcp) found.tcp = tcp[1];
      if (unix) found.unix = unix[1];
      if ((!wantTcp || found.tcp) && (!wantUnix || found.unix) && (!wantStdio || err.includes('serving stdio'))) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`acp serve exited (${code}) before listening:\n${err}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const where = await ready;
  return {
    child,
    exited,
    stderr: () => err,
    ...where,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

/** Options of {@link runAcp} and {@link spawnAcpOn}. */
export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Under Deno: the server's permissions, or a client's — the Unix socket it connects to and the files it reads (granted, nothing more). */
  deno?: { server?: boolean; socket?: string; files?: string[] };
}

/** Start the CLI on `runtime` (stdout and stderr piped). */
export function spawnAcpOn(runtime: SpawnRuntime, args: string[], options: RunOptions = {}): ChildProcess {
  const command = acpCommand(runtime, options.deno);
  const child = spawn(command[0]!, [...command.slice(1), ...args], { cwd: options.cwd ?? repo, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Run the CLI on `runtime`; resolves with its exit code and output. */
export function runAcpOn(runtime: SpawnRuntime, args: string[], options: RunOptions = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnAcpOn(runtime, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    // 'close', not 'exit': the output pipes may still hold data when the process exits.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Run the built CLI under Node; resolves with its exit code and output. */
export function runAcp(args: string[], options: RunOptions = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runAcpOn('node', args, options);
}
