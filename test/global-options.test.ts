// One parser for the global options (issue 35, "One parser"): `--plugin`,
// `--no-config`, `--folder`, `--json` and `--debug` are read by the
// argparse-compatible parser with its prefix rules before any plugin of the
// user's loads, so no plugin code runs that the user did not ask for, and a
// command line that will be refused runs none. A plugin's options resolve
// prefixes after the options known before it loaded; an option that would
// change what a spelling means, or a second option of one name, is refused
// naming the plugin.
//
// Runtimes (test/runtime-matrix.ts): `npm test` runs the command lines in
// this process; ACP_FULL=1 (or ACP_RUNTIMES) also runs them on node
// (dist/acp.mjs), bun and deno (acp.ts) and the binary (dist/acp). What the
// spellings mean is checked against Python 3.11's argparse itself.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type AcpPlugin, createNodeHost, createRegistry, parseArgv, runCli } from '../acp.ts';
import { parseGlobalOptions } from '../runtime/argv.ts';
import { runPython } from './python/oracle.ts';
import { STEPS, appendArgs, initArgs } from './happy-path.ts';
import { runtimesOfRun } from './runtime-matrix.ts';

const REPO = resolve(import.meta.dirname, '..');
const BIN = join(REPO, 'node_modules', '.bin');
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'acp-globals-')));
  dirs.push(dir);
  return dir;
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}
type Run = (args: string[], cwd: string) => Promise<RunResult>;

/** `acp <args>` in this process, with `cwd` as the working directory. */
const inProcess: Run = async (args, cwd) => {
  const base = await createNodeHost();
  const host = { ...base, resolvePath: (path: string) => resolve(cwd, path) };
  let stdout = '';
  let stderr = '';
  const code = await runCli({ argv: args, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false }, host);
  return { code, stdout, stderr };
};

