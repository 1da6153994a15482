// Reliability II (issue 17), the log's side: a forged `.acp.checkpoint.json`
// (item 4) and mixed writers that leave a duplicate seq (item 5).
//
// The checkpoint's threat model is in acp.ts (above CHECKPOINT_NAME): a
// writer of the folder without the host's key cannot make acp trust a
// checkpoint; a forger with the key still cannot make acp number an event
// twice, since the seq facts are checked against the log's last line.
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { NOTES_REF, cli, makeFolder, readLines } from './reliability/fixture.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const CHECKPOINT = '.acp.checkpoint.json';
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'acp-rel2-log-'));
  roots.push(root);
  return makeFolder(root, ['ann', 'bob']);
}

const draft = (f: string, summary: string) =>
  cli(['append', '--folder', f, '--participant', 'bob', '--event', 'deliverable_drafted', '--summary', summary, '--reply-to', '1', '--role', 'supporting', '--doc', NOTES_REF]);

/** A folder with seq 1..3, the last two appended by acp: the checkpoint describes it. */
async function withCheckpoint(): Promise<string> {
  const f = await folder();
  for (const summary of ['two', 'three']) expect((await draft(f, summary)).rc).toBe(0);
  const cp = readCheckpoint(f);
  expect([cp.maxSeq, cp.state.phase]).toEqual([3, 'drafting']);
  return f;
}

// biome-ignore lint/suspicious/noExplicitAny: the checkpoint is edited field by field
type Checkpoint = Record<string, any>;
const readCheckpoint = (f: string): Checkpoint => JSON.parse(readFileSync(join(f, CHECKPOINT), 'utf8'));
const writeCheckpoint = (f: string, cp: Checkpoint): void => writeFileSync(join(f, CHECKPOINT), `${JSON.stringify(cp)}\n`);

/** The MAC as acp computes it, with the key the CLI of this test process uses (vitest.config.ts sets XDG_STATE_HOME). */
function macWithKey(f: string, cp: Checkpoint): string {
  const key = Buffer.from(readFileSync(join(process.env.XDG_STATE_HOME!, 'acp', 'checkpoint.key'), 'utf8').trim(), 'hex');
  const { mac: _mac, ...body } = cp;
  return createHmac('sha256', key).update(`acp checkpoint\n${f}\n${JSON.stringify(body)}`).digest('hex');
}

const seqs = (f: string): unknown[] => readLines(f).map((e) => e.seq);

describe('a forged checkpoint is not trusted', () => {
  test('a lowered maxSeq (checkpoint edited, MAC kept): the next event is numbered from the log, not twice', async () => {
    const f = await withCheckpoint();
    const cp = readCheckpoint(f);
    writeCheckpoint(f, { ...cp, count: 2, maxSeq: 2, seqs: [[1, 2]] });
    const r = await draft(f, 'four');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('appended seq 4: deliverable_drafted\n');
    expect(seqs(f)).toEqual([1, 2, 3, 4]);
  });

  test('a forged phase: an event out of phase is refused as a full replay refuses it, nothing written', async () => {
    const f = await withCheckpoint();
    const cp = readCheckpoint(f);
    writeCheckpoint(f, { ...cp, state: { ...cp.state, phase: 'revising', waitingFor: ['ann'] } });
    const before = readFileSync(join(f, 'events.jsonl'), 'utf8');
    const r = await cli(['append', '--folder', f, '--participant', 'ann', '--event', 'proposal_revised', '--summary', 'out of phase', '--reply-to', '3']);
    expect(r.stderr).toBe('error: seq 4: proposal_revised is not allowed from phase drafting\n');
    expect(r.rc).toBe(2);
    expect(readFileSync(join(f, 'events.jsonl'), 'utf8')).toBe(before);
  });

  test('a forger holding the key still cannot make acp repeat a seq: the claim is checked against the last line', async () => {
    const f = await withCheckpoint();
    const cp = readCheckpoint(f);
    // Control: this test computes the MAC exactly as acp does, so the forgery below is "signed".
    expect(macWithKey(f, cp)).toBe(cp.mac);
    const forged = { ...cp, count: 2, maxSeq: 2, seqs: [[1, 2]] };
    writeCheckpoint(f, { ...forged, mac: macWithKey(f, forged) });
    expect((await draft(f, 'four')).stdout).toBe('appended seq 4: deliverable_drafted\n');
    expect(seqs(f)).toEqual([1, 2, 3, 4]);
  });

  test("a signed checkpoint of another state shape (another acp version's) is not used", async () => {
    const f = await withCheckpoint();
    const cp = readCheckpoint(f);
    const revising = { ...cp.state, phase: 'revising', waitingFor: ['ann'] };
    const { readinessPassed: _dropped, ...otherShape } = revising;
    writeCheckpoint(f, { ...cp, state: otherShape, mac: macWithKey(f, { ...cp, state: otherShape }) });
    const args = ['append', '--folder', f, '--participant', 'ann', '--event', 'proposal_revised', '--summary', 'x', '--reply-to', '3'];
    expect((await cli(args)).stderr).toBe('error: seq 4: proposal_revised is not allowed from phase drafting\n');
    // Control: the same claim in this version's shape, signed, is taken at its word.
    writeCheckpoint(f, { ...cp, state: revising, mac: macWithKey(f, { ...cp, state: revising }) });
    expect((await cli(args)).stdout).toBe('appended seq 4: proposal_revised\n');
  });

  test('a genuine checkpoint copied next to another log is not used', async () => {
    const a = await withCheckpoint();
    const b = await withCheckpoint();
    // Same content, another folder: b's own checkpoint would say seq 3 too;
    // claim a phase b is not in and check b's verdict stays a full replay's.
    const cp = readCheckpoint(a);
    const forged = { ...cp, state: { ...cp.state, phase: 'revising', waitingFor: ['ann'] } };
    writeCheckpoint(b, { ...forged, mac: macWithKey(a, forged) });
    const r = await cli(['append', '--folder', b, '--participant', 'ann', '--event', 'proposal_revised', '--summary', 'x', '--reply-to', '3']);
    expect(r.stderr).toBe('error: seq 4: proposal_revised is not allowed from phase drafting\n');
  });
});

