// Strict append, fuzzed (issue 26): random agent sessions — an honest agent
// doing the next step, interleaved with random edits of every document and
// random events by random participants — appended in strict mode. After
// every append that strict mode accepts, the folder must pass `validate`
// (and `validate --strict`): the figure is the number of folders that pass
// every strict append but fail validate, and it must be 0.
//
// Seeded and replayable: session i of seed S uses its own generator
// (seed S + i); a failure names both. ACP_FUZZ_SEED=S ACP_FUZZ_SESSION=i
// replays one session. 30 sessions in quick (`npm test`), 1,000 in full
// (ACP_FULL=1, `npm run test:all`) and long (test/scale.ts);
// ACP_FUZZ_SESSIONS overrides.
import * as nodePath from 'node:path';
import { expect, test } from 'vitest';
import { AcpError, append, createMemoryHost, createRegistry, init, type Host, type Registry, sha256Hex, validate } from '../acp.ts';
import { byScale } from './scale.ts';
import { rng as generator } from './seeded.ts';

const FOLDER = '/collab';
const SEED = Number(process.env.ACP_FUZZ_SEED ?? 26026);
const SESSIONS = Number(process.env.ACP_FUZZ_SESSIONS ?? byScale({ quick: 15, full: 1000 }));
const ONLY = process.env.ACP_FUZZ_SESSION === undefined ? undefined : Number(process.env.ACP_FUZZ_SESSION);
const STEPS_PER_SESSION = 60;
const EVENTS = ['deliverable_drafted', 'deliverable_revised', 'deliverable_frozen', 'proposal_submitted', 'review_submitted', 'proposal_revised', 'question_classified', 'decision_proposed', 'decision_accepted', 'readiness_passed', 'completed', 'blocked'];
const TYPES: { type: string; file?: string; checks?: string[] }[] = [{ type: 'design-spec' }, { type: 'adr' }, { type: 'test-plan' }, { type: 'custom', file: 'notes.md', checks: ['Context', 'Outcome'] }];


interface Session {
  host: Host;
  registry: Registry;
  random: () => number;
  participants: string[];
  primary: string;
  sections: string[];
  log: string[];
}

const decoder = new TextDecoder();
const pick = <T>(s: Session, items: readonly T[]): T => items[Math.floor(s.random() * items.length)]!;
const path = (doc: string): string => nodePath.join(FOLDER, doc);
async function read(s: Session, doc: string): Promise<string> {
  try {
    return decoder.decode(await s.host.fs.readFile(path(doc)));
  } catch {
    return '';
  }
}
async function write(s: Session, doc: string, text: string): Promise<void> {
  await s.host.fs.mkdir(nodePath.dirname(path(doc)));
  await s.host.fs.writeFile(path(doc), text);
}
async function protocol(s: Session): Promise<{ currentPhase: string; waitingFor: string[]; proposalOwner: string; completionGates: { text: string }[] }> {
  return JSON.parse(await read(s, 'protocol.json'));
}
async function lastSeq(s: Session): Promise<number> {
  const lines = (await read(s, 'events.jsonl')).trim().split('\n');
  return JSON.parse(lines.at(-1)!).seq;
}

function deliverable(s: Session, status: string, words: string): string {
  return `# Deliverable\n\nStatus: ${status}\n\n${s.sections.map((name) => `## ${name}\n\n${words} ${name}.\n`).join('\n')}`;
}

function review(s: Session, me: string, seq: number): string {
  return `\n## 2026-01-01T00:00:00Z - ${me} - seq ${seq}\n\nContext:\n- Reviewed primary deliverable: \`${s.primary}\`\n\nReview Scope:\n- Primary deliverable completeness\n\nPosition:\n- Accept.\n`;
}

