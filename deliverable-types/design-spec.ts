/**
 * Built-in deliverable type `design-spec` (Design Spec, spec §3).
 * Specifies a design: the problem, goals, the proposed design, its contracts, failure modes and how it is validated.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';

/** Required sections, in order (spec §3). */
const SECTIONS = [
  'Problem',
  'Goals',
  'Non-goals',
  'Proposed Design',
  'Interfaces / Contracts',
  'Failure Modes',
  'Validation Plan',
  'Open Questions',
];

/** The `design-spec` deliverable type. */
const designspec = {
  type: 'design-spec',
  title: 'Design Spec',
  defaultFile: 'design-spec.md',
  description: 'Specifies a design: the problem, goals, the proposed design, its contracts, failure modes and how it is validated.',
  sections: () => [...SECTIONS],
} satisfies DeliverableType;

export default designspec;
