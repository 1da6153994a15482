// The library on each Node version of the run (conformance/select.ts: the
// machine's and the newest other in `npm test`, 20, 22, 24 and 26 under
// ACP_FULL=1) and on Bun: a project with `acp-collab` in its node_modules
// (this checkout, so dist/lib.mjs through the package's exports) drives the
// whole happy-path collaboration to `completed` on disk, once imported as
// an ES module and once required from CommonJS, and runs a lazily loaded
// command (status) through runCli. The CLI on each version: runtimes.test.ts
// and conformance.test.ts. `npm test` builds dist/ first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { LOCAL_BIN, REPO_DIR, runtimeSpec } from './conformance/replay.ts';
import { nodeRuntimes } from './conformance/select.ts';
import { INIT, STEPS } from './happy-path.ts';

const work = mkdtempSync(join(tmpdir(), 'acp-node-versions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The collaboration, written once for both module systems: `lib` is the package. */
const DRIVE = `async function drive(lib, folder, plan) {
  const collab = await lib.openCollaboration(folder);
  await collab.init(plan.init);
  for (const step of plan.steps) {
    for (const [rel, text] of Object.entries(step.files)) {
      fs.mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
      fs.writeFileSync(path.join(folder, rel), text);
    }
    await collab.append(step.event);
  }
  let status = '';
  const rc = await lib.runCli({ argv: ['status', '--folder', folder, '--json'], stdout: (t) => (status += t), stderr: () => {}, color: false });
  const state = await collab.state();
  return { version: lib.VERSION, phase: state.phase, valid: (await collab.validate()).ok, status: rc === 0 ? JSON.parse(status).phase : rc };
}`;

/** A project with acp-collab (this checkout) in node_modules, and an ES module and a CommonJS program using it. */
function project(): { esm: string; cjs: string; plan: string } {
  const dir = join(work, 'project');
  if (existsSync(dir)) return { esm: join(dir, 'main.mjs'), cjs: join(dir, 'main.cjs'), plan: join(dir, 'plan.json') };
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(REPO_DIR, join(dir, 'node_modules', 'acp-collab'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ init: INIT, steps: STEPS }));
  const run = "const [planFile, folder] = process.argv.slice(2);\ndrive(lib, folder, JSON.parse(fs.readFileSync(planFile, 'utf8'))).then((r) => console.log(JSON.stringify(r)));\n";
  writeFileSync(join(dir, 'main.mjs'), `import * as lib from 'acp-collab';\nimport fs from 'node:fs';\nimport path from 'node:path';\n${DRIVE}\n${run}`);
  writeFileSync(join(dir, 'main.cjs'), `const lib = require('acp-collab');\nconst fs = require('node:fs');\nconst path = require('node:path');\n${DRIVE}\n${run}`);
  return { esm: join(dir, 'main.mjs'), cjs: join(dir, 'main.cjs'), plan: join(dir, 'plan.json') };
}

const runtimes: [string, string][] = [...nodeRuntimes().map((name): [string, string] => [name, (runtimeSpec(name).runtime.prefix as string[])[0]!]), ['bun', join(LOCAL_BIN, 'bun')]];

describe.concurrent('the library on each runtime', () => {
  for (const [name, executable] of runtimes) {
    for (const form of ['esm', 'cjs'] as const) {
      test(`${name}, ${form === 'esm' ? 'imported as an ES module' : 'required from CommonJS'}: a whole collaboration on disk, and a lazily loaded command`, () => {
        expect(existsSync(executable), `${executable} missing (npm ci; test/node-versions.ts)`).toBe(true);
        const files = project();
        const folder = join(work, `${name}-${form}`, 'collab');
        const r = spawnSync(executable, [files[form], files.plan, folder], { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
        expect({ rc: r.status, stderr: r.stderr }).toEqual({ rc: 0, stderr: '' });
        expect(JSON.parse(r.stdout)).toMatchObject({ phase: 'completed', valid: true, status: 'completed' });
      });
    }
  }
});
