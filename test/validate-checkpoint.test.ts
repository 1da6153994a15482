// The validation checkpoint (kept in the host's cache directory, outside the
// folder) must never change a verdict. After every step of a seeded random walk over one folder (acp
// appends, lines appended by a foreign writer, prefix bytes edited with the
// same or another length, truncations, torn and undecodable lines, review.md
// headings, readiness.md, protocol.json, deliverable content, the checkpoint
// corrupted, replaced, forged or deleted) `acp validate` and `acp validate
// --json` are run in this process with the host's checkpoint key (the fast
// path, twice: the second run finds the checkpoint the first one wrote) and
// without one (a full validation, which neither reads nor writes the
// checkpoint); exit code, stdout and stderr must be identical. Then the
// threat model: a checkpoint that lies is believed only when it carries this
// folder's MAC made with the host's key (a positive control that shows the
// comparison can fail), never when the MAC is made with another key, the
// content was edited, it was copied from another folder or the log's prefix
// changed.
//
// Quick (`npm test`): one seeded walk of 60 steps and 15 generated logs; full
// (ACP_FULL=1, `npm run test:all`): three walks and 40 logs; long
// (ACP_LONG=1): 16 walks of 200 steps and 300 logs (test/scale.ts).
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import {
  type AppendRequest,
  type Host,
  AcpError,
  append,
  createNodeHost,
  createRegistry,
  defaultTemplate,
  formatEventLine,
  formatProtocolJson,
  formatTimestamp,
  init,
  decodeText,
  parseEventLog,
  participantIds,
  readEventLog,
  readReadiness,
  replay,
  runCli,
} from '../acp.ts';
import { hmacHex } from '../runtime/checkpoint.ts';
import { MIN_LOG_BYTES, validateCheckpointPath } from '../runtime/validate-checkpoint.ts';
import { byScale } from './scale.ts';
import { tmpdirInScratch } from './scratch.ts';
// mulberry32: a failure names a reproducible seed.
import { seededDraws as rng } from './seeded.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs are disk work otherwise.
tmpdirInScratch();

const SEEDS = byScale({ quick: [12], full: [11, 12, 13], long: Array.from({ length: 16 }, (_, i) => 2000 + i) });
const STEPS = byScale({ quick: 30, full: 60, long: 200 });
const PRIMARY = 'deliverables/adr.md';
const SUPPORTING = 'deliverables/test-plan.md';

const root = mkdtempSync(join(tmpdir(), 'acp-vcp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const READINESS = {
  clean: '# Readiness\n\n## Questions\n\n- [resolved] Scope is clear.\n\n## Blocking Issues\n\nNone.\n\n## Final Design Checklist\n\n- [x] Ready to implement\n',
  blocking: '# Readiness\n\n## Questions\n\n- [blocking] Legal has not signed off.\n\n## Final Design Checklist\n\n- [x] Ready to implement\n',
  unresolved: '# Readiness\n\n## Questions\n\n- [unresolved] Which storage?\n\n## Final Design Checklist\n\n- [ ] Ready to implement\n',
};

/** Hosts of one test: the same key file (fast path) or none (full validation). */
async function hosts(): Promise<{ keyed: Host; plain: Host; key: Uint8Array }> {
  const keyed = await createNodeHost({ checkpointKeyFile: join(root, `key-${Math.random().toString(36).slice(2)}`) });
  const plain = await createNodeHost({ checkpointKeyFile: null });
  return { keyed, plain, key: (await keyed.checkpointKey!())! };
}

interface Verdict {
  rc: number;
  stdout: string;
  stderr: string;
}

async function cli(host: Host, argv: string[]): Promise<Verdict> {
  let stdout = '';
  let stderr = '';
  const rc = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false }, host);
  return { rc, stdout, stderr };
}

/** validate and validate --json, in that order. */
async function verdicts(host: Host, folder: string): Promise<Verdict[]> {
  return [await cli(host, ['validate', '--folder', folder]), await cli(host, ['validate', '--folder', folder, '--json'])];
}

async function cpPath(host: Host, folder: string): Promise<string> {
  return (await validateCheckpointPath(host, folder))!;
}

