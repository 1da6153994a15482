// Request → response vectors for every JSON-RPC 2.0 rule rpc.md requires,
// run over each transport, once per runtime of ACP_RPC_RUNTIMES (npm test:
// in-process and node dist/acp.mjs; test:all adds bun and deno acp.ts, dist/acp): TCP and
// a Unix socket on every runtime, stdio (`serve --stdio`) on every spawned
// one (an in-process server has no stdin of its own). A vector whose
// expectation is `null` must get no reply at all. No test may change the
// folder: each checks that on its own (snapshot at its start, compared at
// its end), so it can fail alone, shuffled or filtered with -t.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ALICE_TOKEN, rpcRuntimes, RawConn, makeRoot, snapshotFolder, spawnServe, startServerOn, type RunningServer } from './rpc/helpers.ts';
import { CLOSING, err, runVectors } from './rpc/vectors.ts';

for (const runtime of rpcRuntimes('node')) {
  describe(`JSON-RPC vectors over each transport (${runtime})`, () => {
    let root: string;
    let srv: RunningServer;
    let before: Record<string, string>;

    beforeAll(async () => {
      root = await makeRoot(['demo']);
      srv = await startServerOn(runtime, root);
    });
    afterAll(async () => {
      await srv?.close();
      rmSync(root, { recursive: true, force: true });
    });
    // One test at a time within a describe: the folder between these hooks is this test's doing.
    beforeEach(() => {
      before = snapshotFolder(root);
    });
    afterEach(() => {
      expect(snapshotFolder(root), 'the folder changed').toEqual(before);
    });

    test('unix socket', async () => {
      const conn = await RawConn.unix(srv.socket);
      await runVectors(conn);
      conn.close();
    });

    test('tcp (after authenticating)', async () => {
      const conn = await RawConn.tcp(srv.port);
      const auth = await conn.request('authenticate', { token: ALICE_TOKEN }, 'auth');
      // The version is the server's own: `test` in-process, the package's when spawned.
      expect(auth.result).toEqual({ participant: 'alice', capabilities: [], server: { agent: 'acp', version: srv.version } });
      await runVectors(conn);
      conn.close();
    });

    if (runtime !== 'inproc') {
      test(`stdio (spawned serve --stdio)`, async () => {
        const served = await spawnServe(['--stdio', '--root', root], { runtime });
        const conn = RawConn.stdio(served.child);
        await runVectors(conn);
        conn.close();
        // stdin closed: the server stops by itself.
        expect(await served.exited, served.stderr()).toBe(0);
      });

      test('stdio: a body over the limit is answered (id null) and the server exits', async () => {
        const served = await spawnServe(['--stdio', '--root', root], { runtime });
        const conn = RawConn.stdio(served.child);
        conn.sendRaw('Content-Length: 99999999\r\n\r\n{');
        expect(await conn.next()).toEqual(err(null, -32600));
        expect(await served.exited, served.stderr()).toBe(0);
      });
    }

    test('other headers are ignored; a utf-8 charset is accepted; another charset is answered -32700 and the stream goes on', async () => {
      const conn = await RawConn.unix(srv.socket);
      const body = '{"jsonrpc":"2.0","id":"ct","method":"ping"}';
      conn.sendRaw(`Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nX-Other: 1\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      expect(await conn.next()).toMatchObject({ id: 'ct', result: { pong: true } });
      conn.sendRaw(`Content-Length: ${body.length}\r\nContent-Type: application/json; charset=latin1\r\n\r\n${body}`);
      expect(await conn.next()).toEqual(err(null, -32700));
      conn.sendRaw(`content-length: ${body.length}\r\n\r\n${body}`);
      expect(await conn.next()).toMatchObject({ id: 'ct', result: { pong: true } });
      conn.close();
    });

    for (const transport of ['unix', 'tcp'] as const) {
      for (const vector of CLOSING) {
        test(`${transport}: ${vector.name} → an error with id null, then the connection closes`, async () => {
          const conn = transport === 'unix' ? await RawConn.unix(srv.socket) : await RawConn.tcp(srv.port);
          conn.sendRaw(vector.bytes);
          expect(await conn.next()).toEqual(err(null, -32600));
          await conn.closed;
          conn.close();
        });
      }
    }

    test('tcp before authenticating: only ping and authenticate; the rest is -32020 (notifications stay unanswered)', async () => {
      const conn = await RawConn.tcp(srv.port);
      expect(await conn.request('ping', undefined, 1)).toMatchObject({ result: { pong: true } });
      for (const method of ['agent/list', 'task/status', 'agent/call', 'agent/subscribe', 'message/send', 'task/create']) {
        expect(await conn.request(method, { task: 'demo' }, method)).toEqual(err(method, -32020));
      }
      conn.send('{"jsonrpc":"2.0","method":"task/cancel","params":{"task":"demo","reason":"x"}}');
      expect(await conn.before()).toEqual([]);
      // An unknown method is still -32601 (it does not exist for anybody).
      expect(await conn.request('no/such', undefined, 2)).toEqual(err(2, -32601));
      conn.close();
    });
  });
}
