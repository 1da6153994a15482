// Collaboration folders for the humans' commands: one taken to a chosen
// point of the happy path through the library, and one rebuilt from a
// recorded conformance scenario exactly as the Python tools wrote it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as acp from '../../acp.ts';
import { isCmd, loadScenarios, type CmdStep, type Json } from '../conformance/replay.ts';
import { FROZEN, FROZEN_SHA256, INIT, OWNER, PRIMARY, REVIEWER, STEPS } from '../happy-path.ts';

/** Temporary roots made by this module; `cleanup()` removes them. */
const roots: string[] = [];

/** A fresh temporary directory. */
export function tempRoot(prefix = 'acp-humans-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  roots.push(root);
  return root;
}

/** Remove every temporary root made so far. */
export function cleanup(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/**
 * A folder after the first `steps` steps of the happy path (test/happy-path.ts),
 * through the library: 0 = just initialised, STEPS.length = completed.
 */
export async function happyFolder(steps: number, root = tempRoot()): Promise<string> {
  const folder = join(root, 'collab');
  const host = await acp.createNodeHost();
  const registry = await acp.createRegistry();
  await acp.init(host, folder, INIT, registry);
  for (const step of STEPS.slice(0, steps)) {
    for (const [name, text] of Object.entries(step.files ?? {})) writeFileSync(join(folder, name), text);
    await acp.append(host, folder, step.event, registry);
  }
  return folder;
}

/** The happy path's step index before which the primary deliverable is frozen. */
export function freezeStepIndex(): number {
  return STEPS.findIndex((s) => s.event.event === 'deliverable_frozen');
}

export { FROZEN, FROZEN_SHA256, OWNER, PRIMARY, REVIEWER, STEPS };

/**
 * Rebuild, in `root`, the folder a recorded scenario (written by the Python
 * tools) had at its last `validate` step: our init lays the templates the
 * tools' init also writes, the scenario's writes follow in order, and
 * protocol.json and events.jsonl are the tools' recorded state (the
 * recording leaves out times, so `at`, `createdAt`, `updatedAt` are added in
 * the tools' format). `stopAt` picks another step to stop before. Returns
 * the folder and the last validate step before the stop.
 */
export async function pythonFolder(
  seed: number,
  root = tempRoot(),
  stopAt?: (step: CmdStep) => boolean,
): Promise<{ folder: string; validateStep: CmdStep; protocol: Record<string, unknown>; events: Record<string, unknown>[] }> {
  const scenario = loadScenarios().find((s) => s.seed === seed);
  if (!scenario) throw new Error(`scenario ${seed} not recorded`);
  mkdirSync(join(root, 'repo'), { recursive: true });
  const validates = scenario.steps.map((s, i) => (isCmd(s) && s.cmd === 'validate' ? i : -1)).filter((i) => i >= 0);
  const stop = stopAt ? scenario.steps.findIndex((s) => isCmd(s) && stopAt(s)) : validates.at(-1)!;
  if (stop === -1) throw new Error(`scenario ${seed}: no step to stop at`);
  const lastValidate = validates.filter((i) => i <= stop).at(-1)!;
  let state: CmdStep['state'];
  let folder = '';
  for (const step of scenario.steps.slice(0, stop)) {
    if (!isCmd(step)) {
      for (const [path, text] of Object.entries(step.write)) {
        const file = join(root, path);
        if (text === null) rmSync(file, { force: true });
        else {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
      }
      continue;
    }
    const args = step.args.map((a) => a.replaceAll('<ROOT>', root));
    if (step.cmd === 'init' && step.rc === 0) {
      folder = args[args.indexOf('--folder') + 1]!;
      await initLikeTheTools(folder, args);
    }
    if (step.state?.protocol && typeof step.state.protocol === 'object') state = step.state;
  }
  if (!state || !folder) throw new Error(`scenario ${seed} has no recorded state`);
  const stamp = (i: number) => `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`;
  const events = (state.events ?? []).map((e, i) => withTime(e as { [key: string]: Json }, stamp(i)));
  const protocol = { ...(state.protocol as { [key: string]: Json }), createdAt: stamp(0), updatedAt: stamp(Math.max(0, events.length - 1)) };
  writeFileSync(join(folder, 'protocol.json'), acp.formatProtocolJson(protocol));
  // The tools' event lines: compact JSON, non-ASCII as is, keys in the protocol's order.
  writeFileSync(join(folder, 'events.jsonl'), events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return { folder, validateStep: scenario.steps[lastValidate] as CmdStep, protocol, events };
}

function withTime(event: { [key: string]: Json }, at: string): Record<string, unknown> {
  const { seq, from, event: name, summary, ...rest } = event;
  return { seq, from, event: name, at, summary, ...rest };
}

/** The tools' init writes the same templates as ours (conformance): lay them, then the recording overrides the state. */
async function initLikeTheTools(folder: string, args: string[]): Promise<string> {
  const { runCli } = acp;
  let stderr = '';
  const rc = await runCli({ argv: args[0] === 'init' ? args : ['init', ...args], stdout: () => undefined, stderr: (t) => void (stderr += t), color: false });
  if (rc !== 0) throw new Error(`init failed: ${stderr}`);
  return folder;
}
