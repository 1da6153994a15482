/**
 * Built-in deliverable type `adr` (Architecture Decision Record, spec §3).
 * Records one architectural decision: its context, the choice, the alternatives weighed and the consequences.
 * @module
 */
import { defineDeliverableType } from '../runtime/define.ts';

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
const adr = defineDeliverableType({
  type: 'adr',
  title: 'Architecture Decision Record',
  defaultFile: 'adr.md',
  description: 'Records one architectural decision: its context, the choice, the alternatives weighed and the consequences.',
  sections: () => [...SECTIONS],
});

export default adr;