/** Whether the checkpoint on disk names a prefix of the current log by its digest (the fast path can resume from it). */
async function resumable(host: Host, folder: string): Promise<boolean> {
  const path = await cpPath(host, folder);
  if (!existsSync(path)) return false;
  const text = readFileSync(path, 'utf8');
  let log: { offset: number; blocks: string[]; rest: string };
  try {
    ({ log } = JSON.parse(text.slice(text.indexOf('\n') + 1)));
  } catch {
    return false;
  }
  const bytes = readFileSync(join(folder, 'events.jsonl'));
  if (log.offset > bytes.length) return false;
  // The prefix's SHA-256, block by block (256 KiB), then of the rest.
  const sha = (from: number, to: number): string => createHash('sha256').update(bytes.subarray(from, to)).digest('hex');
  const whole = Math.floor(log.offset / BLOCK);
  return log.blocks.length === whole && log.blocks.every((digest, i) => digest === sha(i * BLOCK, (i + 1) * BLOCK)) && log.rest === sha(whole * BLOCK, log.offset);
}

/** The validation checkpoint's block size (runtime/validate-checkpoint.ts). */
const BLOCK = 256 * 1024;

/**
 * A valid folder of `total` events (the bench's shape: a primary draft, then
 * rounds of proposal/review with review.md headings and supporting
 * revisions), alice to move.
 */
async function generate(host: Host, folder: string, total: number): Promise<void> {
  const registry = await createRegistry();
  await init(host, folder, { participants: ['alice', 'bob'], objective: 'Compare verdicts', completion: ['Verdicts compared'], primaryType: 'adr' }, registry);
  const protocolPath = join(folder, 'protocol.json');
  const protocol = JSON.parse(readFileSync(protocolPath, 'utf8'));
  protocol.deliverables.supporting = [{ type: 'test-plan', file: 'test-plan.md' }];
  const type = registry.type('test-plan')!;
  writeFileSync(join(folder, SUPPORTING), defaultTemplate({ title: type.title, type: 'test-plan', sections: type.sections([]) }));
  const first = readFileSync(join(folder, 'events.jsonl'), 'utf8');
  const events: Record<string, unknown>[] = [JSON.parse(first)];
  const lines = [first];
  const base = Date.parse(events[0]!.at as string);
  const reviews: string[] = [];
  let seq = 1;
  const add = (from: string, event: string, extra: Record<string, unknown> = {}): void => {
    seq++;
    const e = { seq, from, event, at: formatTimestamp(new Date(base + seq * 1000)), summary: `${event} #${seq}`, reply_to: seq - 1, ...extra };
    events.push(e);
    lines.push(formatEventLine(e));
  };
  add('alice', 'deliverable_drafted', { doc: PRIMARY, role: 'primary' });
  while (seq < total) {
    add('alice', 'proposal_submitted', { doc: 'proposal.md' });
    add('bob', 'review_submitted', { doc: 'review.md' });
    reviews.push(`## ${formatTimestamp(new Date(base + seq * 1000))} - bob - seq ${seq}\n\nPosition:\n- Accept.\n`);
    for (let i = 0; i < 4; i++) add(i % 2 ? 'bob' : 'alice', 'deliverable_revised', { doc: SUPPORTING, role: 'supporting' });
  }
  writeFileSync(join(folder, 'events.jsonl'), lines.join(''));
  writeFileSync(join(folder, 'review.md'), ['# Review\n', `Reviewed primary deliverable: \`${PRIMARY}\`\n`, 'Review Scope:\n- Proposal coherence\n- Primary deliverable completeness\n', ...reviews].join('\n'));
  const state = replay(events, participantIds(protocol), readReadiness(readFileSync(join(folder, 'readiness.md'), 'utf8')));
  Object.assign(protocol, { currentPhase: state.phase, proposalOwner: state.proposalOwner, waitingFor: state.waitingFor });
  writeFileSync(protocolPath, formatProtocolJson(protocol));
}

function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = bytes.indexOf(0x0a); i !== -1 && i + 1 < bytes.length; i = bytes.indexOf(0x0a, i + 1)) starts.push(i + 1);
  return starts;
}

