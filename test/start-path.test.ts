// The start path: dist/acp.mjs, the bin, turns on Node's compile cache and
// then imports dist/core.mjs, the library's code, whose commands load
// dist/chunks/ lazily; dist/lib.mjs, the library, re-exports acp.ts's names
// from core.mjs. Nothing else: no generated loaders, no committed caches. `npm
// test` builds dist/ first; the compile cache is checked on each Node
// version of the run (conformance/select.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import * as source from '../acp.ts';
import { LOCAL_BIN, REPO_DIR, runtimeSpec } from './conformance/replay.ts';
import { nodeRuntimes } from './conformance/select.ts';

const DIST = join(REPO_DIR, 'dist');
const LIB = join(DIST, 'lib.mjs');
const BIN = join(DIST, 'acp.mjs');
const work = mkdtempSync(join(tmpdir(), 'acp-start-path-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The Node binary of a runtime name of conformance/select.ts. */
const nodeOf = (runtime: string): string => (runtimeSpec(runtime).runtime.prefix as string[])[0]!;
const majorOf = (node: string): number => Number(spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.split('.')[0]);

describe('dist/', () => {
  test('holds the bin, the library, its code, its chunks and the MCP server: ES modules only, no caches or scripts made for a start path', () => {
    const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((name) => !/^(types|release|reports|chunks)(\/|$)|^acp(-bun-.*)?$|^\./.test(name));
    expect(files.sort()).toEqual(['acp-mcp.mjs', 'acp.mjs', 'core.mjs', 'lib.mjs']);
    expect(readdirSync(join(DIST, 'chunks')).filter((name) => !name.endsWith('.mjs'))).toEqual([]);
    // The bin imports the library's code and nothing else of ours.
    const bin = readFileSync(BIN, 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect([...bin.matchAll(/import\(["']([^"']+)["']\)|from ["']([^"']+)["']/g)].map((m) => m[1] ?? m[2])).toEqual(['./core.mjs']);
  });

  test('lib.mjs exports what acp.ts exports, the one copy in core.mjs', async () => {
    const built = await import(LIB);
    expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort());
    const core = await import(join(DIST, 'core.mjs'));
    expect(Object.keys(built).filter((name) => built[name] !== core[name])).toEqual([]);
    expect(new built.AcpError('x')).toBeInstanceOf(built.AcpError);
    expect(built.VERSION).toBe(source.VERSION);
  });

  test('importing the library runs nothing, on Node, Bun and Deno, even with CLI arguments in argv', () => {
    // A program that imports the library, run with a command line the CLI would act on.
    const importing = (name: string, files: string[]): string => {
      const file = join(work, name);
      writeFileSync(file, files.map((lib) => `await import(${JSON.stringify(pathToFileURL(lib).href)});\n`).join(''));
      return file;
    };
    const both = importing('both.mjs', [LIB, join(REPO_DIR, 'acp.ts')]);
    const runs: [string, string[]][] = [
      // Node 20 runs no TypeScript: the built library only.
      ['node', [process.execPath, importing('lib.mjs', [LIB]), '--version']],
      ['bun', [join(LOCAL_BIN, 'bun'), both, '--version']],
      ['deno', [join(LOCAL_BIN, 'deno'), 'run', '--quiet', '-A', both, '--version']],
    ];
    for (const [runtime, [file, ...args]] of runs) {
      const r = spawnSync(file!, args, { cwd: work, encoding: 'utf8', env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } });
      expect({ runtime, rc: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ runtime, rc: 0, stdout: '', stderr: '' });
    }
  });
});

describe.concurrent('the bin and Node\'s compile cache', () => {
  for (const runtime of nodeRuntimes()) {
    test(`${runtime}: compiled code goes to the user's cache directory on Node >= 22.1, nowhere on Node 20 or with NODE_DISABLE_COMPILE_CACHE=1`, () => {
      const node = nodeOf(runtime);
      expect(existsSync(node), `${node} missing (test/node-versions.ts)`).toBe(true);
      const major = majorOf(node);
      const run = (home: string, extra: Record<string, string> = {}) => {
        const env: Record<string, string | undefined> = { ...process.env, HOME: home, ...extra };
        delete env.XDG_CACHE_HOME;
        delete env.NODE_COMPILE_CACHE;
        const r = spawnSync(node, [BIN, 'types'], { cwd: work, encoding: 'utf8', env });
        expect({ rc: r.status, stderr: r.stderr }).toEqual({ rc: 0, stderr: '' });
        return join(home, '.cache', 'acp', 'node-compile-cache');
      };
      const cache = run(join(work, `${runtime}-home`));
      const entries = existsSync(cache) ? readdirSync(cache, { recursive: true }).length : 0;
      expect({ major, cached: entries > 0 }).toEqual({ major, cached: major >= 22 });
      expect(existsSync(run(join(work, `${runtime}-disabled`), { NODE_DISABLE_COMPILE_CACHE: '1' }))).toBe(false);
    });
  }
});
