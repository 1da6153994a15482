// One complete collaboration, as data: the files each agent writes and the
// event it then appends, from init to completed. Shared by the in-memory
// embedding test (driven through the library) and the runtime smoke tests
// (driven through the CLI under node, bun, deno and the binary).
import type { AppendRequest } from '../acp.ts';
import { createHash } from 'node:crypto';

export const OWNER = 'alice';
export const REVIEWER = 'bob';
export const PRIMARY = 'deliverables/design-spec.md';

/** Arguments of init (library form). */
export const INIT = {
  participants: [OWNER, REVIEWER],
  objective: 'Choose the storage layer',
  completion: ['Tradeoffs are documented'],
  primaryType: 'design-spec',
};

/** The same, as CLI arguments. */
export function initArgs(folder: string): string[] {
  return [
    'init', '--folder', folder, '--participant', OWNER, '--participant', REVIEWER,
    '--objective', INIT.objective, '--completion', INIT.completion[0]!, '--primary-deliverable-type', INIT.primaryType,
  ];
}

const SECTIONS = ['Problem', 'Goals', 'Non-goals', 'Proposed Design', 'Interfaces / Contracts', 'Failure Modes', 'Validation Plan', 'Open Questions'];

function designSpec(status: string): string {
  const body = SECTIONS.map((s) => `## ${s}\n\nContent for ${s}.\n`).join('\n');
  return `# Design Spec\n\nDeliverable type: \`design-spec\`\nStatus: ${status}\n\n${body}`;
}

/** The primary deliverable as frozen, and its SHA-256. */
export const FROZEN = designSpec('Frozen');
export const FROZEN_SHA256 = createHash('sha256').update(FROZEN).digest('hex');

const REVIEW = `# Review

## 2026-01-01T00:00:00Z - ${REVIEWER} - seq 4

Context:
- Read \`proposal.md\` after event seq \`3\`.
- Reviewed primary deliverable: \`${PRIMARY}\`
- Reviewed supporting deliverables: none.

Review Scope:
- Proposal coherence
- Primary deliverable completeness
- Accepted decision traceability
- Implementation readiness

Position:
- Accept.

Concerns:
- None.

Required Changes:
- None.

Questions:
- None.
`;

const READINESS = `# Readiness

## Open Question Classification

- [resolved] Storage engine chosen.
- [deferred_nonblocking] Tune cache sizes later. Reason: defaults are fine.

## Blocking Issues

- None.

## Gates

- [x] Tradeoffs are documented
- [x] Primary deliverable exists: \`${PRIMARY}\`
- [x] Primary deliverable has required \`design-spec\` sections
- [x] Every accepted decision has \`Reflected in\`
- [x] Every accepted decision is reflected in the primary deliverable
- [x] Primary deliverable status is \`Frozen\`
- [x] Primary deliverable SHA-256 snapshot recorded

## Deliverable Snapshot

- Primary: \`${PRIMARY}\`
- SHA-256: ${FROZEN_SHA256}

## Ready to Implement

- [x] Ready to implement
`;

const DECISIONS = `# Decisions

## Accepted Decisions

### D1. Use an append-only log

- Decision: store events in an append-only log.
- Rationale: simple and auditable.
- Reflected in: \`${PRIMARY}#proposed-design\`
`;

const CONCLUSION = `# Conclusion

## Decision Outcome

- [proceed] Implement the design.

## Rationale

- Reviewed and accepted by all participants.

## Deliverable Receipt

- Primary: \`${PRIMARY}\`
- SHA-256: ${FROZEN_SHA256}

## Accepted Decisions Summary

- D1. Use an append-only log.

## Readiness Result

- Passed.

## Assumptions

- None.

## Deferred Follow-ups

- Tune cache sizes.

## Implementation Blockers

- None.

## Next Action

Start the implementation.
`;

/** An event as the library's append() takes it. */
export type HappyEvent = AppendRequest;

/** One step: write these files (relative to the folder), then append the event. */
export interface HappyStep {
  files: Record<string, string>;
  event: HappyEvent;
  /** Phase and waitingFor after the append. */
  phase: string;
  waitingFor: string[];
}

export const STEPS: HappyStep[] = [
  { files: { [PRIMARY]: designSpec('Draft') }, event: { participant: OWNER, event: 'deliverable_drafted', summary: 'first draft', doc: PRIMARY, replyTo: 1, role: 'primary' }, phase: 'drafting', waitingFor: [OWNER] },
  { files: { 'proposal.md': '# Proposal\n\nUse an append-only log.\n' }, event: { participant: OWNER, event: 'proposal_submitted', summary: 'please review', doc: 'proposal.md', replyTo: 2 }, phase: 'reviewing', waitingFor: [REVIEWER] },
  { files: { 'review.md': REVIEW }, event: { participant: REVIEWER, event: 'review_submitted', summary: 'looks good', doc: 'review.md', replyTo: 3 }, phase: 'revising', waitingFor: [OWNER] },
  { files: {}, event: { participant: OWNER, event: 'proposal_revised', summary: 'revised', doc: 'proposal.md', replyTo: 4 }, phase: 'decision_review', waitingFor: [OWNER] },
  { files: { 'readiness.md': READINESS, 'decisions.md': DECISIONS }, event: { participant: OWNER, event: 'question_classified', summary: 'classified', doc: 'readiness.md', replyTo: 5 }, phase: 'decision_review', waitingFor: [OWNER, REVIEWER] },
  { files: {}, event: { participant: OWNER, event: 'decision_accepted', summary: 'accept', doc: 'decisions.md', replyTo: 6 }, phase: 'decision_review', waitingFor: [REVIEWER] },
  { files: {}, event: { participant: REVIEWER, event: 'decision_accepted', summary: 'accept', doc: 'decisions.md', replyTo: 7 }, phase: 'readiness_check', waitingFor: [OWNER] },
  { files: { [PRIMARY]: FROZEN }, event: { participant: OWNER, event: 'deliverable_frozen', summary: 'freeze', doc: PRIMARY, replyTo: 8, role: 'primary', sha256: FROZEN_SHA256 }, phase: 'readiness_check', waitingFor: [OWNER] },
  { files: {}, event: { participant: OWNER, event: 'readiness_passed', summary: 'ready', doc: 'readiness.md', replyTo: 9 }, phase: 'readiness_check', waitingFor: [OWNER] },
  { files: { 'conclusion.md': CONCLUSION }, event: { participant: OWNER, event: 'completed', summary: 'done', doc: 'conclusion.md', replyTo: 10 }, phase: 'completed', waitingFor: [] },
];

/** An event as CLI arguments. */
export function appendArgs(folder: string, e: HappyEvent): string[] {
  const args = ['append', '--folder', folder, '--participant', e.participant, '--event', e.event, '--summary', e.summary];
  if (e.doc !== undefined) args.push('--doc', e.doc);
  if (e.replyTo !== undefined) args.push('--reply-to', String(e.replyTo));
  if (e.role !== undefined) args.push('--role', e.role);
  if (e.sha256 !== undefined) args.push('--sha256', e.sha256);
  return args;
}