function pyLine(event: Record<string, unknown>): string {
  // json.dumps' default separators, as the Python tools write.
  return `${JSON.stringify(event).replace(/","/g, '", "').replace(/":/g, '": ').replace(/,"/g, ', "')}\n`;
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

type Edit = { name: string; apply(): void | Promise<void> };

/** The random walk's moves on `folder` (`cp`: its checkpoint; `otherCp`: another folder's, which can be copied in). */
function moves(r: ReturnType<typeof rng>, folder: string, cp: string, otherCp: string, host: Host, key: Uint8Array): Edit[] {
  const log = join(folder, 'events.jsonl');
  const at = (): string => formatTimestamp(new Date(Date.parse('2031-01-01T00:00:00Z') + r.int(1000) * 1000));
  const edit = (fn: (bytes: Buffer) => Buffer): void => writeFileSync(log, fn(readFileSync(log)));
  const midLine = (bytes: Buffer): number => {
    const starts = lineStarts(bytes);
    return starts[r.int(Math.max(1, Math.floor(starts.length * 0.9)))]!;
  };
  return [
    {
      name: 'acp appends',
      apply: async () => {
        const seq = lastSeq(folder);
        const who = r.pick(['alice', 'bob']);
        const req: AppendRequest = r.pick<AppendRequest>([
          { participant: who, event: 'proposal_submitted', summary: 'p', replyTo: seq },
          { participant: who, event: 'review_submitted', summary: 'r', replyTo: seq },
          { participant: who, event: 'deliverable_revised', summary: 's', replyTo: seq, doc: SUPPORTING, role: 'supporting' },
          { participant: who, event: 'question_classified', summary: 'q', replyTo: seq },
        ]);
        try {
          await append(host, folder, req, await createRegistry());
        } catch (error) {
          if (!(error instanceof AcpError)) throw error;
        }
      },
    },
    {
      name: 'a foreign writer appends an event',
      apply: () => {
        const seq = lastSeq(folder) + (r.chance(0.8) ? 1 : r.int(3));
        const event = r.pick(['review_submitted', 'proposal_submitted', 'deliverable_revised', 'decision_accepted', 'no_such_event']);
        appendFileSync(log, pyLine({ seq, from: r.pick(['alice', 'bob', 'mallory']), event, at: at(), summary: 'py', reply_to: seq - 1, ...(event === 'deliverable_revised' ? { doc: r.pick([SUPPORTING, 'x.md']), role: 'supporting' } : {}) }));
      },
    },
    { name: 'junk lines are appended', apply: () => appendFileSync(log, r.pick(['not json\n', '[1, 2]\n', '\n', '   \n', '{"seq": 1}\r\n', '{"seq": 2,\n', '\u2028\n'])) },
    { name: 'a torn last line', apply: () => appendFileSync(log, '{"seq": 999, "from": "al') },
    { name: 'undecodable bytes', apply: () => appendFileSync(log, Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])) },
    {
      name: 'a prefix byte changes (same length)',
      apply: () =>
        edit((bytes) => {
          const text = bytes.toString('latin1');
          const start = midLine(bytes);
          const end = text.indexOf('\n', start);
          const line = text.slice(start, end);
          const changed = r.pick([
            () => line.replace('alice', 'carol'),
            () => line.replace('bob', 'eve'),
            () => line.replace(/"seq":(\d)/, (_m, d: string) => `"seq":${(Number(d) + 1) % 10}`),
            () => line.replace('#', '%'),
            () => line.replace('review_submitted', 'review_submittex'),
            () => line.replace(/T(\d\d)/, 'T00'),
          ])();
          return Buffer.from(text.slice(0, start) + changed + text.slice(end), 'latin1');
        }),
    },
    {
      name: 'a prefix line is removed, doubled or lengthened',
      apply: () =>
        edit((bytes) => {
          const start = midLine(bytes);
          const end = bytes.indexOf(0x0a, start) + 1;
          const line = bytes.subarray(start, end);
          const mode = r.int(3);
          const replacement = mode === 0 ? Buffer.alloc(0) : mode === 1 ? Buffer.concat([line, line]) : Buffer.from(line.toString('utf8').replace('"summary":"', '"summary":"longer '));
          return Buffer.concat([bytes.subarray(0, start), replacement, bytes.subarray(end)]);
        }),
    },
    {
      name: 'the log is truncated',
      apply: () => {
        const bytes = readFileSync(log);
        const starts = lineStarts(bytes);
        const cut = r.chance(0.5) ? starts[Math.max(1, starts.length - 1 - r.int(5))]! : Math.max(1, bytes.length - 1 - r.int(40));
        truncateSync(log, cut);
      },
    },
    {
      name: 'review.md gains a heading',
      apply: () => {
        const seq = r.chance(0.5) ? lastSeq(folder) : 1 + r.int(lastSeq(folder) + 2);
        appendFileSync(join(folder, 'review.md'), `\n## 2031-01-01T00:00:00Z - ${r.pick(['alice', 'bob'])} - seq ${seq}\n\nPosition:\n- Accept.\n`);
      },
    },
    {
      name: 'review.md loses its scope',
      apply: () => writeFileSync(join(folder, 'review.md'), readFileSync(join(folder, 'review.md'), 'utf8').replace('Review Scope:', 'Scope:')),
    },
    { name: 'readiness.md changes', apply: () => writeFileSync(join(folder, 'readiness.md'), r.pick(Object.values(READINESS))) },
    {
      name: 'protocol.json changes',
      apply: () => {
        const path = join(folder, 'protocol.json');
        const protocol = JSON.parse(readFileSync(path, 'utf8'));
        const mode = r.int(4);
        if (mode === 0) protocol.participants = r.chance(0.5) ? ['alice', 'bob', 'carol'] : ['alice', 'bob'];
        else if (mode === 1) protocol.deliverables.supporting = r.chance(0.5) ? [] : [{ type: 'test-plan', file: 'test-plan.md' }];
        else if (mode === 2) protocol.currentPhase = r.pick(['revising', 'reviewing', 'drafting']);
        else protocol.deliverables.primary.file = r.pick(['adr.md', 'other.md']);
        writeFileSync(path, formatProtocolJson(protocol));
      },
    },
    { name: 'a deliverable changes', apply: () => appendFileSync(join(folder, SUPPORTING), '\nmore\n') },
    {
      name: 'the checkpoint is corrupted',
      apply: () => {
        const path = cp;
        if (!existsSync(path)) return;
        const bytes = readFileSync(path);
        const i = r.int(bytes.length);
        bytes[i] = bytes[i] === 0x30 ? 0x31 : 0x30;
        writeFileSync(path, bytes);
      },
    },
    { name: 'the checkpoint is deleted', apply: () => rmSync(cp, { force: true }) },
    {
      name: "another folder's checkpoint is copied in",
      apply: () => {
        if (existsSync(otherCp)) cpSync(otherCp, cp);
      },
    },
    {
      name: 'the checkpoint is re-signed with another key',
      apply: async () => {
        const path = cp;
        if (!existsSync(path)) return;
        const text = readFileSync(path, 'utf8');
        const json = text.slice(text.indexOf('\n') + 1, -1);
        const wrong = Uint8Array.from(key, (b) => b ^ 1);
        writeFileSync(path, `${await hmacHex(wrong, `acp validate checkpoint\n${folder}\n${json}`)}\n${json}\n`);
      },
    },
  ];
}

