// Where the tests' pinned tools (test/node-versions.ts, test/sandboxes.ts)
// are installed: the user's cache (XDG_CACHE_HOME, else ~/.cache), under
// acp-test/, one directory per pinned lockfile. Not node_modules/.cache:
// `npm ci` empties node_modules, so a fresh clone or a CI re-install paid
// the download (Node 26 and the sandboxes: about 600 MB) inside `npm test`
// again. Keyed by the lockfile's hash, clones pinning different versions
// never share one install.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The install directory of `name` for the pinned `lockfile` text. */
export function toolCacheDir(name: string, lockfile: string): string {
  const configured = process.env.XDG_CACHE_HOME;
  // The XDG rule: a relative XDG_CACHE_HOME is invalid and ignored.
  const base = configured && isAbsolute(configured) ? configured : join(homedir(), '.cache');
  return join(base, 'acp-test', `${name}-${createHash('sha256').update(lockfile).digest('hex').slice(0, 16)}`);
}

/** What {@link installPinned} installs: a project of `package.json` and its lockfile, with `npm ci`. */
export interface PinnedProject {
  dir: string;
  packageJson: string;
  lockfile: string;
  /** npm ci's extra arguments (e.g. --ignore-scripts). */
  npmArgs?: string[];
  /** Whether what the project is for is there once installed (its binaries). */
  complete: (dir: string) => boolean;
}

/**
 * Install `project` unless it is installed as pinned; returns why it is not
 * there (undefined when it is). The install is made beside `dir` and renamed
 * into place, so concurrent test runs (two clones, two worktrees) never see a
 * half-installed tree: the first to finish wins, the other keeps its copy out.
 */
export function installPinned(project: PinnedProject): string | undefined {
  const { dir, lockfile } = project;
  const stamp = (at: string) => join(at, 'installed-lock.json');
  const installed = (at: string) => existsSync(stamp(at)) && readFileSync(stamp(at), 'utf8') === lockfile && project.complete(at);
  if (installed(dir)) return undefined;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    writeFileSync(join(partial, 'package.json'), project.packageJson);
    writeFileSync(join(partial, 'package-lock.json'), lockfile);
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', ...(project.npmArgs ?? [])], { cwd: partial, env: downloadEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) return `npm ci for ${dir} failed: ${(r.error?.message ?? r.stderr).trim().split('\n').slice(-3).join(' | ')}`;
    if (!project.complete(partial)) return `npm ci for ${dir} did not install what it pins`;
    writeFileSync(stamp(partial), lockfile);
    if (installed(dir)) return undefined;
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(partial, dir);
    } catch (error) {
      if (!installed(dir)) throw error;
    }
    return undefined;
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** The environment of a download: the machine's extra CA certificates, which the tests' own processes run without (vitest.config.ts). */
function downloadEnv(): NodeJS.ProcessEnv {
  const certificates = process.env.ACP_TEST_EXTRA_CA_CERTS;
  return certificates ? { ...process.env, NODE_EXTRA_CA_CERTS: certificates } : process.env;
}
