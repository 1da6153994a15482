// The house rules of issue 11 that a test can hold: a user plugin adds a
// command on every runtime (test/scale.ts: node and bun in `npm test`, all
// four under ACP_FULL=1); the RPC server performs an append without the
// CLI; hooks that are misused fail loudly, naming their plugin; the argv
// parser follows argparse; importing acp.ts has no side effects.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import * as acp from '../acp.ts';
import { RpcServer } from '../plugins/rpc/server.ts';
import { RpcClient } from '../plugins/rpc/client.ts';
import { configCandidates } from './deno-grants.ts';
import { cyclesOf, importGraph, importRuleViolations, importsOf } from './import-graph.ts';
import { makeRoot } from './rpc/helpers.ts';
import { runtimesOfRun } from './runtime-matrix.ts';
import { functionSpans, topLevelEffects, undocumentedExports } from './source-rules.ts';

const REPO = resolve(import.meta.dirname, '..');
const BIN = join(REPO, 'node_modules', '.bin');
const HELLO = join(REPO, 'test', 'plugins', 'fixtures', 'hello-command.mjs');
const roots: string[] = [];
/** The files git tracks under `paths` whose name ends in one of `endings`. */
const tracked = (paths: string[], endings = ['.ts']): string[] => spawnSync('git', ['ls-files', ...paths], { cwd: REPO, encoding: 'utf8' }).stdout.split('\n').filter((f) => endings.some((end) => f.endsWith(end)));
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'acp-arch-'));
  roots.push(root);
  return root;
}

const RUNTIMES: Record<string, (root: string) => string[]> = {
  node: () => [process.execPath, join(REPO, 'dist', 'acp.mjs')],
  bun: () => [join(BIN, 'bun'), join(REPO, 'acp.ts')],
  // Least privilege: the folder's root, the plugin's folder and the config candidates above, nothing else.
  deno: (root) => [join(BIN, 'deno'), 'run', '--no-prompt', '--quiet', `--allow-read=${[root, dirname(HELLO), ...configCandidates(root)].join(',')}`, `--allow-write=${root}`, join(REPO, 'acp.ts')],
  binary: () => [join(REPO, 'dist', 'acp')],
};

const INIT = ['--participant', 'alice', '--participant', 'bob', '--objective', 'Pick a queue', '--completion', 'Owners are named', '--primary-deliverable-type', 'adr'];

