// The Node start path (scripts/start-path.mjs): the ESM start bundle turned
// into a script that Node compiles with a V8 code cache, and its two
// launchers, dist/acp.mjs (library and CLI) and dist/acp.cjs (CLI). `npm
// test` builds dist/ first.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs build script without declarations
import { cacheFits, readCache, toScript } from '../scripts/start-path.mjs';
import * as source from '../acp.ts';
import { REPO_DIR } from './conformance/replay.ts';

const DIST = join(REPO_DIR, 'dist');
const work = mkdtempSync(join(tmpdir(), 'acp-start-path-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (entry: string, args: string[], cwd = work) => spawnSync(process.execPath, [entry, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('toScript', () => {
  test('rewrites builtin imports, import(), import.meta and the export list, and nothing inside strings', async () => {
    const esm = [
      'import * as path from "node:path";',
      'import { join as j, sep } from "node:path";',
      'import { createRequire } from "node:module";',
      'const text = "import(\\"x\\") and import.meta stay text";',
      'const url = import.meta.url;',
      'async function load() { return import("./chunks/x.mjs"); }',
      'const joined = j(path.sep, sep);',
      'export { joined, load, text as words, url };',
    ].join('\n');
    const { script, exports, builtins } = await toScript(esm);
    expect(exports).toEqual(['joined', 'load', 'words', 'url']);
    // node:module binds only an unused name: dropped rather than loaded.
    expect(builtins).toEqual(['node:path']);
    expect(script).toContain('const path = __acpRequire("node:path")');
    expect(script).toContain('const { join: j, sep } = __acpRequire("node:path")');
    expect(script).not.toContain('node:module');
    expect(script).toContain('"import(\\"x\\") and import.meta stay text"');
    expect(script).toContain('const url = __acpMeta.url;');
    expect(script).toContain('return __acpLoad("./chunks/x.mjs");');
    expect(script).toContain('return { joined, load, "words": text, url };');
    const factory = new Function(`${script}; return globalThis[Symbol.for('acp.core')];`)();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('acp.core')];
    const loaded: string[] = [];
    const lib = await factory((name: string) => ({ join: (a: string, b: string) => `${name} ${a}${b}`, sep: '/' }), { url: 'file:///x' }, async (s: string) => loaded.push(s));
    expect(lib.joined).toBe('node:path //');
    expect(lib.words).toBe('import("x") and import.meta stay text');
    expect(lib.url).toBe('file:///x');
    await lib.load();
    expect(loaded).toEqual(['./chunks/x.mjs']);
  });

  test('a chunk: static imports of other chunks are awaited loads, export default is returned as default', async () => {
    const esm = [
      'import { join } from "node:path";',
      'import * as v from "./valibot.mjs";',
      'import { a as b, c } from "./other.mjs";',
      'var __x = 41;',
      'export default { answer: __x + b + c + v.one, where: join("p", "q") };',
    ].join('\n');
    const { script, exports, statics } = await toScript(esm, { key: 'acp.chunk', filename: 'chunks/x.js', chunk: true });
    expect(exports).toEqual(['default']);
    expect(statics).toEqual(['./valibot.mjs', './other.mjs']);
    expect(script).toContain('const v = (await __acpLoad("./valibot.mjs"))');
    expect(script).toContain('const { a: b, c } = (await __acpLoad("./other.mjs"))');
    const factory = new Function(`${script}; return globalThis[Symbol.for('acp.chunk')];`)();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('acp.chunk')];
    const modules: Record<string, unknown> = { './valibot.mjs': { one: 1 }, './other.mjs': { a: -1, c: 1 } };
    const lib = await factory(() => ({ join: (x: string, y: string) => `${x}/${y}` }), { url: 'file:///x' }, async (s: string) => modules[s]);
    expect(lib.default).toEqual({ answer: 42, where: 'p/q' });
    // A default import of another chunk would need .default: refused rather than guessed.
    await expect(toScript('import d from "./y.mjs";\nexport { d };', { chunk: true })).rejects.toThrow(/cannot rewrite/);
    // The start bundle itself takes no static chunk imports.
    await expect(toScript('import * as v from "./valibot.mjs";\nexport { v };')).rejects.toThrow(/imports \.\/valibot\.mjs statically/);
  });

  test('refuses what a script cannot express', async () => {
    await expect(toScript('import { x } from "yaml";\nexport { x };')).rejects.toThrow(/imports yaml statically/);
    await expect(toScript('const a = 1;\nexport { a };\nexport const b = 2;')).rejects.toThrow(/export statements/);
  });
});

