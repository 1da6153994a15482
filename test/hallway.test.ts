// One hallway (issue 24): every door — the CLI, the library, JSON-RPC
// agent/call, the MCP tools append and write_document, freeze through the CLI
// and MCP — reaches the log through the one transaction, over every store
// (the local folder, git with a bare remote). A user plugin refuses one
// summary in append:before and records the seqs append:after is told about:
// every cell must give the same refusal (words and code), the same recorded
// seqs, and under git every accepted write on the remote.
//
// Every door cell runs in every run size (test/scale.ts): the matrix is the
// proof. The store operations' git column runs two repairs in `npm test`,
// every repair under ACP_FULL=1.
// What keeps it cheap: the CLI door is runCli in this process with the cell
// as its working directory (the process edge is test/cli.test.ts's), and a
// git cell is a copy of one built per file (a bare remote, a clone, the
// folder pushed; once more at readiness_check for the freeze doors), its
// remote's path rewritten: a git spawn costs ~50 ms of CPU from a test worker.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { createProcessRuntime } from '../runtime/process.ts';
import { createMcpServer } from '../plugins/mcp/server.ts';
import { RpcClient, RpcResponseError } from '../plugins/rpc/client.ts';
import { FROZEN, INIT, OWNER, PRIMARY, STEPS } from './happy-path.ts';
import { ALICE_TOKEN, startServer } from './rpc/helpers.ts';
import { atLeast } from './scale.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs are disk work otherwise.
tmpdirInScratch();

const REPO = join(import.meta.dirname, '..');
const AUDIT = join(REPO, 'test', 'plugins', 'fixtures', 'audit.mjs');
const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid', GIT_CONFIG_NOSYSTEM: '1' };
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

type StoreName = 'local' | 'git';

/** A work directory: acp.config.yaml (the audit plugin, and git for the git store), the collaboration folder `collab`, its seq log. */
interface Cell {
  work: string;
  folder: string;
  log: string;
  remote?: string;
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `acp …` in this process, with the cell's work directory as the working directory (its acp.config.yaml applies). */
async function cli(cell: Cell, ...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const base = await acp.createNodeHost();
  const host = { ...base, resolvePath: (path: string) => resolve(cell.work, path) };
  let stdout = '';
  let stderr = '';
  const status = await acp.runCli({ argv: args, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false, env: (name) => process.env[name] }, host);
  return { status, stdout, stderr };
}

/** A new empty directory for a cell (its real path: the folder's paths are compared as the host resolves them). */
function newRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-hallway-')));
  roots.push(root);
  return root;
}

/** The cell's acp.config.yaml: the audit plugin recording to the cell's log, and git for the git store. */
function writeConfig(cell: Cell): void {
  const config = [`plugins:`, `  - path: ${AUDIT}`, `    options: { log: ${JSON.stringify(cell.log)} }`, ...(cell.remote ? ['git: { interval: 0.2 }'] : [])];
  writeFileSync(join(cell.work, 'acp.config.yaml'), `${config.join('\n')}\n`);
}

/** The cell's empty seq log and config, and its folder initialized (under git: committed and pushed, as the config says). */
async function initCell(cell: Cell): Promise<void> {
  writeFileSync(cell.log, '');
  writeConfig(cell);
  const init = await cli(cell, 'init', '--folder', 'collab', '--participant', OWNER, '--participant', 'bob', '--objective', INIT.objective, '--completion', INIT.completion[0]!, '--primary-deliverable-type', INIT.primaryType);
  expect(init.status, init.stderr).toBe(0);
}

/** A bare remote and a clone whose `collab` folder init committed and pushed (`ready`: then brought to readiness_check). */
async function buildGitCell(ready: boolean): Promise<Cell> {
  const root = newRoot();
  const remote = join(root, 'remote.git');
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', remote);
  const work = join(root, 'work');
  git(root, 'clone', '--quiet', remote, work);
  git(work, 'commit', '--quiet', '--allow-empty', '-m', 'start');
  git(work, 'push', '--quiet', 'origin', 'main');
  // The config is the clone's own file, not the collaboration's: ignored, so that the folder's changes are the only ones.
  appendFileSync(join(work, '.git', 'info', 'exclude'), 'acp.config.yaml\n');
  const cell: Cell = { work, folder: join(work, 'collab'), log: join(root, 'seqs.txt'), remote };
  await initCell(cell);
  if (ready) await toReadinessCheck(cell);
  return cell;
}

/** The git cells this file copies (plain, and at readiness_check), each built on first use. */
const gitTemplates = new Map<boolean, Promise<Cell>>();

