// Which recorded scenarios a test run replays, and on what (issues 13, 32).
// The run's size (test/scale.ts) decides; nothing is read at import time.
//
//   npm test            every scenario in-process on the machine's Node
//                       (conformance-inproc.test.ts, the bundle dist/lib.mjs)
//                       and ONE short scenario spawned under each runtime
//                       (conformance.test.ts): the spawned sample is there
//                       for the process edge (argv, exit codes, output,
//                       permissions), which every scenario crosses alike
//   npm run test:all    ACP_FULL=1: every scenario in-process under every
//                       other runtime too (conformance-runtimes.test.ts:
//                       Bun and Deno on acp.ts, Node 22, 24, 26 on the
//                       bundle), and every FULL_STEP-th scenario of each
//                       file spawned under node, bun, deno and the binary
//                       (OTHER_NODE_STEP-th under the other Node versions)
//   both recorded files always: scenarios.jsonl.gz (160) and
//   scenarios-edges.jsonl.gz (80 edge cases, issue 12)
//   Node versions       node is the machine's Node; node22, node24… the pinned
//                       ones of test/node-versions.ts (otherNodeMajors():
//                       the newest in `npm test`, all from test:all up)
//   ACP_RUNTIMES=a,b    the spawned runtimes (default: those Nodes, bun, deno, binary)
//   ACP_REPLAY_EVERY=deno:4,bun:4
//                       every 4th scenario of each file on those runtimes
//                       (overrides the run's choice for them; deno:1 is all)
//
// Why not every scenario spawned under every runtime: that is 14,960
// process starts per runtime (about 3,000 CPU-seconds for Node), and it
// proves no more than the in-process replay on that runtime plus a spawned
// sample: the scenarios differ in what the core decides, not in how the
// process starts and ends.
import { existsSync } from 'node:fs';
import { atLeast } from '../scale.ts';
import { nodeBinary, otherNodeMajors } from '../node-versions.ts';
import { EDGES_FILE, SCENARIOS_FILE, type Scenario, isCmd, loadScenarios } from './replay.ts';

/** Every runtime the CLI is spawned on, in the order that also staggers the sample. */
export const SPAWNED_RUNTIMES = ['node', 'bun', 'deno', 'binary'] as const;
/** From `test:all` up, node, bun, deno and the binary replay one scenario in this many of each file, spawned. */
export const FULL_STEP = 16;
/** From `test:all` up, the other Node versions replay one scenario in this many of each file, spawned (all of them in-process). */
export const OTHER_NODE_STEP = 48;

/** A recorded file's scenarios, with the name the suite titles show. */
export interface ScenarioSet {
  label: string;
  scenarios: Scenario[];
}

/** A scenario picked for a spawned replay, with its file's label. */
export interface Pick {
  label: string;
  scenario: Scenario;
}

/** Every scenario under every runtime, in-process (the spawned ones sampled): `test:all` and `test:long`. */
export function fullReplay(): boolean {
  return atLeast('full');
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
 * and the pinned ones this run uses as `node<major>` (those installed in
 * `npm test`: test/global-setup.ts; from `test:all` up missing ones fail).
 */
export function nodeRuntimes(): string[] {
  const others = otherNodeMajors().filter((major) => fullReplay() || existsSync(nodeBinary(major)));
  return ['node', ...others.map((major) => `node${major}`)];
}

/** ACP_RUNTIMES, or the Node versions of {@link nodeRuntimes}, bun, deno and the binary. */
export function spawnedRuntimes(): string[] {
  const list = process.env.ACP_RUNTIMES?.split(',') ?? [...nodeRuntimes(), ...SPAWNED_RUNTIMES.filter((name) => name !== 'node')];
  return list.map((s) => s.trim()).filter(Boolean);
}

/** The runtimes that replay every scenario in-process in a process of their own from `test:all` up (the machine's Node does it inside vitest). */
export function inProcessRuntimes(): string[] {
  return [...otherNodeMajors().map((major) => `node${major}`), 'bun', 'deno'];
}

function replayEvery(): Map<string, number> {
  return new Map(
    (process.env.ACP_REPLAY_EVERY ?? '')
      .split(',')
      .filter((s) => s.includes(':'))
      .map((s) => [s.split(':')[0]!.trim(), Math.max(1, Number.parseInt(s.split(':')[1]!, 10) || 1)] as const),
  );
}

function everyNth(sets: ScenarioSet[], step: number): Pick[] {
  return sets.flatMap(({ label, scenarios }) => scenarios.filter((_, i) => i % step === 0).map((scenario) => ({ label, scenario })));
}

/**
 * The shortest scenarios that cross the whole process edge: every command
 * (init, append, next, validate) and both a success and a refusal exit
 * code; from both files, shortest first (the seed breaks ties).
 */
function processEdgeSample(sets: ScenarioSet[]): Pick[] {
  const crossesEdge = ({ scenario }: Pick) => {
    const commands = scenario.steps.filter(isCmd);
    return new Set(commands.map((c) => c.cmd)).size === 4 && new Set(commands.map((c) => c.rc === 0)).size === 2;
  };
  const length = ({ scenario }: Pick) => scenario.steps.filter(isCmd).length;
  return sets
    .flatMap(({ label, scenarios }) => scenarios.map((scenario) => ({ label, scenario })))
    .filter(crossesEdge)
    .sort((a, b) => length(a) - length(b) || a.scenario.seed - b.scenario.seed);
}

/**
 * The scenarios `runtime` replays spawned, and how the suite title names the
 * choice. Deterministic. In `npm test` each runtime replays one of the
 * {@link processEdgeSample}, a different one per runtime (another Node
 * version takes the machine Node's, so one scenario runs on two versions).
 */
export function spawnedChoice(runtime: string, sets: ScenarioSet[]): { picked: Pick[]; note: string } {
  const every = replayEvery().get(runtime);
  if (every !== undefined) return { picked: everyNth(sets, every), note: every === 1 ? 'all' : `every ${every}th` };
  const otherNode = /^node\d+$/.test(runtime);
  if (fullReplay()) {
    const step = otherNode ? OTHER_NODE_STEP : FULL_STEP;
    return { picked: everyNth(sets, step), note: `every ${step}th of each file; all in-process` };
  }
  const slot = Math.max(0, SPAWNED_RUNTIMES.indexOf(runtime as (typeof SPAWNED_RUNTIMES)[number]));
  const picked = processEdgeSample(sets)[slot];
  return { picked: picked ? [picked] : [], note: 'one scenario; ACP_FULL=1 for more' };
}

