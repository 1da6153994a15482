/**
 * The built-in deliverable types. The core imports this module at run time
 * and registers each type through the same registry plugin types use; a
 * bundler follows these imports, so bundles and the compiled binary embed
 * them.
 * @module
 */
import type { DeliverableType } from '../runtime/types.ts';
import adr from './adr.ts';
import custom from './custom.ts';
import decisionMemo from './decision-memo.ts';
import designSpec from './design-spec.ts';
import implementationPlan from './implementation-plan.ts';
import reviewReport from './review-report.ts';
import testPlan from './test-plan.ts';

/** Built-in types in the spec's order. */
export const builtInDeliverableTypes: readonly DeliverableType[] = [adr, designSpec, implementationPlan, decisionMemo, reviewReport, testPlan, custom];
