// Where the test suite's CPU goes, per test file (the house rule: `npm test`
// under 2 minutes on 2 idle cores). Runs vitest in this process with
// test/cpu-probe.ts as a setup file (vitest.config.ts adds it when
// ACP_TEST_CPU_LOG is set): each file's worker reports the CPU it
// and its children spent during the file (user + system, from
// /proc/self/stat), and its total (a worker of the shared project runs
// several files; the difference is its start and what it did between
// them); this process's own CPU is vitest's main process (collecting,
// transforming, reporting). CPU, not wall time: the machine may be shared.
//
//   npm run build --silent && node scripts/test-cpu.mjs [--top 30] [--tests N] [vitest filters…]
//
// --tests N lists the N tests that cost most.
//
// With no filters it runs what `npx vitest run` runs (the run's size from
// ACP_FULL / ACP_LONG as usual). Linux only (/proc).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startVitest } from 'vitest/node';

const { values, positionals } = parseArgs({ options: { top: { type: 'string', default: '30' }, tests: { type: 'string' } }, allowPositionals: true });
const dir = mkdtempSync(join(tmpdir(), 'acp-test-cpu-'));
const log = join(dir, 'cpu.jsonl');
process.env.ACP_TEST_CPU_LOG = log;
const loadBefore = loadavg();
const started = process.cpuUsage();
const startedAt = performance.now();
const vitest = await startVitest('test', positionals, { run: true, watch: false });
await vitest?.close();
const main = process.cpuUsage(started);
const wall = (performance.now() - startedAt) / 1000;
const entries = readFileSync(log, 'utf8')
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .map((r) => ({ ...r, file: r.file.replace(`${process.cwd()}/`, '') }));
const byCpu = (a, b) => b.self + b.children - (a.self + a.children);
const rows = entries.filter((r) => r.test === undefined).sort(byCpu);
const tests = entries.filter((r) => r.test !== undefined).sort(byCpu);
rmSync(dir, { recursive: true, force: true });
const mainSeconds = (main.user + main.system) / 1e6;
// Each worker's total at its last file, less what its files spent: its start, and what it did between files.
const totals = new Map();
for (const r of rows) totals.set(r.pid, Math.max(totals.get(r.pid) ?? 0, r.total));
const workers = [...totals.values()].reduce((sum, total) => sum + total, 0);
const inFiles = rows.reduce((sum, r) => sum + r.self + r.children, 0);
const fmt = (n) => n.toFixed(1).padStart(6);
console.log(`\nCPU seconds per test file (worker + its children), load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadavg().map((l) => l.toFixed(1)).join(' ')} after`);
console.log(' total  worker children  file');
for (const r of rows.slice(0, Number(values.top))) console.log(`${fmt(r.self + r.children)} ${fmt(r.self)} ${fmt(r.children)}    ${r.file}`);
if (values.tests) {
  console.log(`\nthe ${values.tests} tests that cost most (concurrent tests of one file share the worker's figure)`);
  for (const r of tests.slice(0, Number(values.tests))) console.log(`${fmt(r.self + r.children)} ${fmt(r.self)} ${fmt(r.children)}    ${r.file}: ${r.test.slice(0, 100)}`);
}
console.log(`${totals.size} worker processes: ${(workers - inFiles).toFixed(1)} s outside the files' hooks (their start, between files)`);
console.log(`${rows.length} files: ${workers.toFixed(1)} s in workers; vitest's main process ${mainSeconds.toFixed(1)} s; all ${(workers + mainSeconds).toFixed(1)} s of CPU in ${wall.toFixed(1)} s wall`);
process.exit(process.exitCode ?? 0);
