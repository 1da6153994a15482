// `acp doctor [--fix]` (issue 5, part 3): what it diagnoses, what --fix
// repairs (and how it says so), and what it never touches.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { doctor } from '../plugins/doctor/diagnose.ts';
import { NOTES_REF, cli, makeFolder } from './reliability/fixture.ts';
import { acp as humansAcp } from './humans/context.ts';
import { FROZEN_SHA256, OWNER, PRIMARY, freezeStepIndex, happyFolder } from './humans/folders.ts';
import { tmpdirInScratch } from './scratch.ts';

// Its temporary folders in memory where there is room (test/scratch.ts): the appends' fsyncs and renames are disk work otherwise.
tmpdirInScratch();

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'acp-doctor-'));
  roots.push(root);
  return makeFolder(root, ['ann', 'bob']);
}

/** A pid that is certainly not running. */
const DEAD_PID = 2 ** 22 + 12345;

const append = (f: string, ...args: string[]) => cli(['append', '--folder', f, ...args]);
const draftNotes = (f: string, summary = 'notes') => append(f, '--participant', 'bob', '--event', 'deliverable_drafted', '--summary', summary, '--reply-to', '1', '--role', 'supporting', '--doc', NOTES_REF);

function files(f: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(f, { recursive: true }) as string[]) {
    const path = join(f, name);
    try {
      out[name] = createHash('sha256').update(readFileSync(path)).digest('hex');
    } catch {
      out[name] = 'dir';
    }
  }
  return out;
}

