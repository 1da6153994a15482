// One checkpoint (issue 42): validate's checkpoint and append's are one
// chain. A validate, a strict append and the first append after a validate
// resume where the log is vouched for, reading only what came after
// (counted here in bytes read from events.jsonl, never timed), and their
// verdicts are those of a whole validate or a full replay.
//
// - The property: on random folders and random events, a strict append
//   judged from the checkpoint (a host with the checkpoint key) gets the
//   verdict a whole validate gives (the same folder, a host without a key:
//   no checkpoint), and leaves the same files; appends, validates, foreign
//   lines, document edits, prefix edits, truncations and deleted
//   checkpoints in between. Quick (`npm test`): 6 runs of up to 10 steps;
//   full (ACP_FULL=1): 60 runs (test/scale.ts).
// - What each reads: a validate after appends, a strict append, the first
//   append after a validate and the second strict append on a folder never
//   validated read the log's new lines and at most one block of its prefix.
// - The trust boundary: an edited or cut prefix, a forged head hint, a
//   checkpoint of another key are caught or ignored (the verdict is a whole
//   validate's).
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { AcpError, type AppendRequest, append, CHECKPOINT_NAME, createNodeHost, createRegistry, type FileReader, type Host, validate } from '../acp.ts';
import { validateCheckpointPath } from '../runtime/validate-checkpoint.ts';
import { writeLongLog } from '../scripts/long-log.ts';
import { byScale } from './scale.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const root = mkdtempSync(join(tmpdir(), 'acp-chain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SUPPORTING = 'deliverables/test-plan.md';
const PRIMARY = 'deliverables/adr.md';
/** One clock for both hosts, so that both folders get the same lines. */
const NOW = new Date('2031-01-01T00:00:00Z');

interface Counted {
  host: Host;
  /** Bytes read from events.jsonl (or the file named) since the last reset. */
  read(name?: string): number;
  reset(): void;
}

/** A node host (its own checkpoint key, or none) at {@link NOW}, counting the bytes it reads from events.jsonl. */
async function countingHost(keyed: boolean): Promise<Counted> {
  const base = await createNodeHost({ checkpointKeyFile: keyed ? join(root, `key-${Math.random().toString(36).slice(2)}`) : null });
  let bytes = new Map<string, number>();
  const count = (path: string, n: number): void => void bytes.set(basename(path), (bytes.get(basename(path)) ?? 0) + n);
  const counting = (path: string, file: FileReader): FileReader => ({
    size: file.size,
    read: async (position, length) => {
      const piece = await file.read(position, length);
      count(path, piece.length);
      return piece;
    },
    close: () => file.close(),
  });
  const fs: Host['fs'] = {
    ...base.fs,
    readFile: async (path, options) => {
      const data = await base.fs.readFile(path, options);
      count(path, data.length);
      return data;
    },
    openRead: async (path, options) => counting(path, await base.fs.openRead!(path, options)),
    readTail: async (path, length) => {
      const tail = await base.fs.readTail!(path, length);
      count(path, tail?.bytes.length ?? 0);
      return tail;
    },
  };
  const host = Object.create(base, { fs: { value: fs, enumerable: true }, now: { value: () => new Date(NOW) } }) as Host;
  return { host, read: (name = 'events.jsonl') => bytes.get(name) ?? 0, reset: () => void (bytes = new Map()) };
}

/** A valid, strict-valid folder of `events` events (scripts/long-log.ts), alice to move. */
async function longFolder(host: Host, name: string, events: number): Promise<string> {
  const folder = join(root, name);
  await writeLongLog(host, await createRegistry(), folder, events, { strict: true, sameSecond: true });
  return folder;
}

function lastSeq(folder: string): number {
  const lines = readFileSync(join(folder, 'events.jsonl'), 'utf8').trimEnd().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const seq = JSON.parse(lines[i]!).seq;
      if (Number.isInteger(seq)) return seq;
    } catch {
      // not an event line
    }
  }
  return 0;
}