describe.concurrent('a user plugin adds a command', () => {
  for (const name of runtimesOfRun(Object.keys(RUNTIMES), ['node', 'bun'])) {
    const prefix = RUNTIMES[name]!;
    test(name, () => {
      const root = tempRoot();
      const [cmd, ...base] = prefix(root);
      const program = base.at(-1) ?? cmd!;
      if (!existsSync(cmd!) || !existsSync(program)) expect.fail(`runtime ${name} is missing (npm ci; npm run build)`);
      const run = (args: string[]) => spawnSync(cmd!, [...base, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      const folder = join(root, 'collab');
      expect(run(['init', '--folder', folder, ...INIT]).status).toBe(0);
      const hello = run(['--plugin', HELLO, 'hello', '--folder', folder, '--name', 'bob', '--loud']);
      expect(hello.stderr).toBe('');
      expect(hello.stdout).toBe('HELLO BOB, PHASE DRAFTING\n');
      const json = run(['hello', '--plugin', HELLO, '--folder', folder, '--nam', 'bob', '--json']);
      expect(JSON.parse(json.stdout)).toEqual({ ok: true, exitCode: 0, greeting: 'hello bob, phase drafting' });
      const help = run(['--plugin', HELLO, '--help']);
      expect(help.stdout).toMatch(/\n {2}hello +Greet someone with the phase of a collaboration \(hello\)\n/);
      const listed = JSON.parse(run(['--plugin', HELLO, 'plugins', '--json']).stdout);
      expect(listed.plugins[0]).toMatchObject({ name: 'hello', commands: ['hello'] });
      const missing = run(['--plugin', HELLO, 'hello', '--folder', folder]);
      expect([missing.status, missing.stderr]).toEqual([2, 'error: the following arguments are required: --name\n']);
    });
  }
});

describe('the RPC server calls the library', () => {
  test('agent/call append reaches the library with no CLI parsing in between', async () => {
    // A collaboration whose ADR is written (the server's appends are strict).
    const root = await makeRoot(['demo']);
    roots.push(root);
    const host = await acp.createNodeHost();
    const registry = await acp.createRegistry({ builtIns: true });
    const forbidden = () => {
      throw new Error('the CLI was used');
    };
    // The server sees the library only through `core`: take the CLI out of it.
    const core = { ...acp.libraryApi(), runCli: forbidden, parseArgv: forbidden } as unknown as acp.AcpApi;
    const server = new RpcServer({ core, host, registry, root, tokens: { 'tok-alice': 'alice' }, version: 'test' });
    const { port } = await server.listenTcp('127.0.0.1', 0);
    const client = await RpcClient.connect(`tcp://127.0.0.1:${port}`, { token: 'tok-alice', reconnect: false, heartbeatMs: 0 });
    try {
      const result = (await client.acp('append', { folder: 'demo', event: 'deliverable_drafted', summary: '-5 risk', doc: 'deliverables/adr.md', role: 'primary', replyTo: 1 })) as { event: { seq: number; summary: string } };
      expect(result.event).toMatchObject({ seq: 2, summary: '-5 risk' });
      const refused = await client.acp('append', { folder: 'demo', event: 'decision_accepted', summary: 'x', replyTo: 1 }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ message: expect.stringContaining('seq 3: decision_accepted is not allowed from phase drafting'), data: { code: 'phase', exitCode: 2 } });
    } finally {
      client.close();
      await server.close();
    }
  });
});

describe('hooks that cannot be misused silently', () => {
  const folderWith = async (plugin: acp.AcpPlugin) => {
    const host = acp.createMemoryHost();
    const registry = await acp.createRegistry({ plugins: [plugin] });
    await acp.init(host, '/c', { participants: ['alice', 'bob'], objective: 'x', completion: ['y'], primaryType: 'adr' }, registry);
    return { host, registry };
  };
  const drafted = { participant: 'alice', event: 'deliverable_drafted', summary: 's', doc: 'deliverables/adr.md', role: 'primary', replyTo: 1 };

  test('append:before returning false is an error naming the plugin, and nothing is written', async () => {
    const { host, registry } = await folderWith(acp.definePlugin({ name: 'veto-by-return', hooks: { 'append:before': (() => false) as never } }));
    await expect(acp.append(host, '/c', drafted, registry)).rejects.toThrow("plugin 'veto-by-return' failed in append:before: the hook returned boolean where nothing is expected (hooks answer through their context; to veto the event call refuse(message))");
    expect((await acp.readEventLog(host, '/c')).events).toHaveLength(1);
  });

  test('a non-string pushed into errors is an error naming the plugin', async () => {
    const { host, registry } = await folderWith(acp.definePlugin({ name: 'sloppy', hooks: { validate: ({ errors }) => void errors.push(42 as never) } }));
    await expect(acp.validate(host, '/c', registry)).rejects.toThrow("plugin 'sloppy' failed in validate: errors[0] is not a string (push messages as strings)");
  });

  test('a hook reads documents through the host (in-memory folder)', async () => {
    const seen: (string | undefined)[] = [];
    const { host, registry } = await folderWith(
      acp.definePlugin({ name: 'reader', hooks: { 'append:before': async ({ files }) => void seen.push(await files.read('deliverables/adr.md'), await files.read('review.md')) } }),
    );
    await acp.append(host, '/c', drafted, registry);
    expect(seen[0]).toMatch(/^# /);
    expect(seen[1]).toContain('Review');
    const reject = acp.definePlugin({ name: 'escape', hooks: { validate: async ({ files }) => void (await files.read('../etc/passwd')) } });
    const other = await folderWith(reject);
    await expect(acp.validate(other.host, '/c', other.registry)).rejects.toThrow("plugin 'escape' failed in validate: document ../etc/passwd is outside the collaboration folder");
  });

  test('options refused by the plugin’s valibot schema name the plugin and the key', async () => {
    const v = await import('valibot');
    const plugin = acp.definePlugin({ name: 'strict', optionsSchema: v.strictObject({ level: v.number() }) });
    const registry = new acp.Registry();
    await expect(registry.addPlugin(plugin, { kind: 'plugin', source: 'inline' }, acp.pluginContext({ level: 1, levle: 3 }))).rejects.toThrow(/^plugin 'strict' \(inline\): option 'levle': /);
  });

  test('a failed append:after says, typed, that the event was appended', async () => {
    const { host, registry } = await folderWith(acp.definePlugin({ name: 'after', hooks: { 'append:after': () => { throw new Error('mail is down'); } } }));
    const error = await acp.append(host, '/c', drafted, registry).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(acp.AcpAppendedError);
    expect((error as acp.AcpAppendedError).appended.event.seq).toBe(2);
    expect((error as acp.AcpAppendedError).code).toBe('after_append');
  });

  test('a hook name typo is refused at load', async () => {
    await expect(acp.createRegistry({ plugins: [{ name: 'typo', hooks: { 'append:befor': () => undefined } } as never] })).rejects.toThrow("has an unknown hook 'append:befor'");
    // @ts-expect-error — definePlugin is not generic: an excess hook name is a type error.
    acp.definePlugin({ name: 'typo', hooks: { 'append:befor': () => undefined } });
  });
});

describe('one argument parser, argparse rules', () => {
  const options = {
    participant: { type: 'string', description: '' },
    summary: { type: 'string', description: '' },
    role: { type: 'string', description: '', choices: ['primary', 'supporting'] },
    'reply-to': { type: 'string', description: '' },
  } as const;
  const parse = (argv: string[]) => acp.parseArgv(argv, { options });
  test('values that start with - where argparse takes them', () => {
    expect(parse(['--summary', '-5 risk']).options.summary).toBe('-5 risk');
    expect(parse(['--reply-to', '-1']).options['reply-to']).toBe('-1');
    expect(() => parse(['--summary', '-x'])).toThrow('argument --summary: expected one argument');
  });
  test('prefixes, last wins, choices, unknown options', () => {
    expect(parse(['--summ', 'a', '--summary', 'b', '--part=al']).options).toMatchObject({ summary: 'b', participant: 'al' });
    expect(() => parse(['--role', 'PRIMARY'])).toThrow("argument --role: invalid choice: 'PRIMARY' (choose from 'primary', 'supporting')");
    expect(() => parse(['--bogus', 'x'])).toThrow('unrecognized arguments: --bogus x');
    expect(() => acp.parseArgv(['--p', 'x'], { options: { participant: options.participant, plugin2: options.summary } })).toThrow('ambiguous option: --p could match --participant, --plugin2');
  });
  test("Python's int()", () => {
    expect(acp.parsePyInt(' 1_0 ', 'reply-to')).toBe(10);
    expect(acp.parsePyInt('١٢', 'reply-to')).toBe(12);
    expect(() => acp.parsePyInt('1__0', 'reply-to')).toThrow("argument --reply-to: invalid int value: '1__0'");
    expect(acp.parsePyInt('007', 'reply-to')).toBe(7);
  });
  test('formatTimestamp writes what toISOString() writes, to the second', () => {
    const viaIso = (date: Date): string => `${date.toISOString().slice(0, 19)}Z`;
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(-2000, 0, 1)), max: new Date(Date.UTC(12000, 0, 1)), noInvalidDate: true }), (date) => {
        expect(acp.formatTimestamp(date)).toBe(viaIso(date));
      }),
      { numRuns: 2000 },
    );
    for (const ms of [Date.UTC(0, 0, 1) - 1, Date.UTC(0, 0, 1), Date.UTC(1, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), 0]) {
      expect(acp.formatTimestamp(new Date(ms))).toBe(viaIso(new Date(ms)));
    }
    expect(acp.formatTimestamp(new Date(Date.UTC(2031, 0, 2, 3, 4, 5)))).toBe('2031-01-02T03:04:05Z');
    expect(() => acp.formatTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
  test("int()'s fast path for plain ASCII digits agrees with the general one", () => {
    // A leading space sends the same digits down the general path (str.strip() removes it).
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,17}$/), (digits) => {
        expect(acp.parsePyInt(digits, 'reply-to')).toBe(acp.parsePyInt(` ${digits}`, 'reply-to'));
      }),
    );
  });
});

