// Strict append (issue 26): an append is refused, in validate's own words,
// when the folder would fail `validate --strict` after it. One row per
// check validate makes: a folder of the happy path is taken to the step
// before, edited so that exactly that check fails after the next event,
// and the next event is appended in strict mode. Every row asserts:
//   - the strict append is refused with the message validate uses, exit 2,
//     code `strict` (or the protocol's own refusal where the plain append
//     refuses too), and the folder is left byte for byte as it was;
//   - what the plain (Python-compatible) append does with the same event:
//     refused too ('plain refuses'), or accepted, after which `validate`
//     (plain or strict, as the row says) reports that very message
//     ('strict only'), or accepted with a folder that passes because the
//     append rewrites what was wrong ('rewritten').
import * as nodePath from 'node:path';
import { describe, expect, test } from 'vitest';
import { AcpError, append, createMemoryHost, createRegistry, init, type Registry, sha256Hex, validate, type Host } from '../acp.ts';
import { FROZEN, INIT, OWNER, PRIMARY, REVIEWER, STEPS } from './happy-path.ts';

const FOLDER = '/collab';
const at = (doc: string): string => nodePath.join(FOLDER, doc);

type Kind = 'strict only' | 'plain refuses' | 'rewritten';
interface Row {
  /** validate's message (a prefix when it ends with a variable part). */
  check: string;
  /** The happy-path step whose event is appended after the edit (its files are written first). */
  step: number;
  edit(f: Files): Promise<void> | void;
  kind: Kind;
  /** The check is one of `validate --strict`'s own (beyond the Python tools'). */
  strictValidate?: boolean;
}

interface Files {
  read(doc: string): Promise<string>;
  write(doc: string, text: string): Promise<void>;
  remove(doc: string): Promise<void>;
  protocol(change: (p: Record<string, any>) => void): Promise<void>;
  host: Host;
}

const decoder = new TextDecoder();

/** A folder after the first `steps` happy-path steps, and file helpers on it. */
async function folderAt(steps: number, registry: Registry): Promise<{ host: Host; files: Files }> {
  const host = createMemoryHost();
  await init(host, FOLDER, INIT, registry);
  for (const step of STEPS.slice(0, steps)) {
    for (const [doc, text] of Object.entries(step.files)) await host.fs.writeFile(at(doc), text);
    await append(host, FOLDER, step.event, registry, { strict: true });
  }
  const files: Files = {
    host,
    read: async (doc) => decoder.decode(await host.fs.readFile(at(doc))),
    write: async (doc, text) => {
      await host.fs.mkdir(nodePath.dirname(at(doc)));
      await host.fs.writeFile(at(doc), text);
    },
    remove: (doc) => host.fs.remove(at(doc)),
    protocol: async (change) => {
      const p = JSON.parse(await files.read('protocol.json'));
      change(p);
      await files.write('protocol.json', `${JSON.stringify(p, null, 2)}\n`);
    },
  };
  return { host, files };
}

/** Every file of the folder, for "nothing changed". */
async function snapshot(host: Host, dir = FOLDER): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await host.fs.readDir(dir)).sort()) {
    const path = nodePath.join(dir, name);
    const stat = await host.fs.stat(path);
    if (stat?.isDirectory) Object.assign(out, await snapshot(host, path));
    else if (!name.startsWith('.acp')) out[path] = decoder.decode(await host.fs.readFile(path));
  }
  return out;
}

const replaceIn = (doc: string, from: string | RegExp, to: string) => async (f: Files) => f.write(doc, (await f.read(doc)).replace(from, to));
const eventLine = (event: Record<string, unknown>) => async (f: Files) => f.write('events.jsonl', (await f.read('events.jsonl')) + `${JSON.stringify(event)}\n`);
const supporting = (entry: Record<string, unknown>) => (f: Files) => f.protocol((p) => p.deliverables.supporting.push(entry));