const revision = (folder: string): AppendRequest => ({ participant: 'alice', event: 'deliverable_revised', summary: 'a revision', doc: SUPPORTING, role: 'supporting', replyTo: lastSeq(folder) });

/** What an append did: its seq, or its refusal's words and code. */
async function outcome(run: () => Promise<{ event: { seq: number } }>): Promise<string> {
  try {
    return `appended seq ${(await run()).event.seq}`;
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    return `refused (${error.code}): ${error.message}`;
  }
}

/**
 * Rewrite `path` in place (same inode, `text`'s length), as an editor or a
 * hostile writer would, its modification time put back: only the
 * status-change time shows it. The file system's clock may be coarse (a
 * tick of a few ms on kernels without fine-grained timestamps): the time
 * is touched until it moves, as it would for any write made later.
 */
function rewriteInPlace(path: string, text: string | Buffer): void {
  const before = statSync(path);
  writeFileSync(path, text);
  while (statSync(path).ctimeMs === before.ctimeMs) utimesSync(path, before.atime, before.mtime);
  utimesSync(path, before.atime, before.mtime);
}

describe('one checkpoint: what each command reads of a long log', () => {
  test('a validate after appends, a strict append, and the first append after a validate read only the new lines and at most a block of the prefix', async () => {
    const keyed = await countingHost(true);
    const plain = await countingHost(false);
    const registry = await createRegistry();
    const folder = await longFolder(keyed.host, 'reads', 12_000);
    const size = statSync(join(folder, 'events.jsonl')).size;
    expect(size).toBeGreaterThan(2_000_000);
    const small = 300 * 1024; // one 256 KiB block of the prefix and the new lines
    keyed.reset();
    expect((await validate(keyed.host, folder, registry)).ok).toBe(true);
    expect(keyed.read()).toBeGreaterThanOrEqual(size);
    for (let i = 0; i < 3; i++) await append(keyed.host, folder, revision(folder), registry);
    keyed.reset();
    const resumed = await validate(keyed.host, folder, registry);
    expect(keyed.read()).toBeLessThan(small);
    expect(resumed).toEqual(await validate(plain.host, folder, registry));
    keyed.reset();
    expect(await outcome(() => append(keyed.host, folder, revision(folder), registry, { strict: true }))).toMatch(/^appended/);
    expect(keyed.read()).toBeLessThan(small);
    // review.md is not read either: the ledger kept its findings, strict mode's too, through the validates in between.
    await validate(keyed.host, folder, registry);
    await validate(keyed.host, folder, registry);
    keyed.reset();
    expect(await outcome(() => append(keyed.host, folder, revision(folder), registry, { strict: true }))).toMatch(/^appended/);
    expect(keyed.read()).toBeLessThan(small);
    expect(keyed.read('review.md')).toBe(0);
    // The first append after a validate (its own checkpoint gone): the validation checkpoint seeds it.
    await validate(keyed.host, folder, registry);
    rmSync(join(folder, CHECKPOINT_NAME));
    keyed.reset();
    expect(await outcome(() => append(keyed.host, folder, revision(folder), registry))).toMatch(/^appended/);
    expect(keyed.read()).toBeLessThan(64 * 1024);
    expect(await validate(keyed.host, folder, registry)).toEqual(await validate(plain.host, folder, registry));
  });

  test('a folder never validated pays one whole validate on its first strict append; the next ones resume', async () => {
    const keyed = await countingHost(true);
    const registry = await createRegistry();
    const folder = await longFolder(keyed.host, 'never', 12_000);
    const size = statSync(join(folder, 'events.jsonl')).size;
    keyed.reset();
    await append(keyed.host, folder, revision(folder), registry, { strict: true });
    expect(keyed.read()).toBeGreaterThanOrEqual(size);
    for (let i = 0; i < 3; i++) {
      keyed.reset();
      await append(keyed.host, folder, revision(folder), registry, { strict: true });
      expect(keyed.read()).toBeLessThan(300 * 1024);
    }
  });

  test('lines a foreign writer appends break the chain: the next validate hashes the prefix again (parsing none of it); the one after resumes', async () => {
    const keyed = await countingHost(true);
    const plain = await countingHost(false);
    const registry = await createRegistry();
    const folder = await longFolder(keyed.host, 'foreign', 12_000);
    await validate(keyed.host, folder, registry);
    const seq = lastSeq(folder) + 1;
    appendFileSync(join(folder, 'events.jsonl'), `${JSON.stringify({ seq, from: 'alice', event: 'deliverable_revised', at: '2031-01-01T00:00:00Z', summary: 'py', doc: SUPPORTING, role: 'supporting', reply_to: seq - 1 })}\n`);
    const size = statSync(join(folder, 'events.jsonl')).size;
    keyed.reset();
    expect(await validate(keyed.host, folder, registry)).toEqual(await validate(plain.host, folder, registry));
    expect(keyed.read()).toBeGreaterThanOrEqual(size - 1024);
    await append(keyed.host, folder, revision(folder), registry);
    keyed.reset();
    expect(await validate(keyed.host, folder, registry)).toEqual(await validate(plain.host, folder, registry));
    expect(keyed.read()).toBeLessThan(300 * 1024);
  });
});

