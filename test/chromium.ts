// Where the browser tests find a Chromium: CHROME_PATH, else the first of
// `chromium`, `chromium-browser` and `google-chrome` on the PATH. `npm test`
// on a machine without one skips the browser tests and says so in its
// summary (vitest.config.ts); `npm run test:all` (ACP_FULL=1, as CI runs it
// after installing Debian's chromium) fails without one.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { atLeast } from './scale.ts';

/** The command names looked up on the PATH, in order. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;

const executable = (file: string): boolean => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The Chromium to run (an absolute path), or undefined when there is none. */
export function findChromium(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.CHROME_PATH) return executable(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  for (const name of CHROMIUM_NAMES) {
    for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
      if (executable(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

/** Why the browser tests cannot run here, in the words `npm test` prints. */
export function noChromiumReason(env: Record<string, string | undefined> = process.env): string {
  const where = env.CHROME_PATH ? `CHROME_PATH=${env.CHROME_PATH} is not an executable file` : `none of ${CHROMIUM_NAMES.join(', ')} is on the PATH and CHROME_PATH is not set`;
  return `no Chromium: ${where} (apt-get install chromium, or set CHROME_PATH; npm run test:all requires it)`;
}

/** Whether a missing Chromium fails the browser tests instead of skipping them (from `npm run test:all` up: test/scale.ts; CI). */
export function chromiumRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return atLeast('full', env);
}
