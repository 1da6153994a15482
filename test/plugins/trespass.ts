// Shared by test/guarded-host.test.ts (in process) and
// test/plugins-runtimes.test.ts (node, bun, deno, the binary): the folder
// the trespasser fixture (fixtures/trespasser.mjs) attacks, and what it
// must come to.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

export const TRESPASSER = join(import.meta.dirname, 'fixtures', 'trespasser.mjs');

/** Every entry of `dir` (recursively), with the SHA-256 of each file. */
export function snapshotFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    out[name] = statSync(path).isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'dir';
  }
  return out;
}

type Run = (cwd: string, ...argv: string[]) => Promise<{ code: number; stderr: string }> | { code: number; stderr: string };

/** `root/collab` initialized, with a symlink `notes-link` to its log and `root/collab-link` to the folder itself. */
export async function trespassFolder(root: string, run: Run): Promise<string> {
  const folder = join(root, 'collab');
  const made = await run(root, 'init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'Guarded', '--completion', 'Done', '--primary-deliverable-type', 'design-spec');
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  symlinkSync('events.jsonl', join(folder, 'notes-link'));
  symlinkSync(folder, join(root, 'collab-link'));
  return folder;
}

/** Every attempt refused (`refused to write …`), the plugin's own output file written. */
export function expectAllRefused(results: Record<string, string>): void {
  const { 'own output file': own, ...attempts } = results;
  expect(own).toBe('written');
  expect(Object.keys(attempts).length).toBeGreaterThanOrEqual(25);
  for (const [name, outcome] of Object.entries(attempts)) expect(`${name}: ${outcome}`).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: refused to write`));
}
