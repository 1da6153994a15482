// The runtime the skill's commands run against in tests: the ONE place that
// names it. SKILL.md runs `node <skill-dir>/scripts/acp.mjs …`: the skill's
// own single self-contained file (npm run build:skill), as an agent runs it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_DIR } from '../conformance/replay.ts';

/** The file `node <skill-dir>/scripts/acp.mjs` stands for in the tests. */
export const SKILL_RUNTIME = join(REPO_DIR, 'skills', 'agent-collaboration', 'scripts', 'acp.mjs');

/** The skill's SKILL.md, as committed. */
export function skillText(): string {
  return readFileSync(join(REPO_DIR, 'skills', 'agent-collaboration', 'SKILL.md'), 'utf8');
}

/** How SKILL.md spells the runtime in its commands. */
export const SKILL_RUNTIME_WORDS = 'node <skill-dir>/scripts/acp.mjs';

/** A SKILL.md command line with the runtime replaced by {@link SKILL_RUNTIME}. */
export function withRuntime(line: string): string {
  return line.split(`<skill-dir>/scripts/acp.mjs`).join(SKILL_RUNTIME);
}

/**
 * The prefix that cuts a command off the network (`unshare -n`: a new,
 * empty network namespace), or an empty list where this machine cannot
 * (then `offline` is false and the tests say so).
 */
export function offlinePrefix(): { prefix: string[]; offline: boolean } {
  const probe = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
  if (probe.status === 0) return { prefix: ['unshare', '-n'], offline: true };
  const user = spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore' });
  if (user.status === 0) return { prefix: ['unshare', '-rn'], offline: true };
  return { prefix: [], offline: false };
}
