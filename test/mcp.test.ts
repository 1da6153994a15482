// `acp mcp` through the MCP SDK's own Client: over stdio against the built
// CLI (`node dist/acp.mjs mcp --root …`, one server per agent, as each agent's
// client would start it), and in-process for what stdio cannot show (a
// cancelled wait lets go of the folder). `acp mcp` on bun, deno and the
// binary: the binary in `npm test`, all three under ACP_FULL=1 (test/scale.ts).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { createMcpServer } from '../plugins/mcp/server.ts';
import { LOCAL_BIN, REPO_DIR, runCommand, spawnUntil } from './conformance/replay.ts';
import { FROZEN, FROZEN_SHA256, INIT, OWNER, PRIMARY, REVIEWER, STEPS } from './happy-path.ts';
import { runtimesOfRun } from './runtime-matrix.ts';

const ACP = join(REPO_DIR, 'dist', 'acp.mjs');
const TOOLS = ['append', 'freeze', 'init', 'read_document', 'status', 'validate', 'wait', 'write_document'];

let root = '';
let outside = '';
const clients: Client[] = [];

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-mcp-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'acp-mcp-outside-')));
  writeFileSync(join(outside, 'secret.md'), 'secret\n');
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** An agent's MCP connection: its own `acp mcp` process on stdio. */
async function connect(name: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [ACP, 'mcp', '--root', root], cwd: root, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** Call a tool; returns its text and whether it was an error. */
async function call(client: Client, name: string, args: Record<string, unknown>, options?: Parameters<Client['callTool']>[2]): Promise<{ text: string; isError: boolean; structured: unknown }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { text, isError: result.isError === true, structured: result.structuredContent };
}

async function succeed(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(client, name, args);
  expect(r.isError, `${name} ${JSON.stringify(args)}: ${r.text}`).toBe(false);
  return r.text;
}

/** The line the CLI prints on stderr for the same request. */
async function cliError(argv: string[]): Promise<string> {
  const r = await runCommand([process.execPath, ACP, ...argv], root, { ...process.env, NO_COLOR: '1' }, 60_000);
  expect(r.rc).toBe(2);
  return r.stderr.trim();
}

function appendArgs(folder: string, step: (typeof STEPS)[number]): Record<string, unknown> {
  const e = step.event;
  return { folder, participant: e.participant, event: e.event, summary: e.summary, doc: e.doc, reply_to: e.replyTo, role: e.role, sha256: e.sha256 };
}

