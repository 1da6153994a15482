// What each command loads (issue 42): the modules of dist/ a command pulls
// in on Node, as Node's own module debug output names them, must be those
// its work needs — so an import added later cannot silently make `next`
// compile the report's markdown-it, valibot, yaml, the doctor, git, the
// servers or MCP. Also what the start path (dist/core.mjs) is built from:
// none of those; and that dist/ holds one copy of each of the library's
// modules (a chunk's copy of one would have classes and state of its own).
// `npm test` builds dist/ first. Figures are the benchmark's
// (scripts/bench-start.ts), never this file's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_DIR } from './conformance/replay.ts';

const DIST = join(REPO_DIR, 'dist');
const BIN = join(DIST, 'acp.mjs');
const work = mkdtempSync(join(tmpdir(), 'acp-start-graph-'));
const folder = join(work, 'collab');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** This run's environment, its state and caches in the scratch directory (an append makes a checkpoint key). */
function env(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const { NODE_OPTIONS: _options, XDG_STATE_HOME: _state, XDG_CACHE_HOME: _cache, ...rest } = process.env;
  return { ...rest, HOME: work, ...extra };
}

/** The dist/ modules one run of `acp args` loads on this machine's Node, in load order (NODE_DEBUG=esm names each module it translates). */
function loaded(args: string[]): string[] {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: 'utf8', env: env({ NODE_DEBUG: 'esm' }) });
  expect({ args, rc: r.status, errors: r.stderr.split('\n').filter((line) => line.startsWith('error:')) }).toEqual({ args, rc: 0, errors: [] });
  return [...new Set([...r.stderr.matchAll(/Translating StandardModule (file:\S+)/g)].map((m) => relative(DIST, fileURLToPath(m[1]!))))];
}

beforeAll(() => {
  const init = ['init', '--folder', folder, '--participant', 'alice', '--participant', 'bob', '--objective', 'o', '--completion', 'c', '--primary-deliverable-type', 'adr'];
  const r = spawnSync(process.execPath, [BIN, ...init], { cwd: work, encoding: 'utf8', env: env() });
  expect(r.stderr).toBe('');
});

describe('the modules each command loads (Node, dist/)', () => {
  const START = ['acp.mjs', 'core.mjs'];
  const cases: [string, string[], string[]][] = [
    ['--version: the bin alone (the version needs no library)', ['--version'], ['acp.mjs']],
    ['next: the start path only', ['next', '--folder', folder, '--participant', 'bob'], START],
    ['append: the start path only (no git, no valibot, no signing for an unsigned folder)', ['append', '--folder', folder, '--participant', 'alice', '--event', 'deliverable_drafted', '--summary', 'd', '--reply-to', '1', '--role', 'primary', '--doc', 'deliverables/adr.md'], START],
    ['validate: the start path only (signing only for a signed log)', ['validate', '--folder', folder], START],
    ['status: the start path and its own view (no report, no markdown-it, no colours without a terminal)', ['status', '--folder', folder], [...START, 'chunks/humans-status.mjs']],
  ];
  for (const [name, args, expected] of cases) {
    test(name, () => {
      expect(loaded(args)).toEqual(expected);
    });
  }
});

describe('what the start path (dist/core.mjs) is built from', () => {
  /** The source modules the bundler put in a file: it marks each with a `// path` line. */
  const sources = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/^\/\/ ((?:node_modules\/)?[\w@.\/-]+\.(?:ts|js|mjs|json))$/gm)].map((m) => m[1]!);
  /** Every file of dist/ but the types, relative to dist/. */
  const distFiles = (): string[] => ['acp.mjs', 'core.mjs', 'lib.mjs', 'acp-mcp.mjs', ...readdirSync(join(DIST, 'chunks')).map((chunk) => `chunks/${chunk}`)];

  test('the core, the plugins\' command descriptions and the deliverable types; no implementation of a plugin\'s command, no package', () => {
    const lib = sources(join(DIST, 'core.mjs'));
    expect(lib).toContain('acp.ts');
    expect(lib).toContain('runtime/next.ts');
    const plugins = lib.filter((path) => path.startsWith('plugins/'));
    // The plugin modules that describe commands, and the humans' option data they share.
    expect(plugins.sort()).toEqual(['plugins/doctor.ts', 'plugins/git.ts', 'plugins/humans.ts', 'plugins/humans/options.ts', 'plugins/mcp.ts', 'plugins/protocol.ts', 'plugins/rpc.ts']);
    expect(lib.filter((path) => path.startsWith('node_modules/'))).toEqual([]);
    expect(lib.filter((path) => !/^(acp\.ts|package\.json|runtime\/|plugins\/|deliverable-types\/)/.test(path))).toEqual([]);
  });

  test('every file of dist/ is ASCII (a file Node decodes into a two-byte string costs every command that loads it)', () => {
    const other = distFiles().filter((file) => /[^\x00-\x7f]/.test(readFileSync(join(DIST, file), 'utf8')));
    expect(other).toEqual([]);
  });

  test('one copy of each module of the library (acp.ts, runtime/) in dist/: a chunk imports it, the bin alone copies runtime/constants.ts for --version', () => {
    const copies = new Map<string, string[]>();
    for (const file of distFiles()) {
      for (const module of new Set(sources(join(DIST, file)))) {
        if (/^(acp\.ts|runtime\/)/.test(module) && !(file === 'acp.mjs' && module === 'runtime/constants.ts')) copies.set(module, [...(copies.get(module) ?? []), file]);
      }
    }
    expect([...copies].filter(([, files]) => files.length > 1)).toEqual([]);
    expect(copies.get('runtime/pyjson.ts')).toEqual(['core.mjs']);
  });

  test('every chunk links: each name it takes from core.mjs or from another chunk is exported there (a command that loads it would fail)', async () => {
    const chunks = readdirSync(join(DIST, 'chunks')).sort();
    const failed: string[] = [];
    for (const chunk of chunks) await import(pathToFileURL(join(DIST, 'chunks', chunk)).href).catch((error: Error) => failed.push(`${chunk}: ${error.message}`));
    expect(failed).toEqual([]);
  });

  test('a value the core made passes a chunk\'s checks: its PyFloat is the chunk\'s PyFloat', async () => {
    const lib = await import(pathToFileURL(join(DIST, 'lib.mjs')).href);
    const signing = await import(pathToFileURL(join(DIST, 'chunks', 'runtime-signing.mjs')).href);
    // A term as the core reads it from protocol.json (`1.0`), digested by the signing chunk as Python's json.dumps writes it.
    const term = lib.loadsPy('{"objective": 1.0}');
    expect(term.objective).toBeInstanceOf(lib.PyFloat);
    expect(signing.termsDigests(term).objective).toBe(await lib.sha256Hex(new TextEncoder().encode('1.0')));
  });

  test('the check sees a planted module (it can fail)', () => {
    const planted = join(work, 'planted.mjs');
    const text = `${readFileSync(join(DIST, 'core.mjs'), 'utf8')}\n// node_modules/markdown-it/index.mjs\nvar x = 1;\n// plugins/humans/report.ts\nvar y = 2;\n`;
    writeFileSync(planted, text);
    const found = sources(planted);
    expect(found).toContain('node_modules/markdown-it/index.mjs');
    expect(found).toContain('plugins/humans/report.ts');
  });
});
