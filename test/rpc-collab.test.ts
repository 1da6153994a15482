// A collaboration shared between the server and the folder: alice works over
// TCP (our client library), bob appends with the CLI and edits files. alice's
// subscription must see every event, the CLI's included, exactly once and in
// order; validate passes; the folder keeps the Python-compatible format.
// Plus task/*, message/*, forwarded agent/call, the pool, changes without a
// new event, reconnects and heartbeats. Each of these runs once per runtime
// of ACP_RPC_RUNTIMES (in-process, node dist/acp.mjs, bun acp.ts, deno
// acp.ts, dist/acp; by default, test/scale.ts: in-process and bun in
// `npm test`, all five under ACP_FULL=1); the clients and the CLI (`node dist/acp.mjs`) stay
// on Node — rpc-cli.test.ts runs the CLI clients on the other runtimes. Last,
// two in-process checks of a served folder while protocol.json is rewritten
// in place (races the spawned servers revealed).
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import * as acp from '../acp.ts';
import { RpcClient, RpcEndpointError, RpcPool, RpcResponseError, type SubscriptionNotification } from '../plugins/rpc/client.ts';
import { Collab, type CollabUpdate } from '../plugins/rpc/collab.ts';
import { ALICE_TOKEN, BOB_TOKEN, RawConn, makeRoot, rpcRuntimes, runAcp, snapshotFolder, startServerOn, type RunningServer } from './rpc/helpers.ts';

const MEMO = 'deliverables/adr.md';

function adr(status: string): string {
  const body = 'Use a read-through cache with a 60 s TTL, evicted on change events.';
  return `# Architecture Decision Record\n\nDeliverable type: \`adr\`\nStatus: ${status}\n\n## Status\n\nAccepted.\n\n## Context\n\nCatalog reads hit the database every time.\n\n## Decision\n\n${body}\n\n## Alternatives Considered\n\nNo cache.\n\n## Consequences\n\nBounded staleness.\n\n## Follow-ups\n\nNone.\n`;
}

async function sections(folder: string): Promise<string[]> {
  const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
  return protocol.completionGates.map((g: { text: string }) => g.text);
}