describe('validation checkpoint: fast path and full validation give the same verdicts', () => {
  test.each(SEEDS)('seed %i', async (seed) => {
    const r = rng(seed);
    const { keyed, plain, key } = await hosts();
    const folder = join(root, `walk-${seed}`);
    const other = join(root, `walk-${seed}-other`);
    await generate(keyed, folder, 400 + r.int(200));
    await generate(keyed, other, 400);
    await verdicts(keyed, other);
    const pristine = readFileSync(join(folder, 'events.jsonl'));
    const all = moves(r, folder, await cpPath(keyed, folder), await cpPath(keyed, other), keyed, key);
    const trail: string[] = [];
    let hits = 0;
    for (let step = 0; step < STEPS; step++) {
      if (step > 0 && r.chance(0.1)) {
        // Back to a valid log now and then (behind the runtime's back), so the walk keeps finding resumable prefixes.
        writeFileSync(join(folder, 'events.jsonl'), pristine);
        trail.push('the log is restored');
      } else {
        const move = r.chance(0.35) ? all[r.int(2)]! : r.pick(all);
        await move.apply();
        trail.push(move.name);
      }
      if (await resumable(keyed, folder)) hits++;
      const fast = await verdicts(keyed, folder);
      const again = await verdicts(keyed, folder);
      const full = await verdicts(plain, folder);
      const context = `seed ${seed}, step ${step}: ${trail.slice(-5).join(' / ')}`;
      expect(fast, context).toEqual(full);
      expect(again, context).toEqual(full);
    }
    // The comparison means something only if the fast path was taken.
    expect(hits, `seed ${seed}: steps that found a resumable checkpoint`).toBeGreaterThan(STEPS / 4);
  });

  test('property: any appended lines and any same-length prefix edit give the full verdict', async () => {
    const { keyed, plain } = await hosts();
    const base = join(root, 'property-base');
    await generate(keyed, base, 400);
    const line = fc.oneof(
      fc.constantFrom('{"seq": 401, "from": "alice", "event": "proposal_submitted", "at": "2031-01-01T00:00:00Z", "summary": "p", "reply_to": 400}', '', '{}', '[]'),
      fc.json(),
      fc.string(),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 4 }), fc.nat(), fc.integer({ min: 0x20, max: 0x7e }), fc.boolean(), async (lines, where, byte, edit) => {
        const folder = join(root, `property-${n++}`);
        cpSync(base, folder, { recursive: true });
        await verdicts(keyed, folder);
        const log = join(folder, 'events.jsonl');
        appendFileSync(log, lines.map((l) => `${l}\n`).join(''));
        if (edit) {
          const bytes = readFileSync(log);
          bytes[where % bytes.length] = byte;
          writeFileSync(log, bytes);
        }
        expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
        expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
        rmSync(folder, { recursive: true, force: true });
      }),
      { numRuns: byScale({ quick: 8, full: 40, long: 300 }), seed: 42 },
    );
  });
});

