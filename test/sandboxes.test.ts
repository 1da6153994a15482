// acp inside the agents' own sandboxes (issue 41): Codex's, srt and
// bubblewrap with --unshare-all (test/sandboxes.ts installs and tries them),
// configured exactly as docs/agents.md "In a sandbox" says. Each agent runs in
// its own sandbox instance; the instances share one collaboration folder.
//
// Quick (`npm test`), where the sandboxes run: in Codex's and srt, `acp key`
// without the documented setting (the documented refusal) and with it; in
// Codex's, one signed collaboration of two agents to completion. Full (ACP_FULL=1,
// `npm run test:all`, where the sandboxes are required): the collaboration in
// srt and everything in bubblewrap too, MCP over stdio into each sandbox, `wait` wake-ups across
// two instances (p50/p99 printed, never asserted) and 16 writers split over
// sandbox instances (0 lost, 0 duplicated, 0 lock timeouts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appendArgs, initArgs, OWNER, REVIEWER, STEPS } from './happy-path.ts';
import { DIST, DIST_URL, makeFolder, racerAppend, readLines, writeWorker } from './reliability/fixture.ts';
import { documentedEnv, installSandboxes, SANDBOX_NAMES, type SandboxName, sandboxBaseEnv, sandboxDocs, sandboxed, sandboxProblem, sandboxSection } from './sandboxes.ts';
import { atLeast, byScale } from './scale.ts';

const FULL = atLeast('full');
const MATRIX: SandboxName[] = FULL ? [...SANDBOX_NAMES] : ['codex', 'srt'];
/** Wake-ups measured per sandbox (test:all). */
const WAKEUPS = 12;
/** The race: writers (split over sandbox instances), appends each. */
const WRITERS = 16;
const APPENDS = byScale({ quick: 0, full: 5, long: 20 });

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A fresh PARENT (the folder holding the collaboration folder), outside every sandbox's own scratch. */
function freshParent(): string {
  const root = mkdtempSync(join(tmpdir(), 'acp-sandbox-'));
  roots.push(root);
  const parent = join(root, 'work');
  mkdirSync(parent);
  return parent;
}

const docs = sandboxDocs();
const problems = new Map<SandboxName, string | undefined>();
beforeAll(() => {
  const install = installSandboxes();
  const probe = freshParent();
  for (const name of MATRIX) problems.set(name, install && name !== 'bwrap' ? install : sandboxProblem(name, docs, probe));
  const skipped = [...problems].filter(([, problem]) => problem);
  if (skipped.length && FULL) throw new Error(`the sandbox matrix cannot run: ${skipped.map(([name, why]) => `${name}: ${why}`).join('; ')}`);
  for (const [name, why] of skipped) console.warn(`skipped: the ${name} sandbox tests: ${why}`);
});

/**
 * Agent `agent`'s working directory: a folder of its own in PARENT, as docs/agents.md asks (srt guards
 * the dotfiles of each instance's working directory, and instances started in one directory trip over
 * each other's guards).
 */
