// The client library (plugins/rpc/client.ts) outside the test process, under
// each client runtime of ACP_RPC_RUNTIMES among node, bun and deno (default,
// test/scale.ts: node and bun in `npm test`, all three under ACP_FULL=1;
// rpc-cli.test.ts runs the CLI as a Deno client in both): test/rpc/client-driver.ts runs under Bun and Deno as it is,
// and under Node as a bundle made by the same bun that builds dist/acp.mjs
// (Node 20 cannot import .ts). Deno gets only the permissions README
// "Runtimes" documents for a client: --allow-net, and read/write on the Unix
// socket's path. The driver talks to `acp serve` spawned under Node (killed
// with SIGKILL and restarted on the same port and socket half-way) and to a
// second, in-process server; it reports what it saw as JSON and this file
// checks it: token authentication, task/status, a subscription receiving
// its own append and the library's and the CLI's (the latter made while the
// server was down, replayed after the reconnect), message/send, RpcPool
// routing by capability and by agent name across two servers, the backoff
// delays, and heartbeats outliving a short idle timeout that closes a client
// without them. rpc-collab.test.ts covers the same API inside the Node test
// process against every server runtime.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import * as acp from '../acp.ts';
import { ALICE_TOKEN, BOB_TOKEN, TOKENS, bunBin, denoBin, makeRoot, needRuntimeFile, repo, runAcp, spawnRuntimes, spawnServe, startServerOn, tempDir } from './rpc/helpers.ts';
import { budgetMs, startCostOrFloor } from './timing.ts';

const DRIVER = join(repo, 'test', 'rpc', 'client-driver.ts');
/**
 * The spawned server's idle timeout: short, so that heartbeats (every 150 ms)
 * have something to prove, but eight times what starting the client's runtime
 * costs now (timing.ts): on a loaded machine a starved client missed its
 * heartbeats for a whole second and was closed.
 */
const idleMs = (runtimeCost: number): number => Math.max(1000, Math.ceil(runtimeCost * 8));
/** What the driver's client uses (see BACKOFF there): the delays it reports must follow it exactly. */
const BACKOFF = { initialMs: 50, maxMs: 400 };

type ClientRuntime = 'node' | 'bun' | 'deno';
const CLIENT_RUNTIMES = spawnRuntimes('node', 'bun').filter((r): r is ClientRuntime => r === 'node' || r === 'bun' || r === 'deno');

const need = needRuntimeFile;