const ROWS: Row[] = [
  // Steps 1-2: the folder's files.
  { check: 'missing decisions.md', step: 1, edit: (f) => f.remove('decisions.md'), kind: 'strict only' },
  { check: 'conclusion.md is a directory, not a file', step: 1, edit: async (f) => (await f.remove('conclusion.md'), f.host.fs.mkdir(at('conclusion.md'))), kind: 'strict only' },
  { check: 'state.log is not part of the protocol', step: 1, edit: (f) => f.write('state.log', 'x\n'), kind: 'strict only' },
  // Step 3: protocol.json's declaration.
  { check: "protocol.json protocol must be 'acp'", step: 1, edit: (f) => f.protocol((p) => (p.protocol = 'other')), kind: 'strict only' },
  { check: 'protocol.json schemaVersion must be 2', step: 1, edit: (f) => f.protocol((p) => (p.schemaVersion = 3)), kind: 'strict only' },
  { check: 'currentPhase must be one of', step: 1, edit: (f) => f.protocol((p) => (p.currentPhase = 'bogus')), kind: 'rewritten' },
  { check: 'protocol.json objective must not be blank', step: 1, edit: (f) => f.protocol((p) => (p.objective = ' ')), kind: 'strict only' },
  { check: 'protocol.json completionGates must not be empty', step: 1, edit: (f) => f.protocol((p) => (p.completionGates = [])), kind: 'strict only' },
  { check: 'completionGates[1] must include source and text', step: 1, edit: (f) => f.protocol((p) => (p.completionGates[0].source = 'elsewhere')), kind: 'strict only' },
  { check: 'completion gate must not reference obsolete file state.log', step: 1, edit: (f) => f.protocol((p) => (p.completionGates[0].text = 'see state.log')), kind: 'strict only' },
  { check: 'protocol.json waitingFor must be present', step: 1, edit: (f) => f.protocol((p) => delete p.waitingFor), kind: 'rewritten' },
  { check: 'protocol.json proposalOwner must be present', step: 1, edit: (f) => f.protocol((p) => delete p.proposalOwner), kind: 'rewritten' },
  // Step 4: the deliverables declaration.
  { check: 'deliverables.mode must be internal or external', step: 1, edit: (f) => f.protocol((p) => (p.deliverables.mode = 'elsewhere')), kind: 'strict only' },
  { check: 'repoRoot is not allowed for internal deliverables', step: 1, edit: (f) => f.protocol((p) => (p.repoRoot = '..')), kind: 'strict only' },
  { check: 'repoRoot is required for external deliverables', step: 1, edit: (f) => f.protocol((p) => (p.deliverables.mode = 'external')), kind: 'strict only' },
  { check: 'repoRoot must be relative', step: 1, edit: (f) => f.protocol((p) => ((p.deliverables.mode = 'external'), (p.repoRoot = '/'))), kind: 'strict only' },
  { check: 'repoRoot must resolve to an existing directory', step: 1, edit: (f) => f.protocol((p) => ((p.deliverables.mode = 'external'), (p.repoRoot = 'nowhere'))), kind: 'strict only' },
  { check: 'collaboration folder must be inside repoRoot', step: 1, edit: async (f) => (await f.host.fs.mkdir(at('sub')), f.protocol((p) => ((p.deliverables.mode = 'external'), (p.repoRoot = 'sub')))), kind: 'strict only' },
  { check: 'deliverables.dir is required', step: 1, edit: (f) => f.protocol((p) => (p.deliverables.dir = '')), kind: 'strict only' },
  { check: 'deliverables.dir must be relative and must not contain ..', step: 1, edit: (f) => f.protocol((p) => (p.deliverables.dir = '../out')), kind: 'strict only' },
  { check: 'protocol.json deliverables.primary is required', step: 1, edit: (f) => f.protocol((p) => delete p.deliverables.primary), kind: 'strict only' },
  { check: 'primary deliverable type is invalid', step: 1, edit: (f) => f.protocol((p) => (p.deliverables.primary.type = 'poem')), kind: 'strict only' },
  { check: 'primary deliverable file must be Markdown', step: 1, edit: (f) => f.protocol((p) => (p.deliverables.primary.file = 'design-spec.txt')), kind: 'strict only' },
  { check: 'custom primary deliverable requires checklist', step: 1, edit: (f) => f.protocol((p) => (p.deliverables.primary.type = 'custom')), kind: 'strict only' },
  { check: 'supporting deliverable type is invalid', step: 1, edit: supporting({ type: 'poem', file: 'extra.md' }), kind: 'strict only' },
  { check: 'supporting deliverable file must be Markdown', step: 1, edit: supporting({ type: 'adr', file: 'extra.txt' }), kind: 'strict only' },
  { check: 'supporting deliverable file must be relative and must not contain ..', step: 1, edit: supporting({ type: 'adr', file: '../extra.md' }), kind: 'strict only' },
  { check: 'supporting deliverable must not reuse the primary deliverable file', step: 1, edit: supporting({ type: 'adr', file: 'design-spec.md' }), kind: 'strict only' },
  { check: 'supporting deliverable files must be unique', step: 1, edit: async (f) => (await supporting({ type: 'adr', file: 'x.md' })(f), supporting({ type: 'adr', file: 'x.md' })(f)), kind: 'strict only' },
  { check: 'attachments must be objects', step: 1, edit: (f) => f.protocol((p) => p.deliverables.attachments.push('a.md')), kind: 'strict only' },
  { check: 'attachment file is required', step: 1, edit: (f) => f.protocol((p) => p.deliverables.attachments.push({ file: '' })), kind: 'strict only' },
  { check: 'attachment file must be relative and must not contain ..', step: 1, edit: (f) => f.protocol((p) => p.deliverables.attachments.push({ file: '../a.md' })), kind: 'strict only' },
  // Steps 5-6: the log.
  { check: 'events.jsonl line 2: ', step: 1, edit: async (f) => f.write('events.jsonl', `${await f.read('events.jsonl')}{not json}\n`), kind: 'plain refuses' },
  { check: 'events.jsonl: expected seq 3, found 7', step: 1, edit: eventLine({ seq: 7, from: OWNER, event: 'deliverable_drafted', at: '2099-01-01T00:00:00Z', summary: 'x', reply_to: 1, doc: PRIMARY, role: 'primary' }), kind: 'strict only' },
  { check: 'seq 3: missing required field summary', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_drafted', at: '2099-01-01T00:00:00Z', reply_to: 2, doc: PRIMARY, role: 'primary' }), kind: 'strict only' },
  { check: "seq 3: unknown event 'danced'", step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'danced', at: '2099-01-01T00:00:00Z', summary: 'x', reply_to: 2 }), kind: 'strict only' },
  { check: 'seq 3: deliverable events require role', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_drafted', at: '2099-01-01T00:00:00Z', summary: 'x', reply_to: 2, doc: PRIMARY }), kind: 'strict only' },
  { check: 'seq 3: deliverable events require doc', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_drafted', at: '2099-01-01T00:00:00Z', summary: 'x', reply_to: 2, role: 'primary' }), kind: 'strict only' },
  { check: 'seq 3: reply_to is required after initialized', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_drafted', at: '2099-01-01T00:00:00Z', summary: 'x', doc: PRIMARY, role: 'primary' }), kind: 'strict only' },
  { check: 'seq 3: reply_to must point to an earlier event', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_drafted', at: '2099-01-01T00:00:00Z', summary: 'x', doc: PRIMARY, role: 'primary', reply_to: 9 }), kind: 'strict only' },
  { check: 'seq 3: at must be an ISO-8601 timestamp', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_drafted', at: 'yesterday', summary: 'x', doc: PRIMARY, role: 'primary', reply_to: 2 }), kind: 'strict only' },
  { check: 'seq 3: at must not be earlier than the previous event', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_drafted', at: '2001-01-01T00:00:00Z', summary: 'x', doc: PRIMARY, role: 'primary', reply_to: 2 }), kind: 'strict only' },
  { check: 'seq 3: deliverable_frozen requires sha256', step: 1, edit: eventLine({ seq: 3, from: OWNER, event: 'deliverable_frozen', at: '2099-01-01T00:00:00Z', summary: 'x', doc: PRIMARY, role: 'primary', reply_to: 2 }), kind: 'plain refuses' },
  // Step 7: review.md.
  { check: 'seq 4: review_submitted requires matching review.md heading', step: 2, edit: (f) => f.write('review.md', '# Review\n'), kind: 'strict only' },
  { check: 'review.md heading seq 9: no matching event', step: 2, edit: replaceIn('review.md', 'seq 4', 'seq 9'), kind: 'strict only' },
  { check: "review.md heading seq 3: matching event is proposal_submitted, not review_submitted", step: 3, edit: async (f) => f.write('review.md', `${await f.read('review.md')}\n## 2026-01-01T00:00:00Z - ${REVIEWER} - seq 3\n\nMore.\n`), kind: 'strict only' },
  { check: "review.md heading seq 4: participant 'carol' does not match event from 'bob'", step: 2, edit: replaceIn('review.md', `${REVIEWER} - seq 4`, 'carol - seq 4'), kind: 'strict only' },
  { check: 'review.md must declare Reviewed primary deliverable', step: 2, edit: replaceIn('review.md', /Reviewed primary deliverable:/g, 'Read:'), kind: 'strict only' },
  { check: 'review.md must declare Review Scope', step: 2, edit: replaceIn('review.md', 'Review Scope:', 'Scope:'), kind: 'strict only' },
  { check: 'review.md Review Scope must include Primary deliverable completeness', step: 2, edit: replaceIn('review.md', 'Primary deliverable completeness', 'Completeness'), kind: 'strict only' },
  { check: 'review.md must reference the primary deliverable', step: 2, edit: replaceIn('review.md', `\`${PRIMARY}\``, 'the spec'), kind: 'strict only' },
  // Step 8: deliverable events and files.
  { check: 'seq 2: doc must reference the primary deliverable', step: 0, edit: () => undefined, kind: 'plain refuses' },
  { check: 'seq 9: deliverable_frozen sha256 does not match current file', step: 8, edit: (f) => f.write(PRIMARY, `${FROZEN}\nLate edit.\n`), kind: 'strict only' },
  { check: 'seq 9: deliverable_frozen doc does not exist', step: 8, edit: (f) => f.remove(PRIMARY), kind: 'strict only' },
  { check: 'primary deliverable can be frozen only once', step: 8, edit: () => undefined, kind: 'plain refuses' },
  { check: 'supporting deliverable requires deliverable_frozen: deliverables/extra.md', step: 1, edit: async (f) => (await f.write('deliverables/extra.md', '# X\n\nStatus: Frozen\n'), supporting({ type: 'custom', file: 'extra.md', checklist: ['A'], frozen: true })(f)), kind: 'strict only' },
  // Step 9: the replay and protocol.json's cached state.
  { check: 'seq 3: proposal_submitted is not allowed in phase', step: 2, edit: () => undefined, kind: 'plain refuses' },
  { check: "protocol.json proposalOwner is 'mallory', expected 'alice'", step: 1, edit: (f) => f.protocol((p) => (p.proposalOwner = 'mallory')), kind: 'rewritten' },
  // Step 10: the deliverables' content, decisions.md, attachments.
  { check: `primary deliverable missing: ${PRIMARY}`, step: 1, edit: (f) => f.remove(PRIMARY), kind: 'strict only' },
  { check: 'primary deliverable must include Status: Draft, In Review, or Frozen', step: 1, edit: replaceIn(PRIMARY, 'Status: Draft', 'State: Draft'), kind: 'strict only' },
  { check: 'primary deliverable status must be Frozen', step: 8, edit: replaceIn(PRIMARY, 'Status: Frozen', 'Status: Draft'), kind: 'strict only' },
  { check: 'primary deliverable missing required section: Goals', step: 1, edit: replaceIn(PRIMARY, '## Goals', '## Aims'), kind: 'strict only' },
  { check: 'primary deliverable section must not be empty when frozen: Goals', step: 8, edit: replaceIn(PRIMARY, 'Content for Goals.', ''), kind: 'strict only' },
  { check: 'supporting deliverable missing: deliverables/extra.md', step: 1, edit: supporting({ type: 'custom', file: 'extra.md', checklist: ['A'] }), kind: 'strict only' },
  { check: 'supporting deliverable deliverables/extra.md must include Status', step: 1, edit: async (f) => (await f.write('deliverables/extra.md', '# X\n\n## A\n\nx\n'), supporting({ type: 'custom', file: 'extra.md', checklist: ['A'] })(f)), kind: 'strict only' },
  { check: 'supporting deliverable deliverables/extra.md missing required section: A', step: 1, edit: async (f) => (await f.write('deliverables/extra.md', '# X\n\nStatus: Draft\n'), supporting({ type: 'custom', file: 'extra.md', checklist: ['A'] })(f)), kind: 'strict only' },
  { check: 'accepted decision headings must use D<number>', step: 4, edit: (f) => f.write('decisions.md', '# Decisions\n\n### Decision one\n\n- Decision: x\n- Reflected in: `deliverables/design-spec.md`\n'), kind: 'strict only' },
  { check: 'duplicate accepted decision id D1', step: 4, edit: (f) => f.write('decisions.md', '# Decisions\n\n### D1. a\n\n- Decision: x\n- Reflected in: `deliverables/design-spec.md`\n\n### D1. b\n\n- Decision: y\n- Reflected in: `deliverables/design-spec.md`\n'), kind: 'strict only' },
  { check: 'accepted decision ids must be sequential', step: 4, edit: (f) => f.write('decisions.md', '# Decisions\n\n### D2. a\n\n- Decision: x\n- Reflected in: `deliverables/design-spec.md`\n'), kind: 'strict only' },
  { check: 'accepted decision D1 requires Decision', step: 4, edit: (f) => f.write('decisions.md', '# Decisions\n\n### D1. a\n\n- Reflected in: `deliverables/design-spec.md`\n'), kind: 'strict only' },
  { check: 'accepted decision D1 requires Reflected in', step: 4, edit: (f) => f.write('decisions.md', '# Decisions\n\n### D1. a\n\n- Decision: x\n'), kind: 'strict only' },
  { check: 'accepted decision D1 Reflected in must point to declared deliverable', step: 4, edit: (f) => f.write('decisions.md', '# Decisions\n\n### D1. a\n\n- Decision: x\n- Reflected in: somewhere\n'), kind: 'strict only' },
  { check: 'attachment missing: a.md', step: 1, edit: (f) => f.protocol((p) => p.deliverables.attachments.push({ file: 'a.md' })), kind: 'strict only' },
  // Steps 11-13: readiness and completion.
  { check: 'blocking readiness items must be cleared before decision_accepted', step: 6, edit: replaceIn('readiness.md', '- [resolved] Storage engine chosen.', '- [blocking] Storage engine chosen.'), kind: 'plain refuses' },
  { check: 'seq 7: unresolved readiness questions must be classified before decision_accepted', step: 8, edit: replaceIn('readiness.md', '- [resolved] Storage engine chosen.', '- [unresolved] Storage engine.'), kind: 'plain refuses' },
  { check: 'seq 7: deferred_nonblocking readiness items require a reason before decision_accepted', step: 8, edit: replaceIn('readiness.md', ' Reason: defaults are fine.', ''), kind: 'plain refuses' },
  { check: "readiness.md must check 'Ready to implement' before readiness_passed or completed", step: 9, edit: replaceIn('readiness.md', '- [x] Ready to implement', '- [ ] Ready to implement'), kind: 'plain refuses' },
  { check: 'completion gates must be checked before completed: Tradeoffs are documented', step: 9, edit: replaceIn('readiness.md', '- [x] Tradeoffs are documented', '- [ ] Tradeoffs are documented'), kind: 'plain refuses' },
  { check: 'conclusion.md must declare exactly one final outcome', step: 9, edit: replaceIn('conclusion.md', '- [proceed] Implement the design.', '- Implement the design.'), kind: 'plain refuses' },
  // validate --strict's own checks (beyond the Python tools').
  { check: 'primary deliverable section must not be empty once drafted: Goals', step: 0, edit: replaceIn(PRIMARY, 'Content for Goals.', ''), kind: 'strict only', strictValidate: true },
  { check: "proposal.md still holds init's placeholder", step: 1, edit: () => undefined, kind: 'strict only', strictValidate: true },
  { check: 'proposal.md section must not be empty once submitted: Summary', step: 1, edit: (f) => f.write('proposal.md', '# Proposal\n\n## Summary\n\n## Risks\n\nNone.\n'), kind: 'strict only', strictValidate: true },
  { check: 'review.md review of seq 4 must declare Reviewed primary deliverable', step: 2, edit: replaceIn('review.md', '- Reviewed primary deliverable:', `<!-- Reviewed primary deliverable: \`${PRIMARY}\` -->\n-`), kind: 'strict only', strictValidate: true },
  { check: 'unresolved readiness questions must be classified once question_classified', step: 4, edit: replaceIn('readiness.md', '- [resolved] Storage engine chosen.', '- [unresolved] Storage engine.'), kind: 'strict only', strictValidate: true },
];

/** Rows whose step's own files must not be written (the edit is about them). */
const SKIP_STEP_FILES = new Set([
  'primary deliverable section must not be empty once drafted: Goals',
  "proposal.md still holds init's placeholder",
  'proposal.md section must not be empty once submitted: Summary',
]);

/** The event a row appends: the step's, or for a few rows one that breaks the protocol itself. */
function rowEvent(row: Row): (typeof STEPS)[number]['event'] {
  const event = { ...STEPS[row.step]!.event };
  if (row.check === 'seq 2: doc must reference the primary deliverable') event.doc = 'deliverables/other.md';
  if (row.check === 'primary deliverable can be frozen only once') return { ...STEPS[7]!.event, replyTo: 8 };
  if (row.check === 'seq 3: proposal_submitted is not allowed in phase') return { ...STEPS[1]!.event, replyTo: 2 };
  return event;
}

describe('strict append: one row per validate check', () => {
  for (const row of ROWS) {
    test(`${row.kind}: ${row.check}`, async () => {
      const registry = await createRegistry();
      const strictFolder = await folderAt(row.step, registry);
      const plainFolder = await folderAt(row.step, registry);
      for (const { files } of [strictFolder, plainFolder]) {
        if (!SKIP_STEP_FILES.has(row.check)) for (const [doc, text] of Object.entries(STEPS[row.step]!.files)) await files.write(doc, text);
        await row.edit(files);
      }
      const event = rowEvent(row);
      if (row.kind === 'rewritten') {
        // The append rewrites what was wrong (protocol.json's cached state): the strict append is accepted, and the folder passes.
        expect((await validate(strictFolder.host, FOLDER, registry)).errors.some((m) => m.startsWith(row.check))).toBe(true);
        await append(strictFolder.host, FOLDER, event, registry, { strict: true });
        expect(await validate(strictFolder.host, FOLDER, registry, { strict: true })).toEqual({ ok: true, errors: [], warnings: [] });
        return;
      }
      // Strict: refused, the folder as it was.
      const before = await snapshot(strictFolder.host);
      const refusal = await append(strictFolder.host, FOLDER, event, registry, { strict: true }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal, 'the strict append is refused').toBeInstanceOf(AcpError);
      const error = refusal as AcpError;
      expect(error.exitCode).toBe(2);
      expect(await snapshot(strictFolder.host)).toEqual(before);
      // Plain: what the Python tools' append does, and what validate says after it.
      const plain = await append(plainFolder.host, FOLDER, event, registry).then(
        () => undefined,
        (e: unknown) => e as AcpError,
      );
      if (row.kind === 'plain refuses') {
        expect(plain, 'the plain append refuses too').toBeInstanceOf(AcpError);
        expect(error.messages.some((m) => m.startsWith(row.check)) || plain!.messages.some((m) => m.startsWith(row.check)) || error.message === plain!.message, error.message).toBe(true);
        return;
      }
      expect(plain, `the plain append accepts it: ${plain?.message}`).toBeUndefined();
      expect(error.code).toBe('strict');
      expect(error.messages.some((m) => m.startsWith(row.check)), error.message).toBe(true);
      // The same words validate uses for the folder the plain append left.
      const after = await validate(plainFolder.host, FOLDER, registry, { strict: row.strictValidate === true });
      expect(after.errors.filter((m) => m.startsWith(row.check)), after.errors.join('\n')).toEqual(error.messages.filter((m) => m.startsWith(row.check)));
      if (row.strictValidate) expect((await validate(plainFolder.host, FOLDER, registry)).errors.some((m) => m.startsWith(row.check))).toBe(false);
    });
  }

  test("strict only: primary deliverable section still holds its template text (a plugin type's template with placeholder text)", async () => {
    const type = { type: 'brief', title: 'Brief', defaultFile: 'brief.md', sections: () => ['Ask', 'Answer'], template: () => '# Brief\n\nStatus: Draft\n\n## Ask\n\nWhat is asked.\n\n## Answer\n\nWhat is answered.\n' };
    const registry = await createRegistry({ plugins: [type] });
    const host = createMemoryHost();
    await init(host, FOLDER, { ...INIT, primaryType: 'brief' }, registry);
    const ref = 'deliverables/brief.md';
    const draft = { participant: OWNER, event: 'deliverable_drafted', summary: 'draft', doc: ref, role: 'primary', replyTo: 1 };
    const refused = await append(host, FOLDER, draft, registry, { strict: true }).catch((e: AcpError) => e);
    expect((refused as AcpError).messages).toEqual(['primary deliverable section still holds its template text: Ask', 'primary deliverable section still holds its template text: Answer']);
    await host.fs.writeFile(at(ref), '# Brief\n\nStatus: Draft\n\n## Ask\n\nWhich queue.\n\n## Answer\n\nWhat is answered.\n');
    expect(((await append(host, FOLDER, draft, registry, { strict: true }).catch((e: AcpError) => e)) as AcpError).messages).toEqual(['primary deliverable section still holds its template text: Answer']);
    await host.fs.writeFile(at(ref), '# Brief\n\nStatus: Draft\n\n## Ask\n\nWhich queue.\n\n## Answer\n\nKafka.\n');
    expect((await append(host, FOLDER, draft, registry, { strict: true })).event.seq).toBe(2);
  });

  test('the happy path passes every strict append, and validate --strict after each', async () => {
    const registry = await createRegistry();
    const { host } = await folderAt(0, registry);
    for (const step of STEPS) {
      for (const [doc, text] of Object.entries(step.files)) await host.fs.writeFile(at(doc), text);
      await append(host, FOLDER, step.event, registry, { strict: true });
      expect(await validate(host, FOLDER, registry, { strict: true })).toEqual({ ok: true, errors: [], warnings: [] });
    }
    expect(await sha256Hex(await host.fs.readFile(at(PRIMARY)))).toBe(STEPS[7]!.event.sha256);
  });
});