/** A fresh cell (`ready`: at readiness_check); for git, a copy of a bare remote and a clone whose `collab` folder init committed and pushed. */
async function makeCell(store: StoreName, ready = false): Promise<Cell> {
  const root = newRoot();
  if (store === 'local') {
    const cell: Cell = { work: join(root, 'work'), folder: join(root, 'work', 'collab'), log: join(root, 'seqs.txt') };
    mkdirSync(cell.work);
    await initCell(cell);
    if (ready) await toReadinessCheck(cell);
    return cell;
  }
  let template = gitTemplates.get(ready);
  if (!template) gitTemplates.set(ready, (template = buildGitCell(ready)));
  const from = await template;
  for (const name of ['remote.git', 'work']) cpSync(join(from.work, '..', name), join(root, name), { recursive: true });
  const cell: Cell = { work: join(root, 'work'), folder: join(root, 'work', 'collab'), log: join(root, 'seqs.txt'), remote: join(root, 'remote.git') };
  // What `git clone` would have written: origin is this cell's remote.
  const config = join(cell.work, '.git', 'config');
  const text = readFileSync(config, 'utf8');
  expect(text).toContain(`url = ${from.remote}\n`);
  writeFileSync(config, text.replace(`url = ${from.remote}\n`, `url = ${cell.remote}\n`));
  writeFileSync(cell.log, '');
  writeConfig(cell);
  return cell;
}

/** The registry an embedder or a server would build in the cell: built-ins, and the config's plugin and store. */
async function registryOf(cell: Cell): Promise<acp.Registry> {
  return acp.createRegistry({ builtIns: true, config: true, cwd: cell.work, host: await acp.createNodeHost(), runtime: await createProcessRuntime() });
}

/** Bring the folder to readiness_check, ready to freeze: appended locally (no plugin), then committed and pushed as one commit. */
async function toReadinessCheck(cell: Cell): Promise<void> {
  const collab = await acp.openCollaboration(cell.folder, { registry: await acp.createRegistry() });
  for (const step of STEPS.slice(0, 7)) {
    for (const [name, text] of Object.entries(step.files)) writeFileSync(join(cell.folder, name), text);
    await collab.append(step.event);
  }
  if (cell.remote) {
    git(cell.work, 'add', '-A', 'collab');
    git(cell.work, 'commit', '--quiet', '-m', 'acp: seq 2..8 (set-up)');
    git(cell.work, 'push', '--quiet', 'origin', 'main');
  }
}

const draft = STEPS[0]!;
const FORBIDDEN = { ...draft.event, summary: 'forbidden' };

/** What a door answered: the appended seq, or the refusal's words and code. */
type Outcome = { seq: number } | { refused: string; code: string };

/** Every door, as the operation `valid` (accepted) or `forbidden` (refused by the plugin). */
const DOORS: Record<string, { freeze?: boolean; run(cell: Cell, forbidden: boolean): Promise<Outcome> }> = {
  cli: {
    async run(cell, forbidden) {
      const e = forbidden ? FORBIDDEN : draft.event;
      const r = await cli(cell, 'append', '--folder', 'collab', '--participant', e.participant, '--event', e.event, '--summary', e.summary, '--doc', e.doc!, '--reply-to', String(e.replyTo), '--role', e.role!, '--json');
      const json = JSON.parse(r.stdout);
      return json.ok ? { seq: json.event.seq } : { refused: json.error, code: json.code };
    },
  },
  library: {
    async run(cell, forbidden) {
      const registry = await registryOf(cell);
      try {
        const collab = await acp.openCollaboration(cell.folder, { registry });
        return { seq: (await collab.append(forbidden ? FORBIDDEN : draft.event)).event.seq };
      } catch (error) {
        if (!(error instanceof acp.AcpError)) throw error;
        return { refused: error.message, code: error.code };
      } finally {
        await registry.cleanup();
      }
    },
  },
  'rpc agent/call': {
    async run(cell, forbidden) {
      const registry = await registryOf(cell);
      const server = await startServer(cell.work, { registry });
      const client = await RpcClient.connect(`unix:${server.socket}`, { token: ALICE_TOKEN, reconnect: false, heartbeatMs: 0 });
      try {
        const e = forbidden ? FORBIDDEN : draft.event;
        const result = (await client.acp('append', { folder: 'collab', event: e.event, summary: e.summary, doc: e.doc, replyTo: e.replyTo, role: e.role })) as { event: { seq: number } };
        return { seq: result.event.seq };
      } catch (error) {
        if (!(error instanceof RpcResponseError)) throw error;
        const data = error.data as { message: string; code: string };
        return { refused: data.message, code: data.code };
      } finally {
        client.close();
        await server.close();
        await registry.cleanup();
      }
    },
  },
  'mcp append': {
    async run(cell, forbidden) {
      const e = forbidden ? FORBIDDEN : draft.event;
      return mcpCall(cell, 'append', { folder: 'collab', participant: e.participant, event: e.event, summary: e.summary, doc: e.doc, reply_to: e.replyTo, role: e.role });
    },
  },
  'freeze (cli)': {
    freeze: true,
    async run(cell, forbidden) {
      const r = await cli(cell, 'freeze', '--folder', 'collab', '--participant', OWNER, '--summary', forbidden ? 'forbidden' : 'freeze', '--json');
      const json = JSON.parse(r.stdout);
      return json.ok ? { seq: json.seq } : { refused: json.error, code: json.code };
    },
  },
  'freeze (mcp)': {
    freeze: true,
    async run(cell, forbidden) {
      return mcpCall(cell, 'freeze', { folder: 'collab', participant: OWNER, summary: forbidden ? 'forbidden' : 'freeze' });
    },
  },
};

