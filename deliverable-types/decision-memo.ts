/**
 * Built-in deliverable type `decision-memo` (Decision Memo, spec §3).
 * Answers one question: the options and trade-offs, the recommendation and the decision taken.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';

/** Required sections, in order (spec §3). */
const SECTIONS = [
  'Question',
  'Recommendation',
  'Options',
  'Tradeoffs',
  'Decision',
  'Next Action',
];

/** The `decision-memo` deliverable type. */
const decisionmemo = {
  type: 'decision-memo',
  title: 'Decision Memo',
  defaultFile: 'decision-memo.md',
  description: 'Answers one question: the options and trade-offs, the recommendation and the decision taken.',
  sections: () => [...SECTIONS],
} satisfies DeliverableType;

export default decisionmemo;
