// The doors (issue 39): what each server and the library hand a client.
// JSON-RPC: `freeze` is an action of agent `acp`, and no method's result or
// error names the server's absolute root (every method of the server's own
// table is called; on every runtime of ACP_RPC_RUNTIMES, in-process in
// `npm test`). MCP: an empty `doc` writes what the CLI writes (no key),
// arguments that do not fit a tool's schema are a tool error an agent can act
// on, and unreadable lines get JSON-RPC's -32700 / -32600. The library: a
// host given as a Promise works, a non-host and the CLI's option names are
// refused by name, and docs/embedding.md names the file package.json exports.
// One helper per job: the dashboard, the MCP resources and the JSON-RPC tasks
// list collaborations with the core's findCollaborations, and MCP and
// JSON-RPC read and write documents with the core's one reader and writer.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { Board } from '../plugins/humans/dashboard/board.ts';
import { createMcpServer, serveMcp } from '../plugins/mcp/server.ts';
import { FROZEN_SHA256, INIT, OWNER, PRIMARY, STEPS } from './happy-path.ts';
import { LOCAL_BIN } from './conformance/replay.ts';
import { ALICE_TOKEN, RawConn, makeRoot, rpcRuntimes, startServerOn, type RunningServer } from './rpc/helpers.ts';
import { runtimesOfRun } from './runtime-matrix.ts';

const REPO = join(import.meta.dirname, '..');

/** Drive a folder through the happy path with the library, up to (not including) step `stop`. */
async function driveTo(folder: string, stop: number): Promise<void> {
  const host = await acp.createNodeHost();
  const registry = await acp.createRegistry();
  await acp.init(host, folder, INIT, registry);
  for (const step of STEPS.slice(0, stop)) {
    for (const [doc, content] of Object.entries(step.files)) writeFileSync(join(folder, doc), content);
    await acp.append(host, folder, step.event, registry);
  }
}