function workingDir(parent: string, agent: string): string {
  const dir = join(parent, '.acp-state', agent);
  mkdirSync(dir, { recursive: true });
  return dir;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `argv` in a fresh instance of `name` for agent `agent` (documented env unless `bare`). */
function inSandbox(name: SandboxName, parent: string, agent: string, argv: string[], bare = false): Promise<Run> {
  const { command, args, cwd } = sandboxed(name, docs, parent, argv, workingDir(parent, agent));
  const env = { ...sandboxBaseEnv(), ...(bare ? {} : documentedEnv(docs, parent, agent)) };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The noise a sandbox itself prints on stderr (Codex's notice about its helper aliases). */
function ownLines(stderr: string): string {
  return stderr.split('\n').filter((line) => line && !/^WARNING: proceeding/.test(line)).join('\n');
}

/** An agent following SKILL.md's loop in one process: `wait`, write its files, `append`, `wait` again; its steps in a JSON file. */
function writeAgent(parent: string): string {
  const path = join(parent, 'agent.mjs');
  writeFileSync(
    path,
    `import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
const [acp, folder, me, stepsFile] = process.argv.slice(2);
const run = (args) => {
  const r = spawnSync(process.execPath, [acp, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(args[0] + ' exited ' + r.status + ': ' + r.stderr);
};
const lines = () => (existsSync(join(folder, 'events.jsonl')) ? readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\\n').length - 1 : 0);
for (const step of JSON.parse(readFileSync(stepsFile, 'utf8'))) {
  if (step.participant !== me) continue;
  run(['wait', '--folder', folder, '--participant', me, '--timeout', '120']);
  // Two agents' turns at once (decision_review): each answers the event its step replies to.
  while (lines() < step.after) await new Promise((r) => setTimeout(r, 20));
  for (const [file, text] of Object.entries(step.files)) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), text);
  }
  run(step.args);
}
`,
  );
  return path;
}

/** The whole happy path, signed, by two agents each in its own instance of `name`. */
async function collaborate(name: SandboxName, parent: string): Promise<string> {
  const folder = join(parent, 'collab');
  const init = await inSandbox(name, parent, OWNER, ['node', DIST, ...initArgs(folder), '--sign']);
  expect(ownLines(init.stderr), 'signed init').toBe('');
  expect(init.code).toBe(0);
  const steps = STEPS.map((step) => ({ participant: step.event.participant, files: step.files, after: step.event.replyTo, args: appendArgs(folder, step.event) }));
  writeFileSync(join(parent, 'steps.json'), JSON.stringify(steps));
  const agent = writeAgent(parent);
  const runs = await Promise.all([OWNER, REVIEWER].map((me) => inSandbox(name, parent, me, ['node', agent, DIST, folder, me, join(parent, 'steps.json')])));
  for (const run of runs) expect(ownLines(run.stderr)).toBe('');
  expect(runs.map((run) => run.code)).toEqual([0, 0]);
  return folder;
}

describe.each(MATRIX)('inside %s', (name) => {
  const skip = (): boolean => problems.get(name) !== undefined;

  test('acp key: the documented refusal without ACP_SIGNING_KEY_DIR, a key with it', async ({ skip: skipTest }) => {
    if (skip()) return skipTest(problems.get(name));
    const parent = freshParent();
    const bare = await inSandbox(name, parent, OWNER, ['node', DIST, 'key', '--participant', OWNER], true);
    expect(bare.code).toBe(2);
    expect(ownLines(bare.stderr)).toMatch(/^error: cannot write the signing key \S+: \S+ is not writable here \(.+\); set ACP_SIGNING_KEY_DIR to a writable folder outside the collaboration folder$/);
    const keyed = await inSandbox(name, parent, OWNER, ['node', DIST, 'key', '--participant', OWNER]);
    expect(ownLines(keyed.stderr)).toBe('');
    expect(keyed.code).toBe(0);
    const keys = documentedEnv(docs, parent, OWNER).ACP_SIGNING_KEY_DIR!;
    expect(readdirSync(keys)).toEqual([expect.stringMatching(/^alice-[0-9a-f]{12}\.jwk$/)]);
    expect(keyed.stdout).toBe(`alice=${keyed.stdout.slice(6, 49)}\n(private key: ${join(keys, readdirSync(keys)[0]!)})\n`);
  });

  // npm test: one collaboration, in Codex's sandbox (the quicker to start); test:all: in each.
  test.runIf(FULL || name === 'codex')('a signed collaboration of two agents, each in its own instance, to completion', async ({ skip: skipTest }) => {
    if (skip()) return skipTest(problems.get(name));
    const folder = await collaborate(name, freshParent());
    const events = readLines(folder);
    expect(events.at(-1)).toMatchObject({ event: 'completed' });
    expect(events.every((event) => typeof event.sig === 'string' || 'signing' in event)).toBe(true);
    const validate = spawnSync(process.execPath, [DIST, 'validate', '--folder', folder], { encoding: 'utf8' });
    expect(validate.stderr).toBe(`note: ${events.length} signatures verified\n`);
    expect(validate.status).toBe(0);
  });
});

/** A tool call's text, failing the test when the tool refused. */
async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text?: string }[]; isError?: boolean };
  const text = result.content.map((c) => c.text ?? '').join('');
  expect(result.isError ?? false, `${name}: ${text}`).toBe(false);
  return text;
}