test('importing acp.ts has no side effects (nothing printed, no exit code set)', () => {
  const r = spawnSync(join(BIN, 'bun'), ['-e', `await import(${JSON.stringify(join(REPO, 'acp.ts'))}); console.log(process.exitCode ?? 'none')`], { encoding: 'utf8' });
  expect([r.stdout, r.stderr]).toEqual(['none\n', '']);
});

// The import rule (docs/architecture.md): a plugin or a built-in deliverable
// type imports only types from the core (acp.ts and runtime/), whose values
// reach it through ctx.api, and nothing from another plugin but types. A
// compiled binary's modules cannot be imported by a user's plugin, so a
// built-in one gets no door they lack. And no module imports one that
// imports it back, not even for types.
describe('the import rule', () => {

  test('plugins and deliverable types value-import nothing from the core, and no sibling', () => {
    const files = tracked(['plugins', 'deliverable-types']);
    expect(files.filter((f) => f.startsWith('plugins/')).length).toBeGreaterThan(30);
    expect(files.filter((f) => f.startsWith('deliverable-types/')).length).toBeGreaterThan(7);
    expect(files.flatMap((file) => importRuleViolations(REPO, file, readFileSync(join(REPO, file), 'utf8')))).toEqual([]);
  });

  test('the rule sees a planted violation of every form (the check itself)', () => {
    const planted: [string, string][] = [
      ['plugins/x.ts', "import { sleep } from '../runtime/util.ts';"],
      ['plugins/x.ts', 'import { sleep } from "../runtime/util.ts";'],
      ['plugins/x.ts', 'import {\n  sleep,\n} from `../runtime/util.ts`;'],
      ['plugins/x.ts', "import { type Host, sleep } from '../runtime/util.js';"],
      ['plugins/x.ts', "import * as acp from '../acp.mjs';"],
      ['plugins/x.ts', "import '../runtime/process.ts';"],
      ['plugins/x.ts', "export { sleep } from '../runtime/util.ts';"],
      ['plugins/x.ts', "export * from '../acp.ts';"],
      ['plugins/x.ts', "const m = await import('../runtime/util.ts');"],
      ['plugins/x.ts', 'const m = await import ( "../acp.ts" );'],
      ['plugins/x/y.ts', "import { RpcServer } from '../rpc/server.ts';"],
      ['plugins/x/y.ts', "const rpc = () => import('../rpc.ts');"],
      ['deliverable-types/x.ts', "import { defineDeliverableType } from '../runtime/define.ts';"],
      ['deliverable-types/x.ts', "import { x } from '../plugins/rfc.ts';"],
    ];
    for (const [file, text] of planted) expect(importRuleViolations(REPO, file, text), `${file}: ${text}`).toHaveLength(1);
    const allowed: [string, string][] = [
      ['plugins/x.ts', "import type { Host } from '../runtime/host.ts';"],
      ['plugins/x.ts', "export type { Registry } from '../runtime/types.ts';"],
      ['plugins/x.ts', "type T = import('../acp.ts').Registry;"],
      ['plugins/x.ts', "// import { sleep } from '../runtime/util.ts';\n/** `import('../acp.ts')` */"],
      ['plugins/x/y.ts', "import { edge } from './edge.ts';\nconst s = await import('../x.ts');"],
      ['plugins/x.ts', "import { parse } from 'yaml';\nimport { join } from 'node:path';"],
      ['deliverable-types/index.ts', "import adr from './adr.ts';"],
    ];
    for (const [file, text] of allowed) expect(importRuleViolations(REPO, file, text), `${file}: ${text}`).toEqual([]);
  });

  test('runtime/types.ts, the public types, imports nothing but the Host interfaces (and valibot’s type)', () => {
    const edges = importsOf(readFileSync(join(REPO, 'runtime', 'types.ts'), 'utf8'));
    expect(edges.filter((edge) => !edge.typeOnly || (edge.spec !== './host.ts' && edge.spec !== 'valibot'))).toEqual([]);
    expect(importsOf("type V = typeof import('valibot');\nexport type { Host } from './host.ts';")).toEqual([
      { spec: './host.ts', typeOnly: true },
      { spec: 'valibot', typeOnly: true },
    ]);
  });

  test('no import circle among acp.ts, runtime/, plugins/ and deliverable-types/, type-only imports included', () => {
    const files = tracked(['acp.ts', 'runtime', 'plugins', 'deliverable-types']);
    expect(cyclesOf(importGraph(REPO, files))).toEqual([]);
  });

  test('the circle check sees a planted circle, through a type-only or dynamic import too', () => {
    const texts: Record<string, string> = {
      'acp.ts': "import { a } from './runtime/a.ts';\nconst p = () => import('./plugins/p.ts');",
      'runtime/a.ts': "import type { T } from './b.ts';",
      'runtime/b.ts': "export type T = import('../acp.ts').X;",
      'plugins/p.ts': "import type { AcpApi } from '../acp.ts';",
    };
    const graph = importGraph(REPO, Object.keys(texts), (file) => texts[file]!);
    expect(cyclesOf(graph)).toEqual(['acp.ts → runtime/a.ts → runtime/b.ts → acp.ts', 'acp.ts → plugins/p.ts → acp.ts']);
  });
});