describe('the checkpoint key', () => {
  test('created once, owner-only, the same for racing hosts; without a key no checkpoint is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-rel2-key-'));
    roots.push(dir);
    const file = join(dir, 'state', 'acp', 'checkpoint.key');
    const hosts = await Promise.all(Array.from({ length: 8 }, () => acp.createNodeHost({ checkpointKeyFile: file })));
    const keys = await Promise.all(hosts.map((h) => h.checkpointKey!()));
    expect(new Set(keys.map((k) => Buffer.from(k!).toString('hex'))).size).toBe(1);
    expect(keys[0]).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const f = await folder();
    const keyless = await acp.createNodeHost({ checkpointKeyFile: null });
    await acp.append(keyless, f, { participant: 'bob', event: 'deliverable_drafted', summary: 'x', replyTo: 1, role: 'supporting', doc: NOTES_REF });
    expect(existsSync(join(f, CHECKPOINT))).toBe(false);
  });
});

describe('mixed writers: a duplicate seq', () => {
  test('acp appends onto a log holding a seq twice as the Python tools do (next seq = largest + 1), and validate reports the duplicate', async () => {
    const f = await withCheckpoint();
    // A writer that takes no lock (the Python tools) numbered its event from a stale read.
    const stale = { seq: 3, from: 'ann', event: 'deliverable_drafted', at: '2026-01-01T00:00:09Z', summary: 'python', doc: NOTES_REF, reply_to: 1, role: 'supporting' };
    writeFileSync(join(f, 'events.jsonl'), `${readFileSync(join(f, 'events.jsonl'), 'utf8')}${JSON.stringify(stale).replace(/,"/g, ', "').replace(/":/g, '": ')}\n`);
    const validate = await cli(['validate', '--folder', f]);
    expect(validate.stdout).toContain('ERROR: events.jsonl: expected seq 4, found 3\n');
    const r = await draft(f, 'five');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('appended seq 4: deliverable_drafted\n');
  });

  test('a seq gap is not a duplicate: the append goes on (next seq = largest + 1, spec §6)', async () => {
    const f = await folder();
    const gap = { seq: 5, from: 'ann', event: 'deliverable_drafted', at: '2026-01-01T00:00:09Z', summary: 'gap', doc: NOTES_REF, reply_to: 1, role: 'supporting' };
    writeFileSync(join(f, 'events.jsonl'), `${readFileSync(join(f, 'events.jsonl'), 'utf8')}${JSON.stringify(gap)}\n`);
    expect((await draft(f, 'six')).stdout).toBe('appended seq 6: deliverable_drafted\n');
  });
});
