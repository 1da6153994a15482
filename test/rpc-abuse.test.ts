// Abuse: no token, a token for another participant, guessing tokens, a 10 MB
// body over the limit, a peer that sends half a header and stalls, a peer
// that never authenticates, and 1 000 connections opened and dropped. The
// server must stay up, keep answering others, and refused calls must leave
// the folder unchanged. Runs once per runtime of ACP_RPC_RUNTIMES (in-process,
// node dist/acp.mjs, bun acp.ts, deno acp.ts, dist/acp; by default,
// test/scale.ts: in-process and the binary in `npm test`, all five
// under ACP_FULL=1); the timeouts reach a spawned server through its config
// file. An auth timeout of 0 (never) is checked in-process only.
//
// Every test checks on its own that the folder is unchanged (a snapshot
// taken when it starts, compared when it ends), so each one can fail alone,
// shuffled or filtered with -t.
import net from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ALICE_TOKEN, BOB_TOKEN, RawConn, makeRoot, rpcRuntimes, snapshotFolder, startServerOn, type RunningServer } from './rpc/helpers.ts';

const APPEND_AS_ALICE = { agent: 'acp', action: 'append', args: { folder: 'demo', participant: 'alice', event: 'deliverable_drafted', summary: 'x', replyTo: 1, doc: 'deliverables/adr.md', role: 'primary' } };