/** `acp <args>` as a process of `prefix`. */
const spawned =
  (prefix: string[]): Run =>
  async (args, cwd) => {
    const r = spawnSync(prefix[0]!, [...prefix.slice(1), ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };

const SPAWNED: Record<string, string[]> = {
  node: [process.execPath, join(REPO, 'dist', 'acp.mjs')],
  bun: [join(BIN, 'bun'), join(REPO, 'acp.ts')],
  deno: [join(BIN, 'deno'), 'run', '--no-prompt', '--quiet', '-A', join(REPO, 'acp.ts')],
  binary: [join(REPO, 'dist', 'acp')],
};
const listed = process.env.ACP_RUNTIMES?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const RUNS: [string, Run][] = [['in-process', inProcess], ...runtimesOfRun(Object.keys(SPAWNED), [], listed).map((name): [string, Run] => [name, spawned(SPAWNED[name]!)])];

/** A plugin file in `dir` that leaves `{name}.ran` behind when its code runs (module top level), optionally vetoing every append. */
function plantPlugin(dir: string, name: string, veto = false): string {
  const marker = join(dir, `${name}.ran`);
  const hooks = veto ? `hooks: { 'append:before'({ refuse }) { refuse('nothing is appended this week'); } },` : '';
  writeFileSync(join(dir, `${name}.mjs`), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: ${JSON.stringify(name)}, ${hooks} };\n`);
  return marker;
}

/** A working directory whose acp.config.yaml lists ./p.mjs; returns it and p's marker. */
function configuredRoot(): { root: string; marker: string } {
  const root = tempDir();
  const marker = plantPlugin(root, 'p');
  writeFileSync(join(root, 'acp.config.yaml'), 'plugins:\n  - ./p.mjs\n');
  return { root, marker };
}

describe.each(RUNS)('the global options, read by the one parser (%s)', (_, acp) => {
  test('`--no-conf` (a prefix of --no-config) keeps the config plugins from running', async () => {
    const { root, marker } = configuredRoot();
    for (const spelling of ['--no-conf', '--no-c']) {
      const r = await acp([...initArgs(join(root, `G${spelling}`)), spelling], root);
      expect(r, r.stderr).toMatchObject({ code: 0 });
      expect(existsSync(marker)).toBe(false);
    }
    // A flag given a value is refused before any plugin runs.
    expect(await acp([...initArgs(join(root, 'G3')), '--no-conf=yes'], root)).toMatchObject({ code: 2, stderr: "error: argument --no-config: ignored explicit argument 'yes'\n" });
    expect(existsSync(marker)).toBe(false);
    // Without it the config's plugin runs: the marker above could have appeared.
    expect((await acp(initArgs(join(root, 'G4')), root)).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  test('`--plug ./veto.mjs` (a prefix of --plugin) loads the veto, which then refuses the append', async () => {
    const root = tempDir();
    const marker = plantPlugin(root, 'veto', true);
    const folder = join(root, 'G');
    expect((await acp(initArgs(folder), root)).code).toBe(0);
    const first = STEPS[0]!;
    for (const [file, text] of Object.entries(first.files)) writeFileSync(join(folder, file), text);
    const log = readFileSync(join(folder, 'events.jsonl'));
    const append = appendArgs(folder, first.event);
    for (const spelling of [['--plug', './veto.mjs'], ['--plu=./veto.mjs']]) {
      const r = await acp([...append, ...spelling], root);
      expect(r).toMatchObject({ code: 2, stderr: "error: plugin 'veto' refused deliverable_drafted: nothing is appended this week\n" });
      expect(readFileSync(join(folder, 'events.jsonl'))).toEqual(log);
    }
    expect(existsSync(marker)).toBe(true);
  });

  test('`next -- --plugin ./p.mjs` is refused and p never runs; a refused command line runs no config plugin either', async () => {
    const root = tempDir();
    const marker = plantPlugin(root, 'p');
    const folder = join(root, 'G');
    expect((await acp([...initArgs(folder), '--no-config'], root)).code).toBe(0);
    const next = ['next', '--folder', folder, '--participant', 'alice'];
    expect(await acp([...next, '--', '--plugin', './p.mjs'], root)).toMatchObject({ code: 2, stderr: 'error: unrecognized arguments: -- --plugin ./p.mjs\n' });
    expect(await acp(['next', '--', '--plugin', './p.mjs'], root)).toMatchObject({ code: 2, stderr: 'error: the following arguments are required: --folder, --participant\n' });
    expect(existsSync(marker)).toBe(false);
    writeFileSync(join(root, 'acp.config.yaml'), 'plugins:\n  - ./p.mjs\n');
    // An ambiguous prefix (argparse's message), a surplus argument: refused before the config's plugin loads.
    expect(await acp(['append', '--folder', folder, '--r', '1'], root)).toMatchObject({ code: 2, stderr: 'error: ambiguous option: --r could match --reply-to, --role\n' });
    expect(await acp([...next, 'extra'], root)).toMatchObject({ code: 2, stderr: 'error: unrecognized arguments: extra\n' });
    expect(await acp(['--plugin', './p.mjs'], root)).toMatchObject({ code: 2 });
    expect(existsSync(marker)).toBe(false);
    expect((await acp(next, root)).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

/** A plugin file adding command `deploy` with `--port`, printing what it was given. */
function plantDeploy(dir: string): void {
  const command = `{ name: 'deploy', description: 'Deploy', options: { port: { type: 'string', description: 'Port' }, json: { type: 'boolean', description: 'JSON' } }, run: (ctx) => { ctx.out('port=' + ctx.options.port + ' plugins=' + ctx.options.plugin.length); } }`;
  writeFileSync(join(dir, 'deploy.mjs'), `export default { name: 'deployer', commands: [${command}] };\n`);
}

describe("a plugin's options and the spellings read before it loaded", () => {
  test("a plugin command's options resolve after the global options: --p is --plugin, --po is --port", async () => {
    const root = tempDir();
    plantDeploy(root);
    expect(await inProcess(['deploy', '--po', '80', '--p', './deploy.mjs'], root)).toMatchObject({ code: 0, stdout: 'port=80 plugins=1\n' });
    expect(await inProcess(['--plugin=./deploy.mjs', 'deploy', '--port=81'], root)).toMatchObject({ code: 0, stdout: 'port=81 plugins=1\n' });
    // Its --json counts for an error before the command runs.
    const r = await inProcess(['deploy', '--plugin', './deploy.mjs', '--json', '--port'], root);
    expect(r).toMatchObject({ code: 2, stderr: 'error: argument --port: expected one argument\n' });
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, exitCode: 2 });
  });

  const command = (name: string, options: Record<string, { type: 'string' | 'boolean'; description: string }>, extend = false): AcpPlugin['commands'] => [
    { name, description: name, options, extend, run: async (ctx) => (extend ? ctx.next() : 0) },
  ];
  const flag = { type: 'boolean', description: '' } as const;
  const load = (...plugins: AcpPlugin[]) => createRegistry({ builtIns: true, plugins });

  test('two options with one name are refused, naming the plugin', async () => {
    await expect(load({ name: 'twin', commands: command('next', { folder: flag }, true) })).rejects.toThrow("plugin 'twin' (inline): command 'next': option --folder is already defined");
    await expect(load({ name: 'global', commands: command('deploy', { debug: flag }) })).rejects.toThrow("plugin 'global' (inline): command 'deploy': option --debug is already defined");
  });

  test('an option that changes what a spelling means is refused, naming the plugin; one that does not is accepted', async () => {
    let setUp = false;
    const plug = { name: 'plug', commands: command('deploy', { plug: flag }), setup: () => void (setUp = true) };
    await expect(load(plug)).rejects.toThrow("plugin 'plug' (inline): command 'deploy': --plug would mean --plug instead of --plugin");
    expect(setUp).toBe(false);
    const colour = { name: 'colour', commands: command('next', { colour: flag }, true) };
    await expect(load(colour, { name: 'color', commands: command('next', { color: flag }, true) })).rejects.toThrow(
      "plugin 'color' (inline): command 'next': --c would mean ambiguous (--colour, --color) instead of --colour",
    );
    const store = { name: 'pstore', stores: [{ name: 'p', open: () => undefined as never, flag: { name: 'no-co', description: '' } }] };
    // init is the first command that writes through the store (it takes the stores' flags too).
    await expect(load(store)).rejects.toThrow("plugin 'pstore' (inline): command 'init': --no-co would mean --no-co instead of --no-config");
    const registry = await load(colour, { name: 'port', commands: command('deploy', { port: flag }) });
    await registry.cleanup();
  });
});

describe("the spellings of the global options, against Python 3.11's argparse", () => {
  // argparse with the global options and one command option, as acp reads a command that has only `--folder`.
  const PARSER = [
    'import argparse',
    'class Parser(argparse.ArgumentParser):',
    '    def error(self, message): raise ValueError(message)',
    'def parser(with_folder):',
    '    p = Parser(prog="acp")',
    '    if with_folder: p.add_argument("--folder")',
    '    p.add_argument("--plugin", action="append")',
    '    p.add_argument("--no-config", action="store_true")',
    '    p.add_argument("--debug", action="store_true")',
    '    return p',
  ].join('\n');
  const CASES = [
    ['--no-conf'], ['--no-c'], ['--n'], ['--no-config=yes'], ['--plug', 'a.mjs'], ['--plu=a.mjs', '--plugin', 'b.mjs'], ['--', '--plugin', 'p.mjs'],
    ['--plugin'], ['--plugin', '--no-config'], ['--plugin', '-1'], ['--plugin', '-x y'], ['--deb'], ['--d'], ['--fold=F', '--p', 'x'], ['--x', '--pl', 'y'], ['--f', 'F', '--', 'z'],
  ];
  /** What a parse gave, as the Python side reports it (`folder` only when it is asked for). */
  const outcome = (parse: () => { plugin?: unknown; 'no-config'?: unknown; debug?: unknown; folder?: unknown }, withFolder: boolean): unknown => {
    try {
      const options = parse();
      const seen = { plugin: options.plugin ?? null, no_config: options['no-config'] === true, debug: options.debug === true };
      return { ok: withFolder ? { ...seen, folder: options.folder ?? null } : seen };
    } catch (error) {
      return { ok: { error: (error as Error).message } };
    }
  };
  const folder = { folder: { type: 'string', description: '' } } as const;

  test('the full parse: every spelling means what argparse says, with its words for a refusal', () => {
    const python = runPython('try:\n    n = parser(True).parse_args(x)\n    out = {"plugin": n.plugin, "no_config": n.no_config, "debug": n.debug, "folder": n.folder}\nexcept ValueError as e:\n    out = {"error": str(e)}', CASES, PARSER);
    const ours = CASES.map((argv) => outcome(() => parseArgv(argv, { options: folder }).options, true));
    expect(ours).toEqual(python);
  });

  test('the early read (parse_known_args over the global options alone): the same plugins, --no-config and --debug', () => {
    const python = runPython('try:\n    n, rest = parser(False).parse_known_args(x)\n    out = {"plugin": n.plugin, "no_config": n.no_config, "debug": n.debug}\nexcept ValueError as e:\n    out = {"error": str(e)}', CASES, PARSER);
    const early = (argv: string[]) => {
      const read = parseGlobalOptions(argv, undefined);
      return { plugin: read.plugins.length ? read.plugins : undefined, 'no-config': !read.config, debug: read.debug };
    };
    const ours = CASES.map((argv) => outcome(() => early(argv), false));
    expect(ours).toEqual(python);
  });
});
