/**
 * Built-in deliverable type `review-report` (Review Report, spec §3).
 * Reports a review: scope, findings, risks, required changes and a recommendation.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';

/** Required sections, in order (spec §3). */
const SECTIONS = [
  'Scope',
  'Findings',
  'Risks',
  'Required Changes',
  'Open Questions',
  'Recommendation',
];

/** The `review-report` deliverable type. */
const reviewreport = {
  type: 'review-report',
  title: 'Review Report',
  defaultFile: 'review-report.md',
  description: 'Reports a review: scope, findings, risks, required changes and a recommendation.',
  sections: () => [...SECTIONS],
} satisfies DeliverableType;

export default reviewreport;
