// The append checkpoint (`.acp.checkpoint.json`) must never change a verdict.
// Two copies of a collaboration get the same operations, step by step, from
// a seeded random generator: copy A keeps the checkpoint (the fast path),
// copy B loses it before every append (a full read and replay of the log).
// After every step the append's outcome (the event, or the error message),
// events.jsonl and protocol.json must be identical. The operations are
// appends biased towards the protocol's next move plus perturbed ones
// (wrong actor, stranger, bad reply_to/doc/role/hash, unknown event), and
// edits behind the runtime's back applied to both copies: lines appended by
// another writer (Python-style), a truncated or torn log, a middle line
// edited, the log replaced by a copy, junk lines, readiness.md changed
// (which flips the decision gates of every decision_accepted, spec §5),
// participants changed, the checkpoint corrupted or deleted.
//
// Quick (`npm test`): 2 seeds of 90 steps; full (ACP_FULL=1, `npm run
// test:all`): 4 seeds; long (ACP_LONG=1): 24 seeds of 250 steps
// (test/scale.ts).
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type AppendRequest, type Host, AcpError, EVENT_NAMES, append, createNodeHost, createRegistry, init } from '../acp.ts';
import { byScale } from './scale.ts';
// mulberry32: a failure names a reproducible seed.
import { seededDraws as rng } from './seeded.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const SEEDS = byScale({ quick: [1], full: [1, 2, 3, 4], long: Array.from({ length: 24 }, (_, i) => 1000 + i) });
const STEPS = byScale({ quick: 90, full: 90, long: 250 });
const CHECKPOINT = '.acp.checkpoint.json';
const PARTICIPANTS = ['alice', 'bob', 'carol'];
const EVENTS: readonly string[] = EVENT_NAMES;
const PRIMARY = 'deliverables/adr.md';
const SUPPORTING = 'deliverables/test-plan.md';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const READINESS = {
  clean: '# Readiness\n\n## Questions\n\n- [resolved] Scope is clear.\n\n## Blocking Issues\n\nNone.\n\n## Final Design Checklist\n\n- [x] Ready to implement\n',
  unresolved: '# Readiness\n\n## Questions\n\n- [unresolved] Which storage?\n\n## Final Design Checklist\n\n- [ ] Ready to implement\n',
  blocking: '# Readiness\n\n## Questions\n\n- [blocking] Legal has not signed off.\n\n## Final Design Checklist\n\n- [x] Ready to implement\n',
  deferred: '# Readiness\n\n## Questions\n\n- [deferred_nonblocking] Later.\n\n## Final Design Checklist\n\n- [x] Ready to implement\n',
  tbd: '# Readiness\n\n## Questions\n\n- [resolved] TBD\n\n## Final Design Checklist\n\n- [x] Ready to implement\n',
};

interface Outcome {
  ok: boolean;
  detail: string;
}

interface Copy {
  folder: string;
  /** Full replay: the checkpoint is removed before every append. */
  full: boolean;
}

/** A host whose clock the test sets, so both copies write identical timestamps. */
function clockHost(base: Host, clock: { now: number }): Host {
  return { ...base, now: () => new Date(clock.now) };
}

function read(folder: string, name: string): string {
  const path = join(folder, name);
  return existsSync(path) ? readFileSync(path, 'utf8') : '<missing>';
}

/** What the test expects the fast path to see: the checkpoint matches the log's size, times, inode and last line. */
function checkpointCurrent(folder: string): boolean {
  const path = join(folder, CHECKPOINT);
  if (!existsSync(path)) return false;
  try {
    const cp = JSON.parse(readFileSync(path, 'utf8'));
    const st = statSync(join(folder, 'events.jsonl'));
    const bytes = readFileSync(join(folder, 'events.jsonl'));
    const tail = Buffer.from(cp.log.tail);
    return (
      st.size === cp.log.size &&
      st.mtimeMs === cp.log.mtimeMs &&
      st.ctimeMs === cp.log.ctimeMs &&
      st.ino === cp.log.ino &&
      bytes.subarray(bytes.length - tail.length).equals(tail) &&
      JSON.stringify(cp.participants) === JSON.stringify(participantsOf(folder))
    );
  } catch {
    return false;
  }
}

function participantsOf(folder: string): string[] {
  const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
  return (protocol.participants as (string | { id: string })[]).map((p) => (typeof p === 'string' ? p : p.id));
}

function lastSeq(folder: string): number {
  let max = 0;
  for (const line of readFileSync(join(folder, 'events.jsonl'), 'utf8').split('\n')) {
    try {
      const seq = JSON.parse(line).seq;
      if (Number.isInteger(seq) && seq > max) max = seq;
    } catch {
      // junk line
    }
  }
  return max;
}

