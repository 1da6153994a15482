// `npm run build:release` for this machine's platform (the one binary that
// can run here): built, listed in SHA256SUMS with its real hash, and working.
// The other targets cross-compile the same way (bun fetches their runtime
// from npm), too heavy for every test run: README says which were built.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_DIR, runCommand } from './conformance/replay.ts';

test('build:release writes the binary for this platform and its SHA-256', async () => {
  const target = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const file = `acp-${target}${process.platform === 'win32' ? '.exe' : ''}`;
  const built = await runCommand([process.execPath, join(REPO_DIR, 'scripts', 'release.mjs'), `--target=${target}`], REPO_DIR, process.env, 300_000);
  expect(built.rc, built.stderr + built.stdout).toBe(0);
  const binary = join(REPO_DIR, 'dist', 'release', file);
  const sums = readFileSync(join(REPO_DIR, 'dist', 'release', 'SHA256SUMS'), 'utf8');
  expect(sums).toBe(`${createHash('sha256').update(readFileSync(binary)).digest('hex')}  ${file}\n`);
  const version = await runCommand([binary, '--version'], REPO_DIR, process.env, 60_000);
  expect(version).toEqual({ rc: 0, stdout: `acp/${JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')).version}\n`, stderr: '' });
  const refused = await runCommand([binary, 'release-check'], REPO_DIR, process.env, 60_000);
  expect({ rc: refused.rc, stderr: refused.stderr }).toEqual({ rc: 2, stderr: expect.stringMatching(/^error: unknown command 'release-check' \(commands: .*\bmcp\b.*\)\n$/) });
});