/** One MCP tool call's raw result, on an in-process server built as `acp mcp` builds it. */
async function mcpTool(cell: Cell, tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const registry = await registryOf(cell);
  const server = createMcpServer({ core: acp, host: await acp.createNodeHost(), registry, root: cell.work, version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'hallway', version: '1' });
  await client.connect(clientSide);
  try {
    return (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
    await server.close();
    await registry.cleanup();
  }
}

/** One MCP tool call, as the appended seq or the refusal. */
async function mcpCall(cell: Cell, tool: string, args: Record<string, unknown>): Promise<Outcome> {
  const result = await mcpTool(cell, tool, args);
  const structured = result.structuredContent as { event?: { seq: number }; seq?: number; error?: string; code?: string };
  if (result.isError) return { refused: structured.error!, code: structured.code! };
  return { seq: structured.event?.seq ?? structured.seq! };
}

/** The remote's copy of a file of the folder (git show). */
function onRemote(cell: Cell, name: string): string {
  return git(cell.remote!, 'show', `main:collab/${name}`);
}

describe.concurrent('every door reaches the log through the one transaction, on every store', () => {
  for (const store of ['local', 'git'] as const) {
    for (const [door, { freeze, run }] of Object.entries(DOORS)) {
      test(`${door} × ${store}`, async () => {
        const cell = await makeCell(store, freeze);
        const event = freeze ? 'deliverable_frozen' : 'deliverable_drafted';
        if (!freeze) writeFileSync(join(cell.folder, PRIMARY), draft.files[PRIMARY]!);
        const before = readFileSync(join(cell.folder, 'events.jsonl'), 'utf8');
        const refused = await run(cell, true);
        expect(refused).toEqual({ refused: `plugin 'audit' refused ${event}: forbidden summaries are refused`, code: 'plugin_refused' });
        expect(readFileSync(join(cell.folder, 'events.jsonl'), 'utf8')).toBe(before);
        const expectedSeq = freeze ? 9 : 2;
        expect(await run(cell, false)).toEqual({ seq: expectedSeq });
        // append:after ran once, after the store published the event, with the seq that landed.
        expect(readFileSync(cell.log, 'utf8')).toBe(`${expectedSeq}\n`);
        if (store === 'git') {
          const landed = onRemote(cell, 'events.jsonl').trim().split('\n').map((line) => JSON.parse(line));
          expect(landed.at(-1)).toMatchObject({ seq: expectedSeq, event });
          if (freeze) expect(onRemote(cell, PRIMARY)).toBe(FROZEN);
          else expect(onRemote(cell, PRIMARY)).toBe(draft.files[PRIMARY]);
          expect(git(cell.work, 'status', '--porcelain', '--', 'collab')).toBe('');
        }
      });
    }
    test(`mcp write_document × ${store}`, async () => {
      const cell = await makeCell(store);
      const text = '# Proposal\n\nWritten through the MCP tool.\n';
      const result = await mcpTool(cell, 'write_document', { folder: 'collab', doc: 'proposal.md', content: text });
      expect(result.isError ?? false).toBe(false);
      expect(readFileSync(join(cell.folder, 'proposal.md'), 'utf8')).toBe(text);
      // No event, so no hook: nothing recorded.
      expect(readFileSync(cell.log, 'utf8')).toBe('');
      if (store === 'git') {
        expect(onRemote(cell, 'proposal.md')).toBe(text);
        expect(git(cell.remote!, 'log', '-1', '--format=%s', 'main')).toBe('acp: write proposal.md by acp mcp\n');
      }
    });
  }
});

describe('wait: extensions compose or are refused, never shadowed', () => {
  test('wait --git --server is refused before anything runs, in argparse’s words', async () => {
    const cell = await makeCell('local');
    const r = await cli(cell, 'wait', '--folder', 'collab', '--participant', 'bob', '--git', '--server', 'unix:/nonexistent.sock', '--timeout', '1');
    expect([r.status, r.stderr]).toEqual([2, 'error: argument --git: not allowed with argument --server\n']);
  });

  test('wait --server --timeout counts connecting against the deadline, with the one seconds parser', async () => {
    const cell = await makeCell('local');
    // 1_0e-1 is 1.0 s to Python's float(), on both roads (it was refused by the server road).
    const r = await cli(cell, 'wait', '--folder', 'collab', '--participant', 'bob', '--server', `unix:${join(cell.work, 'nobody.sock')}`, '--timeout', '1_0e-1');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^timeout: no answer from unix:/);
    const local = await cli(cell, 'wait', '--folder', 'collab', '--participant', 'bob', '--timeout', '1_0e-1');
    expect([local.status, local.stderr]).toEqual([1, 'timeout: waiting for alice after seq 1\n']);
  });

  test('two user plugins that both extend wait both run; one that drops the command is named', async () => {
    const cell = await makeCell('local');
    const plugin = (name: string, next: boolean): string => {
      const file = join(cell.work, `${name}.mjs`);
      writeFileSync(
        file,
        `import { appendFileSync } from 'node:fs';
export default (c) => c.definePlugin({ name: '${name}', commands: [{ name: 'wait', extend: true, description: '${name}', options: { '${name}-note': { type: 'string', description: 'a note' } },
  async run(ctx) { appendFileSync(${JSON.stringify(join(cell.work, 'ran.txt'))}, '${name}:' + (ctx.options['${name}-note'] ?? '-') + '\\n'); return ${next ? 'ctx.next()' : '0'}; } }] });\n`,
      );
      return file;
    };
    const first = plugin('first', true);
    const second = plugin('second', true);
    const r = await cli(cell, '--plugin', first, '--plugin', second, 'wait', '--folder', 'collab', '--participant', OWNER, '--first-note', 'a', '--second-note', 'b', '--timeout', '5');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ready: alice is listed in waitingFor\n/);
    // Outermost first: the plugin loaded last wraps the others.
    expect(readFileSync(join(cell.work, 'ran.txt'), 'utf8')).toBe('second:b\nfirst:a\n');
    const dropper = plugin('dropper', false);
    const dropped = await cli(cell, '--plugin', dropper, 'wait', '--folder', 'collab', '--participant', OWNER, '--timeout', '5');
    expect([dropped.status, dropped.stderr]).toEqual([2, "error: plugin 'dropper' failed in command 'wait': it extends the command but neither ran it (ctx.next()) nor declared the options under which it answers it (answers)\n"]);
  });
});

