// Which recorded scenarios a test run replays, and on what (issue 13). The
// environment decides; nothing is read at import time.
//
//   npm test            every scenario in-process (conformance-inproc.test.ts)
//                       and a sample spawned under each runtime
//                       (conformance.test.ts): every SAMPLE_STEP-th scenario,
//                       a different slice per runtime
//   npm run test:all    ACP_FULL=1: every scenario spawned under every runtime
//   both recorded files always: scenarios.jsonl.gz (160) and
//   scenarios-edges.jsonl.gz (80 edge cases, issue 12)
//   Node versions       node is the machine's Node; node22, node24… the pinned
//                       ones of test/node-versions.ts: `npm test` adds one
//                       (the newest), ACP_FULL=1 all of 20, 22, 24 and 26
//                       (those replay a sample: every scenario runs on
//                       the machine's Node; they are for the Node version)
//   ACP_RUNTIMES=a,b    the spawned runtimes (default: those Nodes, bun, deno, binary)
//   ACP_REPLAY_EVERY=deno:4,bun:4
//                       every 4th scenario on those runtimes (overrides the
//                       sample and ACP_FULL for them)
import { existsSync } from 'node:fs';
import { NODE_MAJORS, machineMajor, nodeBinary } from '../node-versions.ts';
import { EDGES_FILE, SCENARIOS_FILE, type Scenario, loadScenarios } from './replay.ts';

/** Spawned runs in `npm test` replay one scenario in this many on each runtime. */
export const SAMPLE_STEP = 48;
/** Every runtime the CLI is spawned on, in the order that also staggers the sample. */
export const SPAWNED_RUNTIMES = ['node', 'bun', 'deno', 'binary'] as const;
/** Under ACP_FULL=1, the other Node versions replay one scenario in this many (15 of 240: they are there for the Node version, runtimes.test.ts runs every command on each; CI has 90 minutes). */
export const OTHER_NODE_STEP = 16;

/** A recorded file's scenarios, with the name the suite titles show. */
export interface ScenarioSet {
  label: string;
  scenarios: Scenario[];
}

/** ACP_FULL=1 (`npm run test:all`): every scenario under every spawned runtime. */
export function fullReplay(): boolean {
  return process.env.ACP_FULL === '1';
}

/** The scenario files this run replays. */
export function scenarioSets(): ScenarioSet[] {
  return [
    { label: 'scenarios', scenarios: loadScenarios(SCENARIOS_FILE) },
    { label: 'edges', scenarios: loadScenarios(EDGES_FILE) },
  ];
}

/**
 * The Node versions the CLI and library tests run on: `node` (the machine's)
 * and the pinned ones as `node<major>`: the newest other one in `npm test`
 * (when it is installed: test/global-setup.ts), every other one under
 * ACP_FULL=1 (missing ones then fail).
 */
export function nodeRuntimes(): string[] {
  const others = NODE_MAJORS.filter((major) => major !== machineMajor()).map((major) => `node${major}`);
  if (fullReplay()) return ['node', ...others];
  const newest = others.at(-1);
  return newest && existsSync(nodeBinary(Number(newest.slice('node'.length)))) ? ['node', newest] : ['node'];
}

/** ACP_RUNTIMES, or the Node versions of {@link nodeRuntimes}, bun, deno and the binary. */
export function spawnedRuntimes(): string[] {
  const list = process.env.ACP_RUNTIMES?.split(',') ?? [...nodeRuntimes(), ...SPAWNED_RUNTIMES.filter((name) => name !== 'node')];
  return list.map((s) => s.trim()).filter(Boolean);
}

function replayEvery(): Map<string, number> {
  return new Map(
    (process.env.ACP_REPLAY_EVERY ?? '')
      .split(',')
      .filter((s) => s.includes(':'))
      .map((s) => [s.split(':')[0]!.trim(), Math.max(1, Number.parseInt(s.split(':')[1]!, 10) || 1)] as const),
  );
}

/**
 * The scenarios `runtime` replays spawned, and how the suite title names the
 * choice. The sample is deterministic; each runtime starts at a different
 * offset, so together the runtimes cover four slices rather than one.
 */
export function spawnedChoice(runtime: string, scenarios: Scenario[]): { picked: Scenario[]; note: string } {
  const every = replayEvery().get(runtime);
  if (every !== undefined) {
    return { picked: scenarios.filter((_, i) => i % every === 0), note: every === 1 ? 'all' : `every ${every}th` };
  }
  const otherNode = /^node\d+$/.test(runtime);
  if (fullReplay() && otherNode) return { picked: scenarios.filter((_, i) => i % OTHER_NODE_STEP === 0), note: `every ${OTHER_NODE_STEP}th: every scenario runs on the machine's Node` };
  if (fullReplay()) return { picked: scenarios, note: 'all' };
  // Another Node takes the machine's Node's slice of the sample: the same scenarios on two versions.
  const index = Math.max(0, SPAWNED_RUNTIMES.indexOf(runtime as (typeof SPAWNED_RUNTIMES)[number]));
  const offset = Math.floor((index * SAMPLE_STEP) / SPAWNED_RUNTIMES.length);
  const picked = scenarios.filter((_, i) => i % SAMPLE_STEP === offset);
  return { picked, note: `sample: every ${SAMPLE_STEP}th from #${offset}; ACP_FULL=1 for all` };
}
