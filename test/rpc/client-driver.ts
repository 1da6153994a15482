// A program, not a test: it drives the client library (plugins/rpc/client.ts)
// end to end against a running `acp serve`, so that
// test/rpc-client-runtimes.test.ts can run the very same code under Node
// (bundled: Node 20 cannot import .ts), Bun and Deno and compare what each
// saw. It uses no vitest and nothing of the test helpers, only the client and
// `node:process`, so that under Deno it needs no permission beyond what
// README "Runtimes" documents for clients.
//
//   <runtime> client-driver.ts --tcp tcp://127.0.0.1:PORT --unix unix:/path/acp.sock
//     --other tcp://127.0.0.1:PORT2 --task demo --token ALICE --bob-token BOB --idle-ms 1000
//
// It prints one JSON line per step on stdout; the test acts on each:
//   {"step":"subscribed"}  alice is subscribed and saw her own append (seq 2):
//                          the test appends seq 3 as bob (through the library)
//   {"step":"restart"}     the test kills the server, appends seq 4 with the
//                          CLI while it is down, restarts it on the same port
//                          and socket
//   {"step":"done","observations":{…}}   then the driver exits 0
//   {"step":"error","message":"…","observations":{…}}   and exits 1
// A step waits for what the test does by watching the subscription, not
// stdin, so no runtime's stdin handling is involved.
//
//   deno run --allow-net=127.0.0.1:1 client-driver.ts --mode refused --tcp … --unix … --token …
//
// connects to both endpoints with the default reconnect options while Deno
// refuses both (net access to the port, read/write on the socket), and prints
// {"step":"refused","results":[…]}: whether each connect was rejected, with
// what, after how many retries, or was still retrying after 3 s.

import process from 'node:process';
import { RpcClient, RpcPool, formatEndpoint, type SubscriptionNotification } from '../../plugins/rpc/client.ts';

const MEMO = 'deliverables/adr.md';
/** Backoff of alice's client: small, so a restart takes a few attempts; each delay is checked by the test. */
const BACKOFF = { initialMs: 50, maxMs: 400 };
const HEARTBEAT_MS = 150;

function args(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (!key?.startsWith('--') || value === undefined) throw new Error(`usage: client-driver.ts --tcp … --unix … --other … --task … --token … --bob-token … --idle-ms … (bad argument ${key})`);
    out[key.slice(2)] = value;
  }
  const needed = out.mode === 'refused' ? ['tcp', 'unix', 'token'] : ['tcp', 'unix', 'other', 'task', 'token', 'bob-token', 'idle-ms'];
  for (const need of needed) if (!out[need]) throw new Error(`missing --${need}`);
  return out;
}

function runtimeName(): string {
  const g = globalThis as Record<string, unknown>;
  return 'Deno' in g ? 'deno' : 'Bun' in g ? 'bun' : 'node';
}