/** The value at fraction `q` of sorted `values` (nearest rank). */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** `acp wait` in a fresh instance of `name`: `watching` once it said it waits, `woke` at the wall-clock time it said it is ready. */
function waitInSandbox(name: SandboxName, parent: string, agent: string, argv: string[]): { watching: Promise<void>; woke: Promise<number>; done: Promise<number | null> } {
  const { command, args, cwd } = sandboxed(name, docs, parent, argv, workingDir(parent, agent));
  const child = spawn(command, args, { cwd, env: { ...sandboxBaseEnv(), ...documentedEnv(docs, parent, agent) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let resolveWatching = (): void => undefined;
  const watching = new Promise<void>((resolve) => (resolveWatching = resolve));
  const woke = new Promise<number>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (/^waiting: /m.test(stdout)) resolveWatching();
      if (/^ready: /m.test(stdout)) resolve(Date.now());
    }),
  );
  const done = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { watching, woke, done };
}

describe.runIf(FULL).each(MATRIX)('inside %s (test:all)', (name) => {
  test('MCP over stdio: the client outside, acp mcp inside, a collaboration started and advanced', async () => {
    const parent = freshParent();
    // Node inside Codex's sandbox hears nothing on a stdin, and is not heard on a stdout, that is a socket,
    // which is what a Node client's stdio is: `cat` on each side hands it pipes, as Codex itself and a shell do.
    const server = ['node', DIST, 'mcp', '--root', parent];
    const { command, args, cwd } = sandboxed(name, docs, parent, name === 'codex' ? ['sh', '-c', 'cat | "$@" | cat', 'sh', ...server] : server, workingDir(parent, OWNER));
    const client = new Client({ name: 'outside', version: '1.0.0' });
    const transport = new StdioClientTransport({ command, args, cwd, stderr: 'pipe', env: { ...sandboxBaseEnv(), ...documentedEnv(docs, parent, OWNER), NO_COLOR: '1' } });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    try {
      await client.connect(transport);
    } catch (error) {
      throw new Error(`the MCP server in ${name} closed: ${ownLines(stderr)}`, { cause: error });
    }
    try {
      await tool(client, 'init', { folder: 'collab', participants: [OWNER, REVIEWER], objective: 'o', completion: ['g'], primary_deliverable_type: 'design-spec' });
      const step = STEPS[0]!;
      for (const [doc, content] of Object.entries(step.files)) await tool(client, 'write_document', { folder: 'collab', doc, content });
      await tool(client, 'append', { folder: 'collab', participant: step.event.participant, event: step.event.event, summary: step.event.summary, doc: step.event.doc, reply_to: step.event.replyTo, role: step.event.role });
      expect(await tool(client, 'status', { folder: 'collab' })).toContain('drafting');
    } finally {
      await client.close();
    }
    expect(readLines(join(parent, 'collab')).map((event) => event.event)).toEqual(['initialized', 'deliverable_drafted']);
  });

  test(`wait wakes across two instances (${WAKEUPS} hand-overs; p50/p99 printed)`, async () => {
    const latencies: number[] = [];
    for (let i = 0; i < WAKEUPS; i++) {
      const parent = freshParent();
      const folder = join(parent, 'collab');
      for (const argv of [initArgs(folder), appendArgs(folder, STEPS[0]!.event)]) expect(spawnSync(process.execPath, [DIST, ...argv]).status).toBe(0);
      for (const [file, text] of Object.entries(STEPS[1]!.files)) writeFileSync(join(folder, file), text);
      // bob waits in one instance (a long fallback poll, so that only a wake-up is fast) while alice hands over from another.
      const waiter = waitInSandbox(name, parent, REVIEWER, ['node', DIST, 'wait', '--folder', folder, '--participant', REVIEWER, '--interval', '30', '--timeout', '120']);
      await waiter.watching;
      const appended = await inSandbox(name, parent, OWNER, ['node', DIST, ...appendArgs(folder, STEPS[1]!.event)]);
      expect(appended.code, ownLines(appended.stderr)).toBe(0);
      const woke = await waiter.woke;
      expect(await waiter.done).toBe(0);
      // From the hand-over's line reaching events.jsonl (its mtime, the kernel's clock) to bob's first output.
      latencies.push(woke - statSync(join(folder, 'events.jsonl')).mtimeMs);
    }
    console.log(`sandbox ${name}: wait wake-up across two instances over ${WAKEUPS} hand-overs: p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p99 ${quantile(latencies, 0.99).toFixed(0)} ms`);
    // Without a wake-up the 30 s fallback poll would answer: each hand-over must be a wake-up.
    expect(Math.max(...latencies)).toBeLessThan(30_000);
  });

  test(`${WRITERS} writers in four instances race one folder: nothing lost, nothing twice, no lock timeout`, async () => {
    const parent = freshParent();
    const writers = Array.from({ length: WRITERS }, (_, i) => `w${i}`);
    const folder = await makeFolder(parent, writers);
    const worker = writeWorker(parent);
    // Four instances of four writer processes each: sixteen instances starting at once on a loaded machine
    // outrun srt's own one-second check that bwrap is installed.
    const script = 'for w in "$@"; do node "$0" "$URL" "$FOLDER" "$w" "$COUNT" > "results/$w.json" & done; wait';
    mkdirSync(join(parent, 'results'));
    const groups = [0, 1, 2, 3].map((group) => writers.filter((_, i) => i % 4 === group));
    const runs = await Promise.all(groups.map((group) => inSandbox(name, parent, group[0]!, ['env', `URL=${DIST_URL}`, `FOLDER=${folder}`, `COUNT=${APPENDS}`, 'sh', '-c', `cd ${parent} && ${script}`, worker, ...group])));
    for (const run of runs) expect(run.code, ownLines(run.stderr)).toBe(0);
    const results = writers.map((writer) => JSON.parse(readFileSync(join(parent, 'results', `${writer}.json`), 'utf8')) as { ok: { summary: string; seq: number }[]; failed: { stderr: string }[] });
    const ok = results.flatMap((result) => result.ok);
    const failed = results.flatMap((result) => result.failed);
    const lockTimeouts = failed.filter((failure) => /lock/i.test(failure.stderr)).length;
    const events = readLines(folder).slice(1);
    const summaries = events.map((event) => event.summary);
    const lost = ok.filter((append) => !summaries.includes(append.summary)).length;
    const duplicated = summaries.length - new Set(summaries).size;
    console.log(`sandbox ${name}: ${WRITERS} writers × ${APPENDS} appends: ${ok.length} appended, ${lost} lost, ${duplicated} duplicated, ${lockTimeouts} lock timeouts, ${failed.length} failed${failed.length ? ` (first: ${failed[0]!.stderr.trim()})` : ''}`);
    expect({ lost, duplicated, lockTimeouts, failed: failed.length, appended: ok.length }).toEqual({ lost: 0, duplicated: 0, lockTimeouts: 0, failed: 0, appended: WRITERS * APPENDS });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 2));
  });
});

