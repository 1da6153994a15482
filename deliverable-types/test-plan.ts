/**
 * Built-in deliverable type `test-plan` (Test Plan, spec §3).
 * Plans testing: the matrix, fixtures, automation, manual tests and exit criteria.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';

/** Required sections, in order (spec §3). */
const SECTIONS = [
  'Scope',
  'Test Matrix',
  'Fixtures',
  'Automation',
  'Manual Tests',
  'Exit Criteria',
];

/** The `test-plan` deliverable type. */
const testplan = {
  type: 'test-plan',
  title: 'Test Plan',
  defaultFile: 'test-plan.md',
  description: 'Plans testing: the matrix, fixtures, automation, manual tests and exit criteria.',
  sections: () => [...SECTIONS],
} satisfies DeliverableType;

export default testplan;
