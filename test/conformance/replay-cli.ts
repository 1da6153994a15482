// Replays the conformance scenarios against a runtime and prints a compact
// summary. Run via `node scripts/replay.mjs [options]` (which uses the local bun).
//
//   --runtime node|bun|deno|binary   (default node; several: --runtime node,bun;
//                                     inproc: runCli of acp.ts in this process, no spawns;
//                                     inproc-dist: the same with dist/lib.mjs)
//   --cmd "PREFIX ..."               custom CLI prefix instead of a runtime
//   --dir DIR                        project dir holding acp.ts/dist (default: this repo)
//   --seed N[,M...]                  only these seeds
//   --limit K                        only the first K scenarios
//   --jobs J                         parallel scenarios (default: cores, min 2)
//   --show K                         failing steps shown in detail (default 20)
//   --width W                        truncate expected/actual JSON to W chars (default 400)
//   --all                            show every failing step (default: first per seed)
//   --json FILE                      also write all results as JSON
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type Mismatch,
  type Runtime,
  type ScenarioResult,
  defaultConcurrency,
  formatStepMismatches,
  groupBySteps,
  loadScenarios,
  replayAll,
  runtimeSpec,
} from './replay.ts';

function parseArgs(argv: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) m.set(a.slice(2, eq), a.slice(eq + 1));
    else if (a === '--all') m.set(a.slice(2), '1');
    else m.set(a.slice(2), argv[++i] ?? '');
  }
  return m;
}

const opts = parseArgs(process.argv.slice(2));
const show = Number(opts.get('show') ?? 20);
const width = Number(opts.get('width') ?? 400);
const jobs = Number(opts.get('jobs') ?? defaultConcurrency());
const dir = opts.has('dir') ? resolve(opts.get('dir')!) : undefined;

// Both recorded sets: the 160 scenarios and the 80 edge cases.
let scenarios = loadScenarios();
if (opts.has('seed')) {
  const seeds = new Set(opts.get('seed')!.split(',').map(Number));
  scenarios = scenarios.filter((s) => seeds.has(s.seed));
  if (scenarios.length === 0) throw new Error(`no scenario with seed ${opts.get('seed')}`);
}
if (opts.has('limit')) scenarios = scenarios.slice(0, Number(opts.get('limit')));

const runtimes: Runtime[] = [];
if (opts.has('cmd')) {
  runtimes.push({ name: 'cmd', prefix: opts.get('cmd')!.split(' ').filter(Boolean) });
} else {
  for (const name of (opts.get('runtime') ?? 'node').split(',')) {
    const spec = runtimeSpec(name.trim(), dir);
    const missing = spec.needs.filter((f) => !existsSync(f));
    if (missing.length) {
      console.error(`skip ${name}: missing ${missing.join(', ')}${name === 'node' ? ' (npm run build)' : ''}`);
      continue;
    }
    runtimes.push(spec.runtime);
  }
}

let exit = 0;
const all: Record<string, ScenarioResult[]> = {};
for (const runtime of runtimes) {
  const t0 = Date.now();
  let done = 0;
  const results = await replayAll(scenarios, runtime, {
    concurrency: jobs,
    onResult: () => {
      done++;
      if (process.stderr.isTTY) process.stderr.write(`\r${runtime.name}: ${done}/${scenarios.length}`);
    },
  });
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  all[runtime.name] = results;
  const failed = results.filter((r) => r.mismatches.length > 0);
  const checks = results.reduce((n, r) => n + r.checks, 0);
  const passedChecks = results.reduce((n, r) => n + r.passedChecks, 0);
  const byField = new Map<string, number>();
  for (const r of results) for (const m of r.mismatches) byField.set(m.field, (byField.get(m.field) ?? 0) + 1);

  // Failing steps: by default only the first failing step of each seed
  // (later steps usually fail as a consequence); --all shows every one.
  const shown: Mismatch[][] = [];
  for (const r of failed) {
    const groups = groupBySteps(r.mismatches);
    shown.push(...(opts.has('all') ? groups : groups.slice(0, 1)));
  }
  for (const g of shown.slice(0, show)) console.log(`${formatStepMismatches(g, width)}\n`);
  if (shown.length > show) console.log(`… ${shown.length - show} more failing steps (--show N)\n`);
  if (failed.length) {
    console.log(`failing seeds: ${failed.map((r) => `${r.seed}(${r.checks - r.passedChecks})`).join(' ')}`);
    const kept = failed.filter((r) => r.keptRoot).map((r) => `${r.seed}: ${r.keptRoot}`);
    if (kept.length) console.log(`kept: ${kept.join(', ')}`);
    console.log(`mismatches by field: ${[...byField].map(([f, n]) => `${f}=${n}`).join(' ')}`);
  }
  console.log(
    `${runtime.name}: scenarios ${results.length - failed.length} passed, ${failed.length} failed; ` +
      `checks ${passedChecks} passed, ${checks - passedChecks} failed (${((Date.now() - t0) / 1000).toFixed(1)}s)`,
  );
  if (failed.length) exit = 1;
}
if (opts.has('json')) writeFileSync(opts.get('json')!, JSON.stringify(all, null, 1));
if (runtimes.length === 0) exit = 1;
process.exit(exit);
