// A scratch directory in memory for the test files that make the most
// temporary folders (the in-process conformance replay: 240 folders, 15,000
// commands; the crash and race trials). On a machine whose /tmp is a disk, each
// append's fdatasync, rename and lock file is a real disk operation; in
// memory (tmpfs, /dev/shm on Linux) the same calls run the same code and
// return at once (a fifth of the replay's CPU). The durability itself is
// not what a test can check; what the calls do, and in which order, is.
// Not for folders granted to Deno or to an agent's sandbox: Deno refuses
// any path under /dev without --allow-all.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The memory file system the scratch directory is made in, where there is one. */
const MEMORY_DIR = '/dev/shm';
/** Less free memory than this there (a container's 64 MB /dev/shm), and the system's temporary directory serves. */
const MIN_FREE_BYTES = 1024 ** 3;
/** The scratch directories' name: the pid of the process that made one, so a later run can tell an abandoned one. */
const PREFIX = 'acp-test-tmp-';

/**
 * A new private directory (0700) for this process's temporary folders: in
 * memory on Linux with a roomy /dev/shm that may hold programs, unless
 * TMPDIR names a directory of the caller's choosing; else under the
 * system's temporary directory. The caller removes it ({@link removeScratch}). Scratch directories that killed
 * runs left behind (their pid is gone) are removed first: in memory they
 * hold memory until the machine restarts.
 */
export function makeScratch(env: NodeJS.ProcessEnv = process.env): string {
  const memory = !env.TMPDIR && process.platform === 'linux' && roomy(MEMORY_DIR) && executable(MEMORY_DIR);
  if (memory) removeAbandoned();
  return mkdtempSync(join(memory ? MEMORY_DIR : tmpdir(), `${PREFIX}${process.pid}-`));
}

/**
 * Point the calling test file's temporary directory (TMPDIR: os.tmpdir() of
 * its tests and of every process they start) at a scratch directory of
 * {@link makeScratch} until the file ends. Call it at the file's top level,
 * in a file that grants no folder to Deno or a sandbox (see the header).
 */
export function tmpdirInScratch(): void {
  const previous = process.env.TMPDIR;
  const dir = makeScratch();
  process.env.TMPDIR = dir;
  afterAll(() => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    removeScratch(dir);
  });
}

/** Remove a scratch directory made by {@link makeScratch}. */
export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function roomy(dir: string): boolean {
  try {
    const space = statfsSync(dir);
    return space.bavail * space.bsize >= MIN_FREE_BYTES;
  } catch {
    // No such file system here.
    return false;
  }
}

/** Whether programs may run from `mountPoint` (the tests run git wrappers and hooks they write): not mounted noexec, as hardened systems mount /dev/shm. */
function executable(mountPoint: string): boolean {
  // /proc/self/mountinfo: "id parent major:minor root mount-point options …"; the last mount on a point is the one seen.
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((line) => line.split(' '));
  const options = mounts.filter((fields) => fields[4] === mountPoint).at(-1)?.[5];
  return options !== undefined && !options.split(',').includes('noexec');
}

/** Scratch directories in memory of processes that no longer exist, owned by this user (never follows a link another user planted). */
function removeAbandoned(): void {
  const uid = process.getuid?.();
  for (const name of readdirSync(MEMORY_DIR)) {
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (!name.startsWith(PREFIX) || !Number.isInteger(pid) || pid <= 0 || processAlive(pid)) continue;
    const path = join(MEMORY_DIR, name);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory() && stat.uid === uid) removeScratch(path);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
