// `npm run build:release` for this machine's platform (the one binary that
// can run here): built, listed in SHA256SUMS with its real hash, working,
// and reproducible: a second build is byte-identical, and SHA256SUMS lists
// exactly the files of dist/release/ (a file left by an earlier run is
// gone). The other targets cross-compile the same way (bun fetches their
// runtime from npm), too heavy for every test run: README says which were built.
//
// Run size (test/scale.ts): `npm test` builds once (a file left by an earlier
// run is there before it); ACP_FULL=1 builds a second time and compares.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REPO_DIR, runCommand } from './conformance/replay.ts';
import { atLeast } from './scale.ts';

const RELEASE = join(REPO_DIR, 'dist', 'release');
const sha256 = (file: string): string => createHash('sha256').update(readFileSync(join(RELEASE, file))).digest('hex');

const twice = atLeast('full');

test(`build:release writes the binary for this platform and its SHA-256${twice ? ', the same bytes each time' : ' (ACP_FULL=1: and the same bytes a second time)'}`, async () => {
  const target = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const file = `acp-${target}${process.platform === 'win32' ? '.exe' : ''}`;
  const release = async (): Promise<string> => {
    const built = await runCommand([process.execPath, join(REPO_DIR, 'scripts', 'release.mjs'), `--target=${target}`], REPO_DIR, process.env, 300_000);
    expect(built.rc, built.stderr + built.stdout).toBe(0);
    // Exactly the folder's files, each with its hash.
    const listed = readdirSync(RELEASE).filter((name) => name !== 'SHA256SUMS').sort();
    expect(readFileSync(join(RELEASE, 'SHA256SUMS'), 'utf8')).toBe(listed.map((name) => `${sha256(name)}  ${name}\n`).join(''));
    expect(listed).toEqual([file]);
    return sha256(file);
  };
  const leftOver = (): void => {
    mkdirSync(RELEASE, { recursive: true });
    writeFileSync(join(RELEASE, 'acp-left-over'), 'an earlier run of another target');
  };
  leftOver();
  const first = await release();
  if (twice) {
    leftOver();
    expect(await release(), 'a second build of the same sources differs').toBe(first);
  }
  const binary = join(RELEASE, file);
  const version = await runCommand([binary, '--version'], REPO_DIR, process.env, 60_000);
  expect(version).toEqual({ rc: 0, stdout: `acp/${JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')).version}\n`, stderr: '' });
  const refused = await runCommand([binary, 'release-check'], REPO_DIR, process.env, 60_000);
  expect({ rc: refused.rc, stderr: refused.stderr }).toEqual({ rc: 2, stderr: expect.stringMatching(/^error: unknown command 'release-check' \(commands: .*\bmcp\b.*\)\n$/) });
});
