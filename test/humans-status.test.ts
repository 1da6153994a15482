// `acp status` (issue 15): the collaboration at a glance, as text and JSON,
// on folders written by acp and by the Python tools.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { acp } from './humans/context.ts';
import { cleanup, happyFolder, OWNER, PRIMARY, pythonFolder, REVIEWER, STEPS } from './humans/folders.ts';

afterAll(cleanup);

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[/;

function status(folder: string, options: { json?: boolean; color?: boolean } = {}) {
  return acp(['status', '--folder', folder, ...(options.json ? ['--json'] : [])], { color: options.color });
}

describe('acp status', () => {
  test('mid-way: phase, owner, whose turn, participants, gates, deliverable, recent events, verdict', async () => {
    const folder = await happyFolder(3); // reviewed: revising, the owner's turn
    const r = await status(folder);
    expect(r.rc).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Choose the storage layer');
    expect(r.stdout).toMatch(/^phase: +revising \(for \d+s\)$/m);
    expect(r.stdout).toMatch(new RegExp(`^owner: +${OWNER}$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^turn: +${OWNER} \\(for \\d+s\\)$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^  \\* ${OWNER} +last: seq 3 proposal_submitted, \\d+s ago$`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^    ${REVIEWER} +last: seq 4 review_submitted, \\d+s ago$`, 'm'));
    expect(r.stdout).toContain('  [ ] Tradeoffs are documented');
    expect(r.stdout).toContain('  [ ] Ready to implement');
    expect(r.stdout).toContain(`primary deliverable: ${PRIMARY} (design-spec)`);
    expect(r.stdout).toMatch(/^ {2}status Draft; not frozen \(sha256 now [0-9a-f]{64}\)$/m);
    expect(r.stdout).toContain('recent events (4 in all):');
    expect(r.stdout).toMatch(/seq 4 +bob +review_submitted +→ revising +looks good/);
    expect(r.stdout).toMatch(/^validate: +passed$/m);
    expect(r.stdout).not.toMatch(ANSI);
    // The draft init wrote into conclusion.md says [blocked]: an ongoing collaboration must not read as blocked (issues 29, 39).
    expect(r.stdout).toMatch(/^outcome: +not concluded yet$/m);
  });

  test('fresh, in progress, frozen: no word says "blocked"; a real draft is named', async () => {
    const frozenAt = STEPS.findIndex((s) => s.event.event === 'deliverable_frozen') + 1;
    for (const steps of [0, 3, frozenAt]) {
      const r = await status(await happyFolder(steps));
      expect({ steps, rc: r.rc, blocked: r.stdout.match(/.*blocked.*/g) }).toEqual({ steps, rc: 0, blocked: null });
      expect(r.stdout).toMatch(/^outcome: +not concluded yet$/m);
    }
    const folder = await happyFolder(3);
    writeFileSync(join(folder, 'conclusion.md'), '# Conclusion\n\n## Decision Outcome\n\n- [proceed] Ship it.\n');
    expect((await status(folder)).stdout).toMatch(/^outcome: +not concluded yet \(draft in conclusion\.md: proceed: Ship it\.\)$/m);
  });

  test('blocked: the outcome line gives the reason, who blocked and at which seq', async () => {
    const folder = await happyFolder(2);
    const blocked = await acp(['append', '--folder', folder, '--participant', REVIEWER, '--event', 'blocked', '--summary', 'Waiting on legal review', '--reply-to', '3']);
    expect(blocked.rc).toBe(0);
    const r = await status(folder);
    expect(r.stdout).toMatch(/^outcome: +blocked: Waiting on legal review \(bob, seq 4\)$/m);
    expect(r.stdout).toMatch(/^turn: +nobody \(collaboration blocked\)$/m);
  });

  test('completed: nobody\'s turn, frozen hash matches, outcome; a later edit shows as a hash mismatch', async () => {
    const folder = await happyFolder(STEPS.length);
    const done = await status(folder);
    expect(done.stdout).toMatch(/^turn: +nobody \(collaboration completed\)$/m);
    expect(done.stdout).toMatch(/^ {2}status Frozen; frozen at seq 9, sha256 [0-9a-f]{64}; file matches$/m);
    expect(done.stdout).toMatch(/^outcome: +proceed: Implement the design\.$/m);
    appendFileSync(join(folder, PRIMARY), '\nAn edit after the freeze.\n');
    const edited = await status(folder);
    expect(edited.stdout).toMatch(/file changed since the freeze \(now [0-9a-f]{64}\)/);
    expect(edited.stdout).toMatch(/^validate: +failed \(1 error\)$/m);
    expect(edited.stdout).toContain('  ERROR: seq 9: deliverable_frozen sha256 does not match current file');
  });

  test('--json: one object for tools, with the same facts', async () => {
    const folder = await happyFolder(5); // classified: both must accept
    const r = await status(folder, { json: true });
    expect(r.rc).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const s = JSON.parse(lines[0]!);
    expect(s).toMatchObject({
      ok: true,
      objective: 'Choose the storage layer',
      phase: 'decision_review',
      owner: OWNER,
      waitingFor: [OWNER, REVIEWER],
      events: 6,
      primary: { ref: PRIMARY, role: 'primary', exists: true, status: 'Draft' },
      validation: { ok: true, errors: [], warnings: [] },
    });
    expect(s.participants.map((p: { id: string }) => p.id)).toEqual([OWNER, REVIEWER]);
    expect(s.gates.every((g: { checked: boolean }) => g.checked)).toBe(true);
    expect(s.recentEvents.map((e: { seq: number }) => e.seq)).toEqual([2, 3, 4, 5, 6]);
    expect(s.recentEvents.at(-1)).toMatchObject({ event: 'question_classified', phase: 'decision_review' });
    expect(s.primary.text).toBeUndefined();
  });

  test('colour only when the context allows it', async () => {
    const folder = await happyFolder(1);
    expect((await status(folder, { color: false })).stdout).not.toMatch(ANSI);
    expect((await status(folder, { color: true })).stdout).toMatch(ANSI);
  });

  test('untrusted text cannot drive the terminal: controls and bidi overrides are shown escaped', async () => {
    const folder = await happyFolder(0);
    const path = join(folder, 'protocol.json');
    const protocol = JSON.parse(readFileSync(path, 'utf8'));
    protocol.objective = 'Pick \u001b[2J\u001b[31mred\u202e gnp.exe';
    writeFileSync(path, `${JSON.stringify(protocol, null, 2)}\n`);
    const r = await status(folder);
    expect(r.stdout.split('\n')[0]).toBe('Pick \\u001b[2J\\u001b[31mred\\u202e gnp.exe');
    expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
  });

  test('a bad log line: shown with the events that could be read, and in the verdict', async () => {
    const folder = await happyFolder(1);
    appendFileSync(join(folder, 'events.jsonl'), 'not json\n');
    const r = await status(folder);
    expect(r.rc).toBe(0);
    expect(r.stdout).toContain('events.jsonl line 3: invalid JSON');
    expect(r.stdout).toMatch(/^validate: +failed/m);
  });

  test('no collaboration: error, exit 2', async () => {
    const r = await status(join(await happyFolder(0), 'nothing-here'));
    expect(r.rc).toBe(2);
    expect(r.stderr).toMatch(/^error: missing protocol\.json in .*nothing-here\n$/);
  });

  test('a folder written by the Python tools (recorded scenario 1154): the recorded phase, events and verdict', async () => {
    const { folder, validateStep, protocol, events } = await pythonFolder(1154);
    const r = await status(folder, { json: true });
    expect(r.rc).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.phase).toBe(protocol.currentPhase);
    expect(s.waitingFor).toEqual(protocol.waitingFor);
    expect(s.events).toBe(events.length);
    expect(s.participants.map((p: { id: string }) => p.id)).toEqual((protocol.participants as { id: string }[]).map((p) => p.id));
    // validate's verdict is the one the tools recorded for this folder.
    expect(validateStep.rc).toBe(0);
    expect(s.validation).toEqual({ ok: true, errors: [], warnings: [] });
    expect(s.primary.frozen).toBeDefined();
    expect(s.primary.matches).toBe(true);
    const text = await status(folder);
    expect(text.stdout).toMatch(/^phase: +completed/m);
  });
});