describe('acp doctor', () => {
  test('a healthy folder: exit 0, nothing changed', async () => {
    const f = await folder();
    expect((await draftNotes(f)).rc).toBe(0);
    const before = files(f);
    const r = await cli(['doctor', '--folder', f]);
    expect(r.rc).toBe(0);
    expect(r.stdout).toContain('ok: lock: free');
    expect(r.stdout).toContain("ok: state: protocol.json matches the log (phase 'drafting', owner 'ann', waitingFor ['ann'])");
    expect(r.stdout.trim().split('\n').at(-1)).toBe('doctor: healthy');
    const fixed = await cli(['doctor', '--folder', f, '--fix']);
    expect(fixed.rc).toBe(0);
    expect(fixed.stdout).not.toContain('fixed:');
    expect(files(f)).toEqual(before);
  });

  test('a torn last line: reported, then cut by --fix after keeping a full copy', async () => {
    const f = await folder();
    await draftNotes(f);
    const complete = readFileSync(join(f, 'events.jsonl'));
    appendFileSync(join(f, 'events.jsonl'), '{"seq":3,"from":"bob","event":"deliverable_dra');
    const torn = readFileSync(join(f, 'events.jsonl'));
    const r = await cli(['doctor', '--folder', f]);
    expect(r.rc).toBe(1);
    expect(r.stdout).toMatch(/PROBLEM: events\.jsonl: the last line is incomplete \(46 bytes after the last newline: .*\): a writer was interrupted mid-append \[--fix repairs this\]/);
    expect(r.stdout).toContain('doctor: 1 problem; `acp doctor --fix` repairs 1 of them');
    expect(readFileSync(join(f, 'events.jsonl')).equals(torn)).toBe(true);
    // append refuses it (never glues to it, never drops it) and points here.
    const refused = await draftNotes(f, 'after');
    expect(refused.rc).toBe(2);
    expect(refused.stderr).toContain('`acp doctor --fix` repairs it');
    const fixed = await cli(['doctor', '--folder', f, '--fix']);
    expect(fixed.rc).toBe(0);
    const backup = readdirSync(f).find((name) => /^events\.jsonl\.torn-\d{8}T\d{6}Z\.bak$/.test(name))!;
    expect(backup).toBeDefined();
    expect(fixed.stdout).toContain(`fixed: kept a copy of events.jsonl (${torn.length} bytes) as ${backup}`);
    expect(fixed.stdout).toContain('fixed: cut the incomplete last line from events.jsonl (46 bytes');
    expect(fixed.stdout.trim().split('\n').at(-1)).toBe('doctor: healthy now');
    expect(readFileSync(join(f, backup)).equals(torn)).toBe(true);
    expect(readFileSync(join(f, 'events.jsonl')).equals(complete)).toBe(true);
    expect((await draftNotes(f, 'after')).rc).toBe(0);
    expect((await cli(['validate', '--folder', f])).stdout.trim()).toBe('ACP validation passed');
  });

  test('a torn line cut inside a multi-byte character is recognised too', async () => {
    const f = await folder();
    appendFileSync(join(f, 'events.jsonl'), Buffer.concat([Buffer.from('{"seq":2,"summary":"caf'), Buffer.from([0xc3])]));
    const refused = await draftNotes(f);
    expect(refused.stderr).toBe('error: events.jsonl is not valid UTF-8 (the last line is incomplete: a writer was interrupted; `acp doctor --fix` repairs it)\n');
    const fixed = await cli(['doctor', '--folder', f, '--fix']);
    expect(fixed.rc).toBe(0);
    expect((await draftNotes(f)).rc).toBe(0);
  });

  test('a complete last line without its newline is a note; --fix ends it', async () => {
    const f = await folder();
    const path = join(f, 'events.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').trimEnd());
    const r = await cli(['doctor', '--folder', f]);
    expect(r.rc).toBe(0);
    expect(r.stdout).toContain('note: events.jsonl: the last line is a complete event without its final newline');
    const fixed = await cli(['doctor', '--folder', f, '--fix']);
    expect(fixed.stdout).toContain('fixed: ended the last line of events.jsonl (a complete event) with its missing newline');
    expect(readFileSync(path, 'utf8').endsWith('}\n')).toBe(true);
  });

  test('cached state behind the log (a writer stopped before protocol.json): --fix rewrites only the state keys', async () => {
    const f = await folder();
    const path = join(f, 'protocol.json');
    const before = readFileSync(path, 'utf8');
    await append(f, '--participant', 'ann', '--event', 'deliverable_drafted', '--summary', 'd', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md');
    await append(f, '--participant', 'ann', '--event', 'proposal_submitted', '--summary', 'p', '--reply-to', '2');
    const after = readFileSync(path, 'utf8');
    writeFileSync(path, before);
    const r = await cli(['doctor', '--folder', f]);
    expect(r.rc).toBe(1);
    expect(r.stdout).toContain(
      "PROBLEM: state: protocol.json caches phase 'drafting', owner 'ann', waitingFor ['ann']; the log gives phase 'reviewing', owner 'ann', waitingFor ['bob']",
    );
    const fixed = await cli(['doctor', '--folder', f, '--fix']);
    expect(fixed.rc).toBe(0);
    expect(fixed.stdout).toMatch(/fixed: rewrote protocol\.json's cached state from the log: currentPhase 'reviewing', proposalOwner 'ann', waitingFor \['bob'\], updatedAt \S+Z/);
    expect(readFileSync(path, 'utf8')).toBe(after);
  });

  test('an abandoned lock and a leftover temporary file: reported, removed by --fix', async () => {
    const f = await folder();
    writeFileSync(join(f, '.acp.lock'), JSON.stringify({ pid: DEAD_PID, token: 'x', at: 0 }));
    writeFileSync(join(f, `.protocol.json.${DEAD_PID}.abc123.tmp`), '{"half": ');
    const r = await cli(['doctor', '--folder', f]);
    expect(r.rc).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`PROBLEM: lock: abandoned by pid ${DEAD_PID} \\(gone\\)`));
    expect(r.stdout).toContain(`PROBLEM: temp-files: .protocol.json.${DEAD_PID}.abc123.tmp: a temporary file left by an interrupted write (pid ${DEAD_PID}, gone)`);
    const fixed = await cli(['doctor', '--folder', f, '--fix']);
    expect(fixed.rc).toBe(0);
    expect(fixed.stdout).toContain('fixed: broke the abandoned lock');
    expect(fixed.stdout).toContain(`fixed: removed .protocol.json.${DEAD_PID}.abc123.tmp`);
    expect(readdirSync(f).filter((name) => name.startsWith('.'))).toEqual(readdirSync(f).filter((name) => name === '.acp.checkpoint.json'));
  });

  test('a lock held by a live process is left alone', async () => {
    const f = await folder();
    writeFileSync(join(f, '.acp.lock'), JSON.stringify({ pid: process.pid, hostname: (await acp.createNodeHost()).hostname, token: 'live', at: Date.now() }));
    const host = await acp.createNodeHost();
    const report = await doctor(acp, host, f, { fix: true, lockTimeoutMs: 200 });
    expect(report.healthy).toBe(false);
    expect(report.changes).toEqual([]);
    expect(report.findings.some((x) => x.check === 'lock' && /timed out waiting for the lock.*nothing was changed/.test(x.message))).toBe(true);
    expect(JSON.parse(readFileSync(join(f, '.acp.lock'), 'utf8')).token).toBe('live');
  });

  test('what only a person can repair is reported and never touched', async () => {
    const f = await folder();
    // A frozen supporting deliverable whose text changed since (hash drift).
    const protocolPath = join(f, 'protocol.json');
    const protocol = JSON.parse(readFileSync(protocolPath, 'utf8'));
    protocol.deliverables.supporting[0].frozen = true;
    writeFileSync(protocolPath, acp.formatProtocolJson(protocol));
    const notes = readFileSync(join(f, NOTES_REF));
    const sha = createHash('sha256').update(notes).digest('hex');
    expect((await append(f, '--participant', 'bob', '--event', 'deliverable_frozen', '--summary', 'freeze', '--reply-to', '1', '--role', 'supporting', '--doc', NOTES_REF, '--sha256', sha)).rc).toBe(0);
    writeFileSync(join(f, NOTES_REF), `${notes}\nedited after the freeze\n`);
    // A forbidden file, a missing required file, duplicate seqs (a race of
    // writers without a lock) and a broken line in the middle.
    writeFileSync(join(f, 'discussion.md'), 'my notes\n');
    rmSync(join(f, 'conclusion.md'));
    const events = readFileSync(join(f, 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(f, 'events.jsonl'), [...events, events[1], 'not json', ''].join('\n'));
    const before = files(f);
    const r = await cli(['doctor', '--folder', f, '--fix', '--json']);
    expect(r.rc).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(false);
    expect(report.changes).toEqual([]);
    const problems = report.findings.filter((x: Record<string, unknown>) => x.status === 'problem').map((x: Record<string, unknown>) => x.message);
    expect(problems).toEqual([
      'missing required file: conclusion.md',
      'discussion.md is not part of the protocol: move what it says into events.jsonl/readiness.md, then remove it (doctor never deletes it)',
      expect.stringMatching(/^events\.jsonl line 4: invalid JSON: /),
      'duplicate seq 2 (concurrent writers without a lock?)',
      'seq numbering breaks at event 3: found 2',
      expect.stringMatching(/^deliverables\/notes\.md changed since it was frozen at seq 2 \(sha256 then [0-9a-f]{12}…, now [0-9a-f]{12}…\); restore the frozen text$/),
    ]);
    expect(report.findings.every((x: Record<string, unknown>) => x.status !== 'problem' || x.fixable === false)).toBe(true);
    expect(files(f)).toEqual(before);
  });

  test('an events.jsonl that is a directory or a symbolic link loop is a problem for a person, in the words validate uses', async () => {
    for (const [kind, make] of [
      ['a directory', (path: string) => mkdirSync(path)],
      ['a symbolic link loop', (path: string) => symlinkSync(path, path)],
    ] as const) {
      const f = await folder();
      rmSync(join(f, 'events.jsonl'));
      make(join(f, 'events.jsonl'));
      const r = await cli(['doctor', '--folder', f, '--fix', '--json']);
      expect({ kind, rc: r.rc, stderr: r.stderr }).toEqual({ kind, rc: 1, stderr: '' });
      const report = JSON.parse(r.stdout);
      expect(report.changes).toEqual([]);
      expect(report.findings.filter((x: Record<string, unknown>) => x.status === 'problem')).toEqual([
        { check: 'events.jsonl', status: 'problem', message: `events.jsonl is ${kind}, not the event log (needs a person: put the log back)`, fixable: false },
      ]);
      // validate refuses the same folder with the same words.
      expect((await cli(['validate', '--folder', f])).stdout).toContain(`events.jsonl is ${kind}, not the event log`);
    }
  });

  test('usage: not a collaboration folder is exit 2', async () => {
    const root = mkdtempSync(join(tmpdir(), 'acp-doctor-'));
    roots.push(root);
    const r = await cli(['doctor', '--folder', root]);
    expect(r.rc).toBe(2);
    expect(r.stderr).toBe(`error: missing protocol.json in ${root} (not a collaboration folder)\n`);
    expect((await cli(['doctor'])).stderr).toBe('error: the following arguments are required: --folder\n');
    expect(existsSync(join(root, '.acp.lock'))).toBe(false);
  });
});

