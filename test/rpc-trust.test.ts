// Trust boundaries of the RPC server (issue 16, item 2), in process: reads and
// writes go through the CLI's resolved-path check (symlinks leaving the
// folder are refused), and only a running task can be cancelled.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RpcClient } from '../plugins/rpc/client.ts';
import * as acp from '../acp.ts';
import { ALICE_TOKEN, BOB_TOKEN, RawConn, TOKENS, makeRoot, runAcp, snapshotFolder, startServer, tempDir } from './rpc/helpers.ts';

describe('rpc server trust boundaries', () => {
  let root: string;
  let outside: string;
  let srv: Awaited<ReturnType<typeof startServer>>;
  let alice: RpcClient;
  beforeAll(async () => {
    root = await makeRoot(['linked', 'dirlinked', 'finished', 'asbob']);
    outside = tempDir('acp-outside-');
    srv = await startServer(root);
    alice = await RpcClient.connect(`tcp://127.0.0.1:${srv.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
  });
  afterAll(async () => {
    alice?.close();
    await srv?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  test('a proposal.md symlinked to a file outside the root is neither read nor written through', async () => {
    const secret = join(outside, 'secret.txt');
    writeFileSync(secret, 'top secret\n');
    rmSync(join(root, 'linked', 'proposal.md'));
    symlinkSync(secret, join(root, 'linked', 'proposal.md'));
    const read = alice.acp('read', { folder: 'linked', doc: 'proposal.md' });
    await expect(read).rejects.toMatchObject({ code: -32010, message: expect.stringContaining('resolves outside') });
    const write = alice.acp('write', { folder: 'linked', doc: 'proposal.md', content: 'overwritten\n' });
    await expect(write).rejects.toMatchObject({ code: -32010 });
    expect(readFileSync(secret, 'utf8')).toBe('top secret\n');
  });

  test('a deliverables/ symlinked to a directory outside the root is not written into', async () => {
    const folder = join(root, 'dirlinked');
    rmSync(join(folder, 'deliverables'), { recursive: true, force: true });
    mkdirSync(join(outside, 'elsewhere'));
    symlinkSync(join(outside, 'elsewhere'), join(folder, 'deliverables'));
    const write = alice.acp('write', { folder: 'dirlinked', doc: 'deliverables/adr.md', content: '# planted\n' });
    await expect(write).rejects.toMatchObject({ code: -32010, message: expect.stringContaining('resolves outside') });
    expect(existsSync(join(outside, 'elsewhere', 'adr.md'))).toBe(false);
    await expect(alice.acp('read', { folder: 'dirlinked', doc: 'deliverables/adr.md' })).rejects.toMatchObject({ code: -32010 });
  });

  test('task/cancel only cancels a running task; a finished one is refused with -32004 and left as it was', async () => {
    const cancelled = (await alice.call('task/cancel', { task: 'finished', reason: 'Priorities changed.' })) as Record<string, unknown>;
    expect(cancelled).toMatchObject({ phase: 'blocked' });
    const before = snapshotFolder(join(root, 'finished'));
    const again = alice.call('task/cancel', { task: 'finished', reason: 'Again.' });
    await expect(again).rejects.toMatchObject({ code: -32004, message: "task 'finished' is not running (phase: blocked); only a running task can be cancelled", data: { task: 'finished', phase: 'blocked' } });
    expect(snapshotFolder(join(root, 'finished'))).toEqual(before);
  });

  test("repoRoot over RPC never leads into another task: the issue's evil2 planting is refused", async () => {
    const before = snapshotFolder(join(root, 'linked'));
    const evil = alice.call('task/create', {
      task: 'evil2', participant: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryDeliverableType: 'adr',
      deliverablesMode: 'external', repoRoot: '..', deliverablesDir: 'linked', primaryDeliverableFile: 'planted.md',
    });
    await expect(evil).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("another task's folder") });
    expect(existsSync(join(root, 'evil2', 'protocol.json'))).toBe(false);
    expect(snapshotFolder(join(root, 'linked'))).toEqual(before);
  });

  test('repoRoot over RPC must lie in a directory the server config allows (none by default)', async () => {
    const repo = join(outside, 'repo');
    mkdirSync(repo);
    const create = (client: RpcClient, task: string, repoRoot: string) =>
      client.call('task/create', { task, participant: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryDeliverableType: 'adr', deliverablesMode: 'external', repoRoot: relative(join(root, task), repoRoot), deliverablesDir: 'docs' });
    await expect(create(alice, 'ext1', repo)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('none configured') });
    const allowing = await startServer(root, { repoRoots: [repo] });
    const client = await RpcClient.connect(`tcp://127.0.0.1:${allowing.port}`, { token: ALICE_TOKEN, heartbeatMs: 0 });
    try {
      await expect(create(client, 'ext2', repo)).resolves.toMatchObject({ task: 'ext2', ok: true });
      await expect(create(client, 'ext3', outside)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(`inside ${repo}`) });
    } finally {
      client.close();
      await allowing.close();
    }
  });

  test('acp rpc --participant bob wins over ACP_TOKEN from the environment (alice\'s)', async () => {
    const r = await runAcp(['rpc', 'task/cancel', '{"task":"asbob","reason":"Bob stops it."}', '--server', `unix:${srv.socket}`, '--participant', 'bob'], { env: { ACP_TOKEN: ALICE_TOKEN } });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ event: { from: 'bob', event: 'blocked' } });
  });

  test('isolation: carol (task "other" only) cannot reach bob, as if he did not exist, unless the config sets crossTask', async () => {
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry({ builtIns: true });
    await acp.init(host, join(root, 'other'), { participants: ['carol', 'dave'], objective: 'Other', completion: ['Done'], primaryType: 'adr' }, registry);
    const CAROL = 'carol-token-0123456789';
    for (const crossTask of [false, true]) {
      const server = await startServer(root, { tokens: { ...TOKENS, [CAROL]: 'carol' }, crossTask });
      const endpoint = `tcp://127.0.0.1:${server.port}`;
      const calls: unknown[] = [];
      const inbox: unknown[] = [];
      const bob = await RpcClient.connect(endpoint, { token: BOB_TOKEN, heartbeatMs: 0, capabilities: ['review'], onMessage: (m) => void inbox.push(m), onCall: async (c) => (calls.push(c), { ok: true }) });
      const carol = await RpcClient.connect(endpoint, { token: CAROL, heartbeatMs: 0 });
      try {
        const attempts = [
          carol.call('agent/call', { agent: 'bob', action: 'review', args: {} }),
          carol.call('message/send', { to: 'bob', text: 'hi' }),
          carol.call('agent/info', { agent: 'bob' }),
        ];
        if (!crossTask) {
          const settled = await Promise.allSettled(attempts);
          for (const outcome of settled) expect(outcome).toMatchObject({ status: 'rejected', reason: { code: -32000, message: "agent 'bob' not found" } });
          expect({ calls, inbox }).toEqual({ calls: [], inbox: [] });
        } else {
          await Promise.all(attempts);
          expect(calls).toHaveLength(1);
          expect(inbox).toHaveLength(1);
        }
      } finally {
        bob.close();
        carol.close();
        await server.close();
      }
    }
  });

  test('a forwarded call is cancelled by $/cancelRequest, notifications/cancelled or a disconnect: the callee is told, its slot freed', async () => {
    const callee = await RawConn.unix(srv.socket);
    expect(await callee.request('authenticate', { participant: 'bob', capabilities: ['review'] })).toMatchObject({ result: { participant: 'bob' } });
    const isCall = (m: unknown): m is { id: number; method: string; params: { args: { k: unknown } } } => (m as { method?: string }).method === 'agent/call';
    const ways = [
      { name: '$/cancelRequest', cancel: (c: RawConn, id: string) => c.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }) },
      { name: 'notifications/cancelled', cancel: (c: RawConn, id: string) => c.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }) },
      { name: 'disconnect', cancel: (c: RawConn) => c.close() },
    ];
    for (const [k, way] of ways.entries()) {
      const caller = await RawConn.unix(srv.socket);
      await caller.request('authenticate', { participant: 'alice' });
      const id = `call-${k}`;
      caller.send({ jsonrpc: '2.0', id, method: 'agent/call', params: { agent: 'bob', action: 'review', args: { k } } });
      const forwarded = (await callee.waitFor((m) => isCall(m) && m.params.args.k === k)) as { id: number };
      way.cancel(caller, id);
      const told = (await callee.waitFor((m) => (m as { method?: string }).method === '$/cancelRequest' && (m as { params: { id: number } }).params.id === forwarded.id)) as object;
      expect(told, way.name).toBeDefined();
      if (way.name !== 'disconnect') {
        expect(await caller.waitFor((m) => (m as { id?: string }).id === id)).toMatchObject({ error: { code: -32800 } });
        caller.close();
      }
    }
    // Not busy any more: a new call reaches bob (not -32001).
    const next = await RawConn.unix(srv.socket);
    await next.request('authenticate', { participant: 'alice' });
    next.send({ jsonrpc: '2.0', id: 'after', method: 'agent/call', params: { agent: 'bob', action: 'review', args: { k: 'after' } } });
    const reached = (await callee.waitFor((m) => isCall(m) && m.params.args.k === 'after')) as { id: number };
    callee.send({ jsonrpc: '2.0', id: reached.id, result: { ok: true } });
    expect(await next.waitFor((m) => (m as { id?: string }).id === 'after')).toMatchObject({ result: { status: 'success', data: { ok: true } } });
    next.close();
    callee.close();
  });

  test("a deleted task's subscribers are told it was deleted (not its old state as new), and the subscription ends", async () => {
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry({ builtIns: true });
    await acp.init(host, join(root, 'doomed'), { participants: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryType: 'adr' }, registry);
    const conn = await RawConn.unix(srv.socket);
    await conn.request('authenticate', { participant: 'alice' });
    const sub = (await conn.request('agent/subscribe', { task: 'doomed', participant: 'alice' })) as { result: { subscription: string } };
    rmSync(join(root, 'doomed'), { recursive: true, force: true });
    const told = await conn.waitFor((m) => typeof (m as { method?: string }).method === 'string' && (m as { method: string }).method !== 'ping', 15_000);
    expect(told).toEqual({ jsonrpc: '2.0', method: 'task/deleted', params: { subscription: sub.result.subscription, task: 'doomed', deleted: true } });
    expect(await conn.request('agent/unsubscribe', { subscription: sub.result.subscription })).toMatchObject({ error: { code: -32602 } });
    conn.close();
  });
});

