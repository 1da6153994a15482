/**
 * Built-in deliverable type `implementation-plan` (Implementation Plan, spec §3).
 * Plans an implementation: phases, tasks, dependencies, rollout, tests, risks and exit criteria.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';

/** Required sections, in order (spec §3). */
const SECTIONS = [
  'Scope',
  'Phases',
  'Tasks',
  'Dependencies',
  'Rollout / Migration',
  'Tests',
  'Risks',
  'Exit Criteria',
];

/** The `implementation-plan` deliverable type. */
const implementationplan = {
  type: 'implementation-plan',
  title: 'Implementation Plan',
  defaultFile: 'implementation-plan.md',
  description: 'Plans an implementation: phases, tasks, dependencies, rollout, tests, risks and exit criteria.',
  sections: () => [...SECTIONS],
} satisfies DeliverableType;

export default implementationplan;
