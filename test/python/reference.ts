// Where the Python tool set acp runs beside is on this machine: the shared
// folder (spec, recordings, reference) is `../shared` next to the repository,
// as the issues name it (CI lays a copy there); a worktree under `wt/` finds
// it one level further up. The one locator for every test that uses the
// reference as an oracle (the differential harness, the turn's hand edits,
// the Python validator's verdict on signed folders). Without it those tests
// are skipped, and say why.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { python3 } from './oracle.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared folder (spec, recordings, reference), or undefined. */
export function sharedDir(): string | undefined {
  return [resolve(REPO, '..', 'shared'), resolve(REPO, '..', '..', 'shared')].find((dir) => existsSync(join(dir, 'spec', 'protocol.md')));
}

/** The reference's directory (scripts/, tests/), or undefined. */
export function referenceDir(): string | undefined {
  const shared = sharedDir();
  const dir = shared && join(shared, 'reference', 'acp-python');
  return dir && existsSync(join(dir, 'scripts', '_acp.py')) ? dir : undefined;
}

/** Why the reference cannot run here, or undefined when it can (the tests skip with this reason). */
export function referenceMissing(): string | undefined {
  if (!referenceDir()) return `the reference Python tool set is absent (looked for shared/reference/acp-python at ../shared and ../../shared from ${REPO})`;
  const version = spawnSync(python3(), ['-c', 'import sys; print(sys.version_info >= (3, 11))'], { encoding: 'utf8' });
  if (version.error || version.stdout.trim() !== 'True') return 'python3 (3.11 or later) is not available';
  return undefined;
}

/** validate_collaboration.py of the Python tool set, or undefined when it cannot run here. */
export function pythonValidator(): string | undefined {
  return pythonTool('validate_collaboration.py')?.[1];
}

/** The argv that runs the Python tool set's script `name` (`append_event.py`, ...), or undefined when it cannot run here. */
export function pythonTool(name: string): [string, string] | undefined {
  const dir = referenceMissing() === undefined ? referenceDir() : undefined;
  return dir ? [python3(), join(dir, 'scripts', name)] : undefined;
}

/** Why the Python validator tests are skipped. */
export const NO_PYTHON_REFERENCE = 'no Python tool set: python3 3.11+ and ../shared/reference/acp-python beside the repository are needed';
