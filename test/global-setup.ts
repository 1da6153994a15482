// Once per test run, before any test file (vitest.config.ts globalSetup):
// the Node versions the CLI and library tests run on (test/node-versions.ts).
import { installNodeVersions, otherNodeMajors } from './node-versions.ts';
import { atLeast } from './scale.ts';

/** Install the pinned Node versions this run uses; without them `npm run test:all` fails here, `npm test` runs on the machine's Node alone and says so. */
export function setup(): void {
  const problem = installNodeVersions(otherNodeMajors());
  if (!problem) return;
  if (atLeast('full')) throw new Error(`the Node versions of the test matrix are missing: ${problem}`);
  console.warn(`test setup: ${problem}; the CLI and library tests run on this machine's Node only`);
}
