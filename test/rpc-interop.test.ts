// Interoperability with a JSON-RPC implementation we did not write:
// vscode-jsonrpc's StreamMessageReader/StreamMessageWriter (the Language
// Server Protocol's own framing) drives `acp serve` — once per runtime of
// ACP_RPC_RUNTIMES (npm test: in-process and deno acp.ts; test:all adds
// node dist/acp.mjs, bun acp.ts and dist/acp: rpc/helpers.ts rpcRuntimes) — and our client library (in this Node process) talks to
// a vscode-jsonrpc server.
import { rmSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ResponseError, StreamMessageReader, StreamMessageWriter, createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import { RpcClient } from '../plugins/rpc/client.ts';
import type { ByteStream } from '../plugins/rpc/peer.ts';
import { ALICE_TOKEN, BOB_TOKEN, rpcRuntimes, makeRoot, startServerOn, type RunningServer } from './rpc/helpers.ts';

const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined, log: () => undefined };

function connect(port: number): Promise<{ connection: MessageConnection; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const connection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket), quiet);
      connection.listen();
      resolve({ connection, socket });
    });
    socket.once('error', reject);
  });
}

for (const runtime of rpcRuntimes('deno')) {
  describe(`vscode-jsonrpc drives acp serve (${runtime})`, () => {
    let root: string;
    let srv: RunningServer;
    beforeAll(async () => {
      root = await makeRoot(['demo']);
      srv = await startServerOn(runtime, root);
    });
    afterAll(async () => {
      await srv?.close();
      rmSync(root, { recursive: true, force: true });
    });

    test('requests, errors, multi-byte text and subscription notifications', async () => {
      const alice = await connect(srv.port);
      const bob = await connect(srv.port);
      expect(await alice.connection.sendRequest('authenticate', { token: ALICE_TOKEN })).toMatchObject({ participant: 'alice' });
      expect(await bob.connection.sendRequest('authenticate', { token: BOB_TOKEN })).toMatchObject({ participant: 'bob' });

      // bob subscribes and collects every pushed event.
      const events: Array<{ event: { seq: number; event: string; summary: string }; state: { waitingFor: string[] }; ready?: boolean }> = [];
      bob.connection.onNotification('agent/event', (params) => void events.push(params));
      const sub = (await bob.connection.sendRequest('agent/subscribe', { task: 'demo', participant: 'bob' })) as { subscription: string; seq: number; ready: boolean };
      expect(sub).toMatchObject({ seq: 1, ready: false });

      // A refusal arrives as a ResponseError with the CLI's exact text.
      const refused = await alice.connection.sendRequest('agent/call', { agent: 'acp', action: 'append', args: { folder: 'demo', event: 'proposal_submitted', summary: 'x', replyTo: 1 } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ResponseError);
      expect((refused as ResponseError<unknown>).code).toBe(-32010);
      expect((refused as ResponseError<unknown>).message).toBe('seq 2: proposal_submitted requires prior primary deliverable_drafted');

      // Multi-byte summary through vscode-jsonrpc's writer, our reader, the core, and back.
      const summary = 'Entwurf fertig — 設計 🎉';
      const appended = (await alice.connection.sendRequest('agent/call', {
        agent: 'acp',
        action: 'append',
        args: { folder: 'demo', event: 'deliverable_drafted', summary, replyTo: 1, doc: 'deliverables/adr.md', role: 'primary' },
      })) as { status: string; data: { event: { seq: number; summary: string } } };
      expect(appended.status).toBe('success');
      expect(appended.data.event).toMatchObject({ seq: 2, summary });

      await expect.poll(() => events.length).toBe(1);
      expect(events[0]).toMatchObject({ event: { seq: 2, event: 'deliverable_drafted', summary }, ready: false });

      const status = (await bob.connection.sendRequest('task/status', { task: 'demo' })) as { lastEvent: { summary: string } };
      expect(status.lastEvent.summary).toBe(summary);

      // Unknown method → vscode-jsonrpc sees -32601.
      const missing = await bob.connection.sendRequest('no/such', {}).catch((e: unknown) => e);
      expect((missing as ResponseError<unknown>).code).toBe(-32601);

      for (const c of [alice, bob]) {
        c.connection.dispose();
        c.socket.destroy();
      }
    });
  });
}

describe('our client talks to a vscode-jsonrpc server', () => {
  test('requests, an error answer and a server notification', async () => {
    const notes: unknown[] = [];
    const server = net.createServer((socket) => {
      const connection = createMessageConnection(new StreamMessageReader(socket), new StreamMessageWriter(socket), quiet);
      connection.onRequest('echo', (params: unknown) => params);
      connection.onRequest('refuse', () => new ResponseError(-32010, 'refused', { message: 'refused' }));
      connection.onRequest('shout', async () => {
        await connection.sendNotification('message/received', { text: 'ünïcødé 🎉' });
        return 'sent';
      });
      connection.listen();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const client = await RpcClient.fromStream(socket as unknown as ByteStream, { heartbeatMs: 0, onMessage: (m) => void notes.push(m) });
    const payload = { text: '日本語 — 🎉', n: [1, 2, 3] };
    expect(await client.call('echo', payload)).toEqual(payload);
    await expect(client.call('refuse')).rejects.toMatchObject({ code: -32010, message: 'refused', data: { message: 'refused' } });
    expect(await client.call('shout')).toBe('sent');
    await expect.poll(() => notes).toEqual([{ text: 'ünïcødé 🎉' }]);
    client.close();
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
});