describe('an interrupted freeze (issue 27 item 7)', () => {
  /** A folder where `acp freeze` wrote its files but was stopped before its event: the event line cut off again. */
  async function halfFrozen(): Promise<string> {
    const folder = await happyFolder(freezeStepIndex());
    const frozen = await humansAcp(['freeze', '--folder', folder, '--participant', OWNER]);
    expect(frozen.rc).toBe(0);
    const log = join(folder, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    writeFileSync(log, `${lines.slice(0, -1).join('\n')}\n`);
    return folder;
  }

  test('doctor reports it; --fix completes it by appending the event, keeping the frozen text', async () => {
    const folder = await halfFrozen();
    const text = readFileSync(join(folder, PRIMARY), 'utf8');
    const report = await humansAcp(['doctor', '--folder', folder]);
    expect(report.stdout).toContain(`${PRIMARY} says Status: Frozen and readiness.md records its sha256 ${FROZEN_SHA256.slice(0, 12)}…, but no deliverable_frozen event does: an interrupted acp freeze`);
    expect(report.rc).toBe(1);
    const fixed = await humansAcp(['doctor', '--folder', folder, '--fix']);
    expect(fixed.stdout).toContain(`completed the interrupted freeze of ${PRIMARY}: appended seq 9 deliverable_frozen as ${OWNER}`);
    expect(fixed.rc).toBe(0);
    expect(readFileSync(join(folder, PRIMARY), 'utf8')).toBe(text);
    expect((await humansAcp(['validate', '--folder', folder])).stdout).toBe('ACP validation passed\n');
  });

  test('--fix undoes it when nobody may append the event now: the status line goes back, the hash leaves readiness.md, nothing else changes', async () => {
    const folder = await halfFrozen();
    // The folder moved on meanwhile: blocked, so no deliverable_frozen can be appended.
    expect((await humansAcp(['append', '--folder', folder, '--participant', OWNER, '--event', 'blocked', '--summary', 'Stop.', '--reply-to', '8'])).rc).toBe(0);
    const text = readFileSync(join(folder, PRIMARY), 'utf8');
    const fixed = await humansAcp(['doctor', '--folder', folder, '--fix']);
    expect(fixed.stdout).toContain(`undid the interrupted freeze of ${PRIMARY}`);
    expect(readFileSync(join(folder, PRIMARY), 'utf8')).toBe(text.replace('\nStatus: Frozen\n', '\nStatus: In Review\n'));
    expect(readFileSync(join(folder, 'readiness.md'), 'utf8')).not.toContain(FROZEN_SHA256);
    expect((await humansAcp(['doctor', '--folder', folder])).stdout).not.toContain('interrupted acp freeze');
  });
});
