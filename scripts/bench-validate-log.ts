// validate on a long log, in-process (issue 28: the Python-compatible JSON
// reader must not make validate dramatically slower). Builds a valid log of
// N events (the same shape as scripts/bench.ts: proposal/review rounds and
// supporting revisions), then times `validate` with the validation
// checkpoint dropped before each run, so every run reads and parses the
// whole log. Run on the source with Bun:
//
//   node_modules/.bin/bun scripts/bench-validate-log.ts [events=100000] [runs=7]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeHost, createRegistry, validate } from '../acp.ts';
import { writeLongLog } from './long-log.ts';

const total = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 7);
const work = mkdtempSync(join(tmpdir(), 'acp-bench-validate-'));
// The validation checkpoint lives under the state directory: a scratch one, dropped before each run.
process.env.XDG_STATE_HOME = join(work, 'state');
const host = await createNodeHost();
const registry = await createRegistry();
try {
  const folder = join(work, 'collab');
  const bytes = await writeLongLog(host, registry, folder, total, { summary: (event, seq) => `${event} #${seq}: a sentence, with punctuation; 1.5 words.` });
  const times: number[] = [];
  // CPU time too: on a shared machine the wall time mostly measures the neighbours.
  const cpu: number[] = [];
  let verdict = '';
  for (let i = 0; i < runs; i++) {
    rmSync(join(work, 'state'), { recursive: true, force: true });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = await validate(host, folder, registry);
    const c1 = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpu.push((c1.user + c1.system) / 1000);
    verdict = `${result.errors.length} errors, ${result.warnings.length} warnings`;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(`validate, ${total} events (${(bytes / 1e6).toFixed(1)} MB), ${runs} runs: wall median ${times[runs >> 1]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms; CPU median ${cpu[runs >> 1]!.toFixed(0)} ms, min ${cpu[0]!.toFixed(0)} ms (${verdict})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
