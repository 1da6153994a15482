// A drop-in plugin type end to end (init → … → completed → validate) on real
// runtimes: node (dist/acp.mjs), bun (acp.ts), deno (acp.ts, granted read of
// the plugin's folder only) and the compiled binary (dist/acp). The folder
// must then validate WITHOUT the plugin under the conformance rules for
// `custom`: no errors, only the "not loaded" warning.
//
// Runtimes: env ACP_PLUGIN_RUNTIMES or ACP_RUNTIMES (comma list of node,
// bun, deno, binary), default all four (`npm test` builds dist/acp.mjs and
// dist/acp first); a listed runtime that is missing fails, it is not
// skipped. Run size (test/scale.ts): in `npm test` the two collaborations
// run on node and bun only (bun imports the .ts plugin as deno and the binary
// do; the runtime-specific tests of node and deno run there too); under
// ACP_FULL=1, or when listed, on every runtime. The plugin's own checks are tested
// in-process in plugins.test.ts.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { type RunResult, expectRun, postmortemText, rfcText, runFlow } from './plugins/flow.ts';
import { configCandidates } from './deno-grants.ts';
import { runtimesOfRun } from './runtime-matrix.ts';
import { atLeast } from './scale.ts';
import { expectAllRefused, snapshotFolder, trespassFolder } from './plugins/trespass.ts';

const REPO = resolve(import.meta.dirname, '..');
const BIN = join(REPO, 'node_modules', '.bin');
const ALL = ['node', 'bun', 'deno', 'binary'];
const listed = (process.env.ACP_PLUGIN_RUNTIMES ?? process.env.ACP_RUNTIMES)
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const names = listed ?? ALL;
/** The runtimes that run the two whole collaborations. */
const flows = runtimesOfRun(ALL, ['node', 'bun'], listed);
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

interface Runtime {
  /** argv prefix; `reads` are extra folders Deno may read. */
  prefix(root: string, reads: string[]): string[];
  needs: string;
  /** Can import a .ts plugin file from outside the project. */
  typescript: boolean;
}

const RUNTIMES: Record<string, Runtime> = {
  node: { prefix: () => [process.execPath, join(REPO, 'dist', 'acp.mjs')], needs: join(REPO, 'dist', 'acp.mjs'), typescript: false },
  bun: { prefix: () => [join(BIN, 'bun'), join(REPO, 'acp.ts')], needs: join(BIN, 'bun'), typescript: true },
  deno: {
    // The documented least-privilege line: read the folder's root and the
    // plugin's folder; write the root only.
    prefix: (root, reads) => [
      join(BIN, 'deno'),
      'run',
      '--no-prompt',
      '--quiet',
      `--allow-read=${[root, ...reads, ...configCandidates(root)].join(',')}`,
      `--allow-write=${root}`,
      join(REPO, 'acp.ts'),
    ],
    needs: join(BIN, 'deno'),
    typescript: true,
  },
  binary: { prefix: () => [join(REPO, 'dist', 'acp')], needs: join(REPO, 'dist', 'acp'), typescript: true },
};

function runner(runtime: Runtime, root: string, reads: string[]): (args: string[]) => RunResult {
  return (args) => {
    const [command, ...rest] = runtime.prefix(root, reads);
    const r = spawnSync(command!, [...rest, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
}

/** A temp root with the plugin copied into its own folder outside the project. */
function setup(plugin: string): { root: string; pluginDir: string; pluginFile: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'acp-plugin-rt-')));
  roots.push(root);
  const pluginDir = join(root, 'team-plugins');
  mkdirSync(pluginDir);
  const pluginFile = join(pluginDir, plugin.split('/').pop()!);
  copyFileSync(plugin, pluginFile);
  return { root, pluginDir, pluginFile };
}