test('SKILL.md says what docs/agents.md says about sandboxes, word for word; the settings parse', () => {
  expect(JSON.parse(docs.srt)).toMatchObject({ filesystem: { allowWrite: ['PARENT'] }, network: { allowedDomains: [] } });
  expect(docs.codex).toEqual(['codex', 'sandbox', '-c', 'sandbox_mode="workspace-write"', '-c', 'sandbox_workspace_write.writable_roots=["PARENT"]', '--']);
  expect(docs.env.map((line) => line.split('=')[0])).toEqual(['ACP_SIGNING_KEY_DIR', 'XDG_STATE_HOME']);
  const skill = sandboxSection('skills/agent-collaboration/SKILL.md');
  const agents = sandboxSection('docs/agents.md');
  expect(agents.startsWith(skill.trimEnd())).toBe(true);
  expect(sandboxDocs('skills/agent-collaboration/SKILL.md')).toEqual(docs);
});

test('outside any sandbox too: a home that cannot hold the keys gets the documented refusal, for acp key and a signed init, and the folder is not made', () => {
  const parent = freshParent();
  // A home whose state folder cannot exist (its parent is a file): ENOTDIR, as root meets no EROFS outside a sandbox.
  writeFileSync(join(parent, 'home'), '');
  const env = { ...sandboxBaseEnv(), HOME: join(parent, 'home', 'inside') };
  const folder = join(parent, 'collab');
  for (const argv of [['key', '--participant', OWNER], [...initArgs(folder), '--sign']]) {
    const r = spawnSync(process.execPath, [DIST, ...argv], { env, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: cannot write the signing key \S+\/\.local\/state\/acp\/keys\/alice-[0-9a-f]{12}\.jwk: \S+ is not writable here \(a parent is not a folder\); set ACP_SIGNING_KEY_DIR to a writable folder outside the collaboration folder\n$/);
  }
  expect(readdirSync(parent)).toEqual(['home']);
});

test('outside any sandbox too: validate of a long log without a writable state folder runs in full and says so once', async () => {
  const parent = freshParent();
  const folder = await makeFolder(parent, [OWNER, REVIEWER]);
  // Past the checkpoint's 64 KiB threshold in a few appends (long summaries).
  for (let i = 0; i < 9; i++) expect(spawnSync(process.execPath, [DIST, ...racerAppend(folder, OWNER, `${i} ${'x'.repeat(8000)}`)]).status).toBe(0);
  writeFileSync(join(parent, 'home'), '');
  const env = { ...sandboxBaseEnv(), HOME: join(parent, 'home', 'inside') };
  const before = readdirSync(folder).sort();
  const r = spawnSync(process.execPath, [DIST, 'validate', '--folder', folder], { env, encoding: 'utf8' });
  expect(r.stdout).toBe('ACP validation passed\n');
  expect(r.stderr).toMatch(/^note: no validation checkpoint, so every validate checks the whole log: \S+\/\.local\/state\/acp is not writable here \(a parent is not a folder\); set XDG_STATE_HOME to a writable folder to keep one\n$/);
  expect(r.status).toBe(0);
  expect(readdirSync(folder).sort()).toEqual(before);
});

describe('without a network (bubblewrap --unshare-all)', () => {
  const gitEnv = { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.org', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.org' };
  const git = (cwd: string, ...args: string[]): void => {
    const r = spawnSync('git', args, { cwd, env: { ...process.env, ...gitEnv }, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };

  test('the git transport fails at once naming the sandbox\'s network rule; wait --git says once that it waits offline', async ({ skip: skipTest }) => {
    const parent = freshParent();
    const problem = sandboxProblem('bwrap', docs, parent);
    if (problem) return skipTest(problem);
    git(parent, 'init', '-q', '--bare', '-b', 'main', 'remote.git');
    git(parent, 'clone', '-q', 'remote.git', 'clone');
    const clone = join(parent, 'clone');
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'root');
    git(clone, 'push', '-q', 'origin', 'main');
    const init = spawnSync(process.execPath, [DIST, ...initArgs('collab'), '--git'], { cwd: clone, env: { ...process.env, ...gitEnv }, encoding: 'utf8' });
    expect(init.status, init.stderr).toBe(0);
    // The remote now needs a network, which the sandbox has none of (a name that resolves nowhere, even with one).
    git(clone, 'remote', 'set-url', 'origin', 'http://acp-remote.invalid/collab.git');
    const run = (argv: string[]): Promise<Run> => {
      const { command, args } = sandboxed('bwrap', docs, parent, ['env', ...Object.entries(gitEnv).map(([k, v]) => `${k}=${v}`), 'node', DIST, ...argv], clone);
      return new Promise((resolve) => {
        const child = spawn(command, args, { cwd: clone, env: sandboxBaseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
        let [stdout, stderr] = ['', ''];
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    };
    const rule = "no network reaches the remote from here: an agent's sandbox denies the network unless told";
    const append = await run(['append', '--git', '--folder', 'collab', '--participant', OWNER, '--event', 'blocked', '--summary', 's', '--reply-to', '1']);
    expect(append.code).toBe(2);
    expect(append.stderr).toMatch(/^error: git fetch from 'origin' failed: .*Could not resolve host: acp-remote\.invalid; no network reaches the remote from here: .*allow the remote's host in the sandbox's network rule/);
    expect(append.stderr).toContain(rule);
    const wait = await run(['wait', '--git', '--folder', 'collab', '--participant', REVIEWER, '--timeout', '2']);
    expect(wait.code).toBe(1);
    expect(wait.stdout.split('\n').filter((line) => line.includes('(waiting offline: local changes are seen meanwhile, the remote once the network is back)'))).toHaveLength(1);
  });
});