describe('the log is the truth: a stale protocol.json', () => {
  /** A folder where alice drafted and submitted (bob's turn), then the line of bob's review landed without protocol.json's rewrite. */
  async function staleFolder(): Promise<{ cell: Cell; events: string }> {
    const cell = await makeCell('local');
    for (const step of STEPS.slice(0, 2)) {
      for (const [name, text] of Object.entries(step.files)) writeFileSync(join(cell.folder, name), text);
      const e = step.event;
      expect((await cli(cell, 'append', '--folder', 'collab', '--participant', e.participant, '--event', e.event, '--summary', e.summary, '--doc', e.doc!, '--reply-to', String(e.replyTo), ...(e.role ? ['--role', e.role] : []))).status).toBe(0);
    }
    // What a killed append (or a full disk after the line) leaves: the line, and protocol.json of the seq before.
    const protocol = JSON.parse(readFileSync(join(cell.folder, 'protocol.json'), 'utf8'));
    const review = { seq: 4, from: 'bob', event: 'review_submitted', at: protocol.updatedAt, summary: 'looks good', doc: 'review.md', reply_to: 3 };
    writeFileSync(join(cell.folder, 'review.md'), STEPS[2]!.files['review.md']!);
    appendFileSync(join(cell.folder, 'events.jsonl'), `${JSON.stringify(review)}\n`);
    return { cell, events: readFileSync(join(cell.folder, 'events.jsonl'), 'utf8') };
  }

  test('next and wait answer from the log and say so; the participant whose turn it is gets it at once', async () => {
    const { cell } = await staleFolder();
    const next = await cli(cell, 'next', '--folder', 'collab', '--participant', OWNER);
    expect(next.status).toBe(0);
    expect(next.stdout).toContain('phase: revising\nproposal owner: alice\nwaiting for: alice\nlast event: seq 4 review_submitted from bob\n');
    expect(next.stderr).toBe("note: protocol.json is stale (it describes seq 3; the log ends at seq 4): answering from the log; the next append or `acp doctor --fix` rewrites it\n");
    const wait = await cli(cell, 'wait', '--folder', 'collab', '--participant', OWNER, '--timeout', '1');
    expect(wait.status, wait.stderr).toBe(0);
    expect(wait.stdout).toMatch(/^ready: alice is listed in waitingFor\nphase: revising\n/);
    const bob = await cli(cell, 'wait', '--folder', 'collab', '--participant', 'bob', '--timeout', '0.5');
    expect([bob.status, bob.stderr]).toEqual([1, 'timeout: waiting for alice after seq 4\n']);
  });

  test('an append repairs the stale cache under the lock, even when its own event is refused', async () => {
    const { cell, events } = await staleFolder();
    const refused = await cli(cell, 'append', '--folder', 'collab', '--participant', 'bob', '--event', 'proposal_revised', '--summary', 'not mine', '--doc', 'proposal.md', '--reply-to', '4');
    expect(refused.status).toBe(2);
    expect(readFileSync(join(cell.folder, 'events.jsonl'), 'utf8')).toBe(events);
    const protocol = JSON.parse(readFileSync(join(cell.folder, 'protocol.json'), 'utf8'));
    expect(protocol).toMatchObject({ currentPhase: 'revising', waitingFor: ['alice'] });
    const next = await cli(cell, 'next', '--folder', 'collab', '--participant', OWNER);
    expect(next.stderr).toBe('');
    expect((await cli(cell, 'validate', '--folder', 'collab')).stdout).not.toContain('currentPhase');
  });

  test('a hand-edited phase that matches no point of the log is read as written (the Python tools do)', async () => {
    const cell = await makeCell('local');
    const path = join(cell.folder, 'protocol.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"currentPhase": "drafting"', '"currentPhase": "reviewing"'));
    const next = await cli(cell, 'next', '--folder', 'collab', '--participant', OWNER);
    expect(next.stdout).toMatch(/^phase: reviewing\n/);
    expect(next.stderr).toBe('');
  });

  test('a full disk after the line: the next reader answers from the log at once (in memory)', async () => {
    const fs = acp.createMemoryFileSystem();
    let full = false;
    const writeFile = fs.writeFile.bind(fs);
    fs.writeFile = async (path, data) => {
      if (full && path.includes('protocol.json')) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return writeFile(path, data);
    };
    const host = acp.createMemoryHost({ fs });
    const collab = await acp.openCollaboration('/c', { host });
    await collab.init(INIT);
    await fs.writeFile(`/c/${PRIMARY}`, draft.files[PRIMARY]!);
    const cached = new TextDecoder().decode(await fs.readFile('/c/protocol.json'));
    full = true;
    const result = await collab.append(draft.event);
    expect(result.warnings?.[0]).toMatch(/protocol\.json could not be rewritten/);
    // The cache of the seq before, as written: comparing times would pass only when init and append share a second.
    expect(new TextDecoder().decode(await fs.readFile('/c/protocol.json'))).toBe(cached);
    await fs.writeFile(`/c/proposal.md`, STEPS[1]!.files['proposal.md']!);
    await expect(collab.append(STEPS[1]!.event)).resolves.toMatchObject({ warnings: [expect.stringContaining('could not be rewritten')] });
    const next = await collab.next('bob');
    expect(next).toMatchObject({ phase: 'reviewing', waitingFor: ['bob'], lastEvent: { seq: 3 } });
    expect(next.note).toContain('protocol.json is stale');
    await expect(collab.wait('bob', { timeoutSeconds: 1 })).resolves.toMatchObject({ reason: 'ready: bob is listed in waitingFor' });
  });
});

