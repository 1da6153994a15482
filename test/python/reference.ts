// The Python tool set acp runs beside (its validate_collaboration.py), for
// the tests that check it accepts what acp writes (signed folders: extra
// keys only). Not part of this repository: ACP_PYTHON_REFERENCE names its
// folder (default: the one this project's machines keep it in). Without it
// those tests are skipped, and the end of the run says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** validate_collaboration.py of the Python tool set, or undefined when it is not on this machine. */
export function pythonValidator(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = join(env.ACP_PYTHON_REFERENCE ?? '/work/shared/reference/acp-python', 'scripts', 'validate_collaboration.py');
  return existsSync(path) ? path : undefined;
}

/** Why the Python validator tests are skipped. */
export const NO_PYTHON_REFERENCE = 'no Python tool set: set ACP_PYTHON_REFERENCE to the folder that holds scripts/validate_collaboration.py';