/** Rewrite a file in place (same inode) and move its mtime on, as a later edit would on any file system. */
function rewriteInPlace(path: string, text: string): void {
  const before = statSync(path);
  writeFileSync(path, text);
  utimesSync(path, before.atime, new Date(before.mtimeMs + 1000));
}

type Edit = { name: string; apply(folder: string): void };

/** Edits after which appends fail until the log is repaired. */
const DESTRUCTIVE = new Set([
  'the last line is removed',
  'the log is cut in the middle of its last line',
  'a middle line is edited (same length)',
  'a middle line is edited (other length)',
  'a junk line is appended',
  'another writer appends an event (Python-style line)',
]);

/** Edits behind the runtime's back (the same on both copies). */
function edits(r: ReturnType<typeof rng>, folder: string): Edit[] {
  const next = lastSeq(folder) + 1;
  const at = '2031-01-01T00:00:00Z';
  const who = r.pick(PARTICIPANTS);
  const pyLine = (event: Record<string, unknown>): string => `${JSON.stringify(event).replace(/,"/g, ', "').replace(/":/g, '": ')}\n`;
  return [
    {
      name: 'another writer appends an event (Python-style line)',
      apply: (f) => appendFileSync(join(f, 'events.jsonl'), pyLine({ seq: next, from: who, event: r.pick(EVENTS), at, summary: 'from python', reply_to: next - 1, doc: PRIMARY, role: 'primary' })),
    },
    {
      name: 'another writer appends a supporting revision',
      apply: (f) => appendFileSync(join(f, 'events.jsonl'), pyLine({ seq: next, from: who, event: 'deliverable_revised', at, summary: 'py', reply_to: next - 1, doc: SUPPORTING, role: 'supporting' })),
    },
    {
      name: 'the last line is removed',
      apply: (f) => {
        const lines = readFileSync(join(f, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
        if (lines.length > 1) rewriteInPlace(join(f, 'events.jsonl'), `${lines.slice(0, -1).join('\n')}\n`);
      },
    },
    {
      name: 'the log is cut in the middle of its last line',
      apply: (f) => {
        const text = readFileSync(join(f, 'events.jsonl'), 'utf8');
        rewriteInPlace(join(f, 'events.jsonl'), text.slice(0, Math.max(1, text.length - 7)));
      },
    },
    {
      name: 'a middle line is edited (same length)',
      apply: (f) => {
        const lines = readFileSync(join(f, 'events.jsonl'), 'utf8').split('\n');
        const i = Math.floor((lines.length - 1) / 2);
        const swap: Record<string, string> = { alice: 'carol', carol: 'alice', bob: 'bab' };
        lines[i] = lines[i]!.replace(/"from":"(alice|bob|carol)"/, (_, p: string) => `"from":"${swap[p]}"`);
        rewriteInPlace(join(f, 'events.jsonl'), lines.join('\n'));
      },
    },
    {
      name: 'a middle line is edited (other length)',
      apply: (f) => {
        const lines = readFileSync(join(f, 'events.jsonl'), 'utf8').split('\n');
        const i = Math.floor((lines.length - 1) / 3);
        lines[i] = lines[i]!.replace(/"summary":"/, '"summary":"edited behind its back: ');
        rewriteInPlace(join(f, 'events.jsonl'), lines.join('\n'));
      },
    },
    {
      name: 'a junk line is appended',
      apply: (f) => appendFileSync(join(f, 'events.jsonl'), r.chance(0.5) ? 'not json\n' : '[1, 2]\n'),
    },
    {
      name: 'lines that are not events are removed (a repair)',
      apply: (f) => {
        const lines = readFileSync(join(f, 'events.jsonl'), 'utf8').split('\n');
        const kept = lines.filter((line) => {
          try {
            const value = JSON.parse(line);
            return typeof value === 'object' && value !== null && !Array.isArray(value);
          } catch {
            return false;
          }
        });
        rewriteInPlace(join(f, 'events.jsonl'), kept.map((line) => `${line}\n`).join(''));
      },
    },
    {
      name: 'a blank line is appended',
      apply: (f) => appendFileSync(join(f, 'events.jsonl'), '\n'),
    },
    {
      name: 'the log is replaced by an identical copy (new inode)',
      apply: (f) => {
        writeFileSync(join(f, 'events.jsonl.copy'), readFileSync(join(f, 'events.jsonl')));
        renameSync(join(f, 'events.jsonl.copy'), join(f, 'events.jsonl'));
      },
    },
    {
      name: 'readiness.md changes',
      apply: (f) => writeFileSync(join(f, 'readiness.md'), READINESS[r.pick(Object.keys(READINESS) as (keyof typeof READINESS)[])]),
    },
    {
      name: 'participants change',
      apply: (f) => {
        const protocol = JSON.parse(readFileSync(join(f, 'protocol.json'), 'utf8'));
        const ids = r.chance(0.5) ? ['alice', 'bob'] : ['alice', 'bob', 'carol'];
        protocol.participants = r.chance(0.5) ? ids.map((id) => ({ id })) : ids;
        writeFileSync(join(f, 'protocol.json'), `${JSON.stringify(protocol, null, 2)}\n`);
      },
    },
    {
      name: 'the checkpoint is corrupted',
      apply: (f) => existsSync(join(f, CHECKPOINT)) && writeFileSync(join(f, CHECKPOINT), '{"version":1,'),
    },
    {
      name: 'the checkpoint is deleted',
      apply: (f) => rmSync(join(f, CHECKPOINT), { force: true }),
    },
    {
      name: 'the primary deliverable changes',
      apply: (f) => appendFileSync(join(f, PRIMARY), `\nEdited ${r.int(1000)}.\n`),
    },
  ];
}

/** The protocol's next move from the derived state (cached in protocol.json), or a perturbed one. */
function request(r: ReturnType<typeof rng>, folder: string): AppendRequest {
  const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
  const owner: string = protocol.proposalOwner ?? 'alice';
  const waiting: string[] = Array.isArray(protocol.waitingFor) ? protocol.waitingFor : [];
  const last = lastSeq(folder);
  const replyTo = last || undefined;
  const sha = createHash('sha256').update(readFileSync(join(folder, PRIMARY))).digest('hex');
  const good = (): AppendRequest => {
    const reviewer = waiting[0] ?? r.pick(PARTICIPANTS);
    switch (protocol.currentPhase) {
      case 'drafting':
        return r.chance(0.5)
          ? { participant: owner, event: 'deliverable_drafted', summary: 'draft', doc: PRIMARY, role: 'primary', replyTo }
          : { participant: owner, event: 'proposal_submitted', summary: 'proposal', doc: 'proposal.md', replyTo };
      case 'reviewing':
        return { participant: reviewer, event: 'review_submitted', summary: 'review', doc: 'review.md', replyTo };
      case 'revising':
        return r.pick<AppendRequest>([
          { participant: owner, event: 'proposal_revised', summary: 'revised', replyTo },
          { participant: owner, event: 'decision_proposed', summary: 'decision', doc: 'decisions.md', replyTo },
          { participant: owner, event: 'proposal_submitted', summary: 'again', replyTo },
          { participant: owner, event: 'deliverable_revised', summary: 'rev', doc: PRIMARY, role: 'primary', replyTo },
        ]);
      case 'decision_review':
        return waiting.length && waiting.includes(owner) && r.chance(0.3)
          ? { participant: owner, event: 'question_classified', summary: 'classified', doc: 'readiness.md', replyTo }
          : r.chance(0.7)
            ? { participant: reviewer, event: 'decision_accepted', summary: 'accept', doc: 'decisions.md', replyTo }
            : { participant: owner, event: 'question_classified', summary: 'classified', doc: 'readiness.md', replyTo };
      case 'readiness_check':
        return r.pick<AppendRequest>([
          { participant: owner, event: 'deliverable_frozen', summary: 'freeze', doc: PRIMARY, role: 'primary', sha256: sha, replyTo },
          { participant: owner, event: 'readiness_passed', summary: 'ready', doc: 'readiness.md', replyTo },
          { participant: owner, event: 'completed', summary: 'done', doc: 'conclusion.md', replyTo },
        ]);
      default:
        return { participant: r.pick(PARTICIPANTS), event: 'deliverable_revised', summary: 'late', doc: SUPPORTING, role: 'supporting', replyTo };
    }
  };
  const req = good();
  if (r.chance(0.55)) return req;
  // Perturb one thing.
  switch (r.int(9)) {
    case 0:
      return { ...req, participant: r.pick(PARTICIPANTS) };
    case 1:
      return { ...req, participant: 'mallory' };
    case 2:
      return { ...req, replyTo: undefined };
    case 3:
      return { ...req, replyTo: r.chance(0.5) ? last + 5 : 1 };
    case 4:
      return { ...req, event: r.pick(EVENTS) };
    case 5:
      return { ...req, doc: r.pick([PRIMARY, SUPPORTING, 'deliverables/other.md', undefined]), role: r.pick(['primary', 'supporting', 'other', undefined]) };
    case 6:
      return { ...req, event: 'deliverable_frozen', doc: PRIMARY, role: 'primary', sha256: r.chance(0.5) ? sha : '0'.repeat(64) };
    case 7:
      return { participant: r.pick(PARTICIPANTS), event: 'deliverable_revised', summary: 'support', doc: SUPPORTING, role: 'supporting', replyTo };
    default:
      return { ...req, event: 'unknown_event' };
  }
}

async function run(host: Host, copy: Copy, req: AppendRequest, registry: Awaited<ReturnType<typeof createRegistry>>): Promise<Outcome> {
  if (copy.full) rmSync(join(copy.folder, CHECKPOINT), { force: true });
  try {
    const result = await append(host, copy.folder, req, registry);
    return { ok: true, detail: JSON.stringify({ event: result.event, state: result.state, previousPhase: result.previousPhase }) };
  } catch (error) {
    if (!(error instanceof AcpError)) throw error;
    return { ok: false, detail: error.message };
  }
}

describe('append checkpoint: fast path and full replay give the same verdicts', () => {
  test.each(SEEDS)('seed %i', async (seed) => {
    const r = rng(seed);
    const root = mkdtempSync(join(tmpdir(), 'acp-fastpath-'));
    roots.push(root);
    const registry = await createRegistry();
    const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
    const host = clockHost(await createNodeHost(), clock);
    const copies: Copy[] = [
      { folder: join(root, 'fast'), full: false },
      { folder: join(root, 'full'), full: true },
    ];
    for (const copy of copies) {
      await init(host, copy.folder, { participants: PARTICIPANTS, objective: 'Compare verdicts', completion: ['Verdicts compared'], primaryType: 'adr' }, registry);
      const protocolPath = join(copy.folder, 'protocol.json');
      const protocol = JSON.parse(readFileSync(protocolPath, 'utf8'));
      protocol.deliverables.supporting = [{ type: 'test-plan', file: 'test-plan.md' }];
      writeFileSync(protocolPath, `${JSON.stringify(protocol, null, 2)}\n`);
      writeFileSync(join(copy.folder, SUPPORTING), '# Test Plan\n\nStatus: Draft\n');
      // Mostly clean readiness, so decisions get accepted and later edits flip their gates.
      writeFileSync(join(copy.folder, 'readiness.md'), READINESS.clean);
    }
    const [fast, full] = copies as [Copy, Copy];
    let hits = 0;
    let successes = 0;
    let fastSuccesses = 0;
    let snapshot: string | undefined;
    const trail: string[] = [];
    for (let step = 0; step < STEPS; step++) {
      clock.now += 1000;
      if (r.chance(0.22)) {
        const edit = r.pick(edits(r, fast.folder));
        const state = r.next();
        // A log an edit breaks is restored a few steps later (again behind
        // the runtime's back), so the run goes on exercising both paths.
        if (!snapshot && DESTRUCTIVE.has(edit.name)) snapshot = read(fast.folder, 'events.jsonl');
        // The same edit on both copies: reseed the choices it makes.
        for (const copy of copies) {
          const replay = rng(Math.floor(state * 2 ** 31));
          const same = edits(replay, copy.folder).find((e) => e.name === edit.name)!;
          same.apply(copy.folder);
        }
        trail.push(`edit: ${edit.name}`);
      } else if (snapshot && r.chance(0.35)) {
        for (const copy of copies) rewriteInPlace(join(copy.folder, 'events.jsonl'), snapshot);
        snapshot = undefined;
        trail.push('edit: the log is restored to an earlier content');
      } else if (r.chance(0.15)) {
        for (const copy of copies) {
          writeFileSync(join(copy.folder, 'readiness.md'), READINESS.clean);
          const protocol = JSON.parse(readFileSync(join(copy.folder, 'protocol.json'), 'utf8'));
          protocol.participants = PARTICIPANTS.map((id) => ({ id }));
          writeFileSync(join(copy.folder, 'protocol.json'), `${JSON.stringify(protocol, null, 2)}\n`);
        }
        trail.push('edit: readiness.md and participants are restored');
      }
      const req = request(r, full.folder);
      const hit = checkpointCurrent(fast.folder);
      const a = await run(host, fast, req, registry);
      const b = await run(host, full, req, registry);
      trail.push(`append ${JSON.stringify(req)} -> ${b.ok ? 'ok' : b.detail}`);
      const context = `seed ${seed}, step ${step}\n${trail.slice(-6).join('\n')}`;
      expect(a, context).toEqual(b);
      expect(read(fast.folder, 'events.jsonl'), context).toBe(read(full.folder, 'events.jsonl'));
      expect(read(fast.folder, 'protocol.json'), context).toBe(read(full.folder, 'protocol.json'));
      if (b.ok) successes++;
      if (hit) hits++;
      if (hit && b.ok) fastSuccesses++;
      if (process.env.FASTPATH_DEBUG) console.log(trail.slice(-2).join("\n"));
    }
    // The comparison means something only if both paths were exercised.
    if (process.env.FASTPATH_DEBUG) console.log({ seed, successes, hits, fastSuccesses });
    expect(successes, `seed ${seed}: appends that succeeded`).toBeGreaterThan(STEPS / 10);
    expect(hits, `seed ${seed}: appends that could use the checkpoint`).toBeGreaterThan(STEPS / 10);
    expect(fastSuccesses, `seed ${seed}: successful appends made from the checkpoint`).toBeGreaterThanOrEqual(5);
  });

  test('decision gates are re-evaluated against the current readiness.md, from the checkpoint too', async () => {
    const root = mkdtempSync(join(tmpdir(), 'acp-fastpath-'));
    roots.push(root);
    const registry = await createRegistry();
    const host = await createNodeHost();
    const outcomes: Outcome[] = [];
    for (const full of [false, true]) {
      const folder = join(root, full ? 'full' : 'fast');
      await init(host, folder, { participants: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryType: 'adr' }, registry);
      writeFileSync(join(folder, 'readiness.md'), READINESS.clean);
      const steps: AppendRequest[] = [
        { participant: 'alice', event: 'deliverable_drafted', summary: 'd', replyTo: 1, role: 'primary', doc: PRIMARY },
        { participant: 'alice', event: 'proposal_submitted', summary: 'p', replyTo: 2 },
        { participant: 'bob', event: 'review_submitted', summary: 'r', replyTo: 3 },
        { participant: 'alice', event: 'proposal_revised', summary: 'v', replyTo: 4 },
        { participant: 'alice', event: 'question_classified', summary: 'q', replyTo: 5 },
        { participant: 'alice', event: 'decision_accepted', summary: 'a', replyTo: 6 },
        { participant: 'bob', event: 'decision_accepted', summary: 'b', replyTo: 7 },
      ];
      for (const step of steps) await append(host, folder, step, registry);
      writeFileSync(join(folder, 'readiness.md'), READINESS.blocking);
      if (full) rmSync(join(folder, CHECKPOINT));
      else expect(checkpointCurrent(folder)).toBe(true);
      outcomes.push(await run(host, { folder, full }, { participant: 'alice', event: 'blocked', summary: 'stop', replyTo: 8 }, registry));
    }
    const gate = 'blocking readiness items must be cleared before decision_accepted';
    expect(outcomes[0]).toEqual({ ok: false, detail: `seq 7: ${gate}; seq 8: ${gate}` });
    expect(outcomes[1]).toEqual(outcomes[0]);
  });

  test('a checkpoint is written after an append and ignored when the log changed behind it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'acp-fastpath-'));
    roots.push(root);
    const registry = await createRegistry();
    const host = await createNodeHost();
    const folder = join(root, 'c');
    await init(host, folder, { participants: ['alice', 'bob'], objective: 'o', completion: ['c'], primaryType: 'adr' }, registry);
    await append(host, folder, { participant: 'alice', event: 'deliverable_drafted', summary: 'd', replyTo: 1, role: 'primary', doc: PRIMARY }, registry);
    expect(checkpointCurrent(folder)).toBe(true);
    const cp = JSON.parse(readFileSync(join(folder, CHECKPOINT), 'utf8'));
    expect(cp).toMatchObject({ count: 2, maxSeq: 2, seqs: [[1, 2]], gateSeqs: [], state: { phase: 'drafting', primaryDrafted: true } });
    // Another writer's line: the checkpoint no longer matches, and the next append sees that line (seq 4, not 3).
    appendFileSync(join(folder, 'events.jsonl'), '{"seq": 3, "from": "alice", "event": "deliverable_revised", "at": "2031-01-01T00:00:00Z", "summary": "py", "reply_to": 2, "doc": "x", "role": "supporting"}\n');
    expect(checkpointCurrent(folder)).toBe(false);
    const result = await append(host, folder, { participant: 'alice', event: 'proposal_submitted', summary: 'p', replyTo: 3 }, registry);
    expect(result.event.seq).toBe(4);
    expect(result.state.waitingFor).toEqual(['bob']);
    expect(checkpointCurrent(folder)).toBe(true);
  });
});