describe('structured refusals', () => {
  test('the state machine gives each message its code; no code is read from the words', async () => {
    const host = acp.createMemoryHost();
    const collab = await acp.openCollaboration('/c', { host });
    await collab.init(INIT);
    await host.fs.writeFile(`/c/${PRIMARY}`, draft.files[PRIMARY]!);
    const refusal = (request: acp.AppendRequest): Promise<unknown> => collab.append(request).then(() => 'appended', (error: acp.AcpError) => ({ code: error.code, message: error.message }));
    expect(await refusal({ ...draft.event, participant: 'bob' })).toEqual({ code: 'not_your_turn', message: 'seq 2: deliverable draft is reserved for alice; got bob' });
    expect(await refusal({ participant: OWNER, event: 'review_submitted', summary: 's', doc: 'review.md', replyTo: 1 })).toMatchObject({ code: 'phase' });
    expect(await refusal({ participant: OWNER, event: 'proposal_submitted', summary: 's', doc: 'proposal.md', replyTo: 1 })).toEqual({
      code: 'invalid_event',
      message: 'seq 2: proposal_submitted requires prior primary deliverable_drafted',
    });
  });
});

// The store owns every write (issue 35): init, each repair of doctor --fix
// and the completion of an interrupted freeze are store operations like an
// append — under the folder lock, published under git (the damage a clone
// pushed is repaired by a commit on the remote), and in a signed folder
// never at the price of a signature: what would break one is refused with
// the reason and the way by hand; what does not (cutting a torn line,
// ending the last one, the cached state) leaves every signature valid.
type OpStore = 'local' | 'git' | 'signed';

