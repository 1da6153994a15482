// Shared helpers of the rpc-*.test.ts files: collaboration roots, in-process
// and spawned servers, and a raw framed connection that decodes answers with
// its own tiny parser (independent of plugins/rpc/framing.ts).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acp from '../../acp.ts';
import { RpcServer, type RpcServerOptions } from '../../plugins/rpc/server.ts';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distCli = join(repo, 'dist', 'acp.mjs');
export const bunBin = join(repo, 'node_modules', '.bin', 'bun');
export const denoBin = join(repo, 'node_modules', '.bin', 'deno');

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
  const registry = await acp.createRegistry();
  for (const name of names) {
    await acp.init(host, join(root, name), { participants: ['alice', 'bob'], objective: `Objective of ${name}`, completion: ['The design is agreed'], primaryType: 'adr' }, registry);
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

/** An in-process server on TCP and a Unix socket. */
export async function startServer(root: string, options: Partial<RpcServerOptions> = {}): Promise<{ server: RpcServer; port: number; socket: string; close(): Promise<void> }> {
  const host = await acp.createNodeHost();
  const registry = await acp.createRegistry();
  const server = new RpcServer({ core: acp, host, registry, root, tokens: { ...TOKENS }, version: 'test', pollIntervalMs: 200, ...options });
  const { port } = await server.listenTcp('127.0.0.1', 0);
  const socket = join(tempDir('acp-sock-'), 'acp.sock');
  await server.listenUnix(socket);
  return { server, port, socket, close: () => server.close() };
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
      this.messages.push(JSON.parse(body));
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
  options: { runtime?: 'node' | 'bun' | 'deno'; cwd?: string } = {},
): Promise<{ child: ChildProcess; stderr: () => string; tcp?: string; unix?: string; stop(): Promise<number | null>; exited: Promise<number | null> }> {
  const runtime = options.runtime ?? 'node';
  const command =
    runtime === 'node'
      ? [process.execPath, distCli]
      : runtime === 'bun'
        ? [bunBin, join(repo, 'acp.ts')]
        : // The permissions the README documents (the YAML parser reads LOG_TOKENS/LOG_STREAM).
          [denoBin, 'run', '--quiet', '--no-prompt', '--allow-read', '--allow-write', '--allow-net', '--allow-env=LOG_TOKENS,LOG_STREAM', join(repo, 'acp.ts')];
  const child = spawn(command[0]!, [...command.slice(1), 'serve', ...args], { cwd: options.cwd ?? repo, stdio: ['pipe', 'pipe', 'pipe'] });
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

/** Run the built CLI; resolves with its exit code and output. */
export function runAcp(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [distCli, ...args], { cwd: options.cwd ?? repo, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