/** An MCP client of an in-process server over `root`, as `acp mcp` builds it. */
async function mcpClient(registry: acp.Registry, root: string): Promise<Client> {
  const server = createMcpServer({ core: acp, host: await acp.createNodeHost(), registry, root, version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'doors', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

const FREEZE_STEP = STEPS.findIndex((step) => step.event.event === 'deliverable_frozen');

for (const runtime of rpcRuntimes()) {
  describe(`JSON-RPC door (${runtime})`, () => {
    let root: string;
    let srv: RunningServer;
    beforeAll(async () => {
      root = realpathSync(await makeRoot(['demo', 'broken']));
      await driveTo(join(root, 'spec'), FREEZE_STEP);
      // A folder whose protocol.json cannot be read: its refusal quotes the file.
      writeFileSync(join(root, 'broken', 'protocol.json'), '{ not json');
      srv = await startServerOn(runtime, root);
    });
    afterAll(async () => {
      await srv?.close();
      rmSync(root, { recursive: true, force: true });
    });

    async function alice(): Promise<RawConn> {
      const conn = await RawConn.tcp(srv.port);
      expect(await conn.request('authenticate', { token: ALICE_TOKEN })).toHaveProperty('result');
      return conn;
    }

    test('freeze is an action of agent acp: Status: Frozen, the hash and the event in one call', async () => {
      const conn = await alice();
      const info = (await conn.request('agent/info', { agent: 'acp' })) as { result: { capabilities: string[] } };
      expect(info.result.capabilities).toContain('freeze');
      const reply = (await conn.request('agent/call', { agent: 'acp', action: 'freeze', args: { folder: 'spec', summary: 'freeze' } })) as { result?: { data: Record<string, unknown> }; error?: unknown };
      expect(reply.error).toBeUndefined();
      expect(reply.result!.data).toMatchObject({ seq: FREEZE_STEP + 2, sha256: FROZEN_SHA256 });
      const last = JSON.parse(readFileSync(join(root, 'spec', 'events.jsonl'), 'utf8').trim().split('\n').at(-1)!);
      expect(last).toMatchObject({ from: OWNER, event: 'deliverable_frozen', doc: PRIMARY, role: 'primary', sha256: FROZEN_SHA256 });
      conn.close();
    });

    test('no method names the server root in a result or an error', async () => {
      const conn = await alice();
      const call = (action: string, args: Record<string, unknown>) => ['agent/call', { agent: 'acp', action, args }] as const;
      const calls: Array<readonly [string, unknown]> = [
        ['ping', undefined],
        ['authenticate', { token: ALICE_TOKEN }],
        ['agent/list', undefined],
        ['agent/info', { agent: 'acp' }],
        call('init', { folder: 'made', participant: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryDeliverableType: 'adr' }),
        call('init', { folder: 'made', participant: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryDeliverableType: 'adr' }),
        call('append', { folder: 'demo', event: 'deliverable_drafted', summary: 's', replyTo: 1, doc: 'deliverables/adr.md', role: 'primary' }),
        call('append', { folder: 'broken', event: 'blocked', summary: 's', replyTo: 1 }),
        call('next', { folder: 'demo' }),
        call('validate', { folder: 'demo' }),
        call('validate', { folder: 'broken' }),
        call('status', { folder: 'demo' }),
        call('types', {}),
        call('doctor', { folder: 'demo' }),
        call('freeze', { folder: 'demo' }),
        call('read', { folder: 'demo', doc: 'proposal.md' }),
        call('write', { folder: 'demo', doc: 'review.md', content: 'x\n' }),
        ['agent/subscribe', { task: 'demo' }],
        ['agent/unsubscribe', { subscription: 'none' }],
        ['$/cancelRequest', { id: 'none' }],
        ['notifications/cancelled', { requestId: 'none' }],
        ['task/create', { task: 'fresh', participant: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryDeliverableType: 'adr' }],
        ['task/create', { task: 'fresh', participant: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryDeliverableType: 'adr' }],
        ['task/status', { task: 'demo' }],
        ['task/status', { task: 'broken' }],
        ['task/result', { task: 'demo' }],
        ['task/cancel', { task: 'made', reason: 'r' }],
        ['message/send', { to: 'alice', text: 'hi' }],
        ['message/broadcast', { task: 'demo', text: 'hi' }],
      ];
      const replies: string[] = [];
      for (const [method, params] of calls) replies.push(JSON.stringify(await conn.request(method, params)));
      for (const [index, reply] of replies.entries()) expect(reply, JSON.stringify(calls[index])).not.toContain(root);
      // task/create names the folder as the client named it.
      expect(JSON.parse(replies[21]!).result).toMatchObject({ task: 'fresh', folder: 'fresh', created: true });
      if (srv.server) {
        // Every method the server has was called above.
        const methods = Object.keys((srv.server as unknown as { methods: Record<string, unknown> }).methods).sort();
        expect([...new Set(calls.map(([method]) => method))].sort()).toEqual(methods);
      }
      conn.close();
    });
  });
}

describe('MCP door', () => {
  let root: string;
  let client: Client;
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-mcp-')));
    const server = createMcpServer({ core: acp, host: await acp.createNodeHost(), registry: await acp.createRegistry({ builtIns: true }), root, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'doors', version: '1.0.0' });
    await client.connect(clientSide);
  });
  afterAll(async () => {
    await client?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; structured: unknown }> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''), isError: result.isError === true, structured: result.structuredContent };
  }

  test('append with doc "" and sha256 "" writes what the CLI writes: no key', async () => {
    await call('init', { folder: 'empty', participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const r = await call('append', { folder: 'empty', participant: 'alice', event: 'blocked', summary: 'stop', reply_to: 1, doc: '', sha256: '' });
    expect(r.isError, r.text).toBe(false);
    const last = JSON.parse(readFileSync(join(root, 'empty', 'events.jsonl'), 'utf8').trim().split('\n').at(-1)!);
    expect(Object.keys(last)).toEqual(['seq', 'from', 'event', 'at', 'summary', 'reply_to']);
  });

  test('arguments the one check refuses are a tool error in the CLI\'s words; nothing is written', async () => {
    await call('init', { folder: 'args', participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const log = readFileSync(join(root, 'args', 'events.jsonl'), 'utf8');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ participant: 'alice', event: 'blocked', summary: 's', reply_to: 'one' }, "error: argument --reply-to: invalid int value: 'one'"],
      [{ event: 'blocked', summary: 's', reply_to: 1 }, 'error: the following arguments are required: --participant'],
      [{ participant: 'alice', event: 'blocked', summary: 's', reply_to: 1.5 }, "error: argument --reply-to: invalid int value: '1.5'"],
      [{ participant: 'alice', event: 'blocked', summary: 's', reply_to: 1, colour: 'red' }, 'error: unrecognized arguments: colour'],
      [{ participant: 'alice', event: 'blocked', summary: 's', replyTo: 1 }, 'error: unrecognized arguments: replyTo (did you mean reply_to?)'],
    ];
    for (const [args, line] of cases) {
      const r = await call('append', { folder: 'args', ...args });
      expect(r).toMatchObject({ isError: true, text: line, structured: { ok: false, code: 'usage', exitCode: 2 } });
    }
    expect(readFileSync(join(root, 'args', 'events.jsonl'), 'utf8')).toBe(log);
    // A tool the server does not have stays a protocol error.
    await expect(client.callTool({ name: 'rm_rf', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  test("wait that runs out of time: a tool error in wait's own words, its --json object beside; a seconds value may be a string the CLI reads", async () => {
    await call('init', { folder: 'late', participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const r = await call('wait', { folder: 'late', participant: 'bob', timeout_seconds: '0.05' });
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(/^timeout: /), structured: { ok: false, exitCode: 1, timeout: true } });
    expect(await call('wait', { folder: 'late', participant: 'bob', timeout_seconds: 'soon' })).toMatchObject({ isError: true, text: "error: argument --timeout: invalid float value: 'soon'" });
  });

  test('stdio: a line that is not JSON gets -32700, JSON that is not JSON-RPC -32600; the server keeps serving', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const controller = new AbortController();
    const served = serveMcp({ core: acp, host: await acp.createNodeHost(), registry: await acp.createRegistry(), root, version: 'test', stdin, stdout, signal: controller.signal });
    const lines: Array<Record<string, unknown>> = [];
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
        lines.push(JSON.parse(buffered.slice(0, at)) as Record<string, unknown>);
        buffered = buffered.slice(at + 1);
      }
    });
    stdin.write('{"jsonrpc": "2.0", "id": 1, "method": \n');
    stdin.write('{"hello": "world"}\n');
    stdin.write('{"jsonrpc":"2.0","id":7,"method":"ping"}\n');
    await expect.poll(() => lines.length).toBe(3);
    expect(lines[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(lines[1]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(lines[2]).toMatchObject({ jsonrpc: '2.0', id: 7, result: {} });
    controller.abort();
    await served;
  });
});

describe('library door', () => {
  let dir: string;
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-lib-')));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('openCollaboration takes createNodeHost() un-awaited; a value that is not a host is refused by name', async () => {
    const collab = await acp.openCollaboration(join(dir, 'promised'), { host: acp.createNodeHost() });
    await collab.init(INIT);
    expect((await collab.state()).phase).toBe('drafting');
    const refused = await acp.openCollaboration(join(dir, 'nothost'), { host: {} as acp.Host }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(acp.AcpError);
    expect(refused).toMatchObject({ code: 'usage', message: expect.stringMatching(/^options\.host is not a Host \(it has no fs, resolvePath, now\): pass `await createNodeHost\(\)`/) });
  });

  test("init refuses the CLI's option names by name, with the library's", async () => {
    const collab = await acp.openCollaboration(join(dir, 'named'), { host: acp.createMemoryHost() });
    const request = { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryDeliverableType: 'adr' } as unknown as acp.InitRequest;
    await expect(collab.init(request)).rejects.toMatchObject({ code: 'usage', message: 'unrecognized arguments: primaryDeliverableType (did you mean primaryType?)' });
    await expect(collab.init({ ...INIT, colour: 'red' } as acp.InitRequest)).rejects.toMatchObject({ code: 'usage', message: 'unrecognized arguments: colour' });
  });

  test('docs/embedding.md names the file package.json exports as the library', () => {
    const exported = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { exports: { '.': { default: string } } }).exports['.'].default.replace(/^\.\//, '');
    const page = readFileSync(join(REPO, 'docs', 'embedding.md'), 'utf8');
    expect(page).toContain(`ships it as \`${exported}\``);
    expect(page).not.toMatch(/library[^.]*dist\/acp\.mjs|ships it as `dist\/acp\.mjs`|by path \(`dist\/acp\.mjs`/);
  });
});

describe('the one table: each door exposes the commands whose spec lists it', () => {
  test('JSON-RPC agent acp and the MCP tools are the commands with doors.rpc / doors.mcp, plus their document and status actions', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-table-')));
    const registry = await acp.createRegistry({ builtIns: true });
    const commands = [...registry.commands.values()].map((command) => command.spec);
    const rpcCommands = commands.filter((spec) => spec.doors?.rpc).map((spec) => spec.name);
    const mcpTools = commands.filter((spec) => spec.doors?.mcp).map((spec) => spec.doors!.mcp!);
    expect(rpcCommands).toEqual(['init', 'append', 'next', 'validate', 'types', 'doctor', 'freeze']);
    expect(mcpTools.sort()).toEqual(['append', 'freeze', 'init', 'validate', 'wait']);
    const srv = await startServerOn('inproc', root);
    const mcpServer = createMcpServer({ core: acp, host: await acp.createNodeHost(), registry, root, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer.connect(serverSide);
    const client = new Client({ name: 'table', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const conn = await RawConn.unix(srv.socket);
      const info = (await conn.request('agent/info', { agent: 'acp' })) as { result: { capabilities: string[] } };
      expect(info.result.capabilities).toEqual([...rpcCommands, 'status', 'read', 'write']);
      conn.close();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...mcpTools, 'read_document', 'status', 'write_document'].sort());
    } finally {
      await client.close();
      await srv.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the one table: MCP inputSchemas are derived from the commands\' options', () => {
  test("each command tool lists its command's options as MCP names them: type, help text, choices, required, MCP's default", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-schema-')));
    const registry = await acp.createRegistry({ builtIns: true });
    const client = await mcpClient(registry, root);
    try {
      const { tools } = await client.listTools();
      const schema = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema as unknown as acp.JsonObjectSchema;
      const append = registry.commands.get('append')!.spec.options!;
      expect(schema('append')).toEqual({
        type: 'object',
        properties: {
          folder: { type: 'string', description: append.folder!.description },
          participant: { type: 'string', description: append.participant!.description },
          event: { type: 'string', enum: [...acp.EVENT_NAMES].sort(), description: append.event!.description },
          summary: { type: 'string', description: append.summary!.description },
          doc: { type: 'string', description: append.doc!.description },
          reply_to: { type: 'integer', description: append['reply-to']!.description },
          role: { type: 'string', enum: ['primary', 'supporting'], description: append.role!.description },
          sha256: { type: 'string', description: append.sha256!.description },
        },
        required: ['folder', 'participant', 'event', 'summary'],
        additionalProperties: false,
      });
      // The published argument names stay (docs/agents.md): init's lists under plural names, wait's timeout in seconds with MCP's default.
      expect(Object.keys(schema('init').properties)).toEqual([
        'folder', 'participants', 'objective', 'completion', 'primary_deliverable_type', 'primary_deliverable_file', 'primary_deliverable_checks',
        'deliverables_mode', 'deliverables_dir', 'repo_root', 'resume', 'sign', 'signing_policy',
      ]);
      expect(schema('init').properties.participants).toMatchObject({ type: 'array', items: { type: 'string' } });
      expect(schema('wait').properties).toEqual({
        folder: expect.any(Object),
        participant: expect.any(Object),
        timeout_seconds: { type: 'number', minimum: 0, default: 300, description: registry.commands.get('wait')!.spec.options!.timeout!.description },
      });
      expect(Object.keys(schema('validate').properties)).toEqual(['folder']);
      expect(Object.keys(schema('freeze').properties)).toEqual(['folder', 'participant', 'doc', 'summary']);
      for (const name of ['init', 'append', 'wait', 'validate', 'freeze']) expect(schema(name), name).toEqual(acp.doorSchema(registry.commands.get(name)!.spec.options, 'mcp'));
    } finally {
      await client.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("a plugin's new option of append appears in the MCP tool and reaches the command, with nothing in the server changed", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-option-')));
    const seen: unknown[] = [];
    const ticket = acp.definePlugin({
      name: 'ticket',
      commands: [{ name: 'append', extend: true, description: 'append with a ticket', options: { ticket: { type: 'string', description: 'The tracker ticket this event closes' } }, run: (ctx) => (seen.push(ctx.options.ticket), ctx.next()) }],
    });
    const registry = await acp.createRegistry({ builtIns: true, plugins: [ticket] });
    await acp.init(await acp.createNodeHost(), join(root, 'c'), { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, registry);
    const client = await mcpClient(registry, root);
    try {
      const { tools } = await client.listTools();
      expect((tools.find((tool) => tool.name === 'append')!.inputSchema.properties as Record<string, unknown>).ticket).toEqual({ type: 'string', description: 'The tracker ticket this event closes' });
      const result = (await client.callTool({ name: 'append', arguments: { folder: 'c', participant: 'alice', event: 'blocked', summary: 'stop', reply_to: 1, ticket: 'T-7' } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(seen).toEqual(['T-7']);
    } finally {
      await client.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('one helper per job, the same in every door', () => {
  let root: string;
  let srv: RunningServer;
  let mcp: Client;
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-one-')));
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry();
    const init = (folder: string) => acp.init(host, join(root, folder), { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, registry);
    // Found: a, x/b, x/y/c. Not: too deep, hidden, node_modules, inside a collaboration, behind a symlink.
    for (const folder of ['a', 'x/b', 'x/y/c', 'x/y/z/deep', '.hidden/d', 'node_modules/e', 'a/deliverables/nested', 'mcp', 'rpc']) await init(folder);
    symlinkSync(join(root, 'x'), join(root, 'link'));
    srv = await startServerOn('inproc', root);
    const server = createMcpServer({ core: acp, host, registry, root, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    mcp = new Client({ name: 'one', version: '1.0.0' });
    await mcp.connect(clientSide);
  });
  afterAll(async () => {
    await mcp?.close();
    await srv?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('findCollaborations: the dashboard and the MCP resources list the same folders, the JSON-RPC tasks the ones directly under the root', async () => {
    const expected = ['a', 'mcp', 'rpc', 'x/b', 'x/y/c'];
    expect((await acp.findCollaborations(await acp.createNodeHost(), root)).folders.map((folder) => folder.slice(root.length + 1))).toEqual(expected);
    const { resources } = await mcp.listResources();
    const viaMcp = [...new Set(resources.filter((r) => r.uri.endsWith('/protocol.json')).map((r) => decodeURIComponent(r.uri.slice('acp://collab/'.length, -'/protocol.json'.length))))].sort();
    expect(viaMcp).toEqual(expected);
    const stop = new AbortController();
    const board = new Board({ api: acp, host: await acp.createNodeHost(), registry: await acp.createRegistry() }, root, stop.signal);
    await board.start();
    expect(board.list().map((entry) => entry.id)).toEqual(expected);
    stop.abort();
    const conn = await RawConn.unix(srv.socket);
    const list = (await conn.request('agent/list')) as { result: { agents: Array<{ agent: string; collaborations?: Array<{ task: string }> }> } };
    expect([...new Set(list.result.agents.flatMap((agent) => agent.collaborations ?? []).map((c) => c.task))].sort()).toEqual(['a', 'mcp', 'rpc']);
    conn.close();
  });

  test('documents: MCP and JSON-RPC accept, refuse and write the same, with one decoding', async () => {
    const crlf = 'first\r\nsecond\r\n';
    for (const folder of ['mcp', 'rpc']) {
      writeFileSync(join(root, folder, 'review.md'), crlf);
      mkdirSync(join(root, folder, 'notes'));
      writeFileSync(join(root, folder, 'notes', 'extra.md'), 'extra\n');
    }
    const conn = await RawConn.unix(srv.socket);
    const viaRpc = async (action: 'read' | 'write', args: Record<string, unknown>): Promise<string> => {
      const reply = (await conn.request('agent/call', { agent: 'acp', action, args: { folder: 'rpc', ...args } })) as { result?: { data: { content?: string } }; error?: { message: string } };
      return reply.error ? `refused: ${reply.error.message}` : action === 'read' ? reply.result!.data.content! : 'ok';
    };
    const viaMcp = async (action: 'read' | 'write', args: Record<string, unknown>): Promise<string> => {
      const result = (await mcp.callTool({ name: `${action}_document`, arguments: { folder: 'mcp', ...args } })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      return result.isError ? `refused: ${text.replace(/^error: /, '')}` : action === 'read' ? text : 'ok';
    };
    const cases: Array<['read' | 'write', Record<string, unknown>]> = [
      ['read', { doc: 'notes/extra.md' }],
      ['read', { doc: 'review.md' }],
      ['read', { doc: '../a/proposal.md' }],
      ['read', { doc: 'missing.md' }],
      ['write', { doc: 'README.md', content: 'readme\n' }],
      ['write', { doc: 'protocol.json', content: '{}' }],
      ['write', { doc: 'notes/extra.md', content: 'x' }],
      ['write', { doc: 'review.md', content: 'third\n', append: true }],
      ['write', { doc: 'proposal.md', content: 'x'.repeat(1024 * 1024 + 1) }],
    ];
    for (const [action, args] of cases) expect(await viaRpc(action, args), `${action} ${String(args.doc)}`).toBe(await viaMcp(action, args));
    for (const doc of ['README.md', 'review.md', 'proposal.md']) expect(readFileSync(join(root, 'rpc', doc), 'utf8'), doc).toBe(readFileSync(join(root, 'mcp', doc), 'utf8'));
    expect(readFileSync(join(root, 'rpc', 'review.md'), 'utf8')).toBe('first\nsecond\nthird\n');
    conn.close();
  });
});

describe('MCP door over a real stdio, spawned (npm test: node; ACP_FULL=1: node, bun, deno, the binary)', () => {
  const ACP = join(REPO, 'dist', 'acp.mjs');
  const runtimes: Record<string, [string, string[]]> = {
    node: [process.execPath, [ACP]],
    bun: [join(LOCAL_BIN, 'bun'), [ACP]],
    deno: [join(LOCAL_BIN, 'deno'), ['run', '--no-prompt', '--quiet', '--allow-read=ROOT', '--allow-write=ROOT', ACP, '--no-config']],
    binary: [join(REPO, 'dist', 'acp'), []],
  };
  for (const name of runtimesOfRun(Object.keys(runtimes), ['node'])) {
    test(`${name}: a line that is not JSON gets -32700 and the server keeps serving`, async () => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-stdio-')));
      const [command, prefix] = runtimes[name]!;
      const child = spawn(command, [...prefix.map((arg) => arg.replace('ROOT', root)), 'mcp', '--root', root], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
      try {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString('utf8')));
        child.stdin.write('not json\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
        await expect.poll(() => out.split('\n').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
        const [first, second] = out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(first).toMatchObject({ id: null, error: { code: -32700 } });
        expect(second).toMatchObject({ id: 3, result: {} });
      } finally {
        child.kill();
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});

describe('doors × commands × inputs: every door reads the same request the same way, in the same words', () => {
  /** A request in neutral form: option names as the CLI spells them (kebab-case), values as typed. */
  type Request = Record<string, string | number | string[] | boolean>;
  /** Inputs every door can be given: each refused by all four in the same words (the CLI's, `error: ` and each door's envelope aside). */
  const BAD: Array<[command: 'append' | 'init' | 'freeze', request: Request, words: string | RegExp]> = [
    ['append', { participant: 'alice', event: 'blocked', summary: 's', 'reply-to': 'one' }, "argument --reply-to: invalid int value: 'one'"],
    ['append', { participant: 'alice', event: 'blocked', summary: 's', 'reply-to': 1.5 }, "argument --reply-to: invalid int value: '1.5'"],
    ['append', { participant: 'alice', event: 'nope', summary: 's', 'reply-to': 1 }, /^argument --event: invalid choice: 'nope' \(choose from 'blocked', 'completed', /],
    ['append', { participant: 'alice', event: 'blocked', summary: 's', 'reply-to': 1, role: 'x' }, "argument --role: invalid choice: 'x' (choose from 'primary', 'supporting')"],
    ['append', { participant: 'alice', event: 'blocked', 'reply-to': 1 }, 'the following arguments are required: --summary'],
    ['append', { participant: 'alice', event: 'blocked', summary: 's', 'reply-to': 99 }, 'reply_to must point to an existing event'],
    ['append', { participant: 'mallory', event: 'blocked', summary: 's', 'reply-to': 1 }, "participant 'mallory' is not listed in protocol.json"],
    ['append', { participant: 'alice', event: 'completed', summary: 's', 'reply-to': 1, doc: 'conclusion.md' }, 'seq 2: completed requires a prior readiness_passed event'],
    ['init', { participant: ['alice'], objective: 'o', completion: ['g'], 'primary-deliverable-type': 'adr' }, 'at least two non-blank --participant values are required'],
    ['init', { participant: ['alice', 'bob'], completion: ['g'], 'primary-deliverable-type': 'adr' }, '--objective must not be blank'],
    ['init', { participant: ['alice', 'bob'], objective: 'o', completion: ['g'], 'primary-deliverable-type': 'nope' }, /^argument --primary-deliverable-type: invalid choice: 'nope' \(choose from 'adr', /],
    ['init', { participant: ['alice', 'bob'], objective: 'o', completion: ['g'], 'primary-deliverable-type': 'adr', 'deliverables-mode': 'sideways' }, "argument --deliverables-mode: invalid choice: 'sideways' (choose from 'internal', 'external')"],
    ['freeze', { participant: 'alice' }, /^seq 2: deliverable_frozen is not allowed from phase drafting/],
    ['freeze', { participant: 'mallory' }, "participant 'mallory' is not listed in protocol.json"],
  ];
  /** JSON values the command line cannot spell: the three JSON doors refuse each in the same words. */
  const JSON_ONLY: Array<[command: 'append' | 'init', request: Record<string, unknown>, words: string]> = [
    ['append', { participant: 'alice', event: 'blocked', summary: 's', 'reply-to': 1, colour: 'red' }, 'unrecognized arguments: colour'],
    ['append', { participant: 'alice', event: 'blocked', summary: 3, 'reply-to': 1 }, 'argument --summary: expected a string, got 3'],
    ['append', { participant: 'alice', event: 'blocked', summary: 's', 'reply-to': true }, 'argument --reply-to: invalid int value: true'],
    ['append', { participant: 'alice', event: 'blocked', summary: 's', 'reply-to': [1] }, 'argument --reply-to: invalid int value: [1]'],
    ['init', { participant: 'alice', objective: 'o', completion: ['g'], 'primary-deliverable-type': 'adr' }, "argument --participant: expected a list (the option is repeatable), got 'alice'"],
    ['init', { participant: ['alice', 'bob'], objective: 'o', completion: ['g'], 'primary-deliverable-type': 'adr', resume: 'yes' }, "argument --resume: expected true or false, got 'yes'"],
  ];
  type Door = 'cli' | 'rpc' | 'mcp' | 'lib';

  let root: string;
  let srv: RunningServer;
  let mcp: Client;
  let registry: acp.Registry;
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-doors-bad-')));
    const host = await acp.createNodeHost();
    registry = await acp.createRegistry({ builtIns: true });
    for (const door of ['cli', 'rpc', 'mcp', 'lib']) await acp.init(host, join(root, door), { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, registry);
    srv = await startServerOn('inproc', root);
    const server = createMcpServer({ core: acp, host, registry, root, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    mcp = new Client({ name: 'bad', version: '1.0.0' });
    await mcp.connect(clientSide);
  });
  afterAll(async () => {
    await mcp?.close();
    await srv?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Every file of a folder (a new collaboration's folder counts as a change). */
  const snapshot = (folder: string): string => JSON.stringify(existsSyncSafe(folder) ? readTree(folder) : null);
  /** The request as `door` names it: each name read from the command's option table (runtime/doors.ts). */
  function named(command: string, request: Record<string, unknown>, door: acp.Door): Record<string, unknown> {
    const options = registry.commands.get(command)!.spec.options!;
    return Object.fromEntries(Object.entries(request).map(([name, value]) => [(options[name] && acp.doorName(name, options[name], door)) || name, value]));
  }

  /** What each door answers: `ok`, or the words of its refusal without its envelope. */
  const doors: Record<Door, (command: string, request: Record<string, unknown>, folder: string) => Promise<string>> = {
    async cli(command, request, folder) {
      const argv = [command, '--folder', join(root, folder)];
      for (const [name, value] of Object.entries(request)) for (const item of Array.isArray(value) ? value : [value]) argv.push(`--${name}`, String(item));
      let stderr = '';
      const code = await acp.runCli({ argv, stdout: () => undefined, stderr: (text) => void (stderr += text), color: false });
      return code === 0 ? 'ok' : stderr.replace(/^error: /, '').trim();
    },
    async rpc(command, request, folder) {
      const conn = await RawConn.unix(srv.socket);
      try {
        const reply = (await conn.request('agent/call', { agent: 'acp', action: command, args: { folder, ...named(command, request, 'rpc') } })) as { error?: { message: string } };
        return reply.error ? reply.error.message : 'ok';
      } finally {
        conn.close();
      }
    },
    async mcp(command, request, folder) {
      const result = (await mcp.callTool({ name: command, arguments: { folder, ...named(command, request, 'mcp') } })) as CallToolResult;
      return result.isError ? result.content.map((c) => (c.type === 'text' ? c.text : '')).join('').replace(/^error: /, '') : 'ok';
    },
    /** The library: init and append take their typed request objects (as a JavaScript caller may pass them), freeze runs through runCommand. */
    async lib(command, request, folder) {
      const host = await acp.createNodeHost();
      const absolute = join(root, folder);
      try {
        if (command === 'append') await acp.append(host, absolute, named(command, request, 'library') as unknown as acp.AppendRequest, registry);
        else if (command === 'init') await acp.init(host, absolute, named(command, request, 'library') as unknown as acp.InitRequest, registry);
        else await acp.runCommand(registry, command, { options: { ...request, folder: absolute } as acp.OptionValues }, { host });
        return 'ok';
      } catch (error) {
        if (!(error instanceof acp.AcpError)) throw error;
        return error.message;
      }
    },
  };

  async function answers(command: string, request: Record<string, unknown>, index: number, which: Door[]): Promise<Record<string, string>> {
    // init makes a new folder per door and case; the others act on the door's collaboration.
    const name = (door: string): string => (command === 'init' ? `${door}-init-${index}` : door);
    const before = which.map((door) => snapshot(join(root, name(door))));
    const said: Record<string, string> = {};
    for (const door of which) said[door] = await doors[door](command, request, name(door));
    // Nothing written by any refusal.
    expect(which.map((door) => snapshot(join(root, name(door))))).toEqual(before);
    return said;
  }

  for (const [index, [command, request, words]] of BAD.entries()) {
    test(`${command} ${JSON.stringify(request)}`, async () => {
      const said = await answers(command, request, index, ['cli', 'rpc', 'mcp', 'lib']);
      const expected = typeof words === 'string' ? words : expect.stringMatching(words);
      expect(said).toEqual({ cli: expected, rpc: said.cli, mcp: said.cli, lib: said.cli });
    });
  }

  for (const [index, [command, request, words]] of JSON_ONLY.entries()) {
    test(`JSON doors: ${command} ${JSON.stringify(request)}`, async () => {
      expect(await answers(command, request, 100 + index, ['rpc', 'mcp', 'lib'])).toEqual({ rpc: words, mcp: words, lib: words });
    });
  }

  test('one rule for a string given for a number, on every door: read as the command line reads it ("1" is 1)', async () => {
    const request = { participant: 'alice', event: 'blocked', summary: 'stop', 'reply-to': ' 1' };
    const folders: Record<Door, string> = { cli: 'cli-str', rpc: 'rpc-str', mcp: 'mcp-str', lib: 'lib-str' };
    const host = await acp.createNodeHost();
    for (const folder of Object.values(folders)) await acp.init(host, join(root, folder), { participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primaryType: 'adr' }, registry);
    for (const door of Object.keys(folders) as Door[]) expect(await doors[door]('append', request, folders[door]), door).toBe('ok');
    const last = (folder: string) => {
      const { at: _at, ...event } = JSON.parse(readFileSync(join(root, folder, 'events.jsonl'), 'utf8').trim().split('\n').at(-1)!) as Record<string, unknown>;
      return event;
    };
    for (const folder of Object.values(folders)) expect(last(folder), folder).toEqual({ seq: 2, from: 'alice', event: 'blocked', summary: 'stop', reply_to: 1 });
  });
});

function existsSyncSafe(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [inner, text] of Object.entries(readTree(path))) out[`${name}/${inner}`] = text;
    else out[name] = readFileSync(path, 'base64');
  }
  return out;
}
