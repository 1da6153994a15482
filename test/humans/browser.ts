// A real browser for the humans' views: Debian's Chromium (or any Chromium
// named by CHROME_PATH or found on PATH) driven by playwright-core, headless,
// offline, with a fresh profile. Where none is installed the browser tests
// skip and say why, unless ACP_FULL=1 (CI), where they fail.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { chromiumRequired, findChromium, noChromiumReason } from '../chromium.ts';

/** The browser found, if any (test/chromium.ts: CHROME_PATH, else chromium, chromium-browser or google-chrome on PATH). */
export const CHROMIUM = findChromium();

/** Skip the browser tests: no Chromium, and not a full run (ACP_FULL=1 makes a missing browser a failure). */
export const SKIP_BROWSER = CHROMIUM === undefined && !chromiumRequired();

/** A test name that carries the reason when the test is skipped. */
export function browserTestName(name: string): string {
  return SKIP_BROWSER ? `${name} [skipped: ${noChromiumReason()}]` : name;
}

/** No network beyond loopback, no first-run or background traffic, no GPU. */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A headless Chromium with a fresh profile; `close()` ends it and removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!CHROMIUM) throw new Error(noChromiumReason());
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'acp-chromium-'));
  // launchPersistentContext passes --user-data-dir itself: the profile is this fresh directory.
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60_000, viewport: { width: 1280, height: 900 } });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