for (const name of names) {
  const runtime = RUNTIMES[name];
  describe(`plugins on ${name}`, () => {
    if (!runtime) throw new Error(`unknown runtime '${name}' (node, bun, deno, binary)`);
    if (!existsSync(runtime.needs)) {
      // Not a skip: the devDependencies and `npm test`'s build provide all four, so a missing one is a broken install.
      test(`${name} is available`, () => expect.fail(`missing ${runtime.needs} (npm ci; npm run build)`));
      return;
    }

    test.runIf(flows.includes(name))('a drop-in .mjs type goes from init to completed, then validates with and without the plugin', async () => {
      const { root, pluginDir, pluginFile } = setup(join(REPO, 'test', 'plugins', 'fixtures', 'postmortem.mjs'));
      // The collaboration folder is a sibling of the plugin folder, not a parent.
      const folder = join(root, 'collab');
      const run = runner(runtime, root, [pluginDir]);
      await runFlow(run, { folder, type: 'postmortem', pluginArgs: ['--plugin', pluginFile], deliverable: (status) => postmortemText(status) });
      const protocol = JSON.parse(readFileSync(join(folder, 'protocol.json'), 'utf8'));
      expect(protocol.currentPhase).toBe('completed');
      expect(protocol.deliverables.primary).toEqual({ type: 'custom', file: 'postmortem.md', checklist: ['Impact', 'Timeline', 'Root Cause', 'Action Items'], pluginType: 'postmortem' });

      const withPlugin = await expectRun(run, ['validate', '--folder', folder, '--plugin', pluginFile], 0);
      expect(withPlugin.stdout.trim()).toBe('ACP validation passed');
      const next = await expectRun(run, ['next', '--folder', folder, '--participant', 'bob', '--plugin', pluginFile]);
      expect(next.stdout).toContain('next action: stop; collaboration is complete.');
      expect(next.stdout).toContain('hint: post-mortems are blameless');

      // Without the plugin: the conformance rules for `custom` — no error, one warning.
      const without = await expectRun(run, ['validate', '--folder', folder, '--json'], 1);
      expect(JSON.parse(without.stdout)).toEqual({
        ok: false,
        exitCode: 1,
        errors: [],
        warnings: [
          "deliverable type 'postmortem' is not loaded; checked deliverables/postmortem.md against its recorded checklist only (load its plugin with --plugin or acp.config.yaml for its own checks)",
        ],
      });
    });

    test.runIf(flows.includes(name))('an RFC (the .ts plugin in plugins/) completes and validates', async () => {
      // Node 20 cannot import .ts files: there the bundled copy (acp:rfc) is used.
      const { root, pluginDir, pluginFile } = setup(join(REPO, 'plugins', 'rfc.ts'));
      const plugin = runtime.typescript ? pluginFile : 'acp:rfc';
      const folder = join(root, 'collab');
      const run = runner(runtime, root, [pluginDir]);
      await runFlow(run, { folder, type: 'rfc', pluginArgs: ['--plugin', plugin], deliverable: (status) => rfcText(status) });
      expect((await expectRun(run, ['validate', '--folder', folder, '--plugin', plugin])).stdout.trim()).toBe('ACP validation passed');
      expect((await expectRun(run, ['validate', '--folder', folder], 1)).stdout).not.toContain('ERROR');
      const types = JSON.parse((await expectRun(run, ['types', '--json', '--plugin', plugin])).stdout);
      expect(types.plugins).toEqual([{ name: 'rfc', source: plugin, via: '--plugin', enforce: 'normal', hooks: [], types: ['rfc'], commands: [] }]);
    });

    test.runIf(atLeast('full') || listed !== undefined)('a plugin that writes the folder\'s own files through anything it was given is refused (issue 35)', async () => {
      const { root, pluginDir, pluginFile } = setup(join(REPO, 'test', 'plugins', 'fixtures', 'trespasser.mjs'));
      const run = runner(runtime, root, [pluginDir]);
      const folder = await trespassFolder(root, (_cwd, ...argv) => run(argv));
      const before = snapshotFolder(folder);
      const r = await expectRun(run, ['trespass', '--folder', folder, '--plugin', pluginFile, '--json']);
      expectAllRefused(JSON.parse(r.stdout).results);
      expect(snapshotFolder(folder)).toEqual(before);
      const uncaught = await expectRun(run, ['trespass', '--folder', folder, '--plugin', pluginFile, '--only', 'api.writeFileAtomic events.jsonl'], 2);
      expect(uncaught.stderr).toContain(`error: refused to write ${folder}/events.jsonl: events.jsonl is the collaboration's own file`);
      expect(snapshotFolder(folder)).toEqual(before);
    });

    if (name === 'node') {
      test('node 20 explains that it cannot import a .ts plugin', async () => {
        const { root, pluginFile } = setup(join(REPO, 'plugins', 'rfc.ts'));
        const result = runner(runtime, root, [])(['types', '--plugin', pluginFile]);
        const nodeMajor = Number(process.versions.node.split('.')[0]);
        if (nodeMajor >= 23) expect(result.code).toBe(0);
        else {
          expect(result.code).toBe(2);
          expect(result.stderr).toContain(`error: cannot load plugin ${pluginFile}: this Node.js cannot import TypeScript`);
        }
      });
    }

    if (name === 'deno') {
      test('deno without read permission for the plugin folder gets a clear error', async () => {
        const { root, pluginFile } = setup(join(REPO, 'test', 'plugins', 'fixtures', 'postmortem.mjs'));
        // Granted: the project and root/work (the working directory) and the config candidates, not root/team-plugins.
        const work = join(root, 'work');
        mkdirSync(work);
        const result = runner(runtime, work, [])(['types', '--plugin', pluginFile]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`error: plugin file not found: ${pluginFile} (from --plugin); under Deno, grant --allow-read to its folder`);
      });
    }
  });
}