/** The honest agent: the documents and the event of the next step for someone whose turn it is. */
async function honestStep(s: Session): Promise<{ who: string; event: string; doc?: string; role?: string; sha256?: string }> {
  const p = await protocol(s);
  const who = p.waitingFor.length ? pick(s, p.waitingFor) : pick(s, s.participants);
  const events = (await read(s, 'events.jsonl')).trim().split('\n').map((line) => JSON.parse(line).event as string);
  const seq = await lastSeq(s);
  switch (p.currentPhase) {
    case 'drafting':
      if (!events.includes('deliverable_drafted')) {
        await write(s, s.primary, deliverable(s, 'Draft', 'The content of'));
        return { who, event: 'deliverable_drafted', doc: s.primary, role: 'primary' };
      }
      await write(s, 'proposal.md', `# Proposal\n\nPrimary deliverable: \`${s.primary}\`\n\n## Summary\n\nThe proposal.\n`);
      return { who, event: 'proposal_submitted', doc: 'proposal.md' };
    case 'reviewing':
      await write(s, 'review.md', (await read(s, 'review.md')) + review(s, who, seq + 1));
      return { who, event: 'review_submitted', doc: 'review.md' };
    case 'revising':
      return { who, event: 'proposal_revised', doc: 'proposal.md' };
    case 'decision_review': {
      if (events.at(-1) === 'proposal_revised' || events.at(-1) === 'decision_proposed') {
        await write(s, 'decisions.md', `# Decisions\n\n## Accepted Decisions\n\n### D1. One\n\n- Decision: yes.\n- Reflected in: \`${s.primary}\`\n`);
        const readiness = (await read(s, 'readiness.md')).replace(/^- \[unresolved\].*$/gm, '- [resolved] Settled.');
        await write(s, 'readiness.md', readiness);
        return { who: p.proposalOwner, event: 'question_classified', doc: 'readiness.md' };
      }
      return { who, event: 'decision_accepted', doc: 'decisions.md' };
    }
    case 'readiness_check': {
      if (!events.includes('deliverable_frozen')) {
        const frozen = (await read(s, s.primary)).replace(/^Status: .*$/m, 'Status: Frozen');
        await write(s, s.primary, frozen);
        const sha256 = await sha256Hex(new TextEncoder().encode(frozen));
        const readiness = (await read(s, 'readiness.md')).replace(/^- SHA-256:.*$/m, `- SHA-256: ${sha256}`).replace(/^- \[ \] /gm, '- [x] ');
        await write(s, 'readiness.md', readiness);
        return { who, event: 'deliverable_frozen', doc: s.primary, role: 'primary', sha256 };
      }
      if (!events.includes('readiness_passed')) return { who, event: 'readiness_passed', doc: 'readiness.md' };
      const sections = ['Decision Outcome', 'Rationale', 'Deliverable Receipt', 'Accepted Decisions Summary', 'Readiness Result', 'Assumptions', 'Deferred Follow-ups', 'Implementation Blockers', 'Next Action'];
      const body = sections.map((name) => `## ${name}\n\n${name === 'Decision Outcome' ? '- [proceed] Build it.' : `See \`${s.primary}\`.`}\n`).join('\n');
      await write(s, 'conclusion.md', `# Conclusion\n\n${body}`);
      return { who, event: 'completed', doc: 'conclusion.md' };
    }
    default:
      return { who, event: 'blocked' };
  }
}