describe('the built start path', () => {
  test('the committed code cache fits acp-core.js for this Node, and V8 accepts it', () => {
    const cache = readFileSync(join(DIST, 'acp-core.js.cache'));
    const core = readFileSync(join(DIST, 'acp-core.js'));
    expect(readCache(cache)?.header.v8).toBe(process.versions.v8);
    expect(cacheFits(cache, core)).toBe(true);
    // The chunks the warm-up runs have theirs too, and each fits its script.
    const chunkCaches = readdirSync(join(DIST, 'chunks')).filter((name) => name.endsWith('.js.cache')).sort();
    expect(chunkCaches).toEqual(expect.arrayContaining(['doctor-diagnose.js.cache', 'humans-log.js.cache', 'humans-status.js.cache']));
    for (const name of chunkCaches) expect({ name, fits: cacheFits(readFileSync(join(DIST, 'chunks', name)), readFileSync(join(DIST, 'chunks', name.replace(/\.cache$/, '')))) }).toEqual({ name, fits: true });
  });

  test('an edited acp-core.js of the same length never runs the stale cached code', () => {
    const copy = join(work, 'dist-copy');
    cpSync(DIST, copy, { recursive: true, filter: (path) => !path.includes('/types') && !path.endsWith('/acp') && !path.includes('/release') });
    const core = readFileSync(join(copy, 'acp-core.js'), 'utf8');
    expect(core).toContain('ACP validation passed');
    // Same length: V8's own check (the length) would accept the cache, and
    // the validate command, compiled during the warm-up, would print the old text.
    writeFileSync(join(copy, 'acp-core.js'), core.replaceAll('ACP validation passed', 'ACP validation PASSED'));
    const folder = join(work, 'edited');
    for (const entry of ['acp.cjs', 'acp.mjs']) {
      expect(run(join(copy, entry), ['init', '--folder', `${folder}-${entry}`, '--participant', 'a', '--participant', 'b', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr']).status).toBe(0);
      const r = run(join(copy, entry), ['validate', '--folder', `${folder}-${entry}`]);
      expect({ entry, out: r.stdout, err: r.stderr, rc: r.status }).toEqual({ entry, out: 'ACP validation PASSED\n', err: '', rc: 0 });
    }
    // The same for a chunk's script form and its cache (acp.cjs runs it).
    const status = readFileSync(join(copy, 'chunks', 'humans-status.js'), 'utf8');
    expect(status).toContain('label("owner")');
    writeFileSync(join(copy, 'chunks', 'humans-status.js'), status.replace('label("owner")', 'label("OWNER")'));
    const r = run(join(copy, 'acp.cjs'), ['status', '--folder', `${folder}-acp.cjs`]);
    expect({ rc: r.status, owner: /^(\w+):/m.exec(r.stdout.split('\n').find((line) => /^owner:/i.test(line)) ?? '')?.[1] }).toEqual({ rc: 0, owner: 'OWNER' });
  });

  test('acp.mjs exports what acp.ts exports', async () => {
    const built = await import(join(DIST, 'acp.mjs'));
    expect(Object.keys(built).sort()).toEqual(Object.keys(source).sort());
    expect(new built.AcpError('x')).toBeInstanceOf(built.AcpError);
    expect(built.VERSION).toBe(source.VERSION);
  });

  test('acp.cjs and acp.mjs are the same CLI: output and exit codes', () => {
    const folder = join(work, 'same');
    expect(run(join(DIST, 'acp.cjs'), ['init', '--folder', folder, '--participant', 'a', '--participant', 'b', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr']).status).toBe(0);
    const cases = [
      ['--version'],
      ['init', '--folder', folder, '--participant', 'a', '--participant', 'b', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr'],
      ['next', '--folder', folder, '--participant', 'b', '--json'],
      ['append', '--folder', folder, '--participant', 'b', '--event', 'review_submitted', '--summary', 'early', '--reply-to', '1'],
      ['validate', '--folder', folder],
      ['validate', '--folder', join(work, 'missing')],
      ['nosuchcommand'],
      // Commands of chunk scripts: both launchers load them (with the code cache on Node).
      ['status', '--folder', folder, '--json'],
      ['log', '--folder', folder],
      ['doctor', '--folder', folder],
    ];
    for (const args of cases) {
      const [cjs, mjs] = ['acp.cjs', 'acp.mjs'].map((entry) => run(join(DIST, entry), args));
      expect({ args, out: cjs!.stdout, err: cjs!.stderr, rc: cjs!.status }).toEqual({ args, out: mjs!.stdout, err: mjs!.stderr, rc: mjs!.status });
    }
  });

  test('acp.cjs runs the small chunks (status, log, doctor) without starting Node\'s ES module loader', () => {
    const folder = join(work, 'no-esm');
    expect(run(join(DIST, 'acp.cjs'), ['init', '--folder', folder, '--participant', 'a', '--participant', 'b', '--objective', 'o', '--completion', 'g', '--primary-deliverable-type', 'adr']).status).toBe(0);
    // Printed at exit by a preload: the ES module loader's modules this process loaded.
    const probe = join(work, 'esm-probe.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write('esm: ' + process.moduleLoadList.filter((m) => m.includes('esm/loader')).join() + '\\n'));\n");
    for (const args of [['status', '--folder', folder], ['log', '--folder', folder], ['doctor', '--folder', folder]]) {
      const r = spawnSync(process.execPath, ['-r', probe, join(DIST, 'acp.cjs'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect({ args, rc: r.status, esm: /esm: (.*)/.exec(r.stderr)?.[1] }).toEqual({ args, rc: 0, esm: '' });
    }
    // The positive control: the report's chunk (too large for a script form) is imported through the loader.
    const r = spawnSync(process.execPath, ['-r', probe, join(DIST, 'acp.cjs'), 'report', '--folder', folder, '--out', '-'], { encoding: 'utf8' });
    expect({ rc: r.status, esm: /esm: (.*)/.exec(r.stderr)?.[1] }).toEqual({ rc: 0, esm: 'NativeModule internal/modules/esm/loader' });
  });
});