describe('one checkpoint: the trust boundary', () => {
  /** A folder validated once, then extended by acp appends (the chain carries the validation). */
  async function chained(name: string): Promise<{ keyed: Counted; plain: Counted; folder: string; log: string }> {
    const keyed = await countingHost(true);
    const plain = await countingHost(false);
    const registry = await createRegistry();
    const folder = await longFolder(keyed.host, name, 2_000);
    await validate(keyed.host, folder, registry);
    for (let i = 0; i < 2; i++) await append(keyed.host, folder, revision(folder), registry);
    return { keyed, plain, folder, log: join(folder, 'events.jsonl') };
  }

  test('a prefix edited in place (same length, modification time put back) is caught, by validate and by a strict append', async () => {
    const { keyed, plain, folder, log } = await chained('edited');
    const registry = await createRegistry();
    rewriteInPlace(log, readFileSync(log, 'utf8').replace('"seq":3,"from":"alice"', '"seq":3,"from":"carol"'));
    const full = await validate(plain.host, folder, registry);
    expect(full.errors.join('\n')).toContain('carol');
    expect(await validate(keyed.host, folder, registry)).toEqual(full);
    rewriteInPlace(log, readFileSync(log, 'utf8').replace('"seq":3,"from":"carol"', '"seq":3,"from":"alice"'));
    await validate(keyed.host, folder, registry);
    rewriteInPlace(log, readFileSync(log, 'utf8').replace('"seq":3,"from":"alice"', '"seq":3,"from":"carol"'));
    const strict = await outcome(() => append(keyed.host, folder, revision(folder), registry, { strict: true }));
    expect(strict).toMatch(/^refused .*carol/s);
    expect(strict).toBe(await outcome(() => append(plain.host, folder, revision(folder), registry, { strict: true })));
  });

  test('a prefix cut and grown back to the same size is caught', async () => {
    const { keyed, plain, folder, log } = await chained('cut');
    const registry = await createRegistry();
    const text = readFileSync(log, 'utf8');
    const cut = text.lastIndexOf('\n', text.length - 2) + 1;
    truncateSync(log, cut);
    appendFileSync(log, text.slice(cut).replace('"event":"deliverable_revised"', '"event":"deliverable_revisex"'));
    expect(statSync(log).size).toBe(text.length);
    const full = await validate(plain.host, folder, registry);
    expect(full.ok).toBe(false);
    expect(await validate(keyed.host, folder, registry)).toEqual(full);
  });

  test('a validation checkpoint written without the key is not used, even with the fingerprint of the log as it is', async () => {
    const { keyed, plain, folder, log } = await chained('forged');
    const registry = await createRegistry();
    const path = (await validateCheckpointPath(keyed.host, folder))!;
    await validate(keyed.host, folder, registry);
    // A lie about the prefix, in a checkpoint whose head names the log as it is now, under a MAC made without the key.
    const stored = JSON.parse(readFileSync(path, 'utf8').split('\n')[1]!);
    stored.pass.stateErrors = ['THE CHECKPOINT LIED'];
    writeFileSync(path, `${'0'.repeat(64)}\n${JSON.stringify(stored)}\n`);
    await append(keyed.host, folder, revision(folder), registry);
    expect(await validate(keyed.host, folder, registry)).toEqual(await validate(plain.host, folder, registry));
    expect(JSON.stringify(await validate(keyed.host, folder, registry))).not.toContain('LIED');
    expect(readFileSync(log, 'utf8')).not.toContain('LIED');
  });
});