/** Random damage an agent may do to the documents between appends. */
const EDITS: ((s: Session) => Promise<void>)[] = [
  async (s) => write(s, s.primary, deliverable(s, 'Draft', '')),
  async (s) => write(s, s.primary, (await read(s, s.primary)).replace(/^## .*\n/m, '')),
  async (s) => write(s, s.primary, (await read(s, s.primary)).replace(/^Status: .*$/m, 'Status: Draft')),
  async (s) => write(s, s.primary, `${await read(s, s.primary)}\nAn edit.\n`),
  async (s) => s.host.fs.remove(path(s.primary)),
  async (s) => write(s, 'proposal.md', '# Proposal\n\n## Summary\n\nDescribe the proposal here, then append `proposal_submitted`.\n'),
  async (s) => write(s, 'proposal.md', '# Proposal\n\n## Summary\n\n'),
  async (s) => write(s, 'review.md', '# Review\n'),
  async (s) => write(s, 'review.md', (await read(s, 'review.md')) + review(s, pick(s, s.participants), Math.floor(s.random() * 12) + 1)),
  async (s) => write(s, 'review.md', (await read(s, 'review.md')).replace('Review Scope:', 'Scope:')),
  async (s) => write(s, 'decisions.md', '# Decisions\n\n### D2. Skipped one\n\n- Decision: x\n'),
  async (s) => write(s, 'readiness.md', `${await read(s, 'readiness.md')}\n- [unresolved] A new question.\n`),
  async (s) => write(s, 'readiness.md', `${await read(s, 'readiness.md')}\n- [blocking] It cannot work.\n`),
  async (s) => write(s, 'readiness.md', `${await read(s, 'readiness.md')}\n- [deferred_nonblocking] Later.\n`),
  async (s) => write(s, 'readiness.md', (await read(s, 'readiness.md')).replace(/^- \[x\] /gm, '- [ ] ')),
  async (s) => write(s, 'conclusion.md', '# Conclusion\n\n## Decision Outcome\n\n- [proceed] TBD\n'),
  async (s) => write(s, 'state.log', 'notes\n'),
  async (s) => s.host.fs.remove(path('state.log')),
  async (s) => s.host.fs.remove(path('decisions.md')),
];

/** A random event by a random participant, with random (but well-formed) arguments. */
async function randomEvent(s: Session): Promise<{ who: string; event: string; doc?: string; role?: string; sha256?: string; replyTo?: number }> {
  const event = pick(s, EVENTS);
  const doc = pick(s, [s.primary, 'proposal.md', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md', undefined]);
  const role = event.startsWith('deliverable_') ? pick(s, ['primary', 'supporting', undefined]) : undefined;
  const sha256 = event === 'deliverable_frozen' ? await sha256Hex(new TextEncoder().encode(await read(s, s.primary))) : undefined;
  return { who: pick(s, s.participants), event, doc, role, sha256, replyTo: Math.floor(s.random() * ((await lastSeq(s)) + 1)) + 1 };
}

/** The documents an agent writes (everything but the log and protocol.json), by name; absent ones as undefined. */
async function documents(s: Session): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  for (const doc of [s.primary, 'proposal.md', 'review.md', 'decisions.md', 'readiness.md', 'conclusion.md', 'state.log']) out[doc] = (await s.host.fs.stat(path(doc))) ? await read(s, doc) : undefined;
  return out;
}

async function restore(s: Session, docs: Record<string, string | undefined>): Promise<void> {
  for (const [doc, text] of Object.entries(docs)) {
    if (text === undefined) await s.host.fs.remove(path(doc));
    else await write(s, doc, text);
  }
}

async function runSession(index: number, registry: Registry): Promise<{ accepted: number; refused: number; completed: boolean; failures: string[] }> {
  const random = generator(SEED + index);
  const kind = TYPES[Math.floor(random() * TYPES.length)]!;
  const participants = ['alice', 'bob', 'carol'].slice(0, 2 + Math.floor(random() * 2));
  const host = createMemoryHost({ now: () => new Date(Date.UTC(2026, 0, 1)) });
  const result = await init(host, FOLDER, { participants, objective: 'Fuzz', completion: ['It works'], primaryType: kind.type, primaryFile: kind.file, primaryChecks: kind.checks }, registry);
  const primary = (result.protocol!.deliverables.dir as string) + '/' + (result.protocol!.deliverables.primary.file as string);
  const s: Session = { host, registry, random, participants, primary, sections: registry.type(kind.type)!.sections(kind.checks ?? []), log: [] };
  const failures: string[] = [];
  let accepted = 0;
  let refused = 0;
  let good = await documents(s);
  for (let step = 0; step < STEPS_PER_SESSION; step++) {
    const phase = (await protocol(s)).currentPhase;
    if (phase === 'completed' || phase === 'blocked') break;
    const roll = random();
    let request: { who: string; event: string; doc?: string; role?: string; sha256?: string; replyTo?: number };
    if (roll < 0.7) request = await honestStep(s);
    else if (roll < 0.88) {
      await pick(s, EDITS)(s);
      continue;
    } else request = await randomEvent(s);
    const tryAppend = async (): Promise<boolean> => {
      const replyTo = request.replyTo ?? (await lastSeq(s));
      try {
        await append(host, FOLDER, { participant: request.who, event: request.event, summary: 'fuzz', doc: request.doc, role: request.role, sha256: request.sha256, replyTo }, registry, { strict: true });
        return true;
      } catch (error) {
        if (!(error instanceof AcpError)) throw error;
        refused++;
        return false;
      }
    };
    let ok = await tryAppend();
    if (!ok && roll < 0.7) {
      // An honest agent told why reads the refusal and undoes the damage: the documents as they were at the last accepted append, then its step again.
      await restore(s, good);
      request = await honestStep(s);
      ok = await tryAppend();
    }
    if (!ok) continue;
    accepted++;
    good = await documents(s);
    for (const strict of [false, true]) {
      const verdict = await validate(host, FOLDER, registry, { strict });
      if (verdict.errors.length) failures.push(`session ${index} (seed ${SEED}), step ${step}, ${request.event} by ${request.who}: validate${strict ? ' --strict' : ''}: ${verdict.errors.join('; ')}`);
    }
  }
  return { accepted, refused, completed: (await protocol(s)).currentPhase === 'completed', failures };
}

test(`fuzz: ${ONLY === undefined ? SESSIONS : 1} random agent sessions (seed ${SEED}): every folder a strict append leaves passes validate`, { timeout: 1_800_000 }, async () => {
  const registry = await createRegistry();
  const totals = { accepted: 0, refused: 0, completed: 0, failures: [] as string[] };
  for (const index of ONLY === undefined ? Array.from({ length: SESSIONS }, (_, i) => i) : [ONLY]) {
    const outcome = await runSession(index, registry);
    totals.accepted += outcome.accepted;
    totals.refused += outcome.refused;
    totals.completed += outcome.completed ? 1 : 0;
    totals.failures.push(...outcome.failures);
  }
  console.log(`strict fuzz: ${SESSIONS} sessions, ${totals.accepted} strict appends accepted, ${totals.refused} refused, ${totals.completed} sessions completed, ${totals.failures.length} folders failing validate after an accepted strict append`);
  expect(totals.failures).toEqual([]);
  // The fuzz reaches the end of the protocol, and strict mode refuses something: a generator that did neither would prove nothing.
  expect(totals.completed).toBeGreaterThan(0);
  expect(totals.refused).toBeGreaterThan(0);
});
