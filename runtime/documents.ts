/**
 * The rules of the Markdown documents (spec §7): sections, the Status line,
 * readiness.md's classified questions and gates, conclusion.md's sections
 * and outcome. Pure text functions with Python's `re` semantics (see
 * pytext.ts); acp.ts re-exports the public ones.
 * @module
 */
import { BOL, DOT, EOL, PY_SPACE, RUN_START, S, escapeRegExp, isPySpaceCode, pyStrip } from './pytext.ts';
import type { MarkdownHelpers, ReadinessFacts } from './types.ts';
export type { MarkdownHelpers, ReadinessFacts } from './types.ts';

/** Required `## ` headings of conclusion.md (spec §7.4). */
export const CONCLUSION_SECTIONS = [
  'Decision Outcome',
  'Rationale',
  'Deliverable Receipt',
  'Accepted Decisions Summary',
  'Readiness Result',
  'Assumptions',
  'Deferred Follow-ups',
  'Implementation Blockers',
  'Next Action',
] as const;

const CONCLUSION_OUTCOMES = new Set(['proceed', 'do_not_proceed', 'defer', 'blocked']);


const STATUS_RE = new RegExp(`${BOL}Status:${S}*(Draft|In Review|Frozen)${S}*${EOL}`);
const NEXT_H2_RE = new RegExp(`${BOL}## `);

function sectionMatch(text: string, section: string): RegExpExecArray | null {
  return new RegExp(`${BOL}##${S}+${escapeRegExp(section)}${S}*${EOL}`, 'u').exec(text);
}

/** Markdown helpers (spec §3, §7). */
export const markdown: MarkdownHelpers = {
  status(text) {
    return STATUS_RE.exec(text)?.[1];
  },
  hasSection(text, section) {
    return sectionMatch(text, section) !== null;
  },
  sectionBody(text, section) {
    const match = sectionMatch(text, section);
    if (!match) return undefined;
    const rest = text.slice(match.index + match[0].length);
    const next = NEXT_H2_RE.exec(rest);
    return next ? rest.slice(0, next.index) : rest;
  },
  strip: pyStrip,
};

const READINESS_ITEM_RE = new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[([A-Za-z_]+)\\]${S}*(${DOT}*)${EOL}`, 'g');
const READY_RE = new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[[xX]\\]${S}*Ready to implement`);

