// The npm package as a user gets it: `npm pack` (prepack builds dist/ and the
// declarations), then an install of the tarball into an empty directory with
// no network and an empty npm cache, then the CLI through npx, the library
// from Node, from TypeScript without our compiler options, from Deno (by
// path and by npm: specifier) without any permission, and from a CommonJS
// project with require() on Node and Bun. npm pack and the install happen
// once, before the tests. Run size (test/scale.ts): in `npm test` npx starts
// each bin name once and the other commands run the installed bin itself
// (what npx runs; npx costs a second of CPU each); ACP_FULL=1 runs them all
// through npx.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LOCAL_BIN, REPO_DIR, runCommand, type RunResult } from './conformance/replay.ts';
import { atLeast } from './scale.ts';

const NAME = 'acp-collab';
const MAX_TARBALL_BYTES = 2 * 1024 * 1024;

let dir = '';
let consumer = '';
let tarball = '';
let packed: { size: number; unpackedSize: number; files: { path: string }[] };
const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
delete env.FORCE_COLOR;

async function ok(argv: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<RunResult> {
  const r = await runCommand(argv, cwd, { ...env, ...extraEnv }, 180_000);
  expect(r.rc, `${argv.join(' ')}\n${r.stderr}${r.stdout}`).toBe(0);
  return r;
}

function duBytes(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((sum, name) => sum + duBytes(join(path, name)), 0);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acp-package-'));
  consumer = join(dir, 'consumer');
  mkdirSync(consumer);
  const r = await ok(['npm', 'pack', '--json', '--pack-destination', dir], REPO_DIR);
  // prepack's build output comes before npm's JSON on stdout.
  const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('\n[') + 1)) as (typeof packed & { filename: string })[];
  packed = report[0]!;
  tarball = join(dir, report[0]!.filename);
  // An empty cache and --offline: the install can only use the tarball itself.
  await ok(['npm', 'install', '--offline', '--no-audit', '--no-fund', '--cache', join(dir, 'npm-cache'), tarball], consumer);
}, 300_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  test('is small, ships only dist/, the declarations, README and LICENSE, and has no runtime dependencies', () => {
    expect(packed.size).toBeLessThanOrEqual(MAX_TARBALL_BYTES);
    const allowed = /^(dist\/acp\.mjs|dist\/lib\.mjs|dist\/core\.mjs|dist\/acp-mcp\.mjs|dist\/chunks\/[a-z0-9-]+\.mjs|dist\/types\/.+\.d\.ts|LICENSE|README\.md|package\.json)$/;
    expect(packed.files.map((f) => f.path).filter((path) => !allowed.test(path))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules', NAME, 'package.json'), 'utf8'));
    expect({ name: manifest.name, license: manifest.license, dependencies: manifest.dependencies, bin: manifest.bin }).toEqual({
      name: NAME,
      license: 'MIT',
      dependencies: undefined,
      bin: { [NAME]: 'dist/acp.mjs', acp: 'dist/acp.mjs' },
    });
    // Nothing else was installed.
    expect(readdirSync(join(consumer, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual([NAME]);
    console.log(`package: tarball ${packed.size} bytes, unpacked ${packed.unpackedSize} bytes, installed ${duBytes(join(consumer, 'node_modules', NAME))} bytes`);
  });

  test('npx starts both bins; init, next and validate work from the installed tarball', async () => {
    const npx = (args: string[]) => ok(['npx', '--offline', NAME, ...args], consumer, { npm_config_cache: join(dir, 'npm-cache') });
    const init = await npx(['init', '--folder', 'collab', '--participant', 'alice', '--participant', 'bob', '--objective', 'Pick a queue', '--completion', 'Risks are listed', '--primary-deliverable-type', 'decision-memo']);
    expect(init.stdout).toBe(`Initialized ACP schema v2 collaboration folder: ${join(consumer, 'collab')}\n`);
    const installed = atLeast('full') ? npx : (args: string[]) => ok([join(consumer, 'node_modules', '.bin', NAME), ...args], consumer);
    expect((await installed(['next', '--folder', 'collab', '--participant', 'alice'])).stdout).toContain('next action: draft the primary deliverable');
    expect((await installed(['validate', '--folder', 'collab'])).stdout).toBe('ACP validation passed\n');
    // The second bin name is the same program.
    expect((await ok(['npx', '--offline', 'acp', '--version'], consumer)).stdout).toMatch(/^acp\/\d+\.\d+\.\d+\b/);
  });

  test('the library imports from Node, type-checks without allowImportingTsExtensions, and runs on Deno with no permission', async () => {
    const example = [
      "import { createMemoryHost, openCollaboration, type Collaboration } from 'acp-collab';",
      'const host = createMemoryHost();',
      "const collab: Collaboration = await openCollaboration('/c', { host });",
      "await collab.init({ participants: ['a', 'b'], objective: 'o', completion: ['g'], primaryType: 'adr' });",
      'console.log((await collab.validate()).ok);',
      '',
    ].join('\n');
    // An ES module project, as npm install left it plus "type": "module".
    const manifest = JSON.parse(readFileSync(join(consumer, 'package.json'), 'utf8'));
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ ...manifest, type: 'module' }));
    writeFileSync(join(consumer, 'main.ts'), example);
    writeFileSync(join(consumer, 'main.mjs'), example.replace(', type Collaboration', '').replace(': Collaboration', ''));
    expect((await ok(['node', 'main.mjs'], consumer)).stdout).toBe('true\n');
    // A consumer's own strict NodeNext config: none of our compiler options.
    const tsconfig = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [], typeRoots: [join(REPO_DIR, 'node_modules', '@types')] }, files: ['main.ts'] };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig));
    await ok(['node', join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], consumer);
    // Deno: through node_modules (npm: specifier) and by path, with --no-prompt and no --allow-* at all.
    writeFileSync(join(consumer, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
    const deno = join(LOCAL_BIN, 'deno');
    writeFileSync(join(consumer, 'npm.ts'), example.replace("from 'acp-collab'", "from 'npm:acp-collab'"));
    writeFileSync(join(consumer, 'path.mjs'), readFileSync(join(consumer, 'main.mjs'), 'utf8').replace("'acp-collab'", "'./node_modules/acp-collab/dist/lib.mjs'"));
    for (const file of ['npm.ts', 'path.mjs']) {
      expect((await ok([deno, 'run', '--no-prompt', '--quiet', file], consumer)).stdout, file).toBe('true\n');
    }
    await ok([deno, 'check', '--quiet', 'npm.ts'], consumer);
  });

  test("the docs' examples type-check under strict, nodenext and bundler, with and without @types/node; the declarations alone under lib es2022", async () => {
    // Every ```ts block of README.md and docs/embedding.md that imports the package, as a consumer would paste it.
    const blocks = ['README.md', join('docs', 'embedding.md')].flatMap((page) =>
      [...readFileSync(join(REPO_DIR, page), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((code) => code.includes("from 'acp-collab'")),
    );
    expect(blocks.length).toBeGreaterThan(0);
    const project = join(dir, 'typed');
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'typed-consumer', private: true, type: 'module' }));
    symlinkSync(join(consumer, 'node_modules', NAME), join(project, 'node_modules', NAME));
    symlinkSync(join(REPO_DIR, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'));
    const examples = blocks.map((code, i) => {
      writeFileSync(join(project, `example${i}.ts`), code);
      return `example${i}.ts`;
    });
    // The declarations alone (every public type named), where neither the DOM lib nor @types/node declares AbortSignal;
    // and the library's requests read from the option tables: an option renamed in the table renames (or breaks) the request type.
    const typesOnly = [
      "import type * as acp from 'acp-collab';",
      'export type Api = acp.AcpApi;',
      'export type Options = acp.WaitOptions;',
      "export const request: acp.InitRequest = { participants: ['a', 'b'], objective: 'o', completion: ['g'], primaryType: 'adr', participantKeys: {} };",
      "export const fromTable: acp.RequestOf<typeof acp.INIT_OPTIONS, 'participant' | 'objective' | 'completion'> = request;",
      'export const back: Omit<acp.InitRequest, "participantKeys"> = fromTable;',
      "type Renamed = Omit<typeof acp.INIT_OPTIONS, 'objective'> & { goal: (typeof acp.INIT_OPTIONS)['objective'] };",
      "export const renamed: acp.RequestOf<Renamed> = { participants: ['a', 'b'], goal: 'o', primaryType: 'adr' };",
      '// @ts-expect-error the table no longer has objective',
      "export const stale: acp.RequestOf<Renamed> = { participants: ['a', 'b'], objective: 'o', primaryType: 'adr' };",
      "export const append: acp.AppendRequest = { participant: 'a', event: 'blocked', summary: 's', replyTo: 1, rotateKey: true };",
      '// @ts-expect-error reply-to is an int option',
      "export const wrong: acp.AppendRequest = { participant: 'a', event: 'blocked', summary: 's', replyTo: '1' };",
      '// @ts-expect-error the library calls it primaryType',
      "export const cliName: acp.InitRequest = { participants: ['a', 'b'], objective: 'o', completion: ['g'], primaryDeliverableType: 'adr' };",
      '',
    ].join('\n');
    writeFileSync(join(project, 'types-only.ts'), typesOnly);
    const resolutions = { nodenext: { module: 'NodeNext', moduleResolution: 'NodeNext' }, bundler: { module: 'ESNext', moduleResolution: 'Bundler' } };
    // Without @types/node an example still needs console and AbortSignal's value: the DOM lib has them.
    const environments = { node: { lib: ['ES2022'], types: ['node'] }, dom: { lib: ['ES2022', 'DOM'], types: [] as string[] } };
    const configs: Array<[string, object, string[]]> = [['types-only', { ...resolutions.nodenext, lib: ['ES2022'], types: [] }, ['types-only.ts']]];
    for (const [resolution, resolved] of Object.entries(resolutions)) {
      for (const [environment, libs] of Object.entries(environments)) configs.push([`${resolution}-${environment}`, { ...resolved, ...libs }, examples]);
    }
    // npm test: the declarations alone and one example configuration; ACP_FULL=1: all four.
    const run = atLeast('full') ? configs : configs.slice(0, 2);
    for (const [name, options, files] of run) {
      const compilerOptions = { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, ...options };
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files }));
    }
    await Promise.all(run.map(([name]) => ok(['node', join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', `tsconfig.${name}.json`], project)));
  });

  test('a CommonJS project requires it, on Node and Bun', async () => {
    const project = join(dir, 'commonjs');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'cjs-consumer', private: true, type: 'commonjs' }));
    symlinkSync(join(consumer, 'node_modules', NAME), join(project, 'node_modules', NAME));
    writeFileSync(
      join(project, 'main.js'),
      [
        "const { createMemoryHost, openCollaboration, VERSION } = require('acp-collab');",
        '(async () => {',
        "  const collab = await openCollaboration('/c', { host: createMemoryHost() });",
        "  await collab.init({ participants: ['a', 'b'], objective: 'o', completion: ['g'], primaryType: 'adr' });",
        '  console.log(VERSION, (await collab.validate()).ok);',
        '})();',
        '',
      ].join('\n'),
    );
    const version = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')).version;
    for (const runtime of [process.execPath, join(LOCAL_BIN, 'bun')]) {
      const r = await ok([runtime, 'main.js'], project);
      expect({ runtime, stdout: r.stdout, stderr: r.stderr }).toEqual({ runtime, stdout: `${version} true\n`, stderr: '' });
    }
  });
});
