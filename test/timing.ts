// Time budgets for tests that spawn the CLI. A fixed timeout is a guess about
// the machine: 300 s for a scenario of 100 spawns is generous on an idle
// laptop and too short on a shared one at load 20 (issue 13). So the budgets
// here scale with what starting the CLI on a runtime costs on this machine,
// measured when the test file loads (`acp --version`, the median of three
// runs), instead of assuming a speed. They bound a hang; they are never the
// thing a test asserts.
import { tmpdir } from 'node:os';
import { runCommand, runtimeSpec } from './conformance/replay.ts';

/** The runtimes the CLI is spawned on (see runtimeSpec in conformance/replay.ts). */
export type SpawnedRuntime = 'node' | `node${number}` | 'bun' | 'deno' | 'binary';

/**
 * How many times the measured start a spawned command may take before it
 * counts as hung: an append or validate does real work after starting, and
 * the load can rise after the measurement (other test files start).
 */
export const SLACK = 25;
/** No budget below this: a start measured on a quiet moment says little about a burst. */
export const FLOOR_MS = 20_000;

const measured = new Map<string, Promise<number>>();

/**
 * Median wall time in ms of `acp --version` on `runtime`, measured once per
 * test process. A runtime that does not start rejects (the caller's test
 * then fails and says why: a missing runtime is never skipped).
 */
export function startCost(runtime: SpawnedRuntime): Promise<number> {
  let cost = measured.get(runtime);
  if (!cost) {
    cost = measure(runtime);
    measured.set(runtime, cost);
  }
  return cost;
}

async function measure(runtime: SpawnedRuntime): Promise<number> {
  const spec = runtimeSpec(runtime).runtime;
  const prefix = typeof spec.prefix === 'function' ? spec.prefix(tmpdir()) : spec.prefix;
  const env = { ...process.env, NO_COLOR: '1', ...spec.env };
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    // A generous bound of its own: this is the measurement, nothing to scale by yet.
    const r = await runCommand([...prefix, '--version'], tmpdir(), env, 120_000);
    if (r.rc !== 0 || r.spawnError) throw new Error(`${runtime}: acp --version failed (${r.spawnError ?? `exit ${r.rc}`}): ${r.stderr.slice(0, 300)}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[1]!;
}

/** A bound in ms for work that starts `starts` processes costing `costMs` each. */
export function budgetMs(costMs: number, starts: number): number {
  return Math.max(FLOOR_MS, Math.ceil(starts * costMs * SLACK));
}

/**
 * Like {@link startCost}, but never rejects: a runtime that cannot start gets
 * the floor (its own test then fails on the missing runtime, not on a
 * timeout computed from nothing).
 */
export async function startCostOrFloor(runtime: SpawnedRuntime): Promise<number> {
  return startCost(runtime).catch(() => FLOOR_MS / SLACK);
}