/** One move of the property's random walk on both copies (`a`: keyed, `b`: plain), or a check. */
type Move =
  | { kind: 'append'; strict: boolean; event: string; who: number; reply: number }
  | { kind: 'validate' }
  | { kind: 'foreign' }
  | { kind: 'document'; which: number }
  | { kind: 'prefix'; where: number }
  | { kind: 'truncate' }
  | { kind: 'drop'; which: 'append' | 'validate' };

const EVENTS = ['deliverable_revised', 'deliverable_drafted', 'proposal_submitted', 'review_submitted', 'proposal_revised', 'question_classified', 'decision_proposed', 'decision_accepted'];
const move: fc.Arbitrary<Move> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('append' as const), strict: fc.boolean(), event: fc.constantFrom(...EVENTS), who: fc.nat(2), reply: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'validate' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'foreign' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('document' as const), which: fc.nat(6) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('prefix' as const), where: fc.nat(1000) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'truncate' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), which: fc.constantFrom('append' as const, 'validate' as const) }) },
);

/** The documents a move may write, as an honest agent or a careless one would. */
function documentEdit(folder: string, which: number): [string, string] {
  const seq = lastSeq(folder);
  const review = (declared: boolean): string => `\n## 2031-01-01T00:00:00Z - bob - seq ${seq}\n\n${declared ? 'Context:\n- Reviewed primary deliverable: `deliverables/adr.md`\n\nReview Scope:\n- Primary deliverable completeness\n\n' : ''}Position:\n- Accept.\n`;
  const edits: [string, string][] = [
    ['review.md', readFileSync(join(folder, 'review.md'), 'utf8') + review(true)],
    ['review.md', readFileSync(join(folder, 'review.md'), 'utf8') + review(false)],
    ['proposal.md', '# Proposal\n\n## Summary\n\nDescribe the proposal here, then append `proposal_submitted`.\n'],
    ['proposal.md', '# Proposal\n\nPrimary deliverable: `deliverables/adr.md`\n\n## Summary\n\nA proposal.\n'],
    [PRIMARY, '# Architecture decision\n\nStatus: Draft\n\n## Context\n\n'],
    ['readiness.md', '# Readiness\n\n## Questions\n\n- [blocking] Legal has not signed off.\n'],
    ['readiness.md', '# Readiness\n\n## Questions\n\n- [resolved] Scope is clear.\n\n## Final Design Checklist\n\n- [x] Ready to implement\n'],
  ];
  return edits[which % edits.length]!;
}