for (const runtime of rpcRuntimes('binary')) {
  describe(`abuse (${runtime})`, () => {
    let root: string;
    let srv: RunningServer;
    let before: Record<string, string>;

    beforeAll(async () => {
      root = await makeRoot(['demo']);
      srv = await startServerOn(runtime, root, { stallTimeoutMs: 300, authTimeoutMs: 2000 });
    });
    afterAll(async () => {
      await srv?.close();
      rmSync(root, { recursive: true, force: true });
    });
    // The tests of a describe run one at a time (not concurrent), so the
    // folder between these two hooks is this test's doing alone.
    beforeEach(() => {
      before = snapshotFolder(root);
    });
    afterEach(() => {
      expect(snapshotFolder(root), 'the folder changed').toEqual(before);
    });

    async function healthy(): Promise<void> {
      const probe = await RawConn.unix(srv.socket);
      expect(await probe.request('ping', undefined, 'probe')).toMatchObject({ result: { pong: true } });
      expect(await probe.request('task/status', { task: 'demo' }, 'status')).toMatchObject({ result: { phase: 'drafting' } });
      probe.close();
    }

    test('no token: every call that acts is -32020, notifications get nothing, nothing changes', async () => {
      const conn = await RawConn.tcp(srv.port);
      for (const [method, params] of [
        ['agent/call', APPEND_AS_ALICE],
        ['task/cancel', { task: 'demo', reason: 'x', participant: 'alice' }],
        ['task/create', { task: 'evil', participant: ['alice', 'bob'], objective: 'x', completion: ['y'], primaryDeliverableType: 'adr' }],
        ['message/broadcast', { task: 'demo', text: 'x', from: 'alice' }],
        ['agent/subscribe', { task: 'demo' }],
      ] as const) {
        expect(await conn.request(method, params, method)).toMatchObject({ id: method, error: { code: -32020 } });
      }
      conn.send({ jsonrpc: '2.0', method: 'agent/call', params: APPEND_AS_ALICE });
      conn.send([{ jsonrpc: '2.0', method: 'task/cancel', params: { task: 'demo', reason: 'x', participant: 'alice' } }]);
      expect(await conn.before()).toEqual([]);
      // A token over stdio/unix style ({participant} only) is not accepted over TCP.
      expect(await conn.request('authenticate', { participant: 'alice' }, 'a')).toMatchObject({ error: { code: -32020 } });
      conn.close();
    });

    test("a token for another participant cannot act as alice", async () => {
      const conn = await RawConn.tcp(srv.port);
      expect(await conn.request('authenticate', { token: BOB_TOKEN, participant: 'alice' }, 1)).toMatchObject({ error: { code: -32020 } });
      expect(await conn.request('authenticate', { token: BOB_TOKEN }, 2)).toMatchObject({ result: { participant: 'bob' } });
      expect(await conn.request('agent/call', APPEND_AS_ALICE, 3)).toMatchObject({ error: { code: -32020 } });
      expect(await conn.request('task/cancel', { task: 'demo', reason: 'x', participant: 'alice' }, 4)).toMatchObject({ error: { code: -32020 } });
      expect(await conn.request('message/send', { to: 'bob', text: 'x', from: 'alice' }, 5)).toMatchObject({ error: { code: -32020 } });
      expect(await conn.request('authenticate', { token: ALICE_TOKEN }, 6)).toMatchObject({ error: { code: -32020 } });
      // Not alice's turn and not alice: bob's own append is refused by the protocol, not by identity.
      const own = await conn.request('agent/call', { ...APPEND_AS_ALICE, args: { ...APPEND_AS_ALICE.args, participant: undefined } }, 7);
      expect(own).toMatchObject({ error: { code: -32010, message: expect.stringContaining('reserved for alice; got bob') } });
      conn.close();
    });

    test('guessing tokens: the connection is closed after 5 failures', async () => {
      const conn = await RawConn.tcp(srv.port);
      for (let i = 0; i < 5; i++) expect(await conn.request('authenticate', { token: `wrong-token-${i}-xxxxxxxx` }, i)).toMatchObject({ error: { code: -32020 } });
      await conn.closed;
      await healthy();
    });

    test('a 10 MB body over the limit: an error with id null, the connection closes, the server goes on', async () => {
      const conn = await RawConn.tcp(srv.port);
      expect(await conn.request('authenticate', { token: ALICE_TOKEN }, 'auth')).toMatchObject({ result: { participant: 'alice' } });
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'big', method: 'agent/call', params: { ...APPEND_AS_ALICE, args: { ...APPEND_AS_ALICE.args, summary: 'x'.repeat(10 * 1024 * 1024) } } });
      // Write errors (the server hangs up mid-body) are expected.
      (conn as unknown as { out: net.Socket }).out.on('error', () => undefined);
      conn.send(body);
      expect(await conn.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('message too large') } });
      await conn.closed;
      await healthy();
    });

    test('half a header, then silence: closed after the stall timeout (with an id-null error)', async () => {
      const conn = await RawConn.unix(srv.socket);
      conn.sendRaw('Content-Len');
      expect(await conn.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('incomplete message') } });
      await conn.closed;
      const body = await RawConn.unix(srv.socket);
      body.sendRaw('Content-Length: 100\r\n\r\n{"jsonrpc":');
      expect(await body.next()).toMatchObject({ id: null, error: { code: -32600 } });
      await body.closed;
      await healthy();
    });

    test('a TCP peer that never authenticates is closed after the auth timeout; one that did stays', async () => {
      const started = Date.now();
      const authed = await RawConn.tcp(srv.port);
      expect(await authed.request('authenticate', { token: BOB_TOKEN }, 'a')).toMatchObject({ result: { participant: 'bob' } });
      const conn = await RawConn.tcp(srv.port);
      expect(await conn.request('ping', undefined, 1)).toMatchObject({ result: { pong: true } });
      await conn.closed;
      // Not before the 2 s auth timeout (the server's clock starts after ours).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      // The auth timeout, not the 120 s idle one: that would have closed
      // `authed` first (quiet since before `conn` last spoke). No upper
      // bound on the time: a slow machine may take as long as it needs.
      expect(authed.isClosed).toBe(false);
      expect(await authed.request('ping', undefined, 2)).toMatchObject({ result: { pong: true } });
      authed.close();
    });

    test('1 000 connections opened and dropped: the server stays up and answers others', async () => {
      const openAndDrop = (i: number): Promise<void> =>
        new Promise((resolve) => {
          const socket = i % 2 ? net.connect(srv.port, '127.0.0.1') : net.connect(srv.socket);
          socket.on('error', () => resolve());
          socket.on('close', () => resolve());
          socket.on('connect', () => {
            // Drop some at once, some mid-header, some mid-body, some after a whole request.
            const kind = i % 4;
            if (kind === 1) socket.write('Content-Length: 5');
            if (kind === 2) socket.write('Content-Length: 50\r\n\r\n{"jsonrpc"');
            if (kind === 3) socket.write('Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"ping"}');
            socket.destroy();
          });
        });
      // Earlier tests' peers are closed by the server's own timeouts (stall
      // 300 ms, auth 2 s): wait for them, then the count must see the two
      // held connections (so that it falling to 0 below means something).
      await expect.poll(() => srv.connections(), { timeout: 20_000 }).toBe(0);
      const held = [await RawConn.tcp(srv.port), await RawConn.unix(srv.socket)];
      await expect.poll(() => srv.connections(), { timeout: 10_000 }).toBe(2);
      const all: Promise<void>[] = [];
      for (let i = 0; i < 1000; i++) all.push(openAndDrop(i));
      await Promise.all(all);
      await healthy();
      for (const conn of held) conn.close();
      // Every dropped connection is released (a spawned server: its sockets in /proc/<pid>/fd).
      await expect.poll(() => srv.connections(), { timeout: 10_000 }).toBe(0);
      if (srv.server) expect(srv.server.subscriptionCount).toBe(0);
      await healthy();
    });
  });
}

describe('auth timeout 0', () => {
  test('means never, as for the other timeouts (not: close every TCP peer at once)', async () => {
    const root = await makeRoot(['demo']);
    const srv = await startServerOn('inproc', root, { authTimeoutMs: 0 });
    // The control: a server (in this same event loop) whose peers get 50 ms.
    const control = await startServerOn('inproc', root, { authTimeoutMs: 50 });
    const conn = await RawConn.tcp(srv.port);
    const timed = await RawConn.tcp(control.port);
    // Once the control's timer has fired and closed its peer, a timer of 0
    // armed earlier for `conn` would have fired and closed it too: an event
    // to wait for, not a sleep that a slow machine can outlast.
    await timed.closed;
    expect(conn.isClosed).toBe(false);
    expect(await conn.request('ping', undefined, 1)).toMatchObject({ result: { pong: true } });
    conn.close();
    await control.close();
    await srv.close();
    rmSync(root, { recursive: true, force: true });
  });
});
