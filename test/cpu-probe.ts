// A setup file for scripts/test-cpu.ts, never part of a normal run: the CPU
// a test file's worker process spent (user and system, the worker itself
// and every child it waited for: git, the CLI, Python) goes as JSON lines
// to the file ACP_TEST_CPU_LOG names, one per test (what the worker spent
// while it ran: concurrent tests of a file share it) and one for the whole
// file when it ends (with the worker's total so far). A worker's own rusage leaves out its children, and
// timing `vitest run` of one file leaves out the worker (vitest's main
// process does not wait for it in a way getrusage counts), hence
// /proc/self/stat's cumulative fields.
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** Linux's USER_HZ: /proc/self/stat counts CPU in ticks of 1/100 s on every architecture Linux ships. */
const TICKS_PER_SECOND = 100;

/** This process's CPU seconds so far: its own and its waited-for children's. */
function cpuSoFar(): { self: number; children: number } {
  // The fields after the command name's closing parenthesis; utime, stime, cutime, cstime are the 14th to 17th of the whole line.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const [user, system, childUser, childSystem] = fields.slice(11, 15).map((ticks) => Number(ticks) / TICKS_PER_SECOND);
  return { self: user! + system!, children: childUser! + childSystem! };
}

function record(entry: Record<string, unknown>): void {
  const log = process.env.ACP_TEST_CPU_LOG;
  if (log) appendFileSync(log, `${JSON.stringify(entry)}\n`);
}

const started = new Map<string, { self: number; children: number }>();
// vitest reads a hook's first parameter as fixtures and wants it destructured; the test or file is the second.
beforeEach(({ task }) => void started.set(task.id, cpuSoFar()));
afterEach(({ task }) => {
  const before = started.get(task.id);
  if (!before) return;
  const now = cpuSoFar();
  record({ file: task.file.filepath, test: task.name, self: now.self - before.self, children: now.children - before.children });
});

// A worker may run several files (vitest.config.ts's shared project): each file's figure is what the worker spent from its first test hook on; the script counts the rest (the worker's start, between files) from the totals.
let fileStart: { self: number; children: number } | undefined;
beforeAll(() => void (fileStart = cpuSoFar()));
afterAll(({}, suite) => {
  const file = 'filepath' in suite ? String(suite.filepath) : suite.name;
  const now = cpuSoFar();
  const from = fileStart ?? { self: 0, children: 0 };
  record({ file, pid: process.pid, self: now.self - from.self, children: now.children - from.children, total: now.self + now.children });
});