describe('acp mcp over stdio', () => {
  let alice: Client;
  let bob: Client;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([connect('alice-agent'), connect('bob-agent')]);
  });

  test('lists the protocol tools, each with a description and a JSON schema', async () => {
    const { tools } = await alice.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toContain('folder');
    }
  });

  test('two agents complete a collaboration with tools only (wait, freeze, documents)', async () => {
    const folder = 'storage';
    expect(await succeed(alice, 'init', { folder, participants: INIT.participants, objective: INIT.objective, completion: INIT.completion, primary_deliverable_type: INIT.primaryType })).toBe(
      // The folder as the client named it: the server's absolute root stays with the server.
      `Initialized ACP schema v2 collaboration folder: ${folder}`,
    );
    const agents: Record<string, Client> = { [OWNER]: alice, [REVIEWER]: bob };
    const progress: string[] = [];
    let bobWaits: Promise<{ text: string; isError: boolean }> | undefined;
    for (const [index, step] of STEPS.entries()) {
      const agent = agents[step.event.participant]!;
      if (step.event.event === 'deliverable_frozen') {
        // The freeze tool sets Status: Frozen, hashes, appends and records the snapshot in one step.
        const frozen = await succeed(agent, 'freeze', { folder, participant: OWNER, summary: step.event.summary });
        // What `acp freeze` prints: the tool runs the command.
        expect(frozen).toBe(`frozen ${PRIMARY} (primary): sha256 ${FROZEN_SHA256}\nappended seq ${index + 2}: deliverable_frozen`);
        expect(readFileSync(join(root, folder, PRIMARY), 'utf8')).toBe(FROZEN);
        continue;
      }
      for (const [doc, content] of Object.entries(step.files)) await succeed(agent, 'write_document', { folder, doc, content });
      if (step.event.event === 'proposal_submitted') {
        // bob is blocked in wait (with progress notifications) when alice hands over.
        bobWaits = call(bob, 'wait', { folder, participant: REVIEWER }, { onprogress: (p) => void progress.push(p.message ?? ''), resetTimeoutOnProgress: true });
        await expect.poll(() => progress.length, { timeout: 30_000 }).toBeGreaterThan(0);
      }
      expect(await succeed(agent, 'append', appendArgs(folder, step))).toBe(`appended seq ${index + 2}: ${step.event.event}`);
      if (step.event.event === 'proposal_submitted') {
        const waited = await bobWaits!;
        expect(waited.text).toMatch(/^ready: bob is listed in waitingFor\nphase: reviewing\n/);
        expect(progress[0]).toBe('waiting: waiting for alice after seq 2');
      }
      const status = await succeed(bob, 'status', { folder, participant: REVIEWER });
      expect(status).toContain(`phase: ${step.phase}\n`);
      expect(status).toContain(`waiting for: ${step.waitingFor.length ? step.waitingFor.join(', ') : 'none'}\n`);
    }
    expect(await succeed(bob, 'wait', { folder, participant: REVIEWER })).toMatch(/^ready: phase is completed\n/);
    expect(await succeed(alice, 'validate', { folder })).toBe('ACP validation passed');
    expect(readFileSync(join(root, folder, 'readiness.md'), 'utf8')).toContain(`- SHA-256: ${FROZEN_SHA256}\n`);
    // The CLI agrees.
    const cli = await runCommand([process.execPath, ACP, 'validate', '--folder', join(root, folder)], root, process.env, 60_000);
    expect(cli.stdout).toBe('ACP validation passed\n');
  });

  test('a refusal is a tool error with the very line the CLI prints', async () => {
    const folder = 'refusals';
    await succeed(alice, 'init', { folder, participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const abs = join(root, folder);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ participant: 'bob', event: 'proposal_submitted', summary: 's', reply_to: 1 }, ['--participant', 'bob', '--event', 'proposal_submitted', '--summary', 's', '--reply-to', '1']],
      [{ participant: 'mallory', event: 'blocked', summary: 's', reply_to: 1 }, ['--participant', 'mallory', '--event', 'blocked', '--summary', 's', '--reply-to', '1']],
      [{ participant: 'alice', event: 'proposal_submitted', summary: 's' }, ['--participant', 'alice', '--event', 'proposal_submitted', '--summary', 's']],
      [{ participant: 'alice', event: 'deliverable_drafted', summary: 's', reply_to: 1, role: 'primary', doc: 'deliverables/other.md' }, ['--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 's', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/other.md']],
    ];
    for (const [args, argv] of cases) {
      const r = await call(bob, 'append', { folder, ...args });
      // The CLI's line, with the folder named as the client named it.
      expect({ isError: r.isError, text: r.text }).toEqual({ isError: true, text: (await cliError(['append', '--folder', abs, ...argv])).split(`${root}/`).join('') });
    }
    const next = await call(bob, 'status', { folder, participant: 'mallory' });
    expect({ isError: next.isError, text: next.text }).toEqual({ isError: true, text: await cliError(['next', '--folder', abs, '--participant', 'mallory']) });
    const init = await call(bob, 'init', { folder, participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const cliInit = await cliError(['init', '--folder', abs, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr']);
    expect({ isError: init.isError, text: init.text }).toEqual({ isError: true, text: cliInit.split(`${root}/`).join('') });
    // freeze out of phase is refused by the append rules and leaves the deliverable as it was.
    const before = readFileSync(join(abs, 'deliverables', 'adr.md'), 'utf8');
    const frozen = await call(alice, 'freeze', { folder, participant: 'alice' });
    expect(frozen.isError).toBe(true);
    expect(frozen.text).toMatch(/^error: seq 2: deliverable_frozen is not allowed from phase drafting/);
    expect(readFileSync(join(abs, 'deliverables', 'adr.md'), 'utf8')).toBe(before);
  });

  test('documents stay inside the folder and the root: escapes, symlinks and the log are refused', async () => {
    const folder = 'escapes';
    await succeed(alice, 'init', { folder, participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const abs = join(root, folder);
    symlinkSync(join(outside, 'secret.md'), join(abs, 'notes.md'));
    symlinkSync(outside, join(abs, 'linked'));
    const refused = async (tool: string, args: Record<string, unknown>, pattern: RegExp): Promise<void> => {
      const r = await call(alice, tool, { folder, ...args });
      expect({ tool, args, isError: r.isError, text: r.text }).toEqual({ tool, args, isError: true, text: expect.stringMatching(pattern) });
    };
    await refused('read_document', { doc: '../../etc/passwd' }, /^error: '\.\.\/\.\.\/etc\/passwd' is not a document of this collaboration you may read/);
    await refused('read_document', { doc: join(outside, 'secret.md') }, /is not a document of this collaboration you may read/);
    await refused('read_document', { doc: 'notes.md' }, /^error: 'notes\.md' resolves outside the MCP server's root \(symlink refused\)$/);
    await refused('read_document', { doc: 'linked/secret.md' }, /\(symlink refused\)$/);
    await refused('write_document', { doc: 'events.jsonl', content: '' }, /^error: events\.jsonl is written by the runtime only/);
    await refused('write_document', { doc: 'protocol.json', content: '{}' }, /^error: protocol\.json is written by the runtime only/);
    await refused('write_document', { doc: 'linked/secret.md', content: 'x' }, /is not a document of this collaboration you may write/);
    await refused('write_document', { doc: 'state.log', content: 'x' }, /is not a document of this collaboration you may write/);
    await refused('status', { folder: '..' }, /^error: folder '\.\.' is outside the MCP server's root/);
    await refused('init', { folder: outside, participants: ['a', 'b'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' }, /is outside the MCP server's root/);
    // A deliverables directory that is a symlink out of the folder: neither written nor read.
    rmSync(join(abs, 'deliverables'), { recursive: true });
    symlinkSync(outside, join(abs, 'deliverables'));
    writeFileSync(join(outside, 'adr.md'), 'outside\n');
    await refused('write_document', { doc: 'deliverables/adr.md', content: 'overwritten' }, /\(symlink refused\)$/);
    await refused('read_document', { doc: 'deliverables/adr.md' }, /\(symlink refused\)$/);
    expect(readFileSync(join(outside, 'adr.md'), 'utf8')).toBe('outside\n');
    expect(readFileSync(join(outside, 'secret.md'), 'utf8')).toBe('secret\n');
    expect(existsSync(join(root, '..', 'escapes'))).toBe(false);
    expect(await succeed(alice, 'read_document', { folder, doc: 'proposal.md' })).toMatch(/^# Proposal\n/);
  });

  test('issue 26 item 8: event is an enum, reply_to an integer that must name an event, an unknown tool -32602, resource refusals not -32603, no root path', async () => {
    const folder = 'item8';
    await succeed(alice, 'init', { folder, participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const { tools } = await alice.listTools();
    const schema = tools.find((t) => t.name === 'append')!.inputSchema as { properties: Record<string, { type: string; enum?: string[] }> };
    // The CLI's choices (Python's sorted(EVENTS)) and type, from the command's options.
    expect(schema.properties.event!.enum).toEqual([...acp.EVENT_NAMES].sort());
    expect(schema.properties.reply_to).toMatchObject({ type: 'integer' });
    const log = readFileSync(join(root, folder, 'events.jsonl'), 'utf8');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ event: 'nonsense', reply_to: 1 }, `error: argument --event: invalid choice: 'nonsense' (choose from ${[...acp.EVENT_NAMES].sort().map((e) => `'${e}'`).join(', ')})`],
      [{ event: 'blocked', reply_to: 1.5 }, "error: argument --reply-to: invalid int value: '1.5'"],
      // Whole numbers that name no event: the append's own refusal, in the Python tools' words.
      [{ event: 'blocked', reply_to: -1 }, 'error: reply_to must point to an existing event'],
      [{ event: 'blocked', reply_to: -(2 ** 53) }, 'error: reply_to must point to an existing event'],
      [{ event: 'blocked', reply_to: 2 ** 53 }, 'error: reply_to must point to an existing event'],
    ];
    for (const [args, text] of cases) {
      const r = await call(alice, 'append', { folder, participant: 'alice', summary: 's', ...args });
      expect({ args, isError: r.isError, text: r.text }).toEqual({ args, isError: true, text });
    }
    expect(readFileSync(join(root, folder, 'events.jsonl'), 'utf8')).toBe(log);
    // An unknown tool is a JSON-RPC error, not a tool result.
    await expect(alice.callTool({ name: 'rm_rf', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: rm_rf') });
    // resources/read: a refusal is the client's mistake (-32602), a missing document -32002; never -32603, never the root's path.
    const refusal = await bob.readResource({ uri: 'acp://collab/item8/../../etc/passwd' }).catch((e: { code: number; message: string }) => e);
    expect(refusal).toMatchObject({ code: -32602 });
    const missing = await bob.readResource({ uri: 'acp://collab/item8/nothing.md' }).catch((e: { code: number; message: string }) => e);
    expect(missing).toMatchObject({ code: -32002, message: expect.stringContaining("'nothing.md' does not exist") });
    for (const error of [refusal, missing] as { message: string }[]) expect(error.message).not.toContain(root);
    // A path that leaves the root without any symlink is not said to be a refused symlink.
    const outsideAbs = join(outside, 'x.md');
    const notLink = await call(alice, 'read_document', { folder, doc: outsideAbs });
    expect(notLink.text).not.toContain('symlink');
    writeFileSync(join(root, folder, 'protocol.json'), readFileSync(join(root, folder, 'protocol.json'), 'utf8').replace('"mode": "internal"', '"mode": "external"').replace('"dir": "deliverables"', '"dir": "deliverables",\n  "repoRoot": "../.."'));
    const external = await call(alice, 'read_document', { folder, doc: 'external:deliverables/adr.md' });
    expect(external).toMatchObject({ isError: true });
    expect(external.text).not.toContain('symlink refused');
    // Results and errors never carry the root's absolute path.
    const texts = [
      await call(alice, 'init', { folder: 'item8b', participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' }),
      await call(alice, 'init', { folder: 'item8b', participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' }),
      await call(alice, 'status', { folder: '..' }),
      await call(alice, 'validate', { folder: 'item8' }),
      await call(alice, 'append', { folder: 'nowhere', participant: 'alice', event: 'blocked', summary: 's', reply_to: 1 }),
    ];
    for (const r of texts) expect(JSON.stringify(r)).not.toContain(root);
  });

  test('resources: protocol.json, the event log and each document of the collaborations under the root', async () => {
    const folder = 'resources';
    await succeed(alice, 'init', { folder, participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
    const { resources } = await bob.listResources();
    const mine = resources.filter((r) => r.uri.startsWith('acp://collab/resources/')).map((r) => r.uri.slice('acp://collab/resources/'.length));
    expect(mine.sort()).toEqual(['README.md', 'conclusion.md', 'decisions.md', 'deliverables/adr.md', 'events.jsonl', 'proposal.md', 'protocol.json', 'readiness.md', 'review.md']);
    const log = await bob.readResource({ uri: 'acp://collab/resources/events.jsonl' });
    expect((log.contents[0] as { text: string }).text).toBe(readFileSync(join(root, folder, 'events.jsonl'), 'utf8'));
    const adr = await bob.readResource({ uri: 'acp://collab/resources/deliverables/adr.md' });
    expect((adr.contents[0] as { text: string }).text).toMatch(/^# Architecture Decision Record\n/);
    await expect(bob.readResource({ uri: 'acp://collab/resources/../../etc/passwd' })).rejects.toThrow();
  });
});

describe('acp mcp on every runtime', () => {
  // Deno with read/write on the root only: the server needs no other permission.
  const runtimes: Record<string, [string, string[]]> = {
    bun: [join(LOCAL_BIN, 'bun'), [ACP]],
    deno: [join(LOCAL_BIN, 'deno'), ['run', '--no-prompt', '--quiet', `--allow-read=ROOT`, `--allow-write=ROOT`, ACP, '--no-config']],
    binary: [join(REPO_DIR, 'dist', 'acp'), []],
  };
  for (const name of runtimesOfRun(Object.keys(runtimes), ['binary'])) {
    const [command, prefix] = runtimes[name]!;
    test(`${name}: init and status through the tools`, async () => {
      expect(existsSync(command), `${command} missing (npm ci; npm run build)`).toBe(true);
      const args = [...prefix.map((a) => a.replace('ROOT', root)), 'mcp', '--root', root];
      const client = new Client({ name, version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command, args, cwd: root, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } as Record<string, string> }));
      clients.push(client);
      const folder = `runtime-${name}`;
      await succeed(client, 'init', { folder, participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
      expect(await succeed(client, 'status', { folder, participant: 'alice' })).toContain('next action: draft the primary deliverable');
    });
  }
});

describe('acp mcp in process', () => {
  test('a cancelled wait stops watching the folder; progress arrives while it waits', async () => {
    const base = await acp.createNodeHost();
    let watching = 0;
    const host: acp.Host = {
      ...base,
      fs: {
        ...base.fs,
        watch: (path, onChange) => {
          watching++;
          const stop = base.fs.watch!(path, onChange);
          return () => {
            watching--;
            stop();
          };
        },
      },
    };
    const server = createMcpServer({ core: acp, host, registry: await acp.createRegistry({ builtIns: true }), root, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'cancel', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      await succeed(client, 'init', { folder: 'cancel', participants: ['alice', 'bob'], objective: 'o', completion: ['g'], primary_deliverable_type: 'adr' });
      const controller = new AbortController();
      const progress: string[] = [];
      const waiting = client.callTool({ name: 'wait', arguments: { folder: 'cancel', participant: 'bob', timeout_seconds: 0 } }, undefined, {
        signal: controller.signal,
        onprogress: (p) => void progress.push(p.message ?? ''),
      });
      await expect.poll(() => progress, { timeout: 30_000 }).toEqual(['waiting: waiting for alice after seq 1']);
      expect(watching).toBe(1);
      controller.abort('the agent moved on');
      await expect(waiting).rejects.toThrow();
      await expect.poll(() => watching, { timeout: 30_000 }).toBe(0);
    } finally {
      await client.close();
      await server.close();
    }
  });

  test('issue 26 item 7: wait progress names the log\'s turn, CLI and MCP, when protocol.json is stale (an append killed before its rename)', async () => {
    const server = createMcpServer({ core: acp, host: await acp.createNodeHost(), registry: await acp.createRegistry({ builtIns: true }), root, version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'progress', version: '1.0.0' });
    await client.connect(clientSide);
    const folder = 'progress';
    const abs = join(root, folder);
    try {
      await succeed(client, 'init', { folder, participants: ['alice', 'bob', 'carol'], objective: 'o', completion: ['g'], primary_deliverable_type: 'design-spec' });
      for (const step of STEPS.slice(0, 2)) {
        for (const [doc, content] of Object.entries(step.files)) await succeed(client, 'write_document', { folder, doc, content });
        await succeed(client, 'append', appendArgs(folder, step));
      }
      // alice waits through the MCP tool and through the CLI while bob and carol review.
      const progress: string[] = [];
      const viaMcp = client.callTool({ name: 'wait', arguments: { folder, participant: OWNER, timeout_seconds: 120 } }, undefined, { onprogress: (p) => void progress.push(p.message ?? ''), resetTimeoutOnProgress: true });
      const viaCli = spawnUntil({ ...process.env, NO_COLOR: '1' }, [process.execPath, ACP, 'wait', '--folder', abs, '--participant', OWNER, '--timeout', '120', '--interval', '0.05'], root, 'waiting: ');
      await viaCli.started;
      await expect.poll(() => progress, { timeout: 30_000 }).toEqual(['waiting: waiting for bob, carol after seq 3']);
      // bob's review lands in the log, but protocol.json still says [bob, carol] (the append died before its rename).
      const stale = readFileSync(join(abs, 'protocol.json'), 'utf8');
      // Each killed append a second after the last written one: two lines behind, protocol.json is
      // read as left behind only when its updatedAt is not the last event's (docs/spec-notes.md, the turn).
      const staleAt = Date.parse(JSON.parse(stale).updatedAt);
      const at = (seq: number) => new Date(staleAt + (seq - 3) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
      const line = (seq: number, from: string) => `${JSON.stringify({ seq, from, event: 'review_submitted', at: at(seq), summary: 'ok', doc: 'review.md', reply_to: seq - 1 })}\n`;
      appendFileSync(join(abs, 'events.jsonl'), line(4, 'bob'));
      expect(readFileSync(join(abs, 'protocol.json'), 'utf8')).toBe(stale);
      await expect.poll(() => progress, { timeout: 30_000 }).toEqual(['waiting: waiting for bob, carol after seq 3', 'waiting: waiting for carol after seq 4']);
      appendFileSync(join(abs, 'events.jsonl'), line(5, 'carol'));
      const mcp = (await viaMcp) as CallToolResult;
      expect((mcp.content[0] as { text: string }).text).toMatch(/^ready: alice is listed in waitingFor\nphase: revising\n/);
      const cli = await viaCli.done;
      expect(cli.rc).toBe(0);
      // Never "waiting for bob" once bob's review is in the log.
      expect(cli.stdout.split('\n').filter((l) => l.startsWith('waiting: '))).toEqual(['waiting: waiting for bob, carol after seq 3', 'waiting: waiting for carol after seq 4']);
      expect(cli.stdout).toContain('ready: alice is listed in waitingFor\nphase: revising\n');
    } finally {
      await client.close();
      await server.close();
    }
  });

  test('an MCP root that is not a directory is refused by the command', async () => {
    const r = await runCommand([process.execPath, ACP, 'mcp', '--root', join(root, 'missing')], root, process.env, 60_000);
    expect({ rc: r.rc, err: r.stderr, out: r.stdout }).toEqual({ rc: 2, err: `error: --root ${join(root, 'missing')} is not a directory\n`, out: '' });
  });
});