/** A signed cell's keys: its own keyring beside the work directory. */
const keysOf = (cell: Cell): string => join(cell.work, '..', 'keys');

/** `acp …` in this process for a cell, holding the cell's signing keys. */
const keyedCli = (cell: Cell, ...args: string[]): ReturnType<typeof cliWithKeys> => cliWithKeys(cell, keysOf(cell), ...args);

/** `acp …` in this process for a cell, holding the signing keys (and their records of the last line signed) in `keys`. */
async function cliWithKeys(cell: Cell, keys: string, ...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const base = await acp.createNodeHost({ signingKeys: { dir: keys } });
  const host = { ...base, resolvePath: (path: string) => resolve(cell.work, path) };
  let stdout = '';
  let stderr = '';
  const status = await acp.runCli({ argv: args, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false, env: (name) => process.env[name] }, host);
  return { status, stdout, stderr };
}

/** A signed local cell (`ready`: at readiness_check, every event signed). */
async function makeSignedCell(ready: boolean): Promise<Cell> {
  const root = newRoot();
  const cell: Cell = { work: join(root, 'work'), folder: join(root, 'work', 'collab'), log: join(root, 'seqs.txt') };
  mkdirSync(cell.work);
  writeFileSync(cell.log, '');
  writeConfig(cell);
  const init = await keyedCli(cell, 'init', '--folder', 'collab', '--participant', OWNER, '--participant', 'bob', '--objective', INIT.objective, '--completion', INIT.completion[0]!, '--primary-deliverable-type', INIT.primaryType, '--sign');
  expect(init.status, init.stderr).toBe(0);
  if (ready) {
    const host = await acp.createNodeHost({ signingKeys: { dir: keysOf(cell) } });
    const collab = await acp.openCollaboration(cell.folder, { host, registry: await acp.createRegistry() });
    for (const step of STEPS.slice(0, 7)) {
      for (const [name, text] of Object.entries(step.files)) writeFileSync(join(cell.folder, name), text);
      await collab.append(step.event);
    }
  }
  return cell;
}

const opCell = (store: OpStore, ready = false): Promise<Cell> => (store === 'signed' ? makeSignedCell(ready) : makeCell(store, ready));

/** Under git, the damage is what a clone pushed: committed and pushed as it is. */
function publishDamage(cell: Cell): void {
  if (git(cell.work, 'status', '--porcelain', '--', 'collab') === '') return;
  git(cell.work, 'add', '-A', 'collab');
  git(cell.work, 'commit', '--quiet', '-m', 'damage');
  git(cell.work, 'push', '--quiet', 'origin', 'main');
}

const LOG = (cell: Cell): string => join(cell.folder, 'events.jsonl');
/** Rewrite seq 2's `at` to a second before seq 1's (a clock behind the others'). */
function backwards(cell: Cell): void {
  const lines = readFileSync(LOG(cell), 'utf8').split('\n');
  const first = JSON.parse(lines[0]!) as { at: string };
  const earlier = new Date(Date.parse(first.at) - 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  lines[1] = lines[1]!.replace(/"at": ?"[^"]*"/, (m) => m.replace(/"[^"]*"$/, JSON.stringify(earlier)));
  writeFileSync(LOG(cell), lines.join('\n'));
}

