// The library API embedded in-process with the in-memory file system: a
// whole collaboration driven to `completed` without touching disk, waiting
// woken by another in-memory agent, AbortSignal, typed errors, the memory
// file system's semantics, and the embedding example of docs/embedding.md run verbatim.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  AcpAbortError,
  AcpError,
  AcpTimeoutError,
  type Collaboration,
  createMemoryFileSystem,
  createMemoryHost,
  openCollaboration,
  sha256Hex,
  validate,
  waitForTurn,
} from '../acp.ts';
import { FROZEN_SHA256, INIT, OWNER, PRIMARY, REVIEWER, STEPS } from './happy-path.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A folder path that does not exist on disk (so any disk write would be visible). */
function phantomFolder(): { top: string; folder: string } {
  const top = join('/', `acp-memory-${process.pid}-${Math.random().toString(36).slice(2)}`);
  expect(existsSync(top)).toBe(false);
  return { top, folder: join(top, 'collab') };
}

/** Reject if `promise` has not settled after `ms` (guards a hang, not a timing assertion). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** Whether `promise` is still pending after the current macrotask queue drains. */
async function isPending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  return !settled;
}

describe('embedding: a full collaboration in memory', () => {
  test('init → drafted → … → completed, then validate() is ok; nothing on disk', async () => {
    const { top, folder } = phantomFolder();
    const host = createMemoryHost();
    // Two agents, two hosts, one shared in-memory file system.
    const alice = await openCollaboration(folder, { host });
    const bob = await openCollaboration(folder, { host: createMemoryHost({ fs: host.fs, pid: 2 }), registry: alice.registry });
    const agents: Record<string, Collaboration> = { [OWNER]: alice, [REVIEWER]: bob };

    const created = await alice.init(INIT);
    expect(created.created).toBe(true);
    expect(created.files).toContain('protocol.json');
    expect((await alice.state()).phase).toBe('drafting');

    for (const step of STEPS) {
      for (const [rel, text] of Object.entries(step.files)) await host.fs.writeFile(join(folder, rel), text);
      const request = { ...step.event };
      if (request.event === 'deliverable_frozen') {
        // The receipt is the SHA-256 of the in-memory file.
        request.sha256 = await sha256Hex(await host.fs.readFile(join(folder, PRIMARY)));
        expect(request.sha256).toBe(FROZEN_SHA256);
      }
      const result = await agents[request.participant]!.append(request);
      expect(result.event.event).toBe(request.event);
      expect(result.state.phase).toBe(step.phase);
      expect(result.state.waitingFor).toEqual(step.waitingFor);
    }

    expect(await alice.validate()).toEqual({ ok: true, errors: [], warnings: [] });
    expect(await validate(host, folder, alice.registry)).toMatchObject({ ok: true });
    expect((await alice.state()).phase).toBe('completed');
    expect((await bob.next(REVIEWER)).action).toBe('stop; collaboration is complete.');

    const files = [...host.fs.snapshot().keys()].map((p) => p.slice(folder.length + 1)).sort();
    expect(files).toEqual(expect.arrayContaining(['conclusion.md', 'events.jsonl', PRIMARY, 'protocol.json', 'readiness.md', 'review.md']));
    const log = new TextDecoder().decode(await host.fs.readFile(join(folder, 'events.jsonl')));
    expect(log.trim().split('\n')).toHaveLength(STEPS.length + 1);
    expect(existsSync(top)).toBe(false);
  });

  test('waitForTurn wakes when another agent appends in memory (no polling needed)', async () => {
    const { top, folder } = phantomFolder();
    const host = createMemoryHost();
    const alice = await openCollaboration(folder, { host });
    await alice.init(INIT);
    for (const [rel, text] of Object.entries(STEPS[0]!.files)) await host.fs.writeFile(join(folder, rel), text);
    await alice.append(STEPS[0]!.event);

    const bob = await openCollaboration(folder, { host: createMemoryHost({ fs: host.fs, pid: 2 }), registry: alice.registry });
    const progress: string[] = [];
    // An hour between polls: only the file-system notification can wake it.
    const waiting = bob.wait(REVIEWER, { intervalSeconds: 3600, timeoutSeconds: 0, onProgress: (line) => progress.push(line) });
    expect(await isPending(waiting)).toBe(true);
    expect(progress).toEqual(['waiting: waiting for alice after seq 2']);

    await alice.append(STEPS[1]!.event);
    const result = await within(waiting, 10_000, 'waitForTurn after an in-memory append');
    expect(result.reason).toBe('ready: bob is listed in waitingFor');
    expect(result.next.phase).toBe('reviewing');
    expect(result.next.action).toMatch(/^review proposal\.md/);
    expect(existsSync(top)).toBe(false);
  });

  test('an AbortSignal stops waitForTurn with AcpAbortError; timeouts are AcpTimeoutError', async () => {
    const { folder } = phantomFolder();
    const host = createMemoryHost();
    const alice = await openCollaboration(folder, { host });
    await alice.init(INIT);

    const controller = new AbortController();
    const waiting = waitForTurn(host, folder, REVIEWER, { intervalSeconds: 3600, timeoutSeconds: 0, signal: controller.signal });
    expect(await isPending(waiting)).toBe(true);
    controller.abort();
    const error = await within(waiting.catch((e: unknown) => e), 10_000, 'aborted waitForTurn');
    expect(error).toBeInstanceOf(AcpAbortError);
    expect(error).toBeInstanceOf(AcpError);

    // Already aborted: refuses at once.
    await expect(alice.wait(REVIEWER, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AcpAbortError);
    // Out of time: a typed error carrying the last state, not an exit.
    const timeout = await alice.wait(REVIEWER, { timeoutSeconds: 0.05, intervalSeconds: 0.01 }).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(AcpTimeoutError);
    expect((timeout as AcpTimeoutError).message).toBe('timeout: waiting for alice after seq 1');
    // The owner is already listed: no waiting at all.
    expect((await alice.wait(OWNER)).reason).toBe('ready: alice is listed in waitingFor');
  });

  test('refusals are AcpError values with the protocol messages; the folder is unchanged', async () => {
    const { folder } = phantomFolder();
    const host = createMemoryHost();
    const collab = await openCollaboration(folder, { host });

    const missing = await collab.append({ participant: OWNER, event: 'blocked', summary: 'x' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AcpError);
    expect((missing as AcpError).message).toBe(`missing protocol.json in ${folder}`);
    expect((missing as AcpError).exitCode).toBe(2);
    expect((missing as AcpError).code).toBe('invalid_folder');

    await collab.init(INIT);
    const before = host.fs.snapshot();
    await expect(collab.append({ participant: 'mallory', event: 'blocked', summary: 'x', replyTo: 1 })).rejects.toThrow(
      new AcpError("participant 'mallory' is not listed in protocol.json", 2, 'unknown_participant'),
    );
    await expect(collab.append({ participant: OWNER, event: 'proposal_submitted', summary: 'x', doc: 'proposal.md' })).rejects.toThrow(
      'reply_to is required after initialized',
    );
    const phase = await collab.append({ participant: OWNER, event: 'completed', summary: 'x', doc: 'conclusion.md', replyTo: 1 }).catch((e: unknown) => e);
    expect(phase).toBeInstanceOf(AcpError);
    expect((phase as AcpError).messages).toEqual(['seq 2: completed requires a prior readiness_passed event']);
    expect((phase as AcpError).code).toBe('invalid_event');
    await expect(collab.init(INIT)).rejects.toThrow('collaboration folder already contains protocol.json; use --resume to acknowledge it');
    await expect(collab.next('mallory')).rejects.toBeInstanceOf(AcpError);
    expect(host.fs.snapshot()).toEqual(before);

    // Several failures at once: one error, every message kept.
    await host.fs.appendFile(join(folder, 'events.jsonl'), 'not json\n[1]\n');
    const many = await collab.append({ participant: OWNER, event: 'blocked', summary: 'x', replyTo: 1 }).catch((e: unknown) => e);
    expect(many).toBeInstanceOf(AcpError);
    expect((many as AcpError).messages).toEqual([expect.stringMatching(/^events\.jsonl line 2: invalid JSON: /), 'events.jsonl line 3: event must be an object']);
    expect((many as AcpError).message).toBe((many as AcpError).messages.join('; '));
  });
});

describe('the in-memory file system', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  const dec = (b: Uint8Array): string => new TextDecoder().decode(b);
  const code = (p: Promise<unknown>): Promise<unknown> => p.then(
    () => 'ok',
    (e: { code?: string }) => e.code,
  );

  test('files, directories, exclusive create, append, truncate, stat, readDir', async () => {
    const fs = createMemoryFileSystem({ files: { '/seed/a.txt': 'seeded' }, now: () => 1234 });
    expect(dec(await fs.readFile('/seed/a.txt'))).toBe('seeded');
    expect(await code(fs.writeFile('/nope/x', 'x'))).toBe('ENOENT');
    expect(await code(fs.readFile('/seed/missing'))).toBe('ENOENT');
    expect(await code(fs.readFile('/seed'))).toBe('EISDIR');
    expect(await code(fs.readFile('relative/path'))).toBe('EINVAL');

    await fs.mkdir('/d/e/f');
    await fs.mkdir('/d/e/f');
    await fs.writeFile('/d/e/f/lock', 'one', { exclusive: true });
    expect(await code(fs.writeFile('/d/e/f/lock', 'two', { exclusive: true }))).toBe('EEXIST');
    expect(dec(await fs.readFile('/d/e/f/lock'))).toBe('one');
    expect(await code(fs.mkdir('/d/e/f/lock'))).toBe('EEXIST');
    expect(await code(fs.writeFile('/d/e/f/lock/x', 'x'))).toBe('ENOTDIR');

    await fs.appendFile('/d/log', 'a\n');
    await fs.appendFile('/d/log', enc('b\n'));
    expect(dec(await fs.readFile('/d/log'))).toBe('a\nb\n');
    await fs.truncate('/d/log', 2);
    expect(dec(await fs.readFile('/d/log'))).toBe('a\n');
    await fs.truncate('/d/log', 4);
    expect([...(await fs.readFile('/d/log'))]).toEqual([97, 10, 0, 0]);

    expect(await fs.stat('/d/log')).toEqual({ isFile: true, isDirectory: false, isSymlink: false, size: 4, mtimeMs: 1234 });
    expect(await fs.stat('/d/e')).toMatchObject({ isFile: false, isDirectory: true });
    expect(await fs.stat('/d/none')).toBeNull();
    expect(await fs.stat('/d/log/below')).toBeNull();
    expect(await fs.readDir('/d')).toEqual(['e', 'log']);
    expect(await fs.readDir('/')).toEqual(['d', 'seed']);
    expect(await code(fs.readDir('/d/log'))).toBe('ENOTDIR');

    // Returned bytes are copies: mutating them changes nothing.
    (await fs.readFile('/seed/a.txt'))[0] = 0;
    expect(dec(await fs.readFile('/seed/a.txt'))).toBe('seeded');

    await fs.remove('/d/log');
    await fs.remove('/d/log');
    expect(await fs.stat('/d/log')).toBeNull();
    expect(await code(fs.remove('/d/e'))).toBe('EISDIR');
  });

  test('rename replaces atomically and moves directories', async () => {
    const fs = createMemoryFileSystem();
    await fs.mkdir('/f');
    await fs.writeFile('/f/protocol.json', 'old');
    await fs.writeFile('/f/.protocol.json.tmp', 'new');
    await fs.rename('/f/.protocol.json.tmp', '/f/protocol.json');
    expect(dec(await fs.readFile('/f/protocol.json'))).toBe('new');
    expect(await fs.readDir('/f')).toEqual(['protocol.json']);
    expect(await code(fs.rename('/f/missing', '/f/x'))).toBe('ENOENT');
    expect(await code(fs.rename('/f/protocol.json', '/g/x'))).toBe('ENOENT');

    await fs.rename('/f', '/moved');
    expect(dec(await fs.readFile('/moved/protocol.json'))).toBe('new');
    expect(await fs.stat('/f')).toBeNull();
    expect(await code(fs.rename('/moved', '/moved/inside'))).toBe('EINVAL');
  });

  test('symlinks: realpath, stat, reads and writes through links, loops', async () => {
    const fs = createMemoryFileSystem();
    await fs.mkdir('/real/dir');
    await fs.writeFile('/real/dir/file.md', 'text');
    await fs.symlink('/real/dir', '/link');
    await fs.symlink('dir/file.md', '/real/rel');
    expect(await fs.realpath('/link/file.md')).toBe('/real/dir/file.md');
    expect(await fs.realpath('/real/rel')).toBe('/real/dir/file.md');
    expect(await fs.realpath('/real/./dir/../dir/')).toBe('/real/dir');
    expect(await code(fs.realpath('/link/missing'))).toBe('ENOENT');
    expect(await fs.stat('/link')).toMatchObject({ isDirectory: true, isSymlink: true });
    expect(dec(await fs.readFile('/real/rel'))).toBe('text');
    await fs.writeFile('/link/file.md', 'changed');
    expect(dec(await fs.readFile('/real/dir/file.md'))).toBe('changed');
    expect(await fs.readDir('/link')).toEqual(['file.md']);

    await fs.symlink('/nowhere', '/dangling');
    expect(await fs.stat('/dangling')).toMatchObject({ isFile: false, isDirectory: false, isSymlink: true });
    expect(await code(fs.writeFile('/dangling', 'x', { exclusive: true }))).toBe('EEXIST');
    await fs.symlink('/loop-b', '/loop-a');
    await fs.symlink('/loop-a', '/loop-b');
    expect(await code(fs.realpath('/loop-a'))).toBe('ELOOP');
    expect(await fs.stat('/loop-a')).toMatchObject({ isSymlink: true, isFile: false });
    // Removing a link removes the link, not its target.
    await fs.remove('/real/rel');
    expect(dec(await fs.readFile('/real/dir/file.md'))).toBe('changed');
  });

  test('watch notifies synchronously on changes in the directory until stopped', async () => {
    const fs = createMemoryFileSystem();
    await fs.mkdir('/w/sub');
    let calls = 0;
    const stop = fs.watch('/w', () => calls++);
    fs.watch('/w', () => {
      throw new Error('a failing watcher does not break writers');
    });
    const write = fs.writeFile('/w/a', 'x');
    expect(calls).toBe(1); // before the promise is even awaited
    await write;
    await fs.appendFile('/w/a', 'y');
    await fs.rename('/w/a', '/w/b');
    await fs.truncate('/w/b', 0);
    await fs.remove('/w/b');
    expect(calls).toBe(6); // rename tells both ends (same directory here)
    await fs.writeFile('/w/sub/deep', 'x');
    await fs.writeFile('/elsewhere', 'x');
    expect(calls).toBe(6);
    stop();
    await fs.writeFile('/w/c', 'x');
    expect(calls).toBe(6);
  });
});

describe('docs/embedding.md: the embedding example', () => {
  test('runs exactly as printed and touches no disk', async () => {
    const page = readFileSync(join(REPO, 'docs', 'embedding.md'), 'utf8');
    const match = /```ts\n(\/\/ embed\.ts[\s\S]*?)```/.exec(page);
    expect(match, 'docs/embedding.md has a ```ts block starting with // embed.ts').not.toBeNull();
    const code = match![1]!;
    expect(code).toContain("from 'acp-collab'");
    const dir = mkdtempSync(join(tmpdir(), 'acp-readme-'));
    try {
      const file = join(dir, 'embed.ts');
      writeFileSync(file, code.replace("from 'acp-collab'", `from ${JSON.stringify(pathToFileURL(join(REPO, 'acp.ts')).href)}`));
      const printed: unknown[][] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => void printed.push(args);
      try {
        await import(pathToFileURL(file).href);
      } finally {
        console.log = log;
      }
      // The comments in the example say what each line prints.
      const expected = [...code.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((m) => m[1]!);
      expect(printed.map((args) => args.map(String).join(' '))).toEqual(expected.map((e) => expect.stringMatching(new RegExp(`^${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('…', '.*')}$`))));
      expect(existsSync('/sandbox')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
