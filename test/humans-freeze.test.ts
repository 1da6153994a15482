// `acp freeze` (issue 15): Status: Frozen, the hash in readiness.md and
// deliverable_frozen appended under one lock; refusals change nothing.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import * as lib from '../acp.ts';
import { withSnapshot, withStatusFrozen } from '../plugins/humans/freeze.ts';
import { acp } from './humans/context.ts';
import { cleanup, freezeStepIndex, FROZEN_SHA256, happyFolder, OWNER, PRIMARY, pythonFolder, REVIEWER, STEPS, tempRoot } from './humans/folders.ts';

afterAll(cleanup);

/** Every file of a folder with its SHA-256 (the lock and checkpoint are dot files: left out). */
function files(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    if (name.split('/').some((part) => part.startsWith('.'))) continue;
    try {
      out[name] = createHash('sha256').update(readFileSync(join(folder, name))).digest('hex');
    } catch {
      out[name] = 'dir';
    }
  }
  return out;
}

/** A folder in readiness_check whose primary deliverable is still a draft. */
async function readyToFreeze(): Promise<string> {
  return happyFolder(freezeStepIndex());
}

const NOTES = 'deliverables/notes.md';

/** Declare a supporting deliverable (as a person editing protocol.json would). */
function addNotes(folder: string): void {
  const path = join(folder, 'protocol.json');
  const protocol = JSON.parse(readFileSync(path, 'utf8'));
  protocol.deliverables.supporting = [{ type: 'custom', file: 'notes.md', checklist: ['Notes'] }];
  writeFileSync(path, lib.formatProtocolJson(protocol));
  writeFileSync(join(folder, NOTES), '# Notes\r\n\r\nDeliverable type: `custom`\r\nStatus: In Review\r\n\r\n## Notes\r\n\r\nKeep them.\r\n');
}

describe('acp freeze', () => {
  test('primary: Status: Frozen, its hash in the snapshot line, deliverable_frozen appended; the collaboration completes', async () => {
    const folder = await readyToFreeze();
    const r = await acp(['freeze', '--folder', folder, '--participant', OWNER]);
    expect(r.stderr).toBe('');
    expect(r.rc).toBe(0);
    // The draft with its status line changed is byte for byte the happy path's frozen file.
    expect(r.stdout).toBe(`frozen ${PRIMARY} (primary): sha256 ${FROZEN_SHA256}\nappended seq 9: deliverable_frozen\n`);
    expect(readFileSync(join(folder, PRIMARY), 'utf8')).toContain('\nStatus: Frozen\n');
    const readiness = readFileSync(join(folder, 'readiness.md'), 'utf8');
    expect(readiness).toContain(`## Deliverable Snapshot\n\n- Primary: \`${PRIMARY}\`\n- SHA-256: ${FROZEN_SHA256}\n`);
    const log = await lib.readEventLog(await lib.createNodeHost(), folder);
    expect(log.events.at(-1)).toMatchObject({ seq: 9, from: OWNER, event: 'deliverable_frozen', doc: PRIMARY, role: 'primary', sha256: FROZEN_SHA256, reply_to: 8 });
    expect((await acp(['validate', '--folder', folder])).stdout).toBe('ACP validation passed\n');
    for (const step of STEPS.slice(freezeStepIndex() + 1)) {
      for (const [name, text] of Object.entries(step.files)) writeFileSync(join(folder, name), text);
      const args = ['append', '--folder', folder, '--participant', step.event.participant, '--event', step.event.event, '--summary', step.event.summary, '--doc', step.event.doc!, '--reply-to', String(step.event.replyTo)];
      expect((await acp(args)).rc).toBe(0);
    }
    expect((await acp(['validate', '--folder', folder])).stdout).toBe('ACP validation passed\n');
  });

  test('--json: one object with the seq, doc, role and hash', async () => {
    const folder = await readyToFreeze();
    const r = await acp(['freeze', '--folder', folder, '--participant', OWNER, '--summary', 'frozen by the owner', '--json']);
    expect(r.rc).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, exitCode: 0, seq: 9, doc: PRIMARY, role: 'primary', sha256: FROZEN_SHA256, changed: [PRIMARY, 'readiness.md'] });
    const log = await lib.readEventLog(await lib.createNodeHost(), folder);
    expect(log.events.at(-1)!.summary).toBe('frozen by the owner');
  });

  test("refused, changing nothing: not the participant's turn", async () => {
    const folder = await readyToFreeze();
    const before = files(folder);
    const r = await acp(['freeze', '--folder', folder, '--participant', REVIEWER]);
    expect(r.rc).toBe(2);
    expect(r.stderr).toBe(`error: it is not ${REVIEWER}'s turn (phase readiness_check, waiting for ${OWNER}): nothing was frozen\n`);
    expect(files(folder)).toEqual(before);
  });

  test('refused, changing nothing: a phase that does not allow freezing', async () => {
    const folder = await happyFolder(3); // revising: the owner's turn, but no freeze before readiness_check
    const before = files(folder);
    const r = await acp(['freeze', '--folder', folder, '--participant', OWNER]);
    expect(r.rc).toBe(2);
    expect(r.stderr).toBe('error: seq 5: deliverable_frozen is not allowed from phase revising\n');
    expect(files(folder)).toEqual(before);
  });

  test('refused, changing nothing: frozen already, unknown participant, undeclared doc, no status line', async () => {
    const folder = await readyToFreeze();
    expect((await acp(['freeze', '--folder', folder, '--participant', OWNER])).rc).toBe(0);
    const frozen = files(folder);
    expect((await acp(['freeze', '--folder', folder, '--participant', OWNER])).stderr).toBe('error: seq 10: primary deliverable can be frozen only once\n');
    expect((await acp(['freeze', '--folder', folder, '--participant', 'mallory'])).stderr).toBe("error: participant 'mallory' is not listed in protocol.json\n");
    expect((await acp(['freeze', '--folder', folder, '--participant', OWNER, '--doc', 'deliverables/other.md'])).stderr).toBe('error: doc must reference a declared supporting deliverable\n');
    expect(files(folder)).toEqual(frozen);
    const bare = await readyToFreeze();
    writeFileSync(join(bare, PRIMARY), '# Design Spec\n\n## Problem\n\nNo status line.\n');
    const before = files(bare);
    expect((await acp(['freeze', '--folder', bare, '--participant', OWNER])).stderr).toBe(`error: ${PRIMARY} has no status line (Status: Draft, In Review, or Frozen): add one, then freeze\n`);
    expect(files(bare)).toEqual(before);
  });

  test('a plugin that refuses the append: the three files are put back as they were', async () => {
    const folder = await readyToFreeze();
    const plugin = join(tempRoot(), 'refuse-freeze.mjs');
    writeFileSync(plugin, "export default { name: 'no-freeze', hooks: { 'append:before'(ctx) { if (ctx.event.event === 'deliverable_frozen') ctx.refuse('freezes need a sign-off'); } } };\n");
    const before = files(folder);
    const r = await acp(['freeze', '--folder', folder, '--participant', OWNER, '--plugin', plugin]);
    expect(r.rc).toBe(2);
    expect(r.stderr).toContain('freezes need a sign-off');
    expect(files(folder)).toEqual(before);
  });

  test('--doc: a supporting deliverable is frozen, marked frozen in protocol.json, CRLF line endings kept', async () => {
    const folder = await happyFolder(1); // drafting, the owner's turn
    addNotes(folder);
    const r = await acp(['freeze', '--folder', folder, '--participant', OWNER, '--doc', NOTES, '--json']);
    expect(r.stderr).toBe('');
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ ok: true, seq: 3, doc: NOTES, role: 'supporting', changed: [NOTES, 'readiness.md', 'protocol.json'] });
    const bytes = readFileSync(join(folder, NOTES));
    expect(bytes.toString('utf8')).toBe('# Notes\r\n\r\nDeliverable type: `custom`\r\nStatus: Frozen\r\n\r\n## Notes\r\n\r\nKeep them.\r\n');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(result.sha256);
    expect(readFileSync(join(folder, 'readiness.md'), 'utf8')).toContain(`- SHA-256:\n- Supporting: \`${NOTES}\`\n- SHA-256: ${result.sha256}\n`);
    expect(JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8')).deliverables.supporting[0].frozen).toBe(true);
    expect((await acp(['validate', '--folder', folder])).stdout).toBe('ACP validation passed\n');
    const again = await acp(['freeze', '--folder', folder, '--participant', OWNER, '--doc', NOTES]);
    expect(again.stderr).toBe(`error: ${NOTES} was already frozen at seq 3\n`);
  });

  test('a folder written by the Python tools (recorded scenario 1007): frozen where the tools left readiness_check', async () => {
    // Scenario 1007 reaches readiness_check; rebuild it just before its own freeze.
    const root = tempRoot();
    const { folder, protocol } = await pythonFolder(1007, root, (step) => step.step.startsWith('13 append'));
    expect(protocol.currentPhase).toBe('readiness_check');
    const owner = protocol.proposalOwner as string;
    const r = await acp(['freeze', '--folder', folder, '--participant', owner]);
    expect(r.stderr).toBe('');
    expect(r.rc).toBe(0);
    const ref = lib.primaryRef(protocol)!;
    expect(readFileSync(join(folder, ref), 'utf8')).toMatch(/^Status: Frozen$/m);
    expect((await acp(['validate', '--folder', folder, '--json'])).stdout).not.toContain('sha256 does not match');
  });
});