function emit(line: Record<string, unknown>): void {
  console.log(JSON.stringify(line));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Poll `test` until it holds; throws naming `what` after `timeoutMs`. */
async function until(what: string, test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface StatusEntry {
  status: string;
  detail?: string;
  at: number;
}

const observations: Record<string, unknown> = { runtime: runtimeName() };
const open: Array<{ close(): void }> = [];

/** Connect where the runtime refuses the permission; a refusal must reject at once, not be retried. */
async function refused(a: Record<string, string>): Promise<void> {
  const results: Array<Record<string, unknown>> = [];
  for (const endpoint of [a.tcp!, a.unix!]) {
    let retries = 0;
    const outcome = await Promise.race([
      RpcClient.connect(endpoint, { token: a.token, heartbeatMs: 0, backoff: { initialMs: 50, maxMs: 50 }, onStatus: (status) => void (status === 'reconnecting' && retries++) }).then(
        (client) => {
          client.close();
          return { outcome: 'connected' };
        },
        (error: Error) => ({ outcome: 'rejected', name: error.name, message: error.message }),
      ),
      sleep(3000).then(() => ({ outcome: 'still retrying' })),
    ]);
    results.push({ endpoint, ...outcome, retries });
  }
  emit({ step: 'refused', results });
  // A client still retrying would keep the process alive.
  process.exit(0);
}

async function main(): Promise<void> {
  const a = args(process.argv.slice(2));
  if (a.mode === 'refused') return refused(a);
  const task = a.task!;
  const idleMs = Number(a['idle-ms']);
  const started = Date.now();

  // alice: TCP with a token, heartbeats, fast backoff; every status is kept with its time.
  const aliceStatuses: StatusEntry[] = [];
  const alice = await RpcClient.connect(a.tcp!, {
    token: a.token,
    heartbeatMs: HEARTBEAT_MS,
    backoff: BACKOFF,
    onStatus: (status, detail) => void aliceStatuses.push({ status, detail, at: Date.now() - started }),
  });
  open.push(alice);
  observations.participant = alice.participant;
  observations.status = await alice.call('task/status', { task });

  const seen: Array<Record<string, unknown>> = [];
  const sub = await alice.subscribe({ task, participant: 'alice' }, (n: SubscriptionNotification) => {
    seen.push({ method: n.method, seq: n.event?.seq, from: n.event?.from, event: n.event?.event, ready: n.ready });
  });
  observations.subscribed = { seq: sub.initial.seq, ready: sub.initial.ready };
  observations.events = seen;
  const sawSeq = (seq: number): boolean => seen.some((n) => n.method === 'agent/event' && n.seq === seq);

  // Her own append, through agent/call on `acp`.
  const own = (await alice.acp('append', { folder: task, event: 'deliverable_drafted', summary: 'alice drafts', replyTo: 1, doc: MEMO, role: 'primary' })) as { event?: { seq?: number } };
  observations.ownAppend = own?.event?.seq;
  await until('the event of alice’s own append (seq 2)', () => sawSeq(2));

  // Someone else's append: the test makes it once told.
  emit({ step: 'subscribed' });
  await until('the event appended by bob through the library (seq 3)', () => sawSeq(3));

  // bob: the Unix socket, an agent that answers `review` and receives messages.
  const inbox: Array<Record<string, unknown>> = [];
  const bob = await RpcClient.connect(a.unix!, {
    token: a['bob-token'],
    heartbeatMs: HEARTBEAT_MS,
    capabilities: ['review'],
    version: `driver/${runtimeName()}`,
    onMessage: (m) => void inbox.push(m),
    onCall: ({ from, action, args: callArgs }) => ({ verdict: 'accept', from, action, args: callArgs, answeredOn: runtimeName() }),
  });
  open.push(bob);
  observations.bobParticipant = bob.participant;
  const delivered = await alice.call('message/send', { to: 'bob', text: 'Review is ready 🎉', task });
  await until('bob’s message/received', () => inbox.length > 0);
  observations.message = { answer: delivered, received: inbox };

  // The pool: another server's TCP endpoint and this server's Unix socket.
  // Only this server has an agent with `review` (bob), so the capability
  // must be routed to the Unix endpoint; `acp` is served by both.
  const pool = new RpcPool([a.other!, a.unix!], { token: a.token, heartbeatMs: HEARTBEAT_MS, refreshMs: 0, reconnect: false });
  open.push(pool);
  await pool.start();
  observations.pool = {
    agents: pool.agents(),
    reviewEndpoint: formatEndpoint(pool.route({ capability: 'review' }).client.endpoint),
    review: await pool.call({ capability: 'review', args: { task, n: 1 } }),
    acp: await pool.call({ agent: 'acp', action: 'next', args: { folder: task, participant: 'alice' } }),
    missing: await pool.call({ capability: 'fly' }).then(
      () => 'answered',
      (error: { code?: number }) => error.code,
    ),
  };
  pool.close();

  // Reconnect: the test kills the server, appends seq 4 while it is down and
  // restarts it; alice must come back by herself and replay seq 4.
  const beforeRestart = aliceStatuses.length;
  emit({ step: 'restart' });
  await until('alice to notice the server is gone', () => aliceStatuses.slice(beforeRestart).some((s) => s.status === 'disconnected'));
  await until('seq 4 (appended while the server was down) through the renewed subscription', () => sawSeq(4), 12_000);
  const afterRestart = aliceStatuses.slice(beforeRestart);
  const back = (await alice.acp('append', { folder: task, event: 'blocked', summary: 'alice after the restart', replyTo: 4 })) as { event?: { seq?: number } };
  await until('seq 5, appended after the reconnect, live', () => sawSeq(5));
  observations.reconnect = {
    statuses: afterRestart.map((s) => s.status),
    delays: afterRestart.filter((s) => s.status === 'reconnecting').map((s) => Number(/retrying in (\d+) ms/.exec(s.detail ?? '')?.[1])),
    appendedAfter: back?.event?.seq,
  };

  // Heartbeats: a client without them is closed as idle; alice, quiet but
  // heartbeating, stays on the same connection (no status change at all).
  const beforeQuiet = aliceStatuses.length;
  const quietStart = Date.now();
  let controlDrop: { afterMs: number; detail?: string } | undefined;
  const control = await RpcClient.connect(a.tcp!, {
    token: a.token,
    heartbeatMs: 0,
    reconnect: false,
    onStatus: (status, detail) => {
      if (status === 'disconnected') controlDrop ??= { afterMs: Date.now() - quietStart, detail };
    },
  });
  open.push(control);
  await until('the client without heartbeats to be closed as idle', () => controlDrop !== undefined, idleMs * 6);
  await until('one and a half idle timeouts of quiet', () => Date.now() - quietStart >= idleMs * 1.5);
  observations.heartbeat = {
    quietMs: Date.now() - quietStart,
    aliceConnected: alice.connected,
    aliceStatuses: aliceStatuses.slice(beforeQuiet).map((s) => s.status),
    control: { connected: control.connected, ...controlDrop },
  };
  observations.aliceStatuses = aliceStatuses;
  await sub.unsubscribe();
}

main().then(
  () => {
    for (const c of open) c.close();
    emit({ step: 'done', observations });
    // No process.exit: the process must end by itself once every client is closed.
  },
  (error: unknown) => {
    for (const c of open) c.close();
    emit({ step: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error), observations });
    process.exitCode = 1;
  },
);
