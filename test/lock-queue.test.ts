// Writers of one process queue for a folder's lock (runtime/files.ts,
// localTurn) instead of polling the lock file while a neighbour holds it;
// the file lock still guards against other processes. Real folders, the
// Node host.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Host, type Registry, append, createNodeHost, createRegistry, init, validate, withFolderLock } from '../acp.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const work = mkdtempSync(join(tmpdir(), 'acp-lock-queue-'));
let host: Host;
let registry: Registry;
beforeAll(async () => {
  host = await createNodeHost({ checkpointKeyFile: join(work, 'checkpoint.key') });
  registry = await createRegistry();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function folder(name: string): Promise<string> {
  const path = join(work, name);
  await init(host, path, { participants: ['alice', 'bob'], objective: 'Queue the writers', completion: ['All appends land'], primaryType: 'adr' }, registry);
  return path;
}

/** A lock held until the returned release is called. */
async function holdLock(path: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const held = new Promise<void>((resolve) => (taken = resolve));
  const done = withFolderLock(host, path, async () => {
    taken();
    await gate;
  });
  await held;
  return async () => {
    release();
    await done;
  };
}

describe('in-process writers queue for the lock', () => {
  test('16 concurrent library appends all land, numbered without gaps, and the folder validates', async () => {
    const path = await folder('sixteen');
    const request = { participant: 'alice', event: 'deliverable_drafted', summary: 'concurrent', replyTo: 1, role: 'primary', doc: 'deliverables/adr.md' } as const;
    const results = await Promise.all(Array.from({ length: 16 }, () => Promise.all([1, 2, 3].map(() => append(host, path, request, registry)))));
    expect(results.flat().map((r) => r.event.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 48 }, (_, i) => i + 2));
    const seqs = readFileSync(join(path, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).seq);
    expect(seqs).toEqual(Array.from({ length: 49 }, (_, i) => i + 1));
    expect((await validate(host, path, registry)).errors).toEqual([]);
  });

  test('a queued writer times out at its deadline with the file lock\'s message, naming the holder', async () => {
    const path = await folder('timeout');
    const release = await holdLock(path);
    try {
      const told: string[] = [];
      const started = Date.now();
      await expect(withFolderLock(host, path, async () => 'never', { timeoutMs: 1300, onWait: (m) => told.push(m) })).rejects.toMatchObject({
        code: 'lock_timeout',
        message: expect.stringMatching(new RegExp(`^timed out waiting for the lock on .* \\(held by pid ${process.pid}`)),
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1200);
      // Told once, after a second, who holds it.
      expect(told).toEqual([expect.stringMatching(new RegExp(`^waiting for the lock on .*: held by pid ${process.pid}`))]);
    } finally {
      await release();
    }
    // The queue is clear afterwards: the next writer gets the lock at once.
    expect(await withFolderLock(host, path, async () => 'free', { timeoutMs: 500 })).toBe('free');
  });

  test('the queue is per folder: a lock held on one does not hold up another', async () => {
    const [a, b] = [await folder('a'), await folder('b')];
    const release = await holdLock(a);
    try {
      expect(await withFolderLock(host, b, async () => 'b done', { timeoutMs: 500 })).toBe('b done');
    } finally {
      await release();
    }
  });

  test('writers get the lock in the order they asked; a timed-out one does not let its successor past the holder', async () => {
    const path = await folder('order');
    const release = await holdLock(path);
    const order: string[] = [];
    const quitter = withFolderLock(host, path, async () => order.push('quitter'), { timeoutMs: 100 }).catch((e: { code?: string }) => order.push(`quitter ${e.code}`));
    const second = withFolderLock(host, path, async () => order.push('second'), { timeoutMs: 5000 });
    const third = withFolderLock(host, path, async () => order.push('third'), { timeoutMs: 5000 });
    await quitter;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(order).toEqual(['quitter lock_timeout']);
    await release();
    await Promise.all([second, third]);
    expect(order).toEqual(['quitter lock_timeout', 'second', 'third']);
  });

  test('a nested call without the held lock times out instead of deadlocking; with it, it runs', async () => {
    const path = await folder('nested');
    const outcome = await withFolderLock(host, path, async (lock) => {
      const nested = await withFolderLock(host, path, async () => 'nested', { timeoutMs: 200 }).catch((e: { code?: string }) => e.code);
      const held = await withFolderLock(host, path, async () => 'held', { held: lock });
      return [nested, held];
    });
    expect(outcome).toEqual(['lock_timeout', 'held']);
  });
});