describe('TLS for the TCP listener', () => {
  test('a self-signed certificate: the client verifies it with the CA option, refuses it without, and plain TCP gets nowhere', async () => {
    const dir = tempDir('acp-tls-');
    const [cert, key] = [join(dir, 'server.crt'), join(dir, 'server.key')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    const root = await makeRoot(['demo']);
    const tlsServer = new (await import('../plugins/rpc/server.ts')).RpcServer({ core: acp, host: await acp.createNodeHost(), registry: await acp.createRegistry({ builtIns: true }), root, tokens: { ...TOKENS }, version: 'test' });
    try {
      const { port } = await tlsServer.listenTcp('127.0.0.1', 0, { tls: { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') } });
      expect(tlsServer.endpoints).toMatchObject({ tls: true });
      const client = await RpcClient.connect(`tls://127.0.0.1:${port}`, { token: ALICE_TOKEN, heartbeatMs: 0, reconnect: false, ca: readFileSync(cert, 'utf8') });
      expect(await client.call('task/status', { task: 'demo' })).toMatchObject({ task: 'demo', phase: 'drafting' });
      client.close();
      // Not trusted without the CA: the handshake fails, no token is sent.
      await expect(RpcClient.connect(`tls://127.0.0.1:${port}`, { token: ALICE_TOKEN, heartbeatMs: 0, reconnect: false, maxAttempts: 1 })).rejects.toThrow(/self.signed|certificate/i);
      // A plain-TCP client cannot talk to the TLS listener.
      await expect(RpcClient.connect(`tcp://127.0.0.1:${port}`, { token: ALICE_TOKEN, heartbeatMs: 0, reconnect: false, maxAttempts: 1, requestTimeoutMs: 3000 })).rejects.toThrow();
    } finally {
      await tlsServer.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