describe('docs/architecture.md matches the tree', () => {
  test('its module table names every module of runtime/, and no module that is gone', () => {
    const doc = readFileSync(join(REPO, 'docs', 'architecture.md'), 'utf8');
    const named = new Set([...doc.matchAll(/^\| ([^|]+) \|/gm)].flatMap(([, cell]) => [...cell!.matchAll(/`([\w.-]+\.ts)`/g)].map(([, name]) => name!)));
    const modules = readdirSync(join(REPO, 'runtime')).filter((name) => name.endsWith('.ts'));
    expect(modules.filter((name) => !named.has(name)), 'runtime modules the table does not describe').toEqual([]);
    expect([...named].filter((name) => !modules.includes(name) && !existsSync(join(REPO, name))), 'modules the table names that do not exist').toEqual([]);
  });
});

// The style rules of the house that a parser can hold (test/source-rules.ts
// says how each is judged and what it cannot see): every export documented,
// functions short enough to read, and nothing run or read from the
// environment when a module is imported.
describe('the style rules', () => {
  const LIBRARY = ['acp.ts', 'runtime', 'plugins', 'deliverable-types'];
  const read = (file: string): string => readFileSync(join(REPO, file), 'utf8');
  /** A function body (from `{` to `}`) longer than this is split into named steps. */
  const MAX_LINES = 80;
  /** The functions allowed to be longer, `file name`, and why. */
  const LONG_FUNCTIONS: Record<string, string> = {
    'runtime/memory-host.ts createMemoryFileSystem': 'a factory: its length is the in-memory FileSystem methods, each short',
    'runtime/pyjson.ts parsePython': "the hot loop of reading a log the fast path refuses: one function keeps the parser's state in locals (issue 42)",
    'runtime/pytext.ts headingsOf': 'the hot loop of the review heading scan, one pass over the text (issue 42)',
  };

  test('every export of acp.ts, runtime/, plugins/ and deliverable-types/ has a JSDoc comment', () => {
    const files = tracked(LIBRARY);
    expect(files.length).toBeGreaterThan(80);
    expect(files.flatMap((file) => undocumentedExports(file, read(file)))).toEqual([]);
  });

  test(`no function body over ${MAX_LINES} lines in the library and scripts/, but the allow-list's`, () => {
    const files = tracked([...LIBRARY, 'scripts'], ['.ts', '.mjs']);
    const spans = files.flatMap((file) => functionSpans(file, read(file)).map((span) => ({ ...span, key: `${file} ${span.name}` })));
    const long = spans.filter((span) => span.lines > MAX_LINES && !Object.hasOwn(LONG_FUNCTIONS, span.key));
    expect(long.map((span) => `${span.key} (line ${span.line}): ${span.lines} lines`)).toEqual([]);
    // An entry whose function is gone or renamed would allow nothing: it goes too.
    expect(Object.keys(LONG_FUNCTIONS).filter((key) => !spans.some((span) => span.key === key))).toEqual([]);
  });

  test('nothing runs at import: declarations only, no await, no process, Deno or Bun outside a function', () => {
    // The bin is a program: its top level is its main. acp.ts runs the CLI only as Bun's or Deno's program.
    const programs: Record<string, string[]> = { 'runtime/bin.ts': ['*'], 'acp.ts': ['if (meta.main === true) void main();'] };
    const effects = tracked(LIBRARY).flatMap((file) => topLevelEffects(file, read(file)).filter((finding) => !programs[file]?.some((allowed) => allowed === '*' || finding.includes(`: ${allowed} `))));
    expect(effects).toEqual([]);
  });

  test('a relative import names its file: the .ts source (or package.json), never .js nor no extension', () => {
    const named = (spec: string): boolean => !spec.startsWith('.') || /\.ts$|\/package\.json$/.test(spec);
    expect(tracked([...LIBRARY, 'scripts']).flatMap((file) => importsOf(read(file)).filter(({ spec }) => !named(spec)).map(({ spec }) => `${file}: ${spec}`))).toEqual([]);
    expect(["import { a } from './a.js';", "export * from '../b';", "const c = await import('./c.mjs');"].filter((text) => importsOf(text).every(({ spec }) => named(spec)))).toEqual([]);
  });

  test('the rules see planted breaks (the checks themselves)', () => {
    const undocumented: string[] = [
      'export function f(): void {}',
      'export const A = 1;',
      '/* not JSDoc */\nexport class C {}',
      '/** Far away. */\nconst x = 1;\nexport type T = number;',
      'const adr = {};\nexport default adr;',
      'function g(): void {}\nexport { g };',
      '/** Documented. */\nexport function f(): void {}\n// a line comment in between\nexport interface I {}',
    ];
    for (const text of undocumented) expect(undocumentedExports('x.ts', text), text).toHaveLength(1);
    const documented = ['/** A. */\nexport const A = 1;', '/** The type. */\nconst adr = {};\nexport default adr;', "export { x } from './y.ts';\nexport * from './z.ts';", '/**\n * Many lines.\n */\n\nexport async function f(): Promise<void> {}'];
    for (const text of documented) expect(undocumentedExports('x.ts', text), text).toEqual([]);

    const body = (n: number): string => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const spans = functionSpans('x.ts', `function f() {\n${body(81)}\n}\nconst g = async () => {\n${body(80)}\n};\nclass K {\n  m() {\n${body(3)}\n  }\n}\nconst o = { p: function () {\n${body(5)}\n} };`);
    expect(spans.map(({ name, lines }) => `${name} ${lines}`)).toEqual(['f 81', 'g 80', 'm 3', 'p 5']);

    const effects: string[] = [
      "const home = process.env.HOME ?? '';",
      'const { env } = process;',
      "if (Deno.env.get('X')) console.log(1);",
      'const argv = Bun.argv;',
      'await load();',
      'main();',
      'for (const x of [1]) register(x);',
      'export const N = globalThis.process ? 1 : 0;',
    ];
    for (const text of effects) expect(topLevelEffects('x.ts', text), text).not.toEqual([]);
    const inert = [
      "export function home(): string {\n  return process.env.HOME ?? '';\n}",
      'const read = () => process.env.X;\nconst o = { process: 1, f() { return Deno.env; } };\nconst p = o.process;',
      'type P = typeof process;\nlet q: typeof Bun | undefined;\nexport interface E { env: typeof process.env }',
      "import { x } from './x.ts';\nexport { x };\nexport class C { m() { return process.argv; } }",
    ];
    for (const text of inert) expect(topLevelEffects('x.ts', text), text).toEqual([]);
  });
});
