/**
 * Built-in deliverable type `adr` (Architecture Decision Record, spec §3).
 * Records one architectural decision: its context, the choice, the alternatives weighed and the consequences.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';

/** Required sections, in order (spec §3). */
const SECTIONS = [
  'Status',
  'Context',
  'Decision',
  'Alternatives Considered',
  'Consequences',
  'Follow-ups',
];

/** The `adr` deliverable type. */
const adr = {
  type: 'adr',
  title: 'Architecture Decision Record',
  defaultFile: 'adr.md',
  description: 'Records one architectural decision: its context, the choice, the alternatives weighed and the consequences.',
  sections: () => [...SECTIONS],
} satisfies DeliverableType;

export default adr;
