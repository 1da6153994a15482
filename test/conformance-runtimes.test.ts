// Every recorded scenario replayed in-process under each runtime besides the
// machine's Node (conformance/select.ts inProcessRuntimes()): Bun and Deno
// run acp.ts, as their users do; Node 22, 24 and 26 the bundle dist/lib.mjs,
// as Node users do. Each runs test/conformance/replay-cli.ts in a process of
// that runtime (the CLI called through runCli, no process per command), so
// every scenario's decisions are checked on every JavaScript engine and
// host we support for about a minute of CPU each, where spawning each
// command would take an hour. From `npm run test:all` up (test/scale.ts);
// `npm test` replays them on the machine's Node (conformance-inproc.test.ts)
// and spawns a sample on every runtime (conformance.test.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { nodeBinary } from './node-versions.ts';
import { HERE, LOCAL_BIN, type ScenarioResult, runCommand } from './conformance/replay.ts';
import { fullReplay, inProcessRuntimes, scenarioSets } from './conformance/select.ts';

const DRIVER = join(HERE, 'replay-cli.ts');
const work = mkdtempSync(join(tmpdir(), 'acp-conformance-runtimes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The driver's command line on `runtime`: Node strips the driver's types (22 needs the flag). */
function driverArgv(runtime: string, json: string): string[] {
  const args = [DRIVER, '--json', json];
  if (runtime === 'bun') return [join(LOCAL_BIN, 'bun'), ...args, '--runtime', 'inproc'];
  if (runtime === 'deno') return [join(LOCAL_BIN, 'deno'), 'run', '-A', '--quiet', ...args, '--runtime', 'inproc'];
  const major = Number(runtime.slice('node'.length));
  return [nodeBinary(major), '--experimental-strip-types', '--no-warnings', ...args, '--runtime', 'inproc-dist'];
}

const total = scenarioSets().reduce((n, set) => n + set.scenarios.length, 0);
describe.skipIf(!fullReplay()).concurrent('every scenario in-process under each runtime (npm run test:all)', () => {
  for (const runtime of inProcessRuntimes()) {
    // A bound on a hang: about a minute of CPU each on an idle machine.
    test(runtime, { timeout: 1_800_000 }, async () => {
      const json = join(work, `${runtime}.json`);
      const r = await runCommand(driverArgv(runtime, json), work, { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }, 1_790_000);
      if (r.rc !== 0 || r.spawnError) expect.fail(`${runtime}: ${r.spawnError ?? `exit ${r.rc}`}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-2000)}`);
      const results = Object.values(JSON.parse(readFileSync(json, 'utf8')) as Record<string, ScenarioResult[]>).flat();
      expect(results.length).toBe(total);
      expect(results.filter((s) => s.mismatches.length > 0).map((s) => s.seed)).toEqual([]);
    });
  }
});