for (const runtime of rpcRuntimes('bun')) {
  describe(`mixed collaboration: alice over TCP, bob with the CLI (${runtime})`, () => {
    let root: string;
    let srv: RunningServer;
    beforeAll(async () => {
      root = await makeRoot(['demo', 'other']);
      srv = await startServerOn(runtime, root);
    });
    afterAll(async () => {
      await srv?.close();
      rmSync(root, { recursive: true, force: true });
    });

    test('every event reaches the subscription; validate passes; the format is unchanged', async () => {
      const folder = join(root, 'demo');
      const alice = await RpcClient.connect(`tcp://127.0.0.1:${srv.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
      const seen: SubscriptionNotification[] = [];
      const sub = await alice.subscribe({ task: 'demo', participant: 'alice' }, (n) => void seen.push(n));
      expect(sub.initial).toMatchObject({ seq: 1, ready: true, reason: 'ready: alice is listed in waitingFor', state: { phase: 'drafting', waitingFor: ['alice'] } });

      const write = (doc: string, content: string): Promise<unknown> => alice.acp('write', { folder: 'demo', doc, content });
      const post = (event: string, replyTo: number, extra: Record<string, unknown> = {}): Promise<unknown> =>
        alice.acp('append', { folder: 'demo', event, replyTo, summary: `alice: ${event}`, ...extra });
      const bob = async (args: string[]): Promise<void> => {
        const r = await runAcp(['append', '--folder', folder, '--participant', 'bob', ...args]);
        expect(r.code, r.stderr).toBe(0);
      };
      const waitSeq = (seq: number): Promise<void> => expect.poll(() => seen.filter((n) => n.method === 'agent/event').at(-1)?.event?.seq, { timeout: 10_000 }).toBe(seq);

      await write(MEMO, adr('Draft'));
      await post('deliverable_drafted', 1, { doc: MEMO, role: 'primary' });
      await write('proposal.md', `# Proposal\n\nSee \`${MEMO}\`.\n`);
      await post('proposal_submitted', 2, { doc: 'proposal.md' });
      await waitSeq(3);
      expect(seen.at(-1)).toMatchObject({ state: { phase: 'reviewing', waitingFor: ['bob'] }, ready: false });

      // bob, with files and the CLI
      appendFileSync(
        join(folder, 'review.md'),
        `\n## 2026-01-01T00:00:00Z - bob - seq 4\n\nReviewed primary deliverable: \`${MEMO}\`\n\nReview Scope:\n- Primary deliverable completeness\n\nPosition:\n- Accept.\n`,
      );
      await bob(['--event', 'review_submitted', '--summary', 'bob: review', '--doc', 'review.md', '--reply-to', '3']);
      await waitSeq(4);
      // The event's own notification: an agent/state may follow it when the
      // server read the log between the CLI's log write and its protocol.json write.
      expect(seen.filter((n) => n.method === 'agent/event').at(-1)).toMatchObject({ event: { from: 'bob', event: 'review_submitted' }, state: { phase: 'revising' }, ready: true });

      await post('proposal_revised', 4, { doc: 'proposal.md' });
      await write('decisions.md', `# Decisions\n\n## Accepted Decisions\n\n### D1. Cache with eviction\n\n- Decision: cache reads; evict on change.\n- Reflected in: \`${MEMO}\`\n`);
      const gates = await sections(folder);
      const readiness = (done: boolean): string =>
        `# Readiness\n\n## Open Question Classification\n\n- [resolved] Eviction (D1).\n\n## Blocking Issues\n\n- None.\n\n## Gates\n\n${gates.map((g) => `- [${done ? 'x' : ' '}] ${g}`).join('\n')}\n\n## Ready to Implement\n\n- [${done ? 'x' : ' '}] Ready to implement\n`;
      await write('readiness.md', readiness(false));
      await post('question_classified', 5, { doc: 'readiness.md' });
      await bob(['--event', 'decision_accepted', '--summary', 'bob: accept', '--doc', 'decisions.md', '--reply-to', '6']);
      await waitSeq(7);
      await post('decision_accepted', 6, { doc: 'decisions.md' });
      await write(MEMO, adr('Frozen'));
      const sha = createHash('sha256').update(adr('Frozen')).digest('hex');
      await post('deliverable_frozen', 8, { doc: MEMO, role: 'primary', sha256: sha });
      await write('readiness.md', readiness(true));
      await post('readiness_passed', 9, { doc: 'readiness.md' });
      // task/result before completion: -32003 with the phase.
      await expect(alice.call('task/result', { task: 'demo' })).rejects.toMatchObject({ code: -32003, data: { phase: 'readiness_check' } });
      await write(
        'conclusion.md',
        `# Conclusion\n\n## Decision Outcome\n\n- [proceed] Build it.\n\n## Rationale\n\nFast.\n\n## Deliverable Receipt\n\n- Primary: \`${MEMO}\`\n- SHA-256: ${sha}\n\n## Accepted Decisions Summary\n\n- D1.\n\n## Readiness Result\n\nPassed.\n\n## Assumptions\n\nNone.\n\n## Deferred Follow-ups\n\nNone.\n\n## Implementation Blockers\n\nNone.\n\n## Next Action\n\nShip.\n`,
      );
      await post('completed', 10, { doc: 'conclusion.md' });
      await waitSeq(11);

      // The subscription saw every event exactly once, in order, with the state after each.
      const lines = readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
      const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const pushed = seen.filter((n) => n.method === 'agent/event');
      expect(pushed.map((n) => n.event)).toEqual(logged.slice(1));
      const protocol = await acp.readProtocol(await acp.createNodeHost(), folder);
      for (let i = 0; i < pushed.length; i++) {
        const expected = acp.replay(logged.slice(0, i + 2), acp.participantIds(protocol), acp.readReadiness(''));
        expect(pushed[i]!.state).toEqual({ phase: expected.phase, proposalOwner: expected.proposalOwner, waitingFor: expected.waitingFor });
      }
      expect(pushed.at(-1)).toMatchObject({ state: { phase: 'completed' }, ready: true, reason: 'ready: phase is completed' });

      // validate passes, through the server and on the folder; the format is what the CLI writes.
      expect(await alice.acp('validate', { folder: 'demo' })).toEqual({ ok: true, exitCode: 0, errors: [], warnings: [] });
      const cli = await runAcp(['validate', '--folder', folder]);
      expect(cli.stdout.trim()).toBe('ACP validation passed');
      for (const line of lines) expect(`${line}\n`).toBe(acp.formatEventLine(JSON.parse(line)));
      const protocolText = readFileSync(join(folder, 'protocol.json'), 'utf8');
      expect(protocolText).toBe(acp.formatProtocolJson(JSON.parse(protocolText)));
      expect(logged.filter((e) => e.from === 'bob').map((e) => e.event)).toEqual(['review_submitted', 'decision_accepted']);

      const result = (await alice.call('task/result', { task: 'demo', includeContent: true })) as Record<string, unknown>;
      expect(result).toMatchObject({
        outcome: { status: 'proceed', text: 'Build it.' },
        deliverable: { ref: MEMO, type: 'adr', sha256: sha, currentSha256: sha, intact: true, frozenAtSeq: 9, content: adr('Frozen') },
        decisions: [{ id: 'D1', title: 'Cache with eviction', decision: 'cache reads; evict on change.', reflectedIn: `\`${MEMO}\`` }],
        completed: { seq: 11, from: 'alice' },
      });

      // fromSeq replays what was missed, then live events follow.
      const replayed: SubscriptionNotification[] = [];
      await alice.subscribe({ task: 'demo', fromSeq: 9 }, (n) => void replayed.push(n));
      await expect.poll(() => replayed.map((n) => n.event?.seq)).toEqual([9, 10, 11]);
      await sub.unsubscribe();
      alice.close();
    });

    test('identity: alice cannot write as bob or reach a task she is not part of; the folder is unchanged', async () => {
      const other = join(root, 'other');
      const before = snapshotFolder(other);
      const alice = await RpcClient.connect(`tcp://127.0.0.1:${srv.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
      const refused = (p: Promise<unknown>): Promise<unknown> => expect(p).rejects.toMatchObject({ code: -32020 });
      await refused(alice.acp('append', { folder: 'other', participant: 'bob', event: 'deliverable_drafted', summary: 'x', replyTo: 1, doc: MEMO, role: 'primary' }));
      await refused(alice.call('task/cancel', { task: 'other', reason: 'x', participant: 'bob' }));
      await refused(alice.call('message/send', { to: 'bob', text: 'hi', from: 'bob' }));
      await refused(alice.call('agent/subscribe', { task: 'other', participant: 'bob' }));
      await refused(alice.call('authenticate', { token: BOB_TOKEN }));
      await refused(alice.call('task/create', { task: 'mine', participant: ['bob', 'carol'], objective: 'x', completion: ['y'], primaryDeliverableType: 'adr' }));
      expect(snapshotFolder(other)).toEqual(before);
      alice.close();

      // A task alice is not a participant of is invisible to her.
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(root, 'private'));
      const host = await acp.createNodeHost();
      await acp.init(host, join(root, 'private'), { participants: ['bob', 'carol'], objective: 'x', completion: ['y'], primaryType: 'adr' }, await acp.createRegistry());
      const again = await RpcClient.connect(`tcp://127.0.0.1:${srv.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
      await refused(again.call('task/status', { task: 'private' }));
      const list = (await again.call('agent/list')) as { agents: Array<{ agent: string; collaborations?: Array<{ task: string }> }> };
      expect(list.agents.map((a) => a.agent)).toEqual(['acp', 'alice', 'bob']);
      expect(list.agents.flatMap((a) => a.collaborations ?? []).some((c) => c.task === 'private')).toBe(false);
      again.close();
    });

    test('task/create, task/status, task/cancel; a refusal is -32010 with the CLI text', async () => {
      const alice = await RpcClient.connect(`tcp://127.0.0.1:${srv.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
      const created = (await alice.call('task/create', { task: 'fresh', participant: ['alice', 'bob'], objective: 'Pick a queue', completion: ['Chosen'], primaryDeliverableType: 'decision-memo' })) as Record<string, unknown>;
      expect(created).toMatchObject({ task: 'fresh', ok: true, created: true });
      const again = alice.call('task/create', { task: 'fresh', participant: ['alice', 'bob'], objective: 'Pick a queue', completion: ['Chosen'], primaryDeliverableType: 'decision-memo' });
      await expect(again).rejects.toMatchObject({ code: -32010, message: 'collaboration folder already contains protocol.json; use --resume to acknowledge it' });
      const generated = (await alice.call('task/create', { participant: ['alice', 'bob'], objective: 'Another', completion: ['Done'], primaryDeliverableType: 'adr' })) as { task: string };
      expect(generated.task).toMatch(/^task-/);
      const status = (await alice.call('task/status', ['fresh'])) as Record<string, unknown>;
      expect(status).toMatchObject({ task: 'fresh', phase: 'drafting', proposalOwner: 'alice', waitingFor: ['alice'], lastEvent: { seq: 1, event: 'initialized' }, validation: { ok: true } });
      // The same refusal text as the CLI's.
      const cli = await runAcp(['append', '--folder', join(root, 'fresh'), '--participant', 'alice', '--event', 'completed', '--summary', 'x', '--reply-to', '1', '--doc', 'conclusion.md']);
      const err = (await alice.acp('append', { folder: 'fresh', event: 'completed', summary: 'x', replyTo: 1, doc: 'conclusion.md' }).catch((e: unknown) => e)) as RpcResponseError;
      expect(err.code).toBe(-32010);
      expect(`error: ${err.message}\n`).toBe(cli.stderr);
      expect(err.data).toMatchObject({ message: err.message, exitCode: cli.code });
      const cancelled = (await alice.call('task/cancel', { task: 'fresh', reason: 'Priorities changed.' })) as Record<string, unknown>;
      expect(cancelled).toMatchObject({ event: { seq: 2, from: 'alice', event: 'blocked', summary: 'Priorities changed.', reply_to: 1 }, phase: 'blocked' });
      alice.close();
    });

    test('messages, discovery, forwarded calls (busy), and the pool routing by capability', async () => {
      const endpoint = `tcp://127.0.0.1:${srv.port}`;
      const inbox: Array<Record<string, unknown>> = [];
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const inCall = new Promise<void>((resolve) => (reached = resolve));
      const bob = await RpcClient.connect(endpoint, {
        token: BOB_TOKEN,
        heartbeatMs: 0,
        capabilities: ['review'],
        version: 'bob/1.0',
        onMessage: (m) => void inbox.push(m),
        onCall: async ({ from, action, args }) => {
          reached();
          await gate;
          return { from, action, args, verdict: 'accept' };
        },
      });
      const alice = await RpcClient.connect(endpoint, { token: ALICE_TOKEN, heartbeatMs: 0 });
      expect(await alice.call('message/send', { to: 'bob', text: 'Review is ready 🎉', task: 'demo' })).toEqual({ delivered: 1 });
      await expect.poll(() => inbox).toEqual([expect.objectContaining({ from: 'alice', to: 'bob', task: 'demo', text: 'Review is ready 🎉' })]);
      expect(await alice.call('message/broadcast', { task: 'demo', text: 'standup' })).toEqual({ delivered: 1 });
      await expect(alice.call('message/send', { to: 'zed', text: 'x' })).rejects.toMatchObject({ code: -32000 });

      const info = (await alice.call('agent/info', { agent: 'bob' })) as Record<string, unknown>;
      expect(info).toEqual({ agent: 'bob', kind: 'participant', version: 'bob/1.0', connected: true, capabilities: ['review'], endpoints: { tcp: `127.0.0.1:${srv.port}`, unix: srv.socket } });
      const acpInfo = (await alice.call('agent/info', ['acp'])) as { capabilities: string[]; methods: string[] };
      expect(acpInfo.capabilities).toEqual(expect.arrayContaining(['init', 'append', 'next', 'validate', 'status', 'read', 'write']));
      expect(acpInfo.methods).toContain('agent/subscribe');

      const first = alice.call('agent/call', { agent: 'bob', action: 'review', args: { task: 'demo' } });
      // Once bob holds the first call (the server's checks before forwarding
      // are async: a second call sent at once could reach bob first), a
      // second is refused as busy.
      await inCall;
      await expect(alice.call('agent/call', { agent: 'bob', action: 'review' })).rejects.toMatchObject({ code: -32001 });
      await expect(alice.call('agent/call', { agent: 'bob', action: 'deploy' })).rejects.toMatchObject({ code: -32602 });
      await expect(alice.call('agent/call', { agent: 'carol', action: 'review' })).rejects.toMatchObject({ code: -32000 });
      release();
      expect(await first).toEqual({ status: 'success', data: { from: 'alice', action: 'review', args: { task: 'demo' }, verdict: 'accept' } });

      const pool = new RpcPool([endpoint, `unix:${srv.socket}`], { token: ALICE_TOKEN, heartbeatMs: 0, refreshMs: 0 });
      await pool.start();
      expect(await pool.call({ capability: 'review', args: { n: 1 } })).toMatchObject({ status: 'success', data: { verdict: 'accept', args: { n: 1 } } });
      expect(await pool.call({ agent: 'acp', action: 'next', args: { folder: 'demo' } })).toMatchObject({ status: 'success', data: { phase: expect.any(String) } });
      await expect(pool.call({ capability: 'fly' })).rejects.toMatchObject({ code: -32000 });
      pool.close();
      bob.close();
      alice.close();
    });
  });

  describe(`changes without a new event (${runtime})`, () => {
    test('a hand-edited protocol.json and a rewritten log arrive as agent/state', async () => {
      const root = await makeRoot(['demo']);
      const srv = await startServerOn(runtime, root);
      // Also when the test fails half-way (closing twice is harmless).
      onTestFinished(() => srv.close());
      const folder = join(root, 'demo');
      const client = await RpcClient.connect(`unix:${srv.socket}`, { heartbeatMs: 0, reconnect: false });
      const seen: SubscriptionNotification[] = [];
      await client.subscribe({ task: 'demo', participant: 'bob' }, (n) => void seen.push(n));
      const { writeFileSync } = await import('node:fs');
      const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
      writeFileSync(join(folder, 'protocol.json'), acp.formatProtocolJson({ ...protocol, waitingFor: ['bob'] }));
      await expect.poll(() => seen).toEqual([
        { method: 'agent/state', subscription: expect.any(String), task: 'demo', reset: false, ready: true, reason: 'ready: bob is listed in waitingFor', state: { phase: 'drafting', proposalOwner: 'alice', waitingFor: ['bob'] } },
      ]);
      // A longer log, then a shorter one (as after a repair): a reset.
      const host = await acp.createNodeHost();
      writeFileSync(join(folder, 'protocol.json'), acp.formatProtocolJson(protocol));
      await acp.append(host, folder, { participant: 'alice', event: 'blocked', summary: 'stop', replyTo: 1 });
      await expect.poll(() => seen.some((n) => n.event?.seq === 2)).toBe(true);
      const first = readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n')[0];
      writeFileSync(join(folder, 'events.jsonl'), `${first}\n`);
      await expect.poll(() => seen.at(-1)).toMatchObject({ method: 'agent/state', reset: true });
      client.close();
      await srv.close();
      rmSync(root, { recursive: true, force: true });
    });
  });

  describe(`client resilience (${runtime})`, () => {
    test('reconnects with backoff and renews its subscription without losing events', async () => {
      const root = await makeRoot(['demo']);
      const first = await startServerOn(runtime, root);
      onTestFinished(() => first.close());
      const port = first.port;
      const seen: number[] = [];
      const statuses: string[] = [];
      const client = await RpcClient.connect(`tcp://127.0.0.1:${port}`, { token: ALICE_TOKEN, heartbeatMs: 0, backoff: { initialMs: 20, maxMs: 200 }, onStatus: (s) => void statuses.push(s) });
      await client.subscribe({ task: 'demo' }, (n) => {
        if (typeof n.event?.seq === 'number') seen.push(n.event.seq);
      });
      await client.acp('append', { folder: 'demo', event: 'deliverable_drafted', summary: 'one', replyTo: 1, doc: MEMO, role: 'primary' });
      await expect.poll(() => seen).toEqual([2]);
      await first.close();
      // While the server is down, the CLI appends.
      const host = await acp.createNodeHost();
      await acp.append(host, join(root, 'demo'), { participant: 'alice', event: 'blocked', summary: 'down', replyTo: 2 });
      // A new server on the same port (the client only knows the address).
      const second = await startServerOn(runtime, root, { port });
      onTestFinished(() => second.close());
      await expect.poll(() => seen, { timeout: 15_000 }).toEqual([2, 3]);
      expect(statuses).toContain('disconnected');
      client.close();
      await second.close();
      rmSync(root, { recursive: true, force: true });
    });

    test('heartbeats keep a quiet subscriber connected; a silent peer is closed as idle', async () => {
      const root = await makeRoot(['demo']);
      const srv = await startServerOn(runtime, root, { idleTimeoutMs: 1000 });
      onTestFinished(() => srv.close());
      const silent = await RawConn.unix(srv.socket);
      const drops: string[] = [];
      const client = await RpcClient.connect(`unix:${srv.socket}`, { heartbeatMs: 100, reconnect: false, onStatus: (s, d) => void (s === 'disconnected' && drops.push(d ?? '')) });
      await client.subscribe({ task: 'demo' }, () => undefined);
      await silent.closed;
      // A second silent peer, connected after the client last spoke: once the
      // server closes it as idle, the client has been quiet (but for its
      // heartbeats) for a whole idle timeout too. An event, not a sleep.
      const later = await RawConn.unix(srv.socket);
      await later.closed;
      expect(client.connected).toBe(true);
      expect(drops).toEqual([]);
      client.close();
      await srv.close();
      rmSync(root, { recursive: true, force: true });
    });
  });
}

// Found by running the suites against spawned servers: there, a hand edit of
// protocol.json (truncate, then write) can be read half-way, and Bun reports
// both steps as one change — so the server must neither announce the torn
// file nor lose the change the poll is left to catch.
describe('a served collaboration while protocol.json is rewritten in place', () => {
  async function watched(pollIntervalMs: number, withWatch: boolean): Promise<{ collab: Collab; folder: string; updates: CollabUpdate[]; protocolReads(): number; done(): void }> {
    const root = await makeRoot(['demo']);
    const folder = join(root, 'demo');
    const host = await acp.createNodeHost();
    // Counted, so a test can wait for a scan to have read the file (an event, not a sleep).
    let reads = 0;
    const readFile: typeof host.fs.readFile = (path) => {
      if (path.endsWith('protocol.json')) reads++;
      return host.fs.readFile(path);
    };
    // Without change notifications only the poll can notice anything.
    const used = { ...host, fs: { ...host.fs, readFile, ...(withWatch ? {} : { watch: undefined }) } };
    const collab = new Collab(acp, used, await acp.createRegistry(), 'demo', folder, pollIntervalMs);
    await collab.ready;
    const updates: CollabUpdate[] = [];
    collab.listen((u) => void updates.push(u));
    const done = (): void => {
      collab.close();
      rmSync(root, { recursive: true, force: true });
    };
    return { collab, folder, updates, protocolReads: () => reads, done };
  }

  test('a torn protocol.json is not announced; the finished write is', async () => {
    const { collab, folder, updates, protocolReads, done } = await watched(3_600_000, true);
    const path = join(folder, 'protocol.json');
    const protocol = JSON.parse(readFileSync(path, 'utf8'));
    const readsBefore = protocolReads();
    writeFileSync(path, acp.formatProtocolJson(protocol).slice(0, 40));
    collab.touch();
    // A scan has read the torn file; scans run one at a time, so once a
    // later touch's scan reads it again, the first one has finished (and
    // announced whatever it was going to).
    await expect.poll(() => protocolReads()).toBeGreaterThan(readsBefore);
    const readsTorn = protocolReads();
    collab.touch();
    await expect.poll(() => protocolReads()).toBeGreaterThan(readsTorn);
    expect(updates).toEqual([]);
    expect(collab.turn).toEqual({ phase: 'drafting', proposalOwner: 'alice', waitingFor: ['alice'] });
    writeFileSync(path, acp.formatProtocolJson({ ...protocol, waitingFor: ['bob'] }));
    await expect.poll(() => updates).toEqual([{ kind: 'state', reset: false, state: { phase: 'drafting', proposalOwner: 'alice', waitingFor: ['bob'] } }]);
    done();
  });

  test('a change right after the first read reaches the poll (its baseline predates the read)', async () => {
    const { folder, updates, done } = await watched(300, false);
    // Before the poll's first tick.
    const path = join(folder, 'protocol.json');
    writeFileSync(path, acp.formatProtocolJson({ ...JSON.parse(readFileSync(path, 'utf8')), waitingFor: ['bob'] }));
    await expect.poll(() => updates, { timeout: 3000 }).toEqual([{ kind: 'state', reset: false, state: { phase: 'drafting', proposalOwner: 'alice', waitingFor: ['bob'] } }]);
    done();
  });
});

describe('endpoints', () => {
  test('an endpoint that names no socket is an RpcEndpointError at once (no connection attempt, no retry)', async () => {
    for (const bad of ['tcp://127.0.0.1:', 'unix:', 'tcp://host:99999', 'nonsense']) {
      await expect(RpcClient.connect(bad, { heartbeatMs: 0 })).rejects.toBeInstanceOf(RpcEndpointError);
    }
  });
});
