// test/scratch.ts: a private scratch directory in memory where there is a
// roomy one, and the ones killed runs left there removed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

  test.skipIf(!roomyMemoryDir())('on Linux with a roomy /dev/shm: private, in memory unless programs may not run there', () => {
    withScratch({}, (dir) => {
      const noexec = /^\S+ \S+ \S+ \S+ \/dev\/shm (\S+)/gm;
      const options = [...readFileSync('/proc/self/mountinfo', 'utf8').matchAll(noexec)].at(-1)?.[1] ?? '';
      expect(dir.startsWith(`${options.split(',').includes('noexec') ? tmpdir() : '/dev/shm'}/acp-test-tmp-${process.pid}-`)).toBe(true);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    });
  });

  test('programs written there run (the git tests run wrappers and hooks they write)', () => {
    withScratch({}, (dir) => {
      writeFileSync(join(dir, 'program'), '#!/bin/sh\necho ran\n', { mode: 0o755 });
      expect(execFileSync(join(dir, 'program'), { encoding: 'utf8' })).toBe('ran\n');
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