describe('validation checkpoint: threat model', () => {
  /** A folder whose log has one error (seq 3 is from a stranger), validated once so its checkpoint exists. */
  async function setUp(name: string): Promise<{ folder: string; cp: string; keyed: Host; plain: Host; key: Uint8Array; stored: Record<string, unknown> }> {
    const { keyed, plain, key } = await hosts();
    const folder = join(root, name);
    const cp = await cpPath(keyed, folder);
    await generate(keyed, folder, 400);
    const log = join(folder, 'events.jsonl');
    writeFileSync(log, readFileSync(log, 'utf8').replace('"seq":3,"from":"alice"', '"seq":3,"from":"mallory"'));
    await verdicts(keyed, folder);
    const text = readFileSync(cp, 'utf8');
    return { folder, cp, keyed, plain, key, stored: JSON.parse(text.slice(text.indexOf('\n') + 1)) };
  }

  /** The stored checkpoint with its errors replaced by a lie (and `patch` applied), signed with `key` for `folder`. */
  async function lie(stored: Record<string, unknown>, key: Uint8Array, folder: string, patch: Record<string, unknown> = {}): Promise<string> {
    const pass = stored.pass as { stateErrors: string[] };
    const json = JSON.stringify({ ...stored, pass: { ...pass, stateErrors: ['THE CHECKPOINT LIED'] }, ...patch });
    return `${await hmacHex(key, `acp validate checkpoint\n${folder}\n${json}`)}\n${json}\n`;
  }

  test('the full verdict reports the error; an authentic checkpoint is believed (the positive control)', async () => {
    const { folder, cp, keyed, plain, key, stored } = await setUp('tm-control');
    const full = await cli(plain, ['validate', '--folder', folder]);
    expect(full.rc).not.toBe(0);
    expect(full.stdout).toContain('got mallory');
    expect(await cli(keyed, ['validate', '--folder', folder])).toEqual(full);
    writeFileSync(cp, await lie(stored, key, folder));
    const fooled = await cli(keyed, ['validate', '--folder', folder]);
    expect(fooled.stdout).toContain('THE CHECKPOINT LIED');
    expect(fooled.stdout).not.toContain('mallory');
  });

  test('a checkpoint signed with another key is not used', async () => {
    const { folder, cp, keyed, plain, key, stored } = await setUp('tm-key');
    writeFileSync(cp, await lie(stored, Uint8Array.from(key, (b) => b ^ 0x80), folder));
    expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
  });

  test('a checkpoint made by another acp version, or from other participants or deliverables, is not used', async () => {
    const { folder, cp, keyed, plain, key, stored } = await setUp('tm-inputs');
    const inputs = stored.inputs as Record<string, unknown>;
    for (const changed of [{ acp: '0.0.1' }, { participants: ['alice', 'bob', 'carol'] }, { supporting: [] }, { primary: 'deliverables/other.md' }]) {
      writeFileSync(cp, await lie(stored, key, folder, { inputs: { ...inputs, ...changed } }));
      expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
    }
  });

  test('an edited checkpoint is not used', async () => {
    const { folder, cp, keyed, plain, key, stored } = await setUp('tm-edit');
    const forged = await lie(stored, key, folder);
    writeFileSync(cp, forged.replace('THE CHECKPOINT LIED', 'THE CHECKPOINT LIES'));
    expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
  });

  test('a checkpoint copied from another folder is not used, even over the same log', async () => {
    const { folder, cp, keyed, plain, key, stored } = await setUp('tm-copy');
    const copy = join(root, 'tm-copy-2');
    cpSync(folder, copy, { recursive: true });
    writeFileSync(cp, await lie(stored, key, folder));
    cpSync(cp, await cpPath(keyed, copy));
    const full = await verdicts(plain, copy);
    expect(full[0]!.stdout).toContain('got mallory');
    expect(await verdicts(keyed, copy)).toEqual(full);
  });

  test('an edited prefix, same length or not, or a truncation, makes the checkpoint unusable; appended lines do not', async () => {
    const { folder, cp, keyed, plain, key, stored } = await setUp('tm-prefix');
    const log = join(folder, 'events.jsonl');
    const original = readFileSync(log, 'utf8');
    const forged = await lie(stored, key, folder);
    const variants = [
      original.replace('"seq":3,"from":"mallory"', '"seq":3,"from":"mallorx"'),
      original.replace('"seq":3,"from":"mallory"', '"seq":3,"from":"mallory2"'),
      original.slice(0, original.lastIndexOf('\n', original.length - 2) + 1),
    ];
    for (const text of variants) {
      writeFileSync(log, text);
      writeFileSync(cp, forged);
      expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
    }
    // Lines appended by any writer keep the prefix: the (here lying) checkpoint still speaks for it, and the new line is checked.
    writeFileSync(log, original);
    const seq = lastSeq(folder) + 1;
    appendFileSync(log, pyLine({ seq, from: 'nobody', event: 'proposal_submitted', at: '2031-01-01T00:00:00Z', summary: 'py', reply_to: seq - 1 }));
    writeFileSync(cp, forged);
    const resumed = await cli(keyed, ['validate', '--folder', folder]);
    expect(resumed.stdout).toContain('THE CHECKPOINT LIED');
    expect(resumed.stdout).toContain(`seq ${seq}: proposal submission is reserved for alice; got nobody`);
  });

  test('decision gates follow the current readiness.md, from the checkpoint too', async () => {
    const { keyed, plain } = await hosts();
    const folder = join(root, 'gates');
    const registry = await createRegistry();
    await generate(keyed, folder, 400);
    writeFileSync(join(folder, 'readiness.md'), READINESS.clean);
    const steps: [string, string][] = [
      ['alice', 'proposal_revised'],
      ['alice', 'question_classified'],
      ['alice', 'decision_accepted'],
      ['bob', 'decision_accepted'],
    ];
    for (const [participant, event] of steps) await append(keyed, folder, { participant, event, summary: event, replyTo: lastSeq(folder) }, registry);
    await verdicts(keyed, folder);
    expect(await resumable(keyed, folder)).toBe(true);
    const accepted = lastSeq(folder);
    for (const readiness of [READINESS.blocking, READINESS.unresolved, READINESS.clean]) {
      writeFileSync(join(folder, 'readiness.md'), readiness);
      const full = await verdicts(plain, folder);
      if (readiness === READINESS.blocking) expect(full[0]!.stdout).toContain(`seq ${accepted}: blocking readiness items must be cleared before decision_accepted`);
      expect(await verdicts(keyed, folder)).toEqual(full);
    }
  });

  test('the checkpoint is written only with a key, outside the folder, and only for a long log', async () => {
    const { keyed, plain } = await hosts();
    const folder = join(root, 'nokey');
    await generate(keyed, folder, 400);
    await verdicts(plain, folder);
    expect(existsSync(await cpPath(keyed, folder))).toBe(false);
    await verdicts(keyed, folder);
    expect(await resumable(keyed, folder)).toBe(true);
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
    // A short log is validated in full and leaves nothing behind.
    const small = join(root, 'small');
    await generate(keyed, small, 20);
    expect(readFileSync(join(small, 'events.jsonl')).length).toBeLessThan(MIN_LOG_BYTES);
    await verdicts(keyed, small);
    expect(existsSync(await cpPath(keyed, small))).toBe(false);
  });
});