/**
 * Each repair: the damage (`local`: what an interrupted write of this clone
 * leaves, never pushed: repaired under the folder lock alone), and
 * what `doctor --fix` must say (`signedRefusal`: in a signed folder, the
 * reason it refuses).
 */
const REPAIRS: Record<string, { ready?: boolean; events?: number; local?: boolean; damage(cell: Cell, store: OpStore): void | Promise<void>; fixed: string; signedRefusal?: string }> = {
  'torn last line': {
    local: true,
    damage: (cell) => appendFileSync(LOG(cell), '{"seq": 2, "event": "propo'),
    fixed: 'fixed: cut the incomplete last line from events.jsonl',
  },
  'last line without its newline': {
    local: true,
    damage: (cell) => writeFileSync(LOG(cell), readFileSync(LOG(cell), 'utf8').replace(/\n$/, '')),
    fixed: 'fixed: ended the last line of events.jsonl (a complete event) with its missing newline',
  },
  'times that run backwards': {
    events: 2,
    damage: backwards,
    fixed: "fixed: set seq 2's at to",
    signedRefusal: "--fix refuses to move it: this collaboration is signed, and a new at would invalidate seq 2's signature and the prev of every line after it. By hand: keep a copy of events.jsonl",
  },
  'stale cached state': {
    damage: (cell) => {
      const path = join(cell.folder, 'protocol.json');
      writeFileSync(path, readFileSync(path, 'utf8').replace(/"currentPhase": "[a-z_]+"/, '"currentPhase": "review"'));
    },
    fixed: "fixed: rewrote protocol.json's cached state from the log",
  },
  'a damaged last line that ends with a signature': {
    events: 2,
    damage: (cell) => writeFileSync(LOG(cell), readFileSync(LOG(cell), 'utf8').replace(/\n\{([^\n]*)\n$/, '\n$1')),
    fixed: 'fixed: cut the incomplete last line from events.jsonl',
    signedRefusal: '--fix refuses to cut it: it ends with a signature, so it is a signed line damaged after it was written, not a torn append. By hand:',
  },
  'interrupted freeze, completed': {
    ready: true,
    damage: async (cell, store) => {
      // Killed between the freeze's files and its event: the deliverable and readiness.md written, the log and protocol.json not
      // (nor, in a signed folder, the key's record of its last signed line: the freeze runs with a copy of the keys).
      const protocol = readFileSync(join(cell.folder, 'protocol.json'));
      const keys = store === 'signed' ? `${keysOf(cell)}-freeze` : keysOf(cell);
      if (store === 'signed') cpSync(keysOf(cell), keys, { recursive: true });
      const frozen = await cliWithKeys(cell, keys, 'freeze', '--folder', 'collab', '--participant', OWNER);
      expect(frozen.status, frozen.stderr).toBe(0);
      const lines = readFileSync(LOG(cell), 'utf8').split('\n').filter(Boolean);
      writeFileSync(LOG(cell), `${lines.slice(0, -1).join('\n')}\n`);
      writeFileSync(join(cell.folder, 'protocol.json'), protocol);
    },
    fixed: `fixed: completed the interrupted freeze of ${PRIMARY}: appended seq 9 deliverable_frozen as ${OWNER}`,
  },
  'interrupted freeze, undone': {
    ready: true,
    damage: async (cell, store) => {
      await REPAIRS['interrupted freeze, completed']!.damage(cell, store);
      if (store === 'git') publishDamage(cell);
      // The folder moved on meanwhile: blocked, so no deliverable_frozen can be appended.
      const blocked = await keyedCli(cell, 'append', '--folder', 'collab', '--participant', OWNER, '--event', 'blocked', '--summary', 'Stop.', '--reply-to', '8');
      expect(blocked.status, blocked.stderr).toBe(0);
    },
    fixed: `fixed: undid the interrupted freeze of ${PRIMARY} (nobody may append its deliverable_frozen now)`,
  },
  'an abandoned lock and a temporary file': {
    local: true,
    damage: (cell) => {
      writeFileSync(join(cell.folder, '.acp.lock'), JSON.stringify({ pid: 2 ** 22 + 7, token: 'x', at: 0 }));
      writeFileSync(join(cell.folder, `.protocol.json.${2 ** 22 + 7}.abc123.tmp`), '{"half": ');
    },
    fixed: `fixed: removed .protocol.json.${2 ** 22 + 7}.abc123.tmp`,
  },
};

/**
 * The git cells `npm test` runs (a git cell costs seconds of git spawns);
 * the rest of the git column runs under ACP_FULL=1 (test/scale.ts). The
 * local and signed columns run in every size.
 */
const QUICK_GIT_REPAIRS = new Set(['stale cached state', 'interrupted freeze, undone']);

describe.concurrent('the store owns every write: init, doctor --fix, freeze completion', () => {
  for (const store of ['local', 'git', 'signed'] as const) {
    test(`init × ${store}`, async () => {
      const cell = store === 'git' ? await buildGitCell(false) : await opCell(store);
      expect(readFileSync(LOG(cell), 'utf8')).toMatch(/^\{"seq":1,"from":"alice","event":"initialized"/);
      // Made under the folder lock, which is gone again.
      expect(existsSync(join(cell.folder, '.acp.lock'))).toBe(false);
      if (store === 'git') {
        expect(onRemote(cell, 'events.jsonl')).toBe(readFileSync(LOG(cell), 'utf8'));
        expect(git(cell.remote!, 'log', '-1', '--format=%s', 'main')).toBe(`acp: seq 1 initialized by ${OWNER}\n`);
        expect(git(cell.work, 'status', '--porcelain', '--', 'collab')).toBe('');
      }
      if (store === 'signed') expect(await acp.verifySignatures(await acp.createNodeHost(), cell.folder)).toMatchObject({ errors: [], warnings: [] });
    });
    for (const [repair, { ready, events, local, damage, fixed, signedRefusal }] of Object.entries(REPAIRS)) {
      test.runIf(store !== 'git' || QUICK_GIT_REPAIRS.has(repair) || atLeast('full'))(`doctor --fix: ${repair} × ${store}`, async () => {
        const cell = await opCell(store, ready);
        if (events === 2) {
          writeFileSync(join(cell.folder, PRIMARY), draft.files[PRIMARY]!);
          const drafted = await keyedCli(cell, 'append', '--folder', 'collab', '--participant', draft.event.participant, '--event', draft.event.event, '--summary', draft.event.summary, '--doc', draft.event.doc!, '--reply-to', '1', '--role', 'primary');
          expect(drafted.status, drafted.stderr).toBe(0);
        }
        await damage(cell, store);
        // Clone-local leftovers are never published; every other damage is what a clone pushed.
        if (store === 'git' && !local) publishDamage(cell);
        const damaged = readFileSync(LOG(cell), 'utf8');
        const r = await keyedCli(cell, 'doctor', '--folder', 'collab', '--fix');
        if (store === 'signed' && signedRefusal) {
          expect(r.stdout).toContain(signedRefusal);
          expect(r.stdout).not.toContain('fixed:');
          expect(r.status).toBe(1);
          expect(readFileSync(LOG(cell), 'utf8')).toBe(damaged);
          return;
        }
        expect(r.stdout, r.stderr).toContain(fixed);
        expect(r.stdout).toMatch(/^ok: state: protocol\.json matches the log/m);
        expect(r.stdout).not.toMatch(/^PROBLEM: (?!git)/m);
        if (store === 'git') {
          // Published: the remote holds the repaired folder, and the clone has nothing left to push.
          expect(onRemote(cell, 'events.jsonl')).toBe(readFileSync(LOG(cell), 'utf8'));
          expect(onRemote(cell, 'protocol.json')).toBe(readFileSync(join(cell.folder, 'protocol.json'), 'utf8'));
          expect(git(cell.work, 'status', '--porcelain', '--', 'collab').split('\n').filter((l) => l && !/\.bak$/.test(l))).toEqual([]);
        }
        if (store === 'signed') expect((await acp.verifySignatures(await acp.createNodeHost(), cell.folder)).errors).toEqual([]);
      });
    }
  }
});

describe('init holds the folder lock while it writes', () => {
  test('an init that finds the new folder locked waits for the lock, and writes nothing until it has it', async () => {
    const root = newRoot();
    const folder = join(root, 'collab');
    mkdirSync(folder);
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry({ config: false });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let waited = false;
    const holder = acp.withFolderLock(host, folder, () => held);
    const made = acp.init(host, folder, { participants: [OWNER, 'bob'], objective: INIT.objective, completion: [...INIT.completion], primaryType: INIT.primaryType }, registry, {
      onLockWait: () => {
        waited = true;
        // Told while it waits: nothing of the folder is written yet.
        expect(existsSync(join(folder, 'events.jsonl'))).toBe(false);
        release();
      },
    });
    // Without the lock init would be done at once, never told to wait.
    const result = await made;
    release();
    await holder;
    expect(waited).toBe(true);
    expect(result.created).toBe(true);
    expect(existsSync(join(folder, '.acp.lock'))).toBe(false);
  });
});