describe('the text edits', () => {
  const api = { api: lib.libraryApi() };

  test('withStatusFrozen changes the status line the protocol reads, and only it', () => {
    expect(withStatusFrozen(api, '# T\nStatus:   In Review  \nStatus: Draft\n', 'x.md')).toBe('# T\nStatus: Frozen\nStatus: Draft\n');
    expect(withStatusFrozen(api, '# T\r\nStatus: Draft\r\n', 'x.md')).toBe('# T\r\nStatus: Frozen\r\n');
    expect(() => withStatusFrozen(api, '# T\nStatus: Done\n', 'x.md')).toThrow(/x\.md has no status line/);
  });

  test('withSnapshot fills, replaces or adds the snapshot lines', () => {
    const sha = 'a'.repeat(64);
    const primary = { ref: 'deliverables/adr.md', role: 'primary' as const };
    const template = '# Readiness\n\n## Deliverable Snapshot\n\n- Primary: `deliverables/adr.md`\n- SHA-256:\n\n## Ready to Implement\n\n- [ ] Ready to implement\n';
    const filled = withSnapshot(template, primary, sha);
    expect(filled).toBe(template.replace('- SHA-256:\n', `- SHA-256: ${sha}\n`));
    expect(withSnapshot(filled, primary, 'b'.repeat(64))).toBe(template.replace('- SHA-256:\n', `- SHA-256: ${'b'.repeat(64)}\n`));
    expect(withSnapshot('# Readiness\n', primary, sha)).toBe(`# Readiness\n\n## Deliverable Snapshot\n\n- Primary: \`deliverables/adr.md\`\n- SHA-256: ${sha}\n`);
    const noHashLine = '## Deliverable Snapshot\n\n- Primary: `deliverables/adr.md`\n';
    expect(withSnapshot(noHashLine, primary, sha)).toBe(`${noHashLine}- SHA-256: ${sha}\n`);
  });
});