describe('the log read in pieces', () => {
  /** A log of several megabytes whose lines cross the 1 MiB pieces in every way the reader must get right. */
  function bigLog(r: ReturnType<typeof rng>): Buffer {
    const parts: string[] = [];
    let size = 0;
    for (let seq = 1; size < 3.5 * 2 ** 20; seq++) {
      const kind = r.int(40);
      const summary = kind === 0 ? 'x'.repeat(1_200_000 + r.int(500_000)) : kind === 1 ? 'é€😀'.repeat(r.int(3000)) : `line ${seq}`;
      let line = JSON.stringify({ seq, from: 'alice', event: 'proposal_submitted', at: '2031-01-01T00:00:00Z', summary, reply_to: seq - 1 });
      if (kind === 2) line = line.slice(0, -3); // not JSON
      if (kind === 3) line = '   ';
      parts.push(line + (kind === 4 ? '\r\n' : kind === 5 ? '\r' : '\n'));
      size += line.length;
    }
    if (r.chance(0.5)) parts.push('{"seq": 1, "from": "al'); // a torn last line
    return Buffer.from(parts.join(''));
  }

  test.each([1, 2, 3])('gives the events, errors and line numbers of a one-shot parse (seed %i)', async (seed) => {
    const { keyed } = await hosts();
    const folder = join(root, `big-${seed}`);
    mkdirSync(folder, { recursive: true });
    const bytes = bigLog(rng(seed));
    writeFileSync(join(folder, 'events.jsonl'), bytes);
    const whole = parseEventLog(decodeText(bytes, 'events.jsonl'));
    const pieces = await readEventLog(keyed, folder);
    expect(pieces.size).toBe(bytes.length);
    expect(pieces.tornTail).toBe(whole.tornTail);
    expect(pieces.errors).toEqual(whole.errors);
    expect(pieces.events.length).toBe(whole.events.length);
    expect(pieces.events).toEqual(whole.events);
  });

  test('validate of a log of several pieces: the checkpoint resumes past the first megabytes and matches a full validation', async () => {
    const { keyed, plain } = await hosts();
    const folder = join(root, 'big-walk');
    await generate(keyed, folder, 12_000);
    expect(readFileSync(join(folder, 'events.jsonl')).length).toBeGreaterThan(2 * 2 ** 20);
    expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
    expect(await resumable(keyed, folder)).toBe(true);
    const log = join(folder, 'events.jsonl');
    const seq = lastSeq(folder) + 1;
    appendFileSync(log, pyLine({ seq, from: 'alice', event: 'proposal_submitted', at: '2031-01-01T00:00:00Z', summary: 'py', reply_to: seq - 1 }));
    expect(await resumable(keyed, folder)).toBe(true);
    expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
    // A byte changed in the second megabyte: the prefix's digest no longer matches.
    const bytes = readFileSync(log);
    const at = bytes.indexOf('"summary":"', 1_500_000) + 11;
    bytes[at] = bytes[at] === 0x61 ? 0x62 : 0x61;
    writeFileSync(log, bytes);
    expect(await resumable(keyed, folder)).toBe(false);
    expect(await verdicts(keyed, folder)).toEqual(await verdicts(plain, folder));
  });
});