/** Apply `m` to folder `a` (keyed host) and its copy `b` (plain host); returns what must be equal on both. */
async function step(m: Move, a: { host: Host; folder: string }, b: { host: Host; folder: string }): Promise<[string, string]> {
  const registry = await createRegistry();
  const both = (fn: (folder: string) => void): void => [a.folder, b.folder].forEach(fn);
  switch (m.kind) {
    case 'append': {
      const request = (folder: string): AppendRequest => {
        const deliverable = m.event.startsWith('deliverable_') ? { doc: m.event === 'deliverable_drafted' ? PRIMARY : SUPPORTING, role: m.event === 'deliverable_drafted' ? ('primary' as const) : ('supporting' as const) } : {};
        return { participant: ['alice', 'bob', 'alice'][m.who]!, event: m.event, summary: 'step', replyTo: Math.max(1, lastSeq(folder) - m.reply), ...deliverable };
      };
      return [await outcome(() => append(a.host, a.folder, request(a.folder), registry, { strict: m.strict })), await outcome(() => append(b.host, b.folder, request(b.folder), registry, { strict: m.strict }))];
    }
    case 'validate':
      return [JSON.stringify(await validate(a.host, a.folder, registry, { strict: true })), JSON.stringify(await validate(b.host, b.folder, registry, { strict: true }))];
    case 'foreign':
      both((folder) => {
        const seq = lastSeq(folder) + 1;
        appendFileSync(join(folder, 'events.jsonl'), `${JSON.stringify({ seq, from: 'bob', event: 'deliverable_revised', at: '2031-01-01T00:00:00Z', summary: 'py', doc: SUPPORTING, role: 'supporting', reply_to: seq - 1 })}\n`);
      });
      break;
    case 'document':
      both((folder) => {
        const [name, text] = documentEdit(folder, m.which);
        writeFileSync(join(folder, name), text);
      });
      break;
    case 'prefix':
      both((folder) => {
        const log = join(folder, 'events.jsonl');
        const text = readFileSync(log, 'utf8');
        const at = text.indexOf('"from":"alice"', Math.floor((m.where / 1000) * text.length));
        if (at > 0) rewriteInPlace(log, `${text.slice(0, at)}"from":"carol"${text.slice(at + 14)}`);
      });
      break;
    case 'truncate':
      both((folder) => {
        const log = join(folder, 'events.jsonl');
        const text = readFileSync(log, 'utf8');
        truncateSync(log, text.lastIndexOf('\n', text.length - 2) + 1);
      });
      break;
    case 'drop':
      if (m.which === 'append') rmSync(join(a.folder, CHECKPOINT_NAME), { force: true });
      else rmSync((await validateCheckpointPath(a.host, a.folder))!, { force: true });
      break;
  }
  const files = (folder: string): string => ['events.jsonl', 'protocol.json'].map((name) => readFileSync(join(folder, name), 'utf8')).join('\n');
  return [files(a.folder), files(b.folder)];
}

describe('one checkpoint: the strict verdict from the checkpoint is a whole validate\'s', () => {
  test('property: random folders and events, strict appends judged from the checkpoint and by a whole validate agree', async () => {
    const keyed = await countingHost(true);
    const plain = await countingHost(false);
    const base = await longFolder(keyed.host, 'property-base', 500);
    expect(statSync(join(base, 'events.jsonl')).size).toBeGreaterThan(64 * 1024);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 10 }), async (moves) => {
        const a = { host: keyed.host, folder: join(root, `property-${n}-a`) };
        const b = { host: plain.host, folder: join(root, `property-${n++}-b`) };
        cpSync(base, a.folder, { recursive: true });
        cpSync(base, b.folder, { recursive: true });
        try {
          for (const [i, m] of moves.entries()) {
            const [fromCheckpoint, whole] = await step(m, a, b);
            expect(fromCheckpoint, `step ${i}: ${JSON.stringify(m)}`).toBe(whole);
          }
        } finally {
          rmSync(a.folder, { recursive: true, force: true });
          rmSync(b.folder, { recursive: true, force: true });
        }
      }),
      { numRuns: byScale({ quick: 6, full: 60, long: 300 }), seed: 4242 },
    );
  });
});