/** Parse readiness.md (missing file → empty text). */
export function readReadiness(text: string): ReadinessFacts {
  const blocking: string[] = [];
  const unresolved: string[] = [];
  const deferredWithoutReason: string[] = [];
  for (const match of text.matchAll(READINESS_ITEM_RE)) {
    const status = match[1]!;
    const body = match[2]!;
    if (status === 'blocking') blocking.push(body);
    if (status === 'unresolved') unresolved.push(body);
    else if ((status === 'resolved' || status === 'deferred_nonblocking' || status === 'blocking') && body.includes('TBD')) unresolved.push(body);
    if (status === 'deferred_nonblocking' && !body.toLowerCase().includes('reason:')) deferredWithoutReason.push(body);
  }
  // Two things every match contains: a checked box and the gate's text.
  // Checking them first spares compiling a Unicode regex per gate (~0.05 ms
  // each in a cold process; status asks about every gate) when none can match.
  const anyChecked = /\[[xX]\]/.test(text);
  return {
    blocking,
    unresolved,
    deferredWithoutReason,
    readyToImplement: READY_RE.test(text),
    isGateChecked: (gate) => anyChecked && text.includes(gate) && new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[[xX]\\]${S}*${escapeRegExp(gate)}${S}*${EOL}`, 'u').test(text),
  };
}

/** The decision-gate messages for a decision_accepted (spec §7.3). */
export function decisionGateErrors(readiness: ReadinessFacts): string[] {
  return readinessGateErrors(readiness, 'before decision_accepted', false);
}

/**
 * The readiness gates (spec §7.3), worded for where they are checked: `when`
 * is `before decision_accepted`, `first` (append) or `before readiness_passed
 * or completed` (validate). Only the decision gate names itself after the
 * reason rule (the other tools' wording); `ready` adds the final checkbox.
 */
export function readinessGateErrors(readiness: ReadinessFacts, when: string, ready: boolean): string[] {
  const errors: string[] = [];
  if (readiness.blocking.length) errors.push(`blocking readiness items must be cleared ${when}`);
  if (readiness.unresolved.length) errors.push(`unresolved readiness questions must be classified ${when}`);
  if (readiness.deferredWithoutReason.length) errors.push(`deferred_nonblocking readiness items require a reason${when === 'before decision_accepted' ? ` ${when}` : ''}`);
  if (ready && !readiness.readyToImplement) errors.push(`readiness.md must check 'Ready to implement' ${when}`);
  return errors;
}

/**
 * `^##\s+(.+?)\s*$`, for headings that are not white space only (only those
 * can name a section): the name runs from the first to the last non-space
 * character of its line. Written without the lazy `.+?` followed by `\s*`,
 * which takes quadratic time on a long line.
 */
const CONCLUSION_HEADING_RE = new RegExp(`${BOL}##${S}+([^${PY_SPACE}](?:${DOT}*[^${PY_SPACE}])?)${S}*${EOL}`, 'g');
const OUTCOME_RE = new RegExp(`${BOL}${RUN_START}${S}*-${S}*\\[([A-Za-z_]+)\\]${S}+(${DOT}+)${EOL}`, 'g');
const PLACEHOLDER_RE = /(?<![\p{L}\p{N}_])(?:tbd|todo|unresolved|待定)(?![\p{L}\p{N}_])/iu;

/** Errors of conclusion.md before completed (spec §7.4). */
export function conclusionErrors(text: string, ref: string | undefined): string[] {
  const errors: string[] = [];
  const headings = new Set<string>();
  for (const match of text.matchAll(CONCLUSION_HEADING_RE)) headings.add(match[1]!);
  const missing = CONCLUSION_SECTIONS.filter((section) => !headings.has(section));
  if (missing.length) errors.push(`conclusion.md is missing required sections: ${missing.join(', ')}`);
  const outcomes = [...text.matchAll(OUTCOME_RE)].map((m) => m[1]!).filter((status) => CONCLUSION_OUTCOMES.has(status));
  if (outcomes.length !== 1) errors.push('conclusion.md must declare exactly one final outcome');
  else if (outcomes[0] === 'blocked') errors.push('conclusion.md outcome cannot be completed while blocked');
  if (PLACEHOLDER_RE.test(text)) errors.push('conclusion.md must not contain unresolved placeholders before completed');
  if (ref !== undefined && !text.includes(ref)) errors.push('conclusion.md must reference the primary deliverable');
  return errors;
}

const DECISION_ID_RE = new RegExp(`^(D\\p{Nd}+)\\.${S}+${DOT}+`, 'u');
/** `^###\s+(.+)$`: `\s+` may cross line ends, as in Python. */
const DECISION_HEADING_RE = new RegExp(`${BOL}###${S}+(${DOT}+)${EOL}`, 'g');
const NEXT_H3_RE = new RegExp(`${BOL}###${S}`, 'g');

/**
 * The block of a decision heading as the Python tools find it: the first
 * match in the text of `^###\s+{heading}\s*$([\s\S]*?)(?=^###\s+|\Z)`
 * (the first heading with that text, wherever it is), without running that
 * pattern once per heading over the whole text.
 */
function decisionBlock(text: string, heading: string): string {
  for (let at = text.indexOf(heading); at !== -1; at = text.indexOf(heading, at + 1)) {
    let ws = at;
    while (ws > 0 && isPySpaceCode(text.charCodeAt(ws - 1))) ws--;
    const hashes = ws - 3;
    if (ws === at || hashes < 0 || !text.startsWith('###', hashes) || (hashes > 0 && text[hashes - 1] !== '\n')) continue;
    // `\s*$`: the white space after the heading, back to its last line end (or the text's end).
    let after = at + heading.length;
    while (after < text.length && isPySpaceCode(text.charCodeAt(after))) after++;
    const start = after === text.length ? after : text.lastIndexOf('\n', after - 1);
    if (start < at + heading.length) continue;
    NEXT_H3_RE.lastIndex = start;
    const next = NEXT_H3_RE.exec(text);
    return text.slice(start, next ? next.index : text.length);
  }
  return '';
}

/** decisions.md's rules (spec §7.2): D<n> headings in order, each with a Decision and a Reflected in naming a declared deliverable. */
export function checkDecisions(text: string | undefined, refs: string[], errors: string[]): void {
  if (text === undefined) {
    errors.push('missing decisions.md');
    return;
  }
  const seen = new Set<string>();
  [...text.matchAll(DECISION_HEADING_RE)].forEach((found, index) => {
    const heading = found[1]!;
    const position = `D${index + 1}`;
    const match = DECISION_ID_RE.exec(heading);
    const id = match ? match[1]! : position;
    if (!match) errors.push('accepted decision headings must use D<number>');
    else {
      if (seen.has(id)) errors.push(`duplicate accepted decision id ${id}`);
      seen.add(id);
      if (id !== position) errors.push('accepted decision ids must be sequential');
    }
    const block = decisionBlock(text, heading);
    if (!block.includes('- Decision:')) errors.push(`accepted decision ${id} requires Decision`);
    if (!block.includes('- Reflected in:')) errors.push(`accepted decision ${id} requires Reflected in`);
    else if (!refs.some((ref) => block.includes(ref))) errors.push(`accepted decision ${id} Reflected in must point to declared deliverable`);
  });
}

/** The line init writes as proposal.md's summary: a proposal submitted with it still there was never written. */
export const PROPOSAL_PLACEHOLDER = 'Describe the proposal here, then append `proposal_submitted`.';

/** The `## ` sections of a Markdown text, in order, each with its body (up to the next `## ` heading). */
function h2Sections(text: string): { name: string; body: string }[] {
  const parts = text.split(/^## /m);
  parts.shift();
  return parts.map((part) => {
    const end = part.indexOf('\n');
    return { name: pyStrip(end < 0 ? part : part.slice(0, end)), body: end < 0 ? '' : part.slice(end + 1) };
  });
}

/** Markdown without its HTML comments (a template kept in a comment is not content). */
function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
}

/**
 * [beyond] proposal.md once `proposal_submitted` is in the log, as strict
 * mode reads it: init's placeholder replaced, and no empty `## ` section.
 */
export function strictProposalErrors(text: string): string[] {
  const errors: string[] = [];
  if (text.includes(PROPOSAL_PLACEHOLDER)) errors.push("proposal.md still holds init's placeholder (Describe the proposal here…): write the proposal before proposal_submitted");
  for (const section of h2Sections(withoutComments(text))) {
    if (pyStrip(section.body) === '') errors.push(`proposal.md section must not be empty once submitted: ${section.name}`);
  }
  return errors;
}

/**
 * [beyond] Each review of review.md as strict mode reads it: the section
 * under the heading of a review_submitted (to the next `## ` heading,
 * comments left out) declares, itself, what validate looks for anywhere in
 * the file (init's template comment declares it too). The sections under a
 * review heading that miss any of it, in order, with the seq its heading
 * names and what is missing; validate keeps the findings of the sections
 * whose seq is a review_submitted's (and the validation checkpoint keeps
 * them per review.md).
 */
export function strictReviewSections(text: string, findHeadings: (line: string) => { seq: number | bigint }[]): { seq: number | bigint; errors: string[] }[] {
  const sections: { seq: number | bigint; errors: string[] }[] = [];
  for (const section of h2Sections(withoutComments(text))) {
    const { body } = section;
    const reviewed = body.includes('Reviewed primary deliverable:');
    const scope = body.includes('Review Scope:');
    const completeness = body.includes('Primary deliverable completeness');
    // A section that declares it all has no finding: its heading is not looked for
    // (a first validate of a long review.md did so for each of its 10k sections).
    if (reviewed && scope && completeness) continue;
    const heading = findHeadings(`## ${section.name}`)[0];
    if (!heading) continue;
    const where = `review.md review of seq ${heading.seq}`;
    const errors: string[] = [];
    if (!reviewed) errors.push(`${where} must declare Reviewed primary deliverable`);
    if (!scope) errors.push(`${where} must declare Review Scope`);
    if (!completeness) errors.push(`${where} Review Scope must include Primary deliverable completeness`);
    sections.push({ seq: heading.seq, errors });
  }
  return sections;
}

/** What {@link initialDocuments} writes into. */
export interface InitialDocumentFacts {
  objective: string;
  owner: string;
  participants: readonly string[];
  /** The primary deliverable's reference. */
  ref: string;
  /** The deliverable type's title. */
  title: string;
  /** Every completion gate's text, in order. */
  gates: readonly string[];
}

/**
 * The documents `init` writes besides protocol.json, events.jsonl and the
 * deliverable (spec §9): README.md, proposal.md, review.md, decisions.md,
 * readiness.md and conclusion.md, by file name.
 */
export function initialDocuments(facts: InitialDocumentFacts): Record<string, string> {
  const { objective, owner, participants, ref, title: typeTitle } = facts;
  const gateLines = facts.gates.map((gate) => `- [ ] ${gate}`).join('\n');
  const readme = `# ACP collaboration\n\nObjective: ${objective}\n\nParticipants: ${participants.join(', ')} (proposal owner: ${owner}).\n\nPrimary deliverable: \`${ref}\`.\n\nThis folder follows the Agent Collaboration Protocol, schema v2. State lives in\n\`protocol.json\`; \`events.jsonl\` is the append-only event log. Check whose turn it is\nwith \`acp next --folder . --participant <id>\`, append events with \`acp append\`, and\nvalidate with \`acp validate --folder .\`.\n`;
  return Object.fromEntries([
    ['README.md', readme],
    ['proposal.md', `# Proposal\n\nObjective: ${objective}\n\nOwner: ${owner}\n\nPrimary deliverable: \`${ref}\`\n\n## Summary\n\n${PROPOSAL_PLACEHOLDER}\n`],
    [
      'review.md',
      `# Review\n\nEach review starts with a heading \`## <UTC time> - <participant> - seq <event seq>\` naming the review_submitted event it belongs to.\n\n<!--\nTemplate:\n\n## 2026-01-01T00:00:00Z - participant - seq N\n\nContext:\n- Read \`proposal.md\` after event seq \`N\`.\n- Reviewed primary deliverable: \`${ref}\`\n- Reviewed supporting deliverables: none.\n\nReview Scope:\n- Proposal coherence\n- Primary deliverable completeness\n- Accepted decision traceability\n- Implementation readiness\n\nPosition:\n- Accept.\n\nConcerns:\n- None.\n\nRequired Changes:\n- None.\n\nQuestions:\n- None.\n-->\n`,
    ],
    [
      'decisions.md',
      `# Decisions\n\n## Accepted Decisions\n\n### D1. Record the primary deliverable\n\n- Decision: the collaboration produces a ${typeTitle} at \`${ref}\`.\n- Rationale: one primary deliverable keeps the outcome reviewable.\n- Reflected in: \`${ref}\`\n`,
    ],
    [
      'readiness.md',
      `# Readiness\n\n## Open Question Classification\n\n- [unresolved] Which open questions block implementation? Classify each as resolved, deferred_nonblocking (with a reason:) or blocking.\n\n## Blocking Issues\n\n- None.\n\n## Gates\n\n${gateLines}\n\n## Deliverable Snapshot\n\n- Primary: \`${ref}\`\n- SHA-256:\n\n## Ready to Implement\n\n- [ ] Ready to implement\n`,
    ],
    [
      'conclusion.md',
      `# Conclusion\n\n## Decision Outcome\n\n- [blocked] The collaboration has not concluded yet.\n\n## Rationale\n\nWritten when the collaboration concludes.\n\n## Deliverable Receipt\n\n- Primary: \`${ref}\`\n- SHA-256: recorded at freeze.\n\n## Accepted Decisions Summary\n\nSee \`decisions.md\`.\n\n## Readiness Result\n\nSee \`readiness.md\`.\n\n## Assumptions\n\nNone recorded.\n\n## Deferred Follow-ups\n\nNone recorded.\n\n## Implementation Blockers\n\nNone recorded.\n\n## Next Action\n\nFinish the collaboration.\n`,
    ],
  ]);
}
