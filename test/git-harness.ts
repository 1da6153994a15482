// The git tests' sandbox (test/git*.test.ts): a temp root with an
// acp.config.yaml that turns git on, bare remotes and clones in it, a
// `git` helper for the test's own git commands, the CLI driven in-process,
// and wrapper `git` programs on PATH for fault injection. A set-up is built
// once per file (per init argv) and copied for each test: every git spawn
// costs ~50 ms of CPU from a test worker, and a clone is a copy of its
// template with its remote's path rewritten. The root is a scratch directory
// in memory where there is one (test/scratch.ts): git's object, ref and
// index writes and acp's appends are file system work the tests do not
// check the disk for (~15% of these files' CPU).
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli } from '../acp.ts';
import { makeScratch, removeScratch } from './scratch.ts';

const IDENTITY = { GIT_AUTHOR_NAME: 'acp test', GIT_AUTHOR_EMAIL: 'acp@example.invalid', GIT_COMMITTER_NAME: 'acp test', GIT_COMMITTER_EMAIL: 'acp@example.invalid' };
// git's own housekeeping after a commit, fetch, merge or pull (`git maintenance run --auto`) is a process each
// time that finds nothing to do in a repository this small (gc's threshold is 6,700 loose objects): turned off
// by environment for every git the tests and acp run. Not acp's commands: git's own children of them. (git
// drops these variables for the remote's receive-pack; the remote's own config turns its gc off: buildTemplate.)
const HOUSEKEEPING_OFF = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'maintenance.auto', GIT_CONFIG_VALUE_0: 'false' };
/** The environment of every git the tests run (and, set in process.env, of acp's). */
export const GIT_ENV = { ...IDENTITY, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...HOUSEKEEPING_OFF };
/** Where the real git is (a wrapper calls it). */
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** Run git in `cwd` (the test's own commands). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Run the CLI in-process. */
export async function acp(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  return { code, stdout, stderr };
}

/** The sandbox of one test file; `root()` is valid inside its tests. */
export interface GitSandbox {
  root(): string;
  /** A bare remote holding a project (`project.txt`) and a folder `collab` made by `init --git`, and `n` clones of it. */
  setup(name: string, initArgv: (folder: string) => string[], n: number): Promise<{ remote: string; clones: string[]; base: string }>;
  /**
   * Put a wrapper `git` first on PATH while `fn` runs: `script` is a POSIX
   * shell fragment run before the real git, with `$REAL_GIT` and the
   * arguments in `"$@"` (it may `exit` to stand in for git).
   */
  withGitWrapper<T>(script: string, fn: () => Promise<T>): Promise<T>;
}

/** A bare remote holding a project (`project.txt`) and a folder `collab` made by `init --git` (cwd: the sandbox root), and one clone of it, in `base`. */
async function buildTemplate(base: string, initArgv: (folder: string) => string[]): Promise<{ remote: string; clone: string }> {
  mkdirSync(base);
  const remote = join(base, 'remote.git');
  git(base, 'init', '--quiet', '--bare', '-b', 'main', remote);
  // receive-pack's `git gc --auto` after each push: a process that finds nothing to do here (see HOUSEKEEPING_OFF).
  appendFileSync(join(remote, 'config'), '[receive]\n\tautogc = false\n');
  const seed = join(base, 'seed');
  git(base, 'clone', '--quiet', remote, seed);
  // The project the folder lives in: a tracked file outside the folder.
  writeFileSync(join(seed, 'project.txt'), 'the project\n');
  git(seed, 'add', 'project.txt');
  git(seed, 'commit', '--quiet', '-m', 'the project');
  git(seed, 'push', '--quiet', 'origin', 'main');
  const init = await acp(...initArgv(join(seed, 'collab')), '--git');
  expect(init.stderr).toBe('');
  expect(init.stdout).toContain('committed and pushed to origin/main');
  const clone = join(base, 'clone');
  git(base, 'clone', '--quiet', remote, clone);
  return { remote, clone };
}

/** Where a sandbox's root is made: `inMemory` (the default) a scratch directory of test/scratch.ts; false, the system's temporary directory (for programs that may refuse a path under /dev/shm, as the real git servers' daemons). */
export interface GitSandboxOptions {
  inMemory?: boolean;
}

/** Register the sandbox's setup and teardown for the calling test file; `config` is its acp.config.yaml. */
export function gitSandbox(config = 'git:\n  remote: origin\n  interval: 0.3\n  max-interval: 1\n', { inMemory = true }: GitSandboxOptions = {}): GitSandbox {
  let root = '';
  let previousCwd = '';
  const savedEnv: Record<string, string | undefined> = {};
  beforeAll(() => {
    root = inMemory ? makeScratch() : mkdtempSync(join(tmpdir(), 'acp-git-'));
    for (const [key, value] of Object.entries(GIT_ENV)) {
      savedEnv[key] = process.env[key];
      process.env[key] = value;
    }
    // The config file enables git for every folder under root.
    writeFileSync(join(root, 'acp.config.yaml'), config);
    previousCwd = process.cwd();
    process.chdir(root);
  });
  afterAll(() => {
    process.chdir(previousCwd);
    for (const [key, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    removeScratch(root);
  });
  let wrappers = 0;
  const templates = new Map<string, Promise<{ remote: string; clone: string }>>();
  return {
    root: () => root,
    async setup(name, initArgv, n) {
      const key = JSON.stringify(initArgv('collab'));
      let template = templates.get(key);
      if (!template) templates.set(key, (template = buildTemplate(join(root, `.template${templates.size}`), initArgv)));
      const from = await template;
      const base = join(root, name);
      mkdirSync(base);
      const remote = join(base, 'remote.git');
      cpSync(from.remote, remote, { recursive: true });
      const clones = Array.from({ length: n }, (_, i) => {
        const clone = join(base, `clone${i}`);
        cpSync(from.clone, clone, { recursive: true });
        // What `git clone` would have written: origin is this set-up's remote.
        const config = join(clone, '.git', 'config');
        const text = readFileSync(config, 'utf8');
        expect(text).toContain(`url = ${from.remote}\n`);
        writeFileSync(config, text.replace(`url = ${from.remote}\n`, `url = ${remote}\n`));
        return clone;
      });
      return { remote, clones, base };
    },
    async withGitWrapper(script, fn) {
      const dir = join(root, `.wrapper${++wrappers}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'git'), `#!/bin/sh\nREAL_GIT='${REAL_GIT}'\n${script}\nexec "$REAL_GIT" "$@"\n`);
      chmodSync(join(dir, 'git'), 0o755);
      const path = process.env.PATH;
      process.env.PATH = `${dir}:${path}`;
      try {
        return await fn();
      } finally {
        process.env.PATH = path;
      }
    },
  };
}
