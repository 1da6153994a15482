/**
 * Built-in deliverable type `custom` (spec §3): the sections are the declared
 * checklist (`--primary-deliverable-check`), each trimmed, blanks dropped; the
 * file name must be given.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';

/** The `custom` deliverable type. */
const custom = {
  type: 'custom',
  title: 'Custom Deliverable',
  description: 'Any Markdown deliverable whose required sections are the declared checklist.',
  sections: (checklist) => checklist.map((item) => item.trim()).filter((item) => item !== ''),
} satisfies DeliverableType;

export default custom;
