// A setup file for scripts/test-cpu.ts, never part of a normal run: when a
// test file ends, the CPU its worker process spent (user and system, the
// worker itself and every child it waited for: git, the CLI, Python) goes
// as one JSON line to the file ACP_TEST_CPU_LOG names. A worker's own
// rusage leaves out its children, and timing `vitest run` of one file
// leaves out the worker (vitest's main process does not wait for it in a
// way getrusage counts), hence /proc/self/stat's cumulative fields.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/** Linux's USER_HZ: /proc/self/stat counts CPU in ticks of 1/100 s on every architecture Linux ships. */
const TICKS_PER_SECOND = 100;

// vitest reads the first parameter as fixtures and wants it destructured; the file is the second.
afterAll(({}, suite) => {
  const log = process.env.ACP_TEST_CPU_LOG;
  if (!log) return;
  // The fields after the command name's closing parenthesis; utime, stime, cutime, cstime are the 14th to 17th of the whole line.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const [user, system, childUser, childSystem] = fields.slice(11, 15).map((ticks) => Number(ticks) / TICKS_PER_SECOND);
  const file = 'filepath' in suite ? String(suite.filepath) : suite.name;
  appendFileSync(log, `${JSON.stringify({ file, pid: process.pid, user, system, childUser, childSystem })}\n`);
});
