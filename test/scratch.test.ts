// test/scratch.ts: a private scratch directory in memory where there is a
// roomy one, and the ones killed runs left there removed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { makeScratch, removeScratch } from './scratch.ts';

/** A tmpfs with room, as makeScratch asks for. */
function roomyMemoryDir(): boolean {
  if (process.platform !== 'linux' || !existsSync('/dev/shm')) return false;
  const space = statfsSync('/dev/shm');
  return space.bavail * space.bsize >= 1024 ** 3;
}

/** `fn` with a scratch directory made for `env`, removed after. */
function withScratch(env: NodeJS.ProcessEnv, fn: (dir: string) => void): void {
  const dir = makeScratch(env);
  try {
    fn(dir);
  } finally {
    removeScratch(dir);
  }
}

describe("the tests' scratch directory", () => {
  test('private, and under the temporary directory the caller chose with TMPDIR', () => {
    withScratch({ TMPDIR: tmpdir() }, (dir) => {
      expect(dir.startsWith(`${tmpdir()}/acp-test-tmp-${process.pid}-`)).toBe(true);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    });
  });

  test.skipIf(!roomyMemoryDir())('on Linux with a roomy /dev/shm: in memory, private', () => {
    withScratch({}, (dir) => {
      expect(dir).toMatch(new RegExp(`^/dev/shm/acp-test-tmp-${process.pid}-`));
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    });
  });

  test.skipIf(!roomyMemoryDir())("one left by a process that is gone is removed; a live process's is kept", () => {
    // A pid that was just in use and has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const abandoned = `/dev/shm/acp-test-tmp-${gone}-left`;
    const live = `/dev/shm/acp-test-tmp-${process.pid}-live`;
    mkdirSync(abandoned, { recursive: true });
    mkdirSync(live, { recursive: true });
    try {
      withScratch({}, () => expect([existsSync(abandoned), existsSync(live)]).toEqual([false, true]));
    } finally {
      for (const dir of [live, abandoned]) removeScratch(dir);
    }
  });
});