let bundleDir: string | undefined;
/** The driver bundled for Node, the way scripts/build.mjs bundles dist/acp.mjs. */
function nodeBundle(): string {
  if (!bundleDir) {
    bundleDir = tempDir('acp-driver-');
    const r = spawnSync(need(bunBin, 'node (its driver is bundled with bun)'), ['build', DRIVER, '--target=node', '--format=esm', '--outfile', join(bundleDir, 'client-driver.mjs')], { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bun build of the driver failed:\n${r.stdout}${r.stderr}`);
  }
  return join(bundleDir, 'client-driver.mjs');
}
afterAll(() => {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

function driverCommand(runtime: ClientRuntime, socket: string): string[] {
  switch (runtime) {
    case 'node':
      return [process.execPath, nodeBundle()];
    case 'bun':
      return [need(bunBin, runtime), DRIVER];
    case 'deno':
      return [need(denoBin, runtime), 'run', '--quiet', '--no-prompt', '--allow-net', `--allow-read=${socket}`, `--allow-write=${socket}`, DRIVER];
  }
}

type Line = Record<string, unknown> & { step?: string };

/** The driver as a child process: its stdout read as JSON lines, one step at a time. */
class Driver {
  readonly child: ChildProcess;
  private readonly lines: Line[] = [];
  private wake: (() => void) | undefined;
  private out = '';
  stderr = '';
  readonly closed: Promise<number | null>;

  constructor(command: string[]) {
    this.child = spawn(command[0]!, command.slice(1), { cwd: repo, env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => {
      this.out += d.toString();
      let newline: number;
      while ((newline = this.out.indexOf('\n')) !== -1) {
        const text = this.out.slice(0, newline);
        this.out = this.out.slice(newline + 1);
        let line: Line;
        try {
          line = JSON.parse(text) as Line;
        } catch {
          line = { step: 'unparsable', text };
        }
        this.lines.push(line);
        this.wake?.();
      }
    });
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.closed = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
    void this.closed.then(() => this.wake?.());
  }

  /** The next line, which must be step `name` (otherwise the error says what came instead, with stderr). */
  async expectStep(name: string, timeoutMs = 15_000): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    while (!this.lines.length) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) break;
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const line = this.lines.shift();
    if (line?.step !== name) throw new Error(`driver: expected step '${name}', got ${line ? JSON.stringify(line) : 'nothing'}\nstderr:\n${this.stderr}`);
    return line;
  }
}

// A test's bound grows with what starting its runtime costs now (timing.ts): the driver, a server and a few clients start.
const costs = new Map(await Promise.all(CLIENT_RUNTIMES.map(async (runtime) => [runtime, await startCostOrFloor(runtime)] as const)));

describe('the client library under each runtime, out of process', () => {
  if (!CLIENT_RUNTIMES.length) test.skip('ACP_RPC_RUNTIMES lists none of node, bun, deno', () => undefined);

  for (const runtime of CLIENT_RUNTIMES) {
    test(`${runtime}: token, status, subscription, messages, pool, reconnect, heartbeats`, { timeout: budgetMs(costs.get(runtime)!, 20) }, async () => {
      const IDLE_MS = idleMs(costs.get(runtime)!);
      const root = await makeRoot(['demo']);
      const folder = join(root, 'demo');
      const dir = tempDir('acp-serve-');
      const socket = join(dir, 'acp.sock');
      const config = join(dir, 'acp-server.yaml');
      // JSON is YAML.
      writeFileSync(config, JSON.stringify({ tokens: TOKENS, pollIntervalSeconds: 0.2, limits: { idleTimeoutSeconds: IDLE_MS / 1000 } }));
      const serve = (port: number): ReturnType<typeof spawnServe> => spawnServe(['--config', config, '--root', root, '--tcp', `127.0.0.1:${port}`, '--unix', socket]);
      let server = await serve(0);
      const port = Number(server.tcp!.split(':').at(-1));
      // The pool's second server serves the same folder, so `acp` answers alike on both; only the first has bob with `review`.
      const other = await startServerOn('inproc', root);
      let driver: Driver | undefined;
      onTestFinished(async () => {
        driver?.child.kill('SIGKILL');
        // A server killed half-way (the test failed before restarting it) has nothing left to stop.
        if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
        await other.close();
        rmSync(dir, { recursive: true, force: true });
        rmSync(root, { recursive: true, force: true });
      });

      driver = new Driver([
        ...driverCommand(runtime, socket),
        ...['--tcp', `tcp://127.0.0.1:${port}`, '--unix', `unix:${socket}`, '--other', `tcp://127.0.0.1:${other.port}`],
        ...['--task', 'demo', '--token', ALICE_TOKEN, '--bob-token', BOB_TOKEN, '--idle-ms', String(IDLE_MS)],
      ]);

      await driver.expectStep('subscribed');
      const host = await acp.createNodeHost();
      await acp.append(host, folder, { participant: 'bob', event: 'blocked', summary: 'bob, through the library', replyTo: 2 });

      await driver.expectStep('restart');
      server.child.kill('SIGKILL');
      await server.exited;
      const cli = await runAcp(['append', '--folder', folder, '--participant', 'bob', '--event', 'blocked', '--summary', 'bob, with the CLI while the server is down', '--reply-to', '3']);
      expect(cli.code, cli.stderr).toBe(0);
      // Same port, same socket path (the dead server's socket file is stale and replaced).
      server = await serve(port);

      const done = await driver.expectStep('done');
      expect(await driver.closed, `the driver must exit 0 by itself once its clients are closed\nstderr:\n${driver.stderr}`).toBe(0);
      const o = done.observations as Record<string, any>;

      expect(o.runtime).toBe(runtime);
      expect([o.participant, o.bobParticipant]).toEqual(['alice', 'bob']);
      expect(o.status).toMatchObject({ task: 'demo', phase: 'drafting', proposalOwner: 'alice', waitingFor: ['alice'], lastEvent: { seq: 1, event: 'initialized' } });
      expect(o.subscribed).toEqual({ seq: 1, ready: true });
      expect(o.ownAppend).toBe(2);
      // Every event exactly once and in order: her own, the library's, the
      // CLI's made while the server was down (replayed), hers after the restart.
      expect(o.events.filter((n: { method: string }) => n.method === 'agent/event')).toEqual([
        { method: 'agent/event', seq: 2, from: 'alice', event: 'deliverable_drafted', ready: true },
        { method: 'agent/event', seq: 3, from: 'bob', event: 'blocked', ready: true },
        { method: 'agent/event', seq: 4, from: 'bob', event: 'blocked', ready: true },
        { method: 'agent/event', seq: 5, from: 'alice', event: 'blocked', ready: true },
      ]);

      expect(o.message).toEqual({ answer: { delivered: 1 }, received: [{ from: 'alice', to: 'bob', task: 'demo', text: 'Review is ready 🎉', at: expect.any(String) }] });

      const unix = `unix:${socket}`;
      const elsewhere = `tcp://127.0.0.1:${other.port}`;
      expect(o.pool.agents).toEqual(
        expect.arrayContaining([
          { agent: 'bob', endpoint: unix, capabilities: ['review'], connected: true },
          expect.objectContaining({ agent: 'bob', endpoint: elsewhere, capabilities: [], connected: false }),
          expect.objectContaining({ agent: 'acp', endpoint: unix }),
          expect.objectContaining({ agent: 'acp', endpoint: elsewhere }),
        ]),
      );
      expect(o.pool.reviewEndpoint).toBe(unix);
      expect(o.pool.review).toEqual({ status: 'success', data: { verdict: 'accept', from: 'alice', action: 'review', args: { task: 'demo', n: 1 }, answeredOn: runtime } });
      expect(o.pool.acp).toMatchObject({ status: 'success', data: { phase: 'blocked' } });
      expect(o.pool.missing).toBe(-32000);

      // Dropped, a few failed attempts with doubling delays (capped), back.
      const statuses: string[] = o.reconnect.statuses;
      expect(statuses[0]).toBe('disconnected');
      expect(statuses.at(-1)).toBe('connected');
      expect(statuses.slice(1, -1).every((s) => s === 'reconnecting')).toBe(true);
      const delays: number[] = o.reconnect.delays;
      expect(delays.length).toBeGreaterThanOrEqual(2);
      expect(delays).toEqual(delays.map((_, i) => Math.min(BACKOFF.maxMs, BACKOFF.initialMs * 2 ** i)));
      expect(o.reconnect.appendedAfter).toBe(5);

      // Heartbeats: alice stayed on one connection through 1.5 idle timeouts
      // of quiet, while the client without heartbeats was closed as idle.
      expect(o.heartbeat.quietMs).toBeGreaterThanOrEqual(IDLE_MS * 1.5);
      expect(o.heartbeat.aliceConnected).toBe(true);
      expect(o.heartbeat.aliceStatuses).toEqual([]);
      expect(o.heartbeat.control.connected).toBe(false);
      expect(o.heartbeat.control.afterMs).toBeGreaterThanOrEqual(IDLE_MS);

      // SIGTERM is how a server is stopped: 143, as every stopped command (README), without an error line.
      expect(await server.stop()).toBe(143);
    });
  }

  // Found with this file: the client retried a refused permission with
  // backoff, for ever by default (`acp wait --server` for ~18 s, its 10
  // attempts), although only other flags can cure it.
  if (CLIENT_RUNTIMES.includes('deno')) {
    test('deno: a refused permission rejects the connect at once instead of being retried', { timeout: budgetMs(costs.get('deno') ?? 0, 10) }, async () => {
      const root = await makeRoot(['demo']);
      const srv = await startServerOn('inproc', root);
      onTestFinished(async () => {
        await srv.close();
        rmSync(root, { recursive: true, force: true });
      });
      const tcp = `tcp://127.0.0.1:${srv.port}`;
      const unix = `unix:${srv.socket}`;
      // Net access to another port only, nothing on the socket: both endpoints are refused while the server would accept.
      const driver = new Driver([need(denoBin, 'deno'), 'run', '--quiet', '--no-prompt', '--allow-net=127.0.0.1:1', DRIVER, '--mode', 'refused', '--tcp', tcp, '--unix', unix, '--token', ALICE_TOKEN]);
      const line = await driver.expectStep('refused');
      expect(line.results).toEqual([
        { endpoint: tcp, outcome: 'rejected', name: 'RpcConnectionError', message: expect.stringMatching(/^cannot connect to tcp:\/\/127\.0\.0\.1:\d+: Requires net access/), retries: 0 },
        { endpoint: unix, outcome: 'rejected', name: 'RpcConnectionError', message: expect.stringMatching(/^cannot connect to unix:\S+: Requires (read|write) access/), retries: 0 },
      ]);
      expect(await driver.closed).toBe(0);
    });
  }
});
